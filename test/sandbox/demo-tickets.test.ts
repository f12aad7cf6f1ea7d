// The demo tickets' dates: what a report built against the sandbox reads.
import { describe, expect, test } from 'vitest';
import { StatusType } from '../../src/sandbox/model.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { openSandbox } from './helpers.js';

const NOW = new Date('2026-11-27T04:12:00.000Z');

function settledTickets(sandbox: RunningSandbox) {
  const { tickets, lookups } = sandbox.state;
  const typeOf = (statusId: number) => lookups.status.find((s) => s.id === statusId)!.statusType;
  return tickets
    .filter((t) => typeOf(t.ticketStatusId) === StatusType.resolved || typeOf(t.ticketStatusId) === StatusType.closed)
    .map((t) => ({ ticket: t, closed: typeOf(t.ticketStatusId) === StatusType.closed }));
}

/** Each resolved or closed ticket: resolved after it was created and before now, closed after that. */
function expectResolvedInTime(sandbox: RunningSandbox) {
  const { conversations } = sandbox.state;
  const settled = settledTickets(sandbox);
  expect(settled.some((s) => s.closed) && settled.some((s) => !s.closed)).toBe(true);
  const hours = new Set<number>();
  for (const { ticket, closed } of settled) {
    const created = Date.parse(ticket.createdOn);
    const resolved = Date.parse(ticket.resolution!.submitDate);
    const updated = Date.parse(ticket.updatedOn);
    expect(resolved, `#${ticket.id} resolved after it was created`).toBeGreaterThan(created);
    expect(resolved, `#${ticket.id} resolved before now`).toBeLessThan(NOW.getTime());
    hours.add((resolved - created) / 3_600_000);
    // Its last change is its resolution, or its close after that.
    if (closed) expect(updated, `#${ticket.id} closed after it was resolved`).toBeGreaterThan(resolved);
    else expect(updated).toBe(resolved);
    expect(updated).toBeLessThan(NOW.getTime());
    // A Close conversation is dated when the ticket was closed.
    for (const c of conversations.filter((c) => c.ticketId === ticket.id && c.type === 'Close')) expect(c.createdOn).toBe(ticket.updatedOn);
  }
  // Not one duration for all: a report has something to tell apart.
  expect(hours.size).toBeGreaterThan(3);
}

describe('demo tickets', () => {
  test('are resolved some hours or days after they were created, before now, and closed after that', async () => {
    const { sandbox } = await openSandbox({ now: () => NOW });
    expectResolvedInTime(sandbox);
    const closedIds = new Set(
      settledTickets(sandbox)
        .filter((s) => s.closed)
        .map((s) => s.ticket.id),
    );
    expect(sandbox.state.conversations.some((c) => c.type === 'Close' && closedIds.has(c.ticketId))).toBe(true);
  });

  test('seeded ones (--seed-tickets) too', async () => {
    const { sandbox } = await openSandbox({ now: () => NOW, demoData: false, seedTickets: 300 });
    expect(settledTickets(sandbox).length).toBeGreaterThan(30);
    expectResolvedInTime(sandbox);
  });

  test('are due after they were created, overdue ones before now (an SLA report finds no negative time)', async () => {
    for (const options of [{}, { demoData: false, seedTickets: 300 }]) {
      const { sandbox } = await openSandbox({ now: () => NOW, ...options });
      const due = sandbox.state.tickets.filter((t) => t.dueDate !== null);
      expect(due.length).toBeGreaterThan(10);
      for (const ticket of due) expect(Date.parse(ticket.dueDate!), `#${ticket.id} due after it was created`).toBeGreaterThan(Date.parse(ticket.createdOn));
    }
    // Overdue ones stay overdue; those older than two days as overdue as before (2d).
    const { sandbox } = await openSandbox({ now: () => NOW });
    const twoDaysAgo = NOW.getTime() - 2 * 86_400_000;
    const overdue = sandbox.state.tickets.filter((t) => t.dueDate !== null && Date.parse(t.dueDate) < NOW.getTime());
    const older = overdue.filter((t) => Date.parse(t.createdOn) < twoDaysAgo);
    expect([overdue.length, older.length]).toEqual([8, 5]);
    for (const ticket of older) expect(ticket.dueDate, `#${ticket.id}`).toBe(new Date(twoDaysAgo).toISOString());
  });

  test('have the same dates on every start at the same clock, as the service reads them', async () => {
    const dates = async () => {
      const { sandbox, request } = await openSandbox({ now: () => NOW });
      const settled = settledTickets(sandbox);
      return Promise.all(
        settled.map(async ({ ticket }) => {
          const body = (await request('GET', `/api/TicketsApi/${ticket.id}`, { as: 'admin' })).body as {
            createdOn: string;
            updatedOn: string;
            resolution: { submitDate: string };
          };
          return [ticket.id, body.createdOn, body.resolution.submitDate, body.updatedOn];
        }),
      );
    };
    const first = await dates();
    expect(first.length).toBeGreaterThan(0);
    for (const [, createdOn, submitDate] of first) expect(submitDate).not.toBe(createdOn);
    expect(await dates()).toEqual(first);
  });
});
