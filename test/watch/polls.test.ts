// The poll of a view that changes while its pages are read (src/watch/polls.ts, README
// "Watching"): the service pages by position, so tickets leaving page 1 before page 2 is read
// pull the rest up and hide the tickets at the page boundary. Such a ticket never left the view:
// no `removed` for it (nor `added` when it comes back, nor when the baseline missed it). A front
// server changes the sandbox at the moment the second page request of a walk arrives; it passes
// no X-Total-Count, as a service without one, so the walk cannot see the change itself, unless
// a test gives the service's count on (then the walk sees a change that moves it, but not one
// ticket leaving ahead of the read position while another enters behind it).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { eventText } from '../../src/watch/watch.js';
import type { TestServer } from '../api/server.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, requestTo, startFrontServer, stoppedAt, ticketById, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { processSignals } from '../cli/fake-process.js';
import { jsonLines, startWatch } from '../helpers/watch-run.js';

let h: Harness;
// 500 tickets: a view of several 100-ticket pages.
useHarness({ sandbox: { seedTickets: 500 } }, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-polls-', (path) => (dir = path));

const isListPage = requestTo('POST', '/api/TicketsApi');
const isDetailRead = requestTo('GET', /^\/api\/TicketsApi\/\d+$/);

/** The first `count` IDs of `view`, in the service's order (page 1's). */
async function firstIds(view: string, count: number): Promise<number[]> {
  const listed = await h.cli(['list', '--view', view, '--limit', String(count), '-q']);
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout.trim().split('\n').map(Number);
}

/**
 * A server in front of the sandbox that counts the walks of the view (by their first page, which
 * each awaits: a request past the end may still be on its way), and passes on the service's
 * count (X-Total-Count) when `total` is set. `change` runs as a walk's request for page 2 arrives
 * (page 1 already read), while `armed()` says so.
 */
async function frontDesk(options: { total?: boolean; armed?: () => boolean; change?: () => void } = {}) {
  let walks = 0;
  const server = await startFrontServer(
    h,
    (req, _res, body) => {
      if (!isListPage(req)) return false;
      // By the page asked for: an earlier walk's request past the end of the view may come late.
      const { page } = JSON.parse(body.toString('utf8')) as { page?: number };
      if (page === 1) walks++;
      if (page === 2 && options.armed?.() === true) options.change?.();
      return false;
    },
    { total: options.total ?? false },
  );
  return { server, walks: () => walks };
}

/**
 * `tkt watch --once --state` over `view` through a front server: a baseline run, then a run
 * during whose first walk `change` runs as its second page request arrives (page 1 already read),
 * then a third run. The events of the last two, the requests and walks of the second.
 * `atBaseline`: the change comes in the baseline's first walk instead.
 */
async function pollAcrossAChange(view: string, state: string, change: () => void, options: { total?: boolean; atBaseline?: boolean } = {}) {
  let armed = options.atBaseline === true;
  const { server, walks } = await frontDesk({
    total: options.total ?? false,
    armed: () => armed,
    change: () => {
      armed = false;
      change();
    },
  });
  try {
    const once = async () => {
      const result = await h.cli(['--json', 'watch', '--once', '--view', view, '--state', state], { env: frontEnv(h, server) });
      expect(result.code, result.stderr).toBe(0);
      return jsonLines(result.stdout);
    };
    expect(await once()).toEqual([]);
    armed = options.atBaseline !== true;
    const [before, walksBefore] = [server.requests.length, walks()];
    const changed = await once();
    const requests = server.requests.slice(before);
    const walked = walks() - walksBefore;
    armed = false;
    const after = await once();
    return { changed, after, requests, walks: walked };
  } finally {
    await server.close();
  }
}

describe('tkt watch over a view that changes during a poll', () => {
  it('a bulk delete of page 1 between two pages: removed for the deleted tickets only, each read once, none added again', async () => {
    const deleted = await firstIds('all-tickets', 50);
    const { changed, after, requests } = await pollAcrossAChange('all-tickets', join(dir, 'deleted.json'), () => {
      for (const id of deleted) {
        const ticket = ticketById(h, id);
        ticket.isDeleted = true;
        ticket.deletedOn = new Date().toISOString();
      }
    });
    expect(changed.map((event) => [event.event, event.id])).toEqual(deleted.map((id) => ['removed', id]));
    expect(changed.map((event) => event.reason)).toEqual(deleted.map(() => 'deleted'));
    expect(after).toEqual([]);
    // The deleted tickets read once each; the tickets hidden by the shift found by a second walk, unread.
    expect(requests.filter(isDetailRead)).toHaveLength(50);
  });

  it('tickets leaving a view the service filters (assigned out of unassigned-tickets) between two pages: removed with their values now, and only they', async () => {
    const assigned = await firstIds('unassigned-tickets', 30);
    const tech = h.sandbox.state.users.find((user) => user.username === 'tech')!;
    const { changed, after } = await pollAcrossAChange('unassigned-tickets', join(dir, 'assigned.json'), () => {
      for (const id of assigned) ticketById(h, id).assignedUser = tech.id;
    });
    expect(changed.map((event) => [event.event, event.id])).toEqual(assigned.map((id) => ['removed', id]));
    expect(changed.map((event) => event.reason)).toEqual(assigned.map(() => 'left the view'));
    for (const event of changed) {
      expect(event.changes.assignee?.[0]).toBeNull();
      expect(event.changes.assignee?.[1]).toBe(event.ticket.assignee);
      expect(event.ticket.assignee).not.toBeNull();
    }
    expect(after).toEqual([]);
  });

  it('a ticket gone between polls on a calm desk costs one read and no other walk; one that left a view the service filters, a second walk unless the view fits one page', async () => {
    const { server, walks } = await frontDesk();
    try {
      const run = onceThrough(server, walks);
      // Without the service's count, a baseline of several pages is walked twice, the two agreeing.
      const all = join(dir, 'calm-all.json');
      expect((await run('all-tickets', all)).walks).toBe(2);
      const [deleted] = await firstIds('all-tickets', 1);
      ticketById(h, deleted!).isDeleted = true;
      const told = await run('all-tickets', all);
      expect(told.events.map((event) => [event.event, event.id, event.reason])).toEqual([['removed', deleted, 'deleted']]);
      expect([told.walks, told.reads]).toEqual([1, 1]);

      const unassigned = join(dir, 'calm-unassigned.json');
      expect((await run('unassigned-tickets', unassigned)).walks).toBe(2);
      const [assigned] = await firstIds('unassigned-tickets', 1);
      ticketById(h, assigned!).assignedUser = h.sandbox.state.users.find((user) => user.username === 'tech')!.id;
      const left = await run('unassigned-tickets', unassigned);
      expect(left.events.map((event) => [event.event, event.id, event.reason])).toEqual([['removed', assigned, 'left the view']]);
      // A view of several pages: the walk that missed it could have missed it between two pages.
      expect([left.walks, left.reads]).toEqual([2, 1]);

      // A view the service filters that fits its first page (short): one read of one moment, so a
      // ticket it misses has left it, with no second walk (the page past it, read to make sure, is empty).
      const few = await firstIds('all-tickets', 3);
      for (const id of few) ticketById(h, id).title = `Zqxv printer ${id}`;
      const searched = join(dir, 'calm-search.json');
      expect((await run('all-tickets', searched, '--search', 'zqxv')).walks).toBe(1);
      ticketById(h, few[0]!).title = 'Printer fixed';
      const unmatched = await run('all-tickets', searched, '--search', 'zqxv');
      expect(unmatched.events.map((event) => [event.event, event.id, event.reason])).toEqual([['removed', few[0], 'left the view']]);
      expect([unmatched.walks, unmatched.reads]).toEqual([1, 1]);
    } finally {
      await server.close();
    }
  });

  it('a baseline that meets a bulk delete between two pages, on a service without a count: no ticket told added later that was there all along', async () => {
    const deleted = await firstIds('all-tickets', 50);
    const { changed, after } = await pollAcrossAChange(
      'all-tickets',
      join(dir, 'baseline.json'),
      () => {
        for (const id of deleted) ticketById(h, id).isDeleted = true;
      },
      { atBaseline: true },
    );
    // The deleted tickets were in the view when the baseline read page 1: told removed at the next poll.
    expect(changed.map((event) => [event.event, event.id, event.reason])).toEqual(deleted.map((id) => ['removed', id, 'deleted']));
    expect(after).toEqual([]);
  });

  it('more missing tickets in one poll than it reads: the ones past the reads are removed as not confirmed, with the values last seen', async () => {
    const deleted = await firstIds('all-tickets', 130);
    const { server, walks } = await frontDesk();
    try {
      const run = onceThrough(server, walks);
      const state = join(dir, 'many.json');
      await run('all-tickets', state);
      for (const id of deleted) ticketById(h, id).isDeleted = true;
      const told = await run('all-tickets', state);
      expect(told.reads).toBe(100);
      expect(told.events.map((event) => [event.event, event.id, event.reason])).toEqual(
        deleted.map((id, index) => ['removed', id, index < 100 ? 'deleted' : 'not confirmed']),
      );
      expect(told.events.every((event) => Object.keys(event.changes).length === 0)).toBe(true);
      const last = told.events.at(-1)!;
      expect(eventText(last)).toBe(`#${last.id} removed (not confirmed: more than 100 missing tickets in one poll): ${last.ticket.title}`);
    } finally {
      await server.close();
    }
  });
});

describe('tkt watch over a service that counts its views (X-Total-Count)', () => {
  // unassigned-tickets of several pages, whatever the tests before took from it.
  beforeAll(() => {
    const live = h.sandbox.state.tickets.filter((ticket) => !ticket.isDeleted);
    for (const ticket of live.slice(0, 250)) ticket.assignedUser = null;
  });

  it('a bulk delete of page 1 between two pages, seen by the walk itself: removed for the deleted tickets only, each read once, in two walks', async () => {
    const deleted = await firstIds('all-tickets', 50);
    const { changed, after, requests, walks } = await pollAcrossAChange(
      'all-tickets',
      join(dir, 'counted-deleted.json'),
      () => {
        for (const id of deleted) ticketById(h, id).isDeleted = true;
      },
      { total: true },
    );
    expect(changed.map((event) => [event.event, event.id, event.reason])).toEqual(deleted.map((id) => ['removed', id, 'deleted']));
    expect(after).toEqual([]);
    // The walk that saw the count move, then a calm one whose missing tickets, all read, are all deleted: no third.
    expect([walks, requests.filter(isDetailRead).length]).toEqual([2, 50]);
  });

  it('a calm desk: many tickets deleted between polls cost their reads and one walk; one that left a view the service filters, a second walk', async () => {
    const { server, walks } = await frontDesk({ total: true });
    try {
      const run = onceThrough(server, walks);
      const state = join(dir, 'counted-calm.json');
      // A baseline of several pages is walked twice, count or not, the two agreeing.
      expect((await run('unassigned-tickets', state)).walks).toBe(2);
      // More missing than the few read at once: the count says the walk saw no change, so each is
      // read (without a count, a second walk first), and a deleted one needs no other walk.
      const deleted = await firstIds('unassigned-tickets', 20);
      for (const id of deleted) ticketById(h, id).isDeleted = true;
      const bulk = await run('unassigned-tickets', state);
      expect(bulk.events.map((event) => [event.event, event.id, event.reason])).toEqual(deleted.map((id) => ['removed', id, 'deleted']));
      expect([bulk.walks, bulk.reads]).toEqual([1, 20]);
      const [assigned] = await firstIds('unassigned-tickets', 1);
      ticketById(h, assigned!).assignedUser = h.sandbox.state.users.find((user) => user.username === 'tech')!.id;
      const left = await run('unassigned-tickets', state);
      expect(left.events.map((event) => [event.event, event.id, event.reason])).toEqual([['removed', assigned, 'left the view']]);
      // Read still there: a walk the count vouches for could still have missed it at a page boundary.
      expect([left.walks, left.reads]).toEqual([2, 1]);
    } finally {
      await server.close();
    }
  });

  it('one ticket leaving page 1 while another enters behind it between two pages (the count steady): the ticket at the page boundary is neither removed nor added again', async () => {
    const { entering, leaving, swap } = await swapAcrossPages();
    const { changed, after, walks } = await pollAcrossAChange('unassigned-tickets', join(dir, 'counted-swap.json'), swap, { total: true });
    // The ticket that slid into page 1 unseen is read still there: a second walk finds it. The
    // one that left is read still there too (the service filters the view): a third misses it again.
    expect(changed.map((event) => [event.event, event.id, event.reason])).toEqual([
      ['added', entering, undefined],
      ['removed', leaving, 'left the view'],
    ]);
    expect(walks).toBe(3);
    expect(after).toEqual([]);
  });

  it('the same swap during a baseline walk of several pages: the baseline walks again, and no ticket there all along is told added', async () => {
    const { leaving, swap } = await swapAcrossPages();
    const { changed, after } = await pollAcrossAChange('unassigned-tickets', join(dir, 'counted-swap-baseline.json'), swap, { total: true, atBaseline: true });
    // The baseline kept the ticket that left as its first walk saw it: removed at the next poll.
    expect(changed.map((event) => [event.event, event.id, event.reason])).toEqual([['removed', leaving, 'left the view']]);
    expect(after).toEqual([]);
  });

  it('a desk that changes during every walk of a poll: a ticket missing is kept as last seen, told nothing, and decided by the next poll', async () => {
    const view = 'unassigned-tickets';
    const tech = h.sandbox.state.users.find((user) => user.username === 'tech')!.id;
    const firstPage = await firstIds(view, 20);
    // Deleted one by one, each as a walk reads its second page: the count moves in every walk.
    const doomed = firstPage.slice(0, 3);
    const leaving = firstPage[10]!;
    let armed = false;
    const { server, walks } = await frontDesk({
      total: true,
      armed: () => armed,
      change: () =>
        (ticketById(
          h,
          doomed.find((id) => !ticketById(h, id).isDeleted)!,
        ).isDeleted = true),
    });
    try {
      const { r, clock, done } = await startWatch(h, { view }, { globals: { json: true }, env: { ...frontEnv(h, server), TKT_TEST_WATCH_INTERVAL_MS: '0' } });
      expect(r.stdout()).toBe('');
      ticketById(h, leaving).assignedUser = tech;
      armed = true;
      const walksBefore = walks();
      await clock.next();
      armed = false;
      // Three walks, each seeing the count move: the two deleted before the last one read page 1
      // are read deleted; the ticket that left (read still there), and any the last walk missed
      // by the shift, stay in doubt.
      expect(walks() - walksBefore).toBe(3);
      const inDoubt = jsonLines(r.stdout());
      expect(inDoubt.map((event) => [event.event, event.id, event.reason])).toEqual(doomed.slice(0, 2).map((id) => ['removed', id, 'deleted']));
      await clock.next();
      const decided = jsonLines(r.stdout()).slice(inDoubt.length);
      expect(decided.map((event) => [event.event, event.id, event.reason])).toEqual([
        ['removed', doomed[2], 'deleted'],
        ['removed', leaving, 'left the view'],
      ]);
      expect(decided[1]!.changes.assignee).toEqual([null, decided[1]!.ticket.assignee]);
      await clock.next();
      expect(jsonLines(r.stdout())).toHaveLength(inDoubt.length + decided.length);
      r.abort.abort();
      await expect(done).rejects.toBeInstanceOf(InterruptedError);
    } finally {
      await server.close();
    }
  });
});

describe('tkt watch stopped during a walk of several pages', () => {
  it('a SIGTERM while page 2 is read gives the walk up at once: no page after those already asked, no other walk, exit 143', async () => {
    const pages: number[] = [];
    let heldNow = () => {};
    const held = new Promise<void>((resolve) => (heldNow = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await startFrontServer(h, () => false, {
      gate: async (req, _res, body) => {
        if (!isListPage(req)) return;
        const { page } = JSON.parse(body.toString('utf8')) as { page: number };
        pages.push(page);
        if (page !== 2) return;
        heldNow();
        await released;
      },
    });
    try {
      const signals = processSignals();
      const running = h.cli(['--json', 'watch', '--view', 'all-tickets', '--interval', '10'], { env: frontEnv(h, server), signals });
      await held;
      signals.send('SIGTERM');
      release();
      const result = await running;
      expect(result).toMatchObject({ code: 143, stdout: '', stderr: 'error: stopped by SIGTERM\n' });
      // A full page 1 opened the window to two: pages 2 and 3 were asked together, none after,
      // and the baseline was not walked again.
      expect(pages.filter((page) => page === 1)).toEqual([1]);
      expect(Math.max(...pages)).toBeLessThanOrEqual(3);
      expect(signals.exits).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('stopped while the tickets missing from a poll are read (8 at once): no other is read, exit 143, --state as it was', async () => {
    const state = join(dir, 'confirm-signal.json');
    const args = ['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state];
    // One more than the reads a poll has in flight at once: the last is read only after another answers.
    const missing = h.sandbox.state.tickets
      .filter((ticket) => !ticket.isDeleted)
      .slice(-9)
      .map((ticket) => ticket.id);
    const baseline = async (env: Record<string, string>) => {
      expect(await h.cli(args, { env })).toMatchObject({ code: 0, stdout: '' });
      for (const id of missing) ticketById(h, id).isDeleted = true;
    };
    try {
      const result = await stoppedAt(h, args, isDetailRead, 'SIGTERM', { before: baseline, counted: isDetailRead });
      expect(result).toMatchObject({ code: 143, stdout: '', stderr: 'error: stopped by SIGTERM\n' });
      // Only those sent before the signal (some may reach the service just after it).
      expect(result.sent).toBeLessThanOrEqual(8);
      const kept = JSON.parse(await readFile(state, 'utf8')) as { tickets: { id: number }[] };
      expect(missing.filter((id) => !kept.tickets.some((ticket) => ticket.id === id))).toEqual([]);
    } finally {
      for (const id of missing) ticketById(h, id).isDeleted = false;
    }
  });
});

/**
 * A change that keeps the service's count of unassigned-tickets steady while shifting its pages:
 * its first ticket (`leaving`) is assigned, and the oldest ticket (`entering`, assigned now, so out
 * of the view) is unassigned, entering at the end of the view, behind the page being read. The
 * ticket that began page 2 slides into page 1, already read.
 */
async function swapAcrossPages() {
  const tech = h.sandbox.state.users.find((user) => user.username === 'tech')!.id;
  const all = await h.cli(['list', '--view', 'all-tickets', '--all', '-q']);
  const entering = Number(all.stdout.trim().split('\n').at(-1));
  ticketById(h, entering).assignedUser = tech;
  const [leaving] = await firstIds('unassigned-tickets', 1);
  const swap = () => {
    ticketById(h, leaving!).assignedUser = tech;
    ticketById(h, entering).assignedUser = null;
  };
  return { entering, leaving, swap };
}

/** `tkt watch --once --view VIEW ... --state FILE` through `server`: its events, its walks, its detail reads. */
function onceThrough(server: TestServer, walks: () => number) {
  return async (view: string, state: string, ...more: string[]) => {
    const [before, walksBefore] = [server.requests.length, walks()];
    const result = await h.cli(['--json', 'watch', '--once', '--view', view, ...more, '--state', state], { env: frontEnv(h, server) });
    expect(result.code, result.stderr).toBe(0);
    const requests = server.requests.slice(before);
    return { events: jsonLines(result.stdout), walks: walks() - walksBefore, reads: requests.filter(isDetailRead).length };
  };
}
