// The triage table's rows: the due column reads as `tkt list`'s does.
import { describe, expect, it } from 'vitest';
import { tableRow } from '../../src/triage/view.js';
import { readListItem } from '../../src/model/ticket.js';

const now = new Date('2026-11-22T13:05:00Z');
const row = (ticket: Record<string, unknown>) => tableRow({ id: 1, summary: readListItem({ ticketId: 1, ...ticket }), searchText: '' }, now);

describe('triage table rows', () => {
  it("show a resolved or closed ticket's due as its date, not as time left or overdue", () => {
    const due = '2026-11-23T12:00:00Z';
    expect(row({ status: 'Open', dueDate: due })).toMatchObject({ due: 'in 22h', overdue: false });
    expect(row({ status: 'Closed', dueDate: due })).toMatchObject({ due: '2026-11-23', overdue: false });
    expect(row({ status: 'Resolved', dueDate: '2026-11-20T12:00:00Z' })).toMatchObject({ due: '2026-11-20', overdue: false });
  });
});
