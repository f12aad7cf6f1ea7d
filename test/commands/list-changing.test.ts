// `tkt list` walking a desk that changes between its page requests. The service pages by
// position (newest first): a ticket created ahead of the next page pushes the list down (that
// page repeats tickets), one deleted ahead pulls it up (a ticket is never seen). The changes are
// made through the API by a server in front of the sandbox, between the answer to one page and
// the next: deterministic, whatever order the walk's concurrent requests arrive in.
import { describe, expect, it } from 'vitest';
import type { TestServer } from '../api/server.js';
import { plans } from '../../src/api/plans.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, startFrontServer, useHarness, userId } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ sandbox: { seedTickets: 120 } }, (harness) => (h = harness));

const LIST_PATH = '/api/TicketsApi';

interface ShiftingDesk {
  server: TestServer;
  /** The IDs of each page the service answered, by page number. */
  answered: Map<number, number[]>;
}

/**
 * A server in front of the sandbox that answers the list's pages one after another in page
 * order, each after `before(page, answered)` has changed the desk as it likes. `withTotal: false`
 * drops the service's count (X-Total-Count) from the answers.
 */
async function shiftingDesk(before: (page: number, answered: Map<number, number[]>) => Promise<void>, withTotal = true): Promise<ShiftingDesk> {
  const answered = new Map<number, number[]>();
  const done = new Map<number, { promise: Promise<void>; resolve: () => void }>();
  const doneOf = (page: number) => {
    let entry = done.get(page);
    if (entry === undefined) {
      let resolve = () => {};
      const promise = new Promise<void>((r) => (resolve = r));
      done.set(page, (entry = { promise, resolve }));
    }
    return entry;
  };
  const server = await startFrontServer(h, (req, res, body) => {
    if (req.method !== 'POST' || req.url !== LIST_PATH) return false;
    const table = JSON.parse(body.toString('utf8')) as { page?: number };
    const page = table.page ?? 1;
    void (async () => {
      if (page > 1) await doneOf(page - 1).promise;
      await before(page, answered);
      const passed = await fetch(`${h.sandbox.url}${LIST_PATH}`, {
        method: 'POST',
        headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
        body,
      });
      const text = await passed.text();
      answered.set(
        page,
        (JSON.parse(text) as { ticketId: number }[]).map((item) => item.ticketId),
      );
      const total = passed.headers.get('x-total-count');
      res.writeHead(passed.status, { 'content-type': 'application/json', ...(withTotal && total !== null ? { 'x-total-count': total } : {}) });
      res.end(text);
      doneOf(page).resolve();
    })().catch(() => res.writeHead(502).end());
    return true;
  });
  return { server, answered };
}

async function createTickets(count: number): Promise<void> {
  const { ctx } = await h.context();
  const api = await ctx.api();
  for (let i = 0; i < count; i++) {
    const fields = {
      Title: `Created during a walk ${i}`,
      Description: 'new',
      CreatorId: userId(h, 'aberg'),
      SiteId: 1,
      DepartmentId: 1,
      TicketStatusId: 1,
      TicketType: 1,
    };
    await api.send(plans.register({ fields }));
  }
}

async function deleteTickets(ids: readonly number[]): Promise<void> {
  const { ctx } = await h.context();
  const api = await ctx.api();
  for (const id of ids) await api.send(plans.deleteTicket(id));
}

/** The live tickets of the view all-tickets, as IDs. */
const liveIds = () => new Set(h.sandbox.state.tickets.filter((t) => !t.isDeleted).map((t) => t.id));

const ids = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);

const duplicates = (list: readonly number[]) => list.filter((id, index) => list.indexOf(id) !== index);

