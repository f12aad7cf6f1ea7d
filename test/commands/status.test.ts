// tkt status against the sandbox's demo data: each count agrees with the matching `tkt list`.
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

async function listed(...args: string[]): Promise<number[]> {
  const result = await h.cli(['list', '--all', '-q', ...args]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.split('\n').filter((line) => line !== '').map(Number);
}

describe('tkt status', () => {
  it('counts the caller\'s tickets per state as the views do, and the unassigned ones in their groups', async () => {
    const result = await h.cli(['status', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const { counts, urgent } = JSON.parse(result.stdout) as { counts: Record<string, number>; urgent: { ticketId: number }[] };
    const views = { open: 'my-open-tickets', overdue: 'my-overdue-tickets', dueToday: 'my-tickets-due-today', onHold: 'my-tickets-onhold', pending: 'my-pending-tickets', escalated: 'my-escalated' };
    for (const [key, view] of Object.entries(views)) expect(counts[key], key).toBe((await listed('--view', view)).length);
    expect(counts.unassignedInMyGroups).toBe((await listed('--view', 'all-my-groups', '--assignee', 'none')).length);
    // The demo data gives tech something in most of them.
    expect(counts.open).toBeGreaterThan(0);
    expect(counts.overdue).toBeGreaterThan(0);

    // The most urgent are open tickets of theirs, overdue ones first.
    const open = await listed('--view', 'my-open-tickets');
    const overdue = new Set(await listed('--view', 'my-open-tickets', '--overdue'));
    expect(urgent.length).toBe(Math.min(5, open.length));
    const ids = urgent.map((ticket) => ticket.ticketId);
    for (const id of ids) expect(open).toContain(id);
    const firstNotOverdue = ids.findIndex((id) => !overdue.has(id));
    if (firstNotOverdue !== -1) expect(ids.slice(firstNotOverdue).some((id) => overdue.has(id))).toBe(false);
  });

  it('prints the counts and the urgent tickets for people', async () => {
    const result = await h.cli(['status']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Your queue$/m);
    expect(result.stdout).toMatch(/^ {2}open +\d+$/m);
    expect(result.stdout).toMatch(/^ {2}unassigned in your groups +\d+$/m);
    expect(result.stdout).toMatch(/^Most urgent$/m);
    expect(result.stdout).toMatch(/^ {2}#\d+ {2}\S/m);
  });
});
