// Reading a ticket whatever its shape. The spec leaves the list item (TicketList) and most of
// TicketApiModel unspecified, so every field is looked up under the names a server plausibly
// uses, in any casing, and a related record may be a nested object ({status: {status: "Open"}})
// or a plain string ("Open").
import { field, isObject, stringField } from '../api/fields.js';

/** Fields that name a related record (user, status, site...) when it is an object. */
const NAME_FIELDS = ['fullName', 'name', 'title', 'status', 'priority', 'group', 'displayName', 'userName', 'username'];

/** The display name of a related record given as an object or as a plain value. */
export function displayName(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return String(value);
  if (!isObject(value)) return undefined;
  const name = stringField(value, ...NAME_FIELDS);
  const userName = stringField(value, 'userName', 'username');
  // "Anna Berg (anna)": the username is what other commands accept.
  return name !== undefined && userName !== undefined && userName !== name ? `${name} (${userName})` : name;
}

/** The first of `names` that holds something displayable. */
export function nameField(obj: unknown, ...names: string[]): string | undefined {
  for (const name of names) {
    const shown = displayName(field(obj, name));
    if (shown !== undefined) return shown;
  }
  return undefined;
}

export function dateField(obj: unknown, ...names: string[]): Date | undefined {
  const value = field(obj, ...names);
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export function createdDateOf(ticket: unknown): Date | undefined {
  return dateField(ticket, 'createdOn', 'created', 'createdAt', 'createdDate');
}

export interface TicketSummary {
  id: number | string | undefined;
  title: string | undefined;
  status: string | undefined;
  priority: string | undefined;
  requester: string | undefined;
  assignee: string | undefined;
  due: Date | undefined;
  /** Whether a past due date counts: undefined to judge by the date alone. */
  overdue: boolean | undefined;
  /** Resolved or closed. */
  settled: boolean;
}

// A resolved or closed ticket is never overdue, whatever its due date said (spec: overdue is
// "past due date and not resolved/closed").
const SETTLED_STATUS = /\b(resolved|closed|completed|cancell?ed)\b/i;

/**
 * Whether the ticket's due date still counts: the service's own flag when it sends one, false
 * once the ticket is resolved or closed, otherwise undefined (the date decides).
 */
export function overdueFlagOf(ticket: unknown, status = nameField(ticket, 'status', 'statusName', 'ticketStatus')): boolean | undefined {
  const flag = field(ticket, 'isOverdue', 'overdue');
  if (typeof flag === 'boolean') return flag;
  return isSettled(ticket, status) ? false : undefined;
}

/** Whether the ticket is resolved or closed: no longer anyone's work. */
export function isSettled(ticket: unknown, status = nameField(ticket, 'status', 'statusName', 'ticketStatus')): boolean {
  if (field(ticket, 'isResolved') === true || field(ticket, 'isClosed') === true) return true;
  return status !== undefined && SETTLED_STATUS.test(status);
}

export function ticketIdOf(ticket: unknown): number | string | undefined {
  const id = field(ticket, 'ticketId', 'id', 'ticketNumber');
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined;
}

/** The columns of `tkt list`, from a list item or a detail object. */
export function summarizeTicket(ticket: unknown): TicketSummary {
  const status = nameField(ticket, 'status', 'statusName', 'ticketStatus');
  return {
    id: ticketIdOf(ticket),
    title: nameField(ticket, 'title', 'subject'),
    status,
    priority: nameField(ticket, 'priority', 'priorityName', 'ticketPriority'),
    requester: nameField(ticket, 'requester', 'creator', 'requesterName', 'createdBy'),
    assignee: nameField(ticket, 'assignee', 'assignedTo', 'technician', 'assignedUserName', 'assignedUser'),
    due: dateField(ticket, 'dueDate', 'due', 'dueOn'),
    overdue: overdueFlagOf(ticket, status),
    settled: isSettled(ticket, status),
  };
}