describe('tkt list --all over a desk that changes while it is walked', () => {
  it('prints no ticket twice, and says on stderr, once, that tickets may be missing: exit 1', async () => {
    // Before page 2: 3 new tickets push the list down (page 2 repeats 3 of page 1). Before page 4:
    // 5 tickets of page 1 are deleted, which pulls the list up by 5 (net 2 from the start):
    // tickets that existed throughout slip into page 3, already read.
    const { server, answered } = await shiftingDesk(async (page, pages) => {
      if (page === 2) await createTickets(3);
      if (page === 4) await deleteTickets(pages.get(1)!.slice(0, 5));
    });
    try {
      const throughout = liveIds();
      const result = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '10', '-q'], { env: frontEnv(h, server) });
      const printed = ids(result.stdout);
      expect(answered.size).toBeGreaterThan(4);
      expect(duplicates(printed)).toEqual([]);
      // Tickets that existed from start to end were missed: the walk cannot see them, but says so.
      const missed = [...liveIds()].filter((id) => throughout.has(id) && !printed.includes(id));
      expect(missed).toHaveLength(5);
      expect(result.stderr).toBe(
        'error: the desk changed while listing: tickets may be missing\n' +
          '  3 tickets given again by a later page left out\n' +
          `  the service counted ${throughout.size} tickets at the first page, ${throughout.size - 2} at the last\n` +
          'hint: list again when nothing changes (a migration should stop changes to the desk first)\n',
      );
      expect(result.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('lists every ticket there when it began once, in one JSON array, when tickets were only created meanwhile: a note, exit 0', async () => {
    const { server } = await shiftingDesk(async (page) => {
      if (page === 3) await createTickets(4);
    });
    try {
      const atStart = liveIds();
      const result = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '10', '--json'], { env: frontEnv(h, server) });
      const listed = (JSON.parse(result.stdout) as { ticketId: number }[]).map((item) => item.ticketId);
      expect(duplicates(listed)).toEqual([]);
      expect(new Set(listed)).toEqual(atStart);
      expect(result.stderr).toBe(`tickets were created while listing: the ${atStart.size} there when it began are listed, each once; the 4 new ones are not\n`);
      expect(result.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('says one ticket created meanwhile in the singular', async () => {
    const { server } = await shiftingDesk(async (page) => {
      if (page === 2) await createTickets(1);
    });
    try {
      const result = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '10', '--json'], { env: frontEnv(h, server) });
      expect(result.stderr).toMatch(/; the 1 new one is not\n$/);
      expect(result.code).toBe(0);
    } finally {
      await server.close();
    }
  });

  it("tells deletions, which repeat nothing, by the service's count", async () => {
    const { server } = await shiftingDesk(async (page, pages) => {
      if (page === 2) await deleteTickets(pages.get(1)!.slice(0, 2));
    });
    try {
      const result = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '10', '-q'], { env: frontEnv(h, server) });
      expect(duplicates(ids(result.stdout))).toEqual([]);
      expect(result.stderr).toMatch(
        /^error: the desk changed while listing: tickets may be missing\n {2}the service counted (\d+) tickets at the first page, \d+ at the last\n/,
      );
      expect(result.code).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('cannot tell deletions without a count (README): exit 0; a desk that stays still is exit 0 with nothing on stderr', async () => {
    const { server: uncounted } = await shiftingDesk(async (page, pages) => {
      if (page === 2) await deleteTickets(pages.get(1)!.slice(0, 2));
    }, false);
    try {
      const result = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '10', '-q'], { env: frontEnv(h, uncounted) });
      expect([result.stderr, result.code]).toEqual(['', 0]);
    } finally {
      await uncounted.close();
    }
    const { server: still } = await shiftingDesk(async () => {});
    try {
      const result = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '10', '-q'], { env: frontEnv(h, still) });
      expect([result.stderr, result.code]).toEqual(['', 0]);
      expect(ids(result.stdout).sort()).toEqual([...liveIds()].sort());
    } finally {
      await still.close();
    }
  });

  it('leaves repeats out of a filtered walk and of a sorted one too; tickets only created meanwhile miss none: exit 0', async () => {
    for (const flags of [
      ['--status', 'open'],
      ['--sort', 'id'],
    ]) {
      const { server } = await shiftingDesk(async (page) => {
        if (page === 2) await createTickets(2);
      });
      try {
        const result = await h.cli(['list', '--view', 'all-tickets', '--all', '-q', ...flags], { env: frontEnv(h, server) });
        expect(duplicates(ids(result.stdout)), flags.join(' ')).toEqual([]);
        // -q keeps the note off stderr.
        expect(result.stderr, flags.join(' ')).toBe('');
        expect(result.code).toBe(0);
      } finally {
        await server.close();
      }
    }
  });
});
