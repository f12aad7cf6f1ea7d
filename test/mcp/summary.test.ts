// A list item as list_tickets gives it: judged overdue as get_ticket and `tkt show` judge a ticket.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../src/mcp/summary.js';

describe('summarize', () => {
  // A due date at local midnight is a day-only due: due by the end of that day (src/output/time.ts).
  const midnightToday = new Date(2026, 10, 27);
  const afternoon = new Date(2026, 10, 27, 15, 0);

  it('does not call a ticket due today overdue in the afternoon, when the service sends no flag', () => {
    const item = { ticketId: 7, subject: 'printer', statusName: 'Open', dueDate: midnightToday.toISOString() };
    expect(summarize(item, afternoon).overdue).toBeUndefined();
    expect(summarize(item, new Date(2026, 10, 28, 9, 0)).overdue).toBe(true);
  });

  it("takes the service's flag, and never calls a closed ticket overdue", () => {
    expect(summarize({ ticketId: 7, statusName: 'Open', dueDate: midnightToday.toISOString(), isOverdue: true }, afternoon).overdue).toBe(true);
    expect(summarize({ ticketId: 7, statusName: 'Closed', dueDate: new Date(2026, 0, 1, 9).toISOString() }, afternoon).overdue).toBeUndefined();
  });
});
