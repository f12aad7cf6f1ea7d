// One ID, one request (README, "Scripting"): the caller's ID for close's and resolve's --by
// comes from the token's claims, so a change of one ticket sends that change and nothing else:
// no whoami, no lookup list, no read-back, even with no lookup cached.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { unusedTicket, useHarness, userId } from '../helpers/sandbox-state.js';

const OPEN = 1;
const CLOSED = 7;

let h: Harness;
useHarness({}, (harness) => (h = harness));

/** The routes `args` sent, run with no lookup cached. */
async function routesOf(args: string[]): Promise<Record<string, number>> {
  await rm(join(h.configDir, 'cache'), { recursive: true, force: true });
  h.sandbox.resetStats();
  const result = await h.cli(args);
  expect(result.code, result.stderr).toBe(0);
  return { ...h.sandbox.stats.byRoute };
}

describe('a change of one ticket', () => {
  it('close ID sends the close only, closed by the logged-in user', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    expect(await routesOf(['close', String(ticket.id)])).toEqual({ 'POST /api/TicketsApi/close/{id}': 1 });
    expect(ticket.ticketStatusId).toBe(CLOSED);
  });

  it('close ID --by @me sends the close only', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    expect(await routesOf(['close', String(ticket.id), '--by', '@me'])).toEqual({ 'POST /api/TicketsApi/close/{id}': 1 });
  });

  it('resolve ID reads the ticket and sends the resolve, resolved by the logged-in user', async () => {
    // The read is resolve's own: a closed ticket is refused (the service moved it back to Resolved).
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN);
    expect(await routesOf(['resolve', String(ticket.id), '--details', 'fixed'])).toEqual({
      'GET /api/TicketsApi/{id}': 1,
      'POST /api/TicketsApi/resolve/{id}': 1,
    });
  });

  it('pickup ID reads the ticket, then sends the pickup', async () => {
    const ticket = unusedTicket(h, (t) => t.assignedUser === null);
    expect(await routesOf(['pickup', String(ticket.id)])).toEqual({ 'GET /api/TicketsApi/{id}': 1, 'POST /api/TicketsApi/pickup/{id}': 1 });
    expect(ticket.assignedUser).toBe(userId(h, 'admin'));
  });
});
