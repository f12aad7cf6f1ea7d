// tkt watch against a service whose list items carry fewer members than the sandbox's (the spec
// does not name a list item's members): a member an item does not carry is not a change to empty,
// the watched fields it lacks are read from each ticket's detail, and a field no detail carries
// either is said once (README, Watching). A front server cuts the sandbox's answers down.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { eventText } from '../../src/watch/watch.js';
import type { Harness } from '../helpers/harness.js';
import {
  countInFlight,
  forwardTo,
  requestTo,
  startFrontServer,
  ticketById,
  unusedTicket,
  unusedTickets,
  useHarness,
  useTempDir,
} from '../helpers/sandbox-state.js';
import { jsonLines, retitle, startWatch } from '../helpers/watch-run.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-sparse-', (path) => (dir = path));

const isListPage = requestTo('POST', '/api/TicketsApi');
const isDetailRead = requestTo('GET', /^\/api\/TicketsApi\/\d+$/);

/** The members the reviewer's service kept in its list items. */
const FEW_MEMBERS = ['ticketId', 'subject', 'status'];

const only = (record: Record<string, unknown>, keep: readonly string[]) => Object.fromEntries(Object.entries(record).filter(([key]) => keep.includes(key)));
const without = (record: Record<string, unknown>, drop: readonly string[]) => Object.fromEntries(Object.entries(record).filter(([key]) => !drop.includes(key)));

/**
 * A server in front of the sandbox that, while `shape.listItems` is set, keeps only those members
 * of each list item, and drops `shape.dropFromDetails` from each detail; `inFlight` counts the
 * detail reads open at once.
 */
async function cuttingFront(
  shape: { listItems?: readonly string[] | undefined; dropFromDetails?: readonly string[] },
  inFlight?: ReturnType<typeof countInFlight>,
) {
  return startFrontServer(
    h,
    (req, res, body) => {
      const cut = isListPage(req) ? shape.listItems && ((item: Record<string, unknown>) => only(item, shape.listItems!)) : undefined;
      const drop =
        isDetailRead(req) && shape.dropFromDetails !== undefined ? (item: Record<string, unknown>) => without(item, shape.dropFromDetails!) : undefined;
      const rewrite = cut ?? drop;
      if (rewrite === undefined) return false;
      void forwardTo(h.sandbox.url, req, body).then(async (answer) => {
        const parsed = (await answer.json()) as Record<string, unknown> | Record<string, unknown>[];
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(Array.isArray(parsed) ? parsed.map(rewrite) : answer.ok ? rewrite(parsed) : parsed));
      });
      return true;
    },
    inFlight === undefined ? {} : { gate: inFlight.gate },
  );
}

/** As the reviewer: logged in as tech, watching tech's open tickets. */
const techEnv = (url: string) => ({ TKT_URL: url, TKT_TOKEN: h.sandbox.issueToken('tech') });

async function watchOnce(url: string, state: string, view = 'my-open-tickets') {
  const told = await h.cli(['--json', 'watch', '--once', '--view', view, '--state', state], { env: techEnv(url) });
  expect(told.code, told.stderr).toBe(0);
  return { events: jsonLines(told.stdout), stderr: told.stderr };
}

const user = (name: string) => h.sandbox.state.users.find((candidate) => `${candidate.firstName} ${candidate.lastName}` === name)!;

/** `count` of tech's open tickets (in my-open-tickets) that no other test took, each of High priority first. */
function techTickets(count: number): number[] {
  const tech = user('Tom Tech');
  const tickets = unusedTickets(h, count, (t) => t.assignedUser === tech.id && (t.ticketStatusId === 1 || t.ticketStatusId === 2));
  for (const ticket of tickets) ticketById(h, ticket.id).ticketPriorityId = 3;
  return tickets.map((ticket) => ticket.id);
}

