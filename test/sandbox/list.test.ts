import { describe, expect, test } from 'vitest';
import { LIST_TYPES } from '../../src/sandbox/listing.js';
import type { RunningSandbox, SandboxTicket } from '../../src/sandbox/index.js';
import { openSandbox } from './helpers.js';

// A fixed clock at midday, so "due today" tickets are due this (UTC) afternoon.
const NOW = new Date('2026-03-04T12:00:00Z');

async function listIds(request: Awaited<ReturnType<typeof openSandbox>>['request'], as: string, table: Record<string, unknown>): Promise<number[]> {
  const reply = await request('POST', '/api/TicketsApi', { as, json: table });
  expect(reply.status).toBe(200);
  return reply.body.map((item: { ticketId: number }) => item.ticketId);
}

/** The expected ids, newest first, for a predicate over the stored tickets. */
function expected(sandbox: RunningSandbox, keep: (t: SandboxTicket) => boolean): number[] {
  return sandbox.state.tickets
    .filter((t) => !t.isDeleted && keep(t))
    .sort((a, b) => b.createdOn.localeCompare(a.createdOn))
    .map((t) => t.id);
}

describe('POST /api/TicketsApi (paginated list)', () => {
  test('items are TicketList objects, different from the detail model', async () => {
    const { request } = await openSandbox({ now: () => NOW });
    const reply = await request('POST', '/api/TicketsApi', { as: 'admin', json: { length: 1 } });
    expect(Object.keys(reply.body[0]).sort()).toEqual([
      'assignee',
      'createdOn',
      'dueDate',
      'group',
      'isOverdue',
      'isRead',
      'priority',
      'requester',
      'status',
      'subject',
      'ticketId',
    ]);
    expect(typeof reply.body[0].status).toBe('string');
    expect(reply.headers.get('x-total-count')).toMatch(/^\d+$/);
  });

  test('list types follow status types, due dates, assignee, creator and groups', async () => {
    const { sandbox, request, userId } = await openSandbox({ now: () => NOW });
    const tech = userId('tech');
    const statusType = (t: SandboxTicket) => sandbox.state.lookups.status.find((s) => s.id === t.ticketStatusId)?.statusType;
    const mine = (t: SandboxTicket) => t.creatorId === tech || t.assignedUser === tech;
    const completed = (t: SandboxTicket) => statusType(t) === 5 || statusType(t) === 6;
    const overdue = (t: SandboxTicket) => t.dueDate !== null && t.dueDate < NOW.toISOString() && !completed(t);
    const dueToday = (t: SandboxTicket) => t.dueDate !== null && t.dueDate.startsWith('2026-03-04') && !completed(t);
    const cases: [string, (t: SandboxTicket) => boolean][] = [
      ['AllTickets', () => true],
      ['AllMyGroups', (t) => t.groupId === 1 || t.groupId === 2],
      ['UnassignedTickets', (t) => t.assignedUser === null],
      ['MyOpenTickets', (t) => statusType(t) === 1 && mine(t)],
      ['MyOpenOrUnassigned', (t) => (statusType(t) === 1 && mine(t)) || (t.assignedUser === null && !completed(t))],
      ['MyTicketsOnhold', (t) => statusType(t) === 2 && mine(t)],
      ['MyPendingTickets', (t) => statusType(t) === 3 && mine(t)],
      ['MyEscalated', (t) => statusType(t) === 4 && mine(t)],
      ['AllEscalated', (t) => statusType(t) === 4],
      ['MyOverdueTickets', (t) => overdue(t) && mine(t)],
      ['OverdueTickets', overdue],
      ['MyTicketsDueToday', (t) => dueToday(t) && mine(t)],
      ['TicketsDueToday', dueToday],
      ['MyCompletedTickets', (t) => completed(t) && mine(t)],
      ['CompletedTickets', completed],
      ['AllMyTickets', mine],
      ['TicketsOnHold', (t) => statusType(t) === 2],
      ['PendingTickets', (t) => statusType(t) === 3],
      ['MyOpenTasks', (t) => t.tasks.some((task) => task.assignedTo === tech && !task.done)],
      ['MyCompletedTasks', (t) => t.tasks.some((task) => task.assignedTo === tech && task.done)],
    ];
    expect(cases.map(([name]) => name).sort()).toEqual([...LIST_TYPES].sort());
    for (const [listType, keep] of cases) {
      const want = expected(sandbox, keep);
      expect(want.length, `demo data has ${listType} tickets`).toBeGreaterThan(0);
      expect(await listIds(request, 'tech', { listType, length: 100 }), listType).toEqual(want);
    }
    // The demo data keeps its promises whatever the clock says.
    expect(expected(sandbox, overdue).length).toBeGreaterThan(3);
    expect(expected(sandbox, dueToday).length).toBeGreaterThan(3);
  });

  test('list types are case-insensitive; an unknown one is a 400 naming the valid ones', async () => {
    const { request } = await openSandbox({ now: () => NOW });
    expect((await request('POST', '/api/TicketsApi', { as: 'tech', json: { listType: 'alltickets' } })).status).toBe(200);
    const reply = await request('POST', '/api/TicketsApi', { as: 'tech', json: { listType: 'Everything' } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors.listType[0]).toContain('MyOverdueTickets');
  });

  test('search matches subject, ticket id, priority and requester; filterBy restricts where it looks', async () => {
    const { sandbox, request } = await openSandbox({ now: () => NOW });
    const vpn = expected(sandbox, (t) => t.title.toLowerCase().includes('vpn'));
    expect(await listIds(request, 'admin', { search: 'VPN', length: 50 })).toEqual(vpn);
    const some = sandbox.state.tickets[5] as SandboxTicket;
    expect(await listIds(request, 'admin', { search: String(some.id), filterBy: 'TicketId' })).toEqual([some.id]);
    const critical = expected(sandbox, (t) => t.ticketPriorityId === 4);
    expect(await listIds(request, 'admin', { search: 'critical', filterBy: 'Priority', length: 50 })).toEqual(critical);
    const anna = sandbox.state.users.filter((u) => u.firstName === 'Anna').map((u) => u.id);
    expect(await listIds(request, 'admin', { search: 'anna', filterBy: 'requester', length: 50 })).toEqual(
      expected(sandbox, (t) => anna.includes(t.creatorId)),
    );
    expect(await listIds(request, 'admin', { search: 'aberg', filterBy: 'Requester', length: 50 })).toEqual(expected(sandbox, (t) => t.creatorId === anna[0]));
    // "anna" is in no subject: restricted to Subject it finds nothing.
    expect(await listIds(request, 'admin', { search: 'anna', filterBy: 'Subject' })).toEqual([]);
    expect((await request('POST', '/api/TicketsApi', { as: 'admin', json: { search: 'x', filterBy: 'Subject,Colour' } })).status).toBe(400);
  });

  test('pages are 1-based with length 10 by default and never overlap', async () => {
    const { sandbox, request } = await openSandbox({ now: () => NOW, seedTickets: 95 });
    const all = expected(sandbox, () => true);
    expect(await listIds(request, 'admin', {})).toEqual(all.slice(0, 10));
    expect(await listIds(request, 'admin', { page: 3, length: 7 })).toEqual(all.slice(14, 21));
    const last = Math.ceil(all.length / 25);
    expect(await listIds(request, 'admin', { page: last, length: 25 })).toEqual(all.slice((last - 1) * 25));
    expect(await listIds(request, 'admin', { page: last + 1, length: 25 })).toEqual([]);
    expect((await request('POST', '/api/TicketsApi', { as: 'admin', json: { page: 'two' } })).status).toBe(400);
  });

  test("Tickets.OnlyPrivate limits every list to the caller's own tickets; deleted tickets never appear", async () => {
    const { sandbox, request, userId } = await openSandbox({ now: () => NOW });
    const own = expected(sandbox, (t) => t.creatorId === userId('private') || t.assignedUser === userId('private'));
    expect(own.length).toBeGreaterThan(0);
    expect(await listIds(request, 'private', { listType: 'AllTickets', length: 100 })).toEqual(own);
    const victim = own[0] as number;
    expect((await request('DELETE', `/api/TicketsApi/${victim}`, { as: 'admin' })).status).toBe(200);
    expect(await listIds(request, 'private', { length: 100 })).toEqual(own.slice(1));
    expect(await listIds(request, 'admin', { length: 1000 })).not.toContain(victim);
  });
});

describe('cached list pages', () => {
  test('a change through the API, a moving clock or an edit of state shows on the next page request', async () => {
    let clock = NOW;
    const { sandbox, request } = await openSandbox({ now: () => clock });
    const id = sandbox.state.tickets.find((t) => t.title === 'Monitor flickers')?.id as number;
    expect(await listIds(request, 'tech', { listType: 'MyOpenTickets', length: 100 })).not.toContain(id);
    expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'tech' })).status).toBe(200);
    expect(await listIds(request, 'tech', { listType: 'MyOpenTickets', length: 100 })).toContain(id);

    const dueDate = sandbox.state.tickets.find((t) => t.id === id)?.dueDate as string;
    expect(await listIds(request, 'tech', { listType: 'OverdueTickets', length: 100 })).not.toContain(id);
    clock = new Date(Date.parse(dueDate) + 1000);
    expect(await listIds(request, 'tech', { listType: 'OverdueTickets', length: 100 })).toContain(id);

    expect(await listIds(request, 'tech', { search: 'renamed by' })).toEqual([]);
    const target = sandbox.state.tickets.find((t) => t.id === id);
    if (target) target.title = 'Renamed by the test';
    expect(await listIds(request, 'tech', { search: 'renamed by' })).toEqual([id]);
  });
});
