// A ticket of a list as an assistant gets it: the few facts that pick the next ticket, from the
// list item read model (src/model/ticket.ts) that `tkt list` prints.
import { z } from 'zod';
import { lookupFieldOf } from '../model/fields.js';
import { listedTicketId, type TicketListItem } from '../model/ticket.js';
import { formatDue } from '../output/time.js';
import { clean, quoted } from './text.js';

export const ticketSummarySchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  title: z.string().optional(),
  status: z.string().optional(),
  priority: z.string().optional(),
  assignee: z.string().nullable().optional(),
  requester: z.string().optional(),
  due: z.string().optional().describe('ISO 8601'),
  // Always said, false too (README: Assistants lists it among the members): a model reads a member left out as unknown.
  overdue: z.boolean(),
});
export type TicketSummary = z.infer<typeof ticketSummarySchema>;

/** What `tkt show` says of a ticket without an assignee. */
const UNASSIGNED = lookupFieldOf('assignee').header?.whenEmpty;

/** Leaves out what the ticket does not say: undefined members are not JSON. */
export function defined<T extends Record<string, unknown>>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as T;
}

/** A ticket read from a list item (readListItem) or its detail; exit 1 for one without an ID tkt knows, which the assistant could not name. */
export function summarize(ticket: TicketListItem, now: Date): TicketSummary {
  // As get_ticket and `tkt show` judge it: a due date at midnight is due by the end of that day.
  const { overdue } = formatDue(ticket.due, now, ticket);
  return defined({
    id: listedTicketId(ticket),
    title: clean(ticket.title),
    status: clean(ticket.status),
    priority: clean(ticket.priority),
    // null is "unassigned": a list item that says nothing of the assignee says neither.
    assignee: ticket.field('assignee').said ? (clean(ticket.assignee) ?? null) : undefined,
    requester: clean(ticket.requester),
    due: ticket.due?.toISOString(),
    overdue,
  });
}

/** One line per ticket: `#1013 [Open, High] "title" requester "x" assignee "y" due 2026-... OVERDUE`. */
export function summaryLine(ticket: TicketSummary): string {
  const state = [ticket.status, ticket.priority]
    .filter((part) => part !== undefined)
    .map(quoted)
    .join(', ');
  return [
    `#${ticket.id ?? '?'}`,
    state === '' ? undefined : `[${state}]`,
    quoted(ticket.title),
    `requester ${quoted(ticket.requester)}`,
    `assignee ${ticket.assignee === null ? UNASSIGNED : quoted(ticket.assignee)}`,
    ticket.due === undefined ? undefined : `due ${ticket.due}`,
    ticket.overdue ? 'OVERDUE' : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
}
