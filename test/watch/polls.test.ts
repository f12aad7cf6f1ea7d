// The poll of a view that changes while its pages are read (src/watch/polls.ts, README
// "Watching"): the service pages by position, so tickets leaving page 1 before page 2 is read
// pull the rest up and hide the tickets at the page boundary. Such a ticket never left the view:
// no `removed` for it (nor `added` when it comes back). A front server changes the sandbox at the
// moment the second page request of a poll arrives; it passes no X-Total-Count, as a service
// without one, so the walk cannot see the change itself.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { WatchEvent } from '../../src/watch/events.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, requestTo, startFrontServer, ticketById, useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
// 500 tickets: a view of several 100-ticket pages.
useHarness({ sandbox: { seedTickets: 500 } }, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-polls-', (path) => (dir = path));

const jsonLines = (text: string): WatchEvent[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as WatchEvent);

const isListPage = requestTo('POST', '/api/TicketsApi');
const isDetailRead = requestTo('GET', /^\/api\/TicketsApi\/\d+$/);

/** The first `count` IDs of `view`, in the service's order (page 1's). */
async function firstIds(view: string, count: number): Promise<number[]> {
  const listed = await h.cli(['list', '--view', view, '--limit', String(count), '-q']);
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout.trim().split('\n').map(Number);
}

/**
 * `tkt watch --once --state` over `view` through a front server: a baseline run, then a run
 * during which `change` runs as that run's second page request arrives (page 1 already read),
 * then a third run. The events of the last two, and the requests of the second.
 */
async function pollAcrossAChange(view: string, state: string, change: () => void) {
  let armed = false;
  let pages = 0;
  const server = await startFrontServer(h, () => false, {
    gate: async (req) => {
      if (armed && isListPage(req) && ++pages === 2) change();
    },
  });
  try {
    const once = async () => {
      const result = await h.cli(['--json', 'watch', '--once', '--view', view, '--state', state], { env: frontEnv(h, server) });
      expect(result.code, result.stderr).toBe(0);
      return jsonLines(result.stdout);
    };
    expect(await once()).toEqual([]);
    armed = true;
    const before = server.requests.length;
    const changed = await once();
    const requests = server.requests.slice(before);
    armed = false;
    const after = await once();
    return { changed, after, requests };
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
    // Walks counted by their first page, which each awaits (a request past the end may still be on its way).
    let walks = 0;
    const server = await startFrontServer(h, (req, _res, body) => {
      if (isListPage(req) && (JSON.parse(body.toString('utf8')) as { page?: number }).page === 1) walks++;
      return false;
    });
    try {
      const run = async (view: string, state: string, ...more: string[]) => {
        const [before, walksBefore] = [server.requests.length, walks];
        const result = await h.cli(['--json', 'watch', '--once', '--view', view, ...more, '--state', state], { env: frontEnv(h, server) });
        expect(result.code, result.stderr).toBe(0);
        const requests = server.requests.slice(before);
        return { events: jsonLines(result.stdout), walks: walks - walksBefore, reads: requests.filter(isDetailRead).length };
      };
      const all = join(dir, 'calm-all.json');
      expect((await run('all-tickets', all)).walks).toBe(1);
      const [deleted] = await firstIds('all-tickets', 1);
      ticketById(h, deleted!).isDeleted = true;
      const told = await run('all-tickets', all);
      expect(told.events.map((event) => [event.event, event.id, event.reason])).toEqual([['removed', deleted, 'deleted']]);
      expect([told.walks, told.reads]).toEqual([1, 1]);

      const unassigned = join(dir, 'calm-unassigned.json');
      expect((await run('unassigned-tickets', unassigned)).walks).toBe(1);
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
});
