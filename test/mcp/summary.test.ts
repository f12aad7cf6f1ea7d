// A list item as list_tickets gives it: judged overdue as get_ticket and `tkt show` judge a ticket.
import { describe, expect, it } from 'vitest';
import { summarize as summarizeTicket } from '../../src/mcp/summary.js';
import { readListItem } from '../../src/model/ticket.js';

const summarize = (item: unknown, now: Date) => summarizeTicket(readListItem(item), now);

describe('summarize', () => {
  // A due date at local midnight is overdue from that instant, as the service counts it (src/output/time.ts).
  const midnightToday = new Date(2026, 10, 27);
  const afternoon = new Date(2026, 10, 27, 15, 0);

  it('calls a ticket due at midnight overdue once midnight has passed, when the service sends no flag', () => {
    const item = { ticketId: 7, subject: 'printer', statusName: 'Open', dueDate: midnightToday.toISOString() };
    expect(summarize(item, new Date(2026, 10, 26, 23, 0)).overdue).toBe(false);
    expect(summarize(item, afternoon).overdue).toBe(true);
  });

  it("takes the service's flag, and never calls a closed ticket overdue", () => {
    expect(summarize({ ticketId: 7, statusName: 'Open', dueDate: midnightToday.toISOString(), isOverdue: true }, afternoon).overdue).toBe(true);
    expect(summarize({ ticketId: 7, statusName: 'Closed', dueDate: new Date(2026, 0, 1, 9).toISOString() }, afternoon).overdue).toBe(false);
    // Without a due date too: the member is always there.
    expect(summarize({ ticketId: 8, statusName: 'Open' }, afternoon).overdue).toBe(false);
  });

  it('says "unassigned" (null) only of a ticket that says it has no assignee, not of a list item that leaves the assignee out', () => {
    expect(summarize({ ticketId: 7, assignee: null }, afternoon).assignee).toBeNull();
    expect(summarize({ ticketId: 7, assignee: { firstName: 'Tom', LastName: 'Tech' } }, afternoon).assignee).toBe('Tom Tech');
    expect(summarize({ ticketId: 7 }, afternoon)).not.toHaveProperty('assignee');
  });
});