describe('tkt watch over list items that carry fewer members than the sandbox', () => {
  it('a state written from full items, then sparse items: no event for what the items do not carry; a real change and a reassignment told as they were', async () => {
    const shape: { listItems?: readonly string[] } = {};
    const server = await cuttingFront(shape);
    try {
      const [high, other] = techTickets(2) as [number, number];
      const state = join(dir, 'full-then-sparse.json');
      expect((await watchOnce(server.url, state)).events).toEqual([]);
      shape.listItems = FEW_MEMBERS;
      const sparse = await watchOnce(server.url, state);
      expect(sparse.events).toEqual([]);
      expect(sparse.stderr).toBe('');

      const otherDue = ticketById(h, other).dueDate;
      ticketById(h, high).ticketPriorityId = 1;
      ticketById(h, other).assignedUser = user('Omar Haddad').id;
      const { events } = await watchOnce(server.url, state);
      expect(events.map((event) => [event.event, event.id, event.changes])).toEqual([
        ['changed', high, { priority: ['High', 'Low'] }],
        ['removed', other, { assignee: ['Tom Tech', 'Omar Haddad'] }],
      ]);
      const removed = events[1]!;
      expect(removed).toMatchObject({
        reason: 'left the view',
        ticket: { assignee: 'Omar Haddad', due: otherDue === null ? null : new Date(otherDue).toISOString() },
      });
      expect(eventText(removed)).toBe(`#${other} removed (left the view): ${ticketById(h, other).title} (assignee Tom Tech → Omar Haddad)`);
      expect((await watchOnce(server.url, state)).events).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a state written from sparse items, then full ones: no event; the state keeps what the details said', async () => {
    const shape: { listItems?: readonly string[] } = { listItems: FEW_MEMBERS };
    const server = await cuttingFront(shape);
    try {
      const state = join(dir, 'sparse-then-full.json');
      expect((await watchOnce(server.url, state, 'all-tickets')).events).toEqual([]);
      // Every member kept, from the details: none left out as unknown.
      const kept = JSON.parse(await readFile(state, 'utf8')) as { tickets: Record<string, unknown>[] };
      expect(kept.tickets.length).toBeGreaterThan(10);
      for (const ticket of kept.tickets) expect(Object.keys(ticket).sort()).toEqual(['assignee', 'due', 'id', 'priority', 'requester', 'status', 'title']);
      expect(kept.tickets.filter((ticket) => ticket.priority !== null)).not.toEqual([]);
      shape.listItems = undefined;
      expect((await watchOnce(server.url, state, 'all-tickets')).events).toEqual([]);
      shape.listItems = FEW_MEMBERS;
      expect((await watchOnce(server.url, state, 'all-tickets')).events).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('reads the detail of each ticket whose item lacks a watched field, a few at once, and no other', async () => {
    const inFlight = countInFlight(8, isDetailRead);
    const shape: { listItems?: readonly string[] } = { listItems: [...FEW_MEMBERS, 'priority', 'assignee', 'dueDate'] };
    const server = await cuttingFront(shape, inFlight);
    try {
      const state = join(dir, 'reads.json');
      // Every watched field carried: no detail read.
      await watchOnce(server.url, state, 'all-tickets');
      expect(server.requests.filter(isDetailRead)).toHaveLength(0);
      shape.listItems = FEW_MEMBERS;
      const before = server.requests.length;
      expect((await watchOnce(server.url, state, 'all-tickets')).events).toEqual([]);
      const reads = server.requests.slice(before).filter(isDetailRead);
      const listed = await h.cli(['list', '--view', 'all-tickets', '--all', '-q'], { env: techEnv(h.sandbox.url) });
      const ids = listed.stdout.trim().split('\n').map(Number);
      expect(ids.length).toBeGreaterThan(8);
      expect(reads.map((request) => Number(request.url.split('/').pop())).sort()).toEqual(ids.sort());
      expect(inFlight.max()).toBe(8);
    } finally {
      await server.close();
    }
  });

  it('a field neither the items nor the details carry is said once, not told as a change, and the others are still watched', async () => {
    const shape = { listItems: FEW_MEMBERS, dropFromDetails: ['dueDate'] };
    const server = await cuttingFront(shape);
    try {
      const [high] = techTickets(1) as [number];
      const state = join(dir, 'no-due.json');
      const notice = "warning: the service does not say the tickets' due date in its list or in their details: tkt watch cannot tell its changes\n";
      const baseline = await watchOnce(server.url, state);
      expect(baseline.stderr).toBe(notice);
      ticketById(h, high).dueDate = new Date(Date.now() + 86_400_000).toISOString();
      const ticket = ticketById(h, high);
      ticket.ticketStatusId = ticket.ticketStatusId === 1 ? 2 : 1;
      const next = await watchOnce(server.url, state);
      // Said once for the state file: a cron job's mail does not repeat it.
      expect(next.stderr).toBe('');
      expect(next.events.map((event) => [event.event, event.id, Object.keys(event.changes)])).toEqual([['changed', high, ['status']]]);
      expect(next.events[0]!.ticket.due).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('tkt watch ID...: a detail that stops carrying a field tells no change, and says so once', async () => {
    const shape: { dropFromDetails?: string[] } = {};
    const server = await cuttingFront(shape);
    try {
      // Not one of tech's open tickets, which the view tests take.
      const { id } = unusedTicket(h, (t) => t.assignedUser !== user('Tom Tech').id && t.ticketPriorityId === 3);
      const state = join(dir, 'ids.json');
      const once = async () => {
        const told = await h.cli(['--json', 'watch', '--once', String(id), '--state', state], { env: techEnv(server.url) });
        expect(told.code, told.stderr).toBe(0);
        return { events: jsonLines(told.stdout), stderr: told.stderr };
      };
      expect(await once()).toEqual({ events: [], stderr: '' });
      shape.dropFromDetails = ['priority', 'ticketPriorityId'];
      expect(await once()).toEqual({
        events: [],
        stderr: "warning: the service does not say the tickets' priority in their details: tkt watch cannot tell its changes\n",
      });
      retitle(h, id, 'Retitled while the priority is not said');
      const { events, stderr } = await once();
      expect(stderr).toBe('');
      expect(events.map((event) => [event.event, Object.keys(event.changes), event.ticket.priority])).toEqual([['changed', ['title'], 'High']]);
    } finally {
      await server.close();
    }
  });

  it('a running watch whose items lose members between polls tells no change, and says an uncarried field once', async () => {
    const shape: { listItems?: readonly string[]; dropFromDetails?: string[] } = {};
    const server = await cuttingFront(shape);
    try {
      const [high] = techTickets(1) as [number];
      const { r, clock, done } = await startWatch(h, { view: 'my-open-tickets' }, { globals: { json: true }, env: techEnv(server.url) });
      shape.listItems = FEW_MEMBERS;
      await clock.next();
      expect(r.stdout()).toBe('');
      shape.dropFromDetails = ['assignee', 'assignedUser'];
      await clock.next();
      await clock.next();
      expect(r.stdout()).toBe('');
      expect(r.stderr()).toBe("warning: the service does not say the tickets' assignee in its list or in their details: tkt watch cannot tell its changes\n");
      ticketById(h, high).ticketPriorityId = 4;
      await clock.next();
      // The assignee shown is the one last said.
      expect(jsonLines(r.stdout()).map((event) => [event.event, event.id, event.changes, event.ticket.assignee])).toEqual([
        ['changed', high, { priority: ['High', 'Critical'] }, 'Tom Tech'],
      ]);
      r.abort.abort('SIGTERM');
      await expect(done).rejects.toBeInstanceOf(InterruptedError);
    } finally {
      await server.close();
    }
  });
});
