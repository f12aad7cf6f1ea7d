// A ticket as tkt reads it, whatever its shape: the one place that knows the member names a
// ticket detail (TicketApiModel) or a list item (TicketList) may use. The spec leaves the list
// item and most of TicketApiModel unspecified, so every member is looked up under the names a
// server plausibly uses, in any casing (camelCase or PascalCase), and a related record may be a
// nested object ({status: {id: 1, status: "Open"}}) or a plain name ("Open"). The field table
// (fields.ts) says where each field is kept; the members that are no field (ID, dates, flags,
// conversation, attachments) are named here. The raw body stays beside the reading: --json
// prints what the service sent.
import { arrayField, field, isObject, stringField } from '../api/member-access.js';
import { OperationError } from '../errors.js';
import { TICKET_FIELDS, type MemberNames } from './fields.js';

/** What a ticket says about one field of the table. */
export interface FieldReading {
  /** The ticket has one of the field's members, even an empty one. */
  said: boolean;
  /** Its value as the update form sends it back: the member's own (an ID, a date) as it is, else the related record's ID. */
  value: string | number | boolean | undefined;
  /** Its ID when it has one (not empty, not 0): the member's, else the related record's, else a number given for the name. */
  id: string | number | undefined;
  /** Its name to show: the related record's ("Anna Berg (anna)") or the plain name ("Open"). */
  name: string | undefined;
  /** A related record's own name alone ("Anna Berg"), without the username. */
  ownName: string | undefined;
  /** A related person's username. */
  username: string | undefined;
  /**
   * The ticket says the field is empty: no ID, and no name but a record's whose ID is empty
   * ({id: null, title: "HQ"}); a record with no ID member is empty only when nothing in it is.
   */
  empty: boolean;
  /**
   * A related record tkt cannot read: no ID member, and nothing it knows as a name or a username
   * ({login: "x"}). Only the ticket's detail may say who or what it is.
   */
  unread: boolean;
}

/** A ticket of a list (`tkt list`, `tkt status`, triage's rows): the columns people read. */
export interface TicketListItem {
  /** The body as the service sent it. */
  raw: unknown;
  id: number | string | undefined;
  title: string | undefined;
  status: string | undefined;
  priority: string | undefined;
  requester: string | undefined;
  assignee: string | undefined;
  due: Date | undefined;
  created: Date | undefined;
  /** The service's own overdue flag, when it sends one. */
  overdueFlag: boolean | undefined;
  /** Whether a past due date counts: undefined to judge by the date alone. */
  overdue: boolean | undefined;
  /** Resolved or closed: no longer anyone's work. */
  settled: boolean;
  /** Any field of the table by its key (`status`, `site`, `due`), read on demand. */
  field(key: string): FieldReading;
  /**
   * Whether the ticket has a member for `what`, even an empty one (null): a list item may leave
   * members out (the spec does not give them), and then only the ticket's detail says.
   * `settled`: its status, or a resolved or closed flag.
   */
  says(what: 'due' | 'created' | 'settled'): boolean;
}

export interface ConversationEntry {
  /** The service's entry type ("RequesterReply"), when it says one. */
  type: string | undefined;
  draft: boolean;
  from: string | undefined;
  to: string | undefined;
  cc: string | undefined;
  at: Date | undefined;
  subject: string | undefined;
  message: string | undefined;
}

export interface Attachment {
  name: string | undefined;
  /** In bytes. */
  size: number | undefined;
  at: Date | undefined;
}

/** A resolution as plain text, or as a record of who resolved it, when, and how. */
export type Resolution = { text: string } | { by: string | undefined; at: Date | undefined; details: string | undefined };

/** A ticket detail (`tkt show`, update's read-modify-write, reply's defaults). */
export interface Ticket extends TicketListItem {
  description: string | undefined;
  cc: string | undefined;
  source: string | undefined;
  updated: Date | undefined;
  /** Soft-deleted (docs/service.md 2.2), and when, if it says. */
  deleted: { on: Date | undefined } | undefined;
  resolution: Resolution | undefined;
  /** In the service's order. */
  conversation: ConversationEntry[];
  attachments: Attachment[];
  /** The requester's e-mail wherever the ticket keeps it. */
  requesterEmail: string | undefined;
  templateId: string | undefined;
}

// The members that are no field of the table.
const MEMBERS = {
  id: ['ticketId', 'id', 'ticketNumber'],
  created: ['createdOn', 'createdAt', 'created', 'createdDate'],
  updated: ['updatedOn', 'updatedAt', 'updated', 'modifiedOn'],
  overdue: ['isOverdue', 'overdue'],
  settled: ['isResolved', 'isClosed'],
  deleted: ['isDeleted'],
  deletedOn: ['deletedOn'],
  source: ['source'],
  templateId: ['templateId'],
  resolution: ['resolution'],
  conversation: ['conversations', 'conversation', 'thread'],
  attachments: ['attachments', 'files', 'uploads'],
  /** A person record besides the requester field's own that may carry the requester's e-mail. */
  requesterRecord: ['user'],
  requesterEmail: ['requesterEmail', 'creatorEmail', 'email'],
} as const;

/**
 * The names of each member of a ticket, a list for each: `--fields ticketId` picks a detail's
 * `id` and `--fields id` a list item's `ticketId` (docs/cli.md section 9). Every name tkt reads
 * a ticket by is here, so --fields and --columns know them ahead of any answer; names that mean
 * different things (resolved, closed) are lists of their own.
 */
const FIELD_MEMBERS_LISTS = TICKET_FIELDS.flatMap((spec) => [spec.members?.ids ?? [], spec.members?.names ?? []]);
const SAME_MEMBER = [
  ...[MEMBERS.id, MEMBERS.created, MEMBERS.updated, MEMBERS.overdue, MEMBERS.conversation, MEMBERS.attachments],
  ...FIELD_MEMBERS_LISTS,
].filter((names) => names.length > 1);
export const TICKET_MEMBER_ALIASES: readonly (readonly string[])[] = memberAliases();

/**
 * SAME_MEMBER, then every other name alone. A loop over a set: a callback per pair of names (some
 * and includes, thousands of calls as every command that reads tickets loads) made Node 24 compile
 * it with Maglev, 2 MB more memory for each such run (README, Performance).
 */
function memberAliases(): (readonly string[])[] {
  const aliases: (readonly string[])[] = [...SAME_MEMBER];
  const named = new Set(SAME_MEMBER.flat());
  for (const name of [...Object.values(MEMBERS), ...FIELD_MEMBERS_LISTS].flat()) {
    if (named.has(name)) continue;
    named.add(name);
    aliases.push([name]);
  }
  return aliases;
}

const RESOLUTION = { by: ['submitBy', 'resolvedBy'], at: ['submitDate', 'resolvedOn', 'createdOn'], details: ['details', 'resolution', 'text'] } as const;
const ENTRY = {
  type: ['type', 'kind'],
  draft: ['isDraft', 'draft'],
  from: ['from', 'sender', 'createdBy'],
  to: ['to', 'sendTo'],
  cc: ['cc', 'ccTo'],
  at: ['createdOn', 'createdAt', 'date', 'sentOn'],
  subject: ['subject', 'title'],
  message: ['message', 'body', 'text'],
} as const;
const ATTACHMENT = { name: ['fileName', 'name', 'originalName'], size: ['size', 'length', 'fileSize'], at: ['createdOn', 'uploadedOn', 'createdAt'] } as const;
const PERSON = {
  email: ['email', 'emailAddress', 'mail'],
  ownName: ['fullName', 'name'],
  // The spec's user (2.1) is named by these two: a service may name every person so.
  firstName: ['firstName'],
  lastName: ['lastName'],
  username: ['userName', 'username'],
} as const;

/** Members that name a related record (user, status, site...) when it is an object. */
const RECORD_NAMES = ['fullName', 'name', 'title', 'status', 'priority', 'group', 'displayName', 'userName', 'username'];

/** A person record's first and last names together ("Anna Berg"), when it has either. */
function firstAndLast(record: unknown): string | undefined {
  const parts = [stringField(record, ...PERSON.firstName), stringField(record, ...PERSON.lastName)].flatMap((part) => nonBlank(part) ?? []);
  return parts.length === 0 ? undefined : parts.join(' ');
}

/** A person record's own name: its full name, else its first and last names. */
function ownNameOf(record: unknown): string | undefined {
  const full = stringField(record, ...PERSON.ownName);
  return nonBlank(full) === undefined ? (firstAndLast(record) ?? full) : full;
}

/** The display name of a related record given as an object or as a plain value. */
export function displayName(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number') return String(value);
  if (!isObject(value)) return undefined;
  const name = stringField(value, ...RECORD_NAMES) ?? firstAndLast(value);
  const username = stringField(value, ...PERSON.username);
  // "Anna Berg (anna)": the username is what other commands accept.
  return name !== undefined && username !== undefined && username !== name ? `${name} (${username})` : name;
}

/** The first of `names` that holds something displayable. */
function firstName(obj: unknown, names: readonly string[]): string | undefined {
  for (const name of names) {
    const shown = displayName(field(obj, name));
    if (shown !== undefined) return shown;
  }
  return undefined;
}

// A date and time with no offset nor Z (`2026-11-28T17:13:18.133`, as .NET writes an unspecified
// DateTime): the spec gives no zone. Date would read it as the local time of whoever runs tkt,
// so the same ticket would be due at other instants in other zones; it is read as UTC (README,
// Dates and times). A date alone is UTC already.
const NO_OFFSET = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

function dateOf(obj: unknown, names: readonly string[]): Date | undefined {
  const value = field(obj, ...names);
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const date = new Date(typeof value === 'string' ? value.trim().replace(NO_OFFSET, '$1T$2Z') : value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

const isEmpty = (value: unknown) => value === undefined || value === null || value === '' || value === 0;
const asId = (value: unknown) => ((typeof value === 'string' || typeof value === 'number') && !isEmpty(value) ? value : undefined);
const nonBlank = (text: string | undefined) => (text === undefined || text.trim() === '' ? undefined : text.trim());

const NOTHING: MemberNames = { ids: [] };

/** Where each field is kept, by key, from the field table. */
const FIELD_MEMBERS = new Map(TICKET_FIELDS.map((spec) => [spec.key, spec.members ?? NOTHING]));
const membersOf = (key: string): MemberNames => FIELD_MEMBERS.get(key) ?? NOTHING;

function readField(obj: unknown, members: MemberNames): FieldReading {
  const names = members.names ?? [];
  const own = field(obj, ...members.ids);
  const record = field(obj, ...names);
  const nested = isObject(record) ? record : undefined;
  const nestedId = nested === undefined ? undefined : field(nested, 'id');
  const value =
    typeof own === 'string' || typeof own === 'number' || typeof own === 'boolean'
      ? own
      : asId(nestedId) === undefined
        ? undefined
        : (nestedId as string | number);
  const name = firstName(obj, names);
  // Without an ID member, a record is read by its names: with none, by whether anything is in it.
  const unnamed = nested !== undefined && nestedId === undefined && name === undefined;
  const unread = unnamed && Object.values(nested).some((member) => !isEmpty(member));
  return {
    said: own !== undefined || record !== undefined,
    value,
    id: asId(own) ?? asId(nestedId) ?? (typeof record === 'number' ? asId(record) : undefined),
    name,
    ownName: nested === undefined ? undefined : ownNameOf(nested),
    username: nested === undefined ? undefined : stringField(nested, ...PERSON.username),
    empty: isEmpty(own) && (isEmpty(record) || (nested !== undefined && isEmpty(nestedId) && (nestedId !== undefined || (unnamed && !unread)))),
    unread,
  };
}

// A resolved or closed ticket is never overdue, whatever its due date said (docs/service.md 4.1: overdue is
// "past due date and not resolved/closed").
// The spec lets a service name its statuses; these are the words services give settled ones.
const SETTLED_STATUS = /\b(resolved|closed|completed|cancell?ed|done|solved)\b/i;

/** Whether a status of this name settles a ticket (resolved, closed...): no open status. */
export function isSettledStatusName(name: string): boolean {
  return SETTLED_STATUS.test(name);
}

// Words of open statuses (the sandbox's among them): a ticket known to be open.
const OPEN_STATUS = /\b(open|new|in progress|pending|on hold|hold|waiting|awaiting|escalated|assigned|active|re-?opened|triage)\b/i;

/** Whether a status of this name is one of an open ticket; a name that is neither this nor settled is not known either way. */
export function isOpenStatusName(name: string): boolean {
  return OPEN_STATUS.test(name) && !isSettledStatusName(name);
}

/**
 * Whether the ticket is resolved or closed, and whether its due date still counts: the service's
 * own flag when it sends one, false once settled, otherwise undefined (the date decides). `status`
 * is the status's name, which `tkt show` may have looked up from its ID.
 */
export function dueState(ticket: Pick<TicketListItem, 'raw' | 'overdueFlag'>, status: string | undefined): { overdue: boolean | undefined; settled: boolean } {
  const settled = MEMBERS.settled.some((name) => field(ticket.raw, name) === true) || (status !== undefined && isSettledStatusName(status));
  return { overdue: ticket.overdueFlag ?? (settled ? false : undefined), settled };
}

/**
 * A person's name to show in a list: their own name alone, as the service's list items give it
 * (a detail's person record says "Anna Berg (aberg)" only in `tkt show`'s header), else their
 * user ID (user IDs are text).
 */
function personShown(reading: FieldReading): string | undefined {
  return reading.ownName ?? reading.name ?? (typeof reading.value === 'string' && reading.value !== '' ? reading.value : undefined);
}

/** A list item's or a detail's ticket ID, as the service wrote it (undefined when it has none). */
export function listItemIdOf(raw: unknown): unknown {
  return field(raw, ...MEMBERS.id);
}

// An item's members named in an error, at most: an item with fifty still gives one readable line.
const MEMBERS_NAMED = 12;

/**
 * A listed ticket's ID. An item whose ID member has a name tkt does not know (`TicketNo`) is
 * exit 1 naming the members it has: shown blank, `tkt list -q | tkt close -` would do nothing,
 * and tkt status would count it once per view.
 */
export function listedTicketId(ticket: Pick<TicketListItem, 'id' | 'raw'>): number | string {
  if (ticket.id !== undefined) return ticket.id;
  const members = isObject(ticket.raw) ? Object.keys(ticket.raw) : [];
  const named = members.length > MEMBERS_NAMED ? [...members.slice(0, MEMBERS_NAMED), '...'] : members;
  throw new OperationError(
    `a ticket in the service's list has no ID tkt knows: ${members.length === 0 ? 'it has no members' : `its members are ${named.join(', ')}`}`,
    {
      hint: `tkt reads a ticket's ID from ${MEMBERS.id.join(', ')} (any case); "tkt list --json" shows the list as the service sent it`,
    },
  );
}

/**
 * Whether the ticket is overdue at `now`: the service's own flag, else a due date past while the
 * ticket is neither resolved nor closed. Undefined when the ticket does not say enough (a list
 * item without its due date, or past due without its status): its detail does.
 */
export function overdueAt(ticket: TicketListItem, now: Date): boolean | undefined {
  if (ticket.overdue !== undefined) return ticket.overdue;
  if (!ticket.says('due')) return undefined;
  if (ticket.due === undefined || ticket.due >= now) return false;
  return ticket.says('settled') ? true : undefined;
}

/** A list item (or a detail, read for its columns). */
export function readListItem(raw: unknown): TicketListItem {
  const readings = new Map<string, FieldReading>();
  const fieldOf = (key: string): FieldReading => {
    let reading = readings.get(key);
    if (reading === undefined) readings.set(key, (reading = readField(raw, membersOf(key))));
    return reading;
  };
  const flag = field(raw, ...MEMBERS.overdue);
  const overdueFlag = typeof flag === 'boolean' ? flag : undefined;
  const status = fieldOf('status').name;
  const id = listItemIdOf(raw);
  const says = (what: 'due' | 'created' | 'settled'): boolean => {
    if (what === 'created') return field(raw, ...MEMBERS.created) !== undefined;
    if (what === 'due') return fieldOf('due').said;
    return fieldOf('status').said || field(raw, ...MEMBERS.settled) !== undefined;
  };
  return {
    raw,
    id: typeof id === 'number' || (typeof id === 'string' && id !== '') ? id : undefined,
    // Titles and descriptions are kept as text, under the field's own members.
    title: firstName(raw, membersOf('title').ids),
    status,
    priority: fieldOf('priority').name,
    requester: personShown(fieldOf('requester')),
    assignee: personShown(fieldOf('assignee')),
    due: dateOf(raw, membersOf('due').ids),
    created: dateOf(raw, MEMBERS.created),
    overdueFlag,
    ...dueState({ raw, overdueFlag }, status),
    field: fieldOf,
    says,
  };
}

function requesterEmail(raw: unknown): string | undefined {
  const records = [...(membersOf('requester').names ?? []), ...MEMBERS.requesterRecord];
  for (const name of records) {
    const person = field(raw, name);
    const email = isObject(person) ? nonBlank(stringField(person, ...PERSON.email)) : undefined;
    if (email !== undefined) return email;
  }
  return nonBlank(stringField(raw, ...MEMBERS.requesterEmail));
}

function resolutionOf(raw: unknown): Resolution | undefined {
  const resolution = field(raw, ...MEMBERS.resolution);
  if (resolution === undefined || resolution === null) return undefined;
  if (typeof resolution === 'string') return { text: resolution };
  return { by: stringField(resolution, ...RESOLUTION.by), at: dateOf(resolution, RESOLUTION.at), details: stringField(resolution, ...RESOLUTION.details) };
}

function entryOf(entry: unknown): ConversationEntry {
  return {
    type: stringField(entry, ...ENTRY.type),
    draft: field(entry, ...ENTRY.draft) === true,
    from: displayName(field(entry, ...ENTRY.from)),
    to: displayName(field(entry, ...ENTRY.to)),
    cc: displayName(field(entry, ...ENTRY.cc)),
    at: dateOf(entry, ENTRY.at),
    subject: stringField(entry, ...ENTRY.subject),
    message: stringField(entry, ...ENTRY.message),
  };
}

function attachmentOf(attachment: unknown): Attachment {
  const size = field(attachment, ...ATTACHMENT.size);
  return { name: stringField(attachment, ...ATTACHMENT.name), size: typeof size === 'number' ? size : undefined, at: dateOf(attachment, ATTACHMENT.at) };
}

/** A ticket detail (TicketApiModel). */
export function readTicket(raw: unknown): Ticket {
  const item = readListItem(raw);
  const template = stringField(raw, ...MEMBERS.templateId);
  return {
    ...item,
    description: stringField(raw, ...membersOf('description').ids),
    cc: stringField(raw, ...membersOf('cc').ids) || undefined,
    source: stringField(raw, ...MEMBERS.source),
    updated: dateOf(raw, MEMBERS.updated),
    deleted: field(raw, ...MEMBERS.deleted) === true ? { on: dateOf(raw, MEMBERS.deletedOn) } : undefined,
    resolution: resolutionOf(raw),
    conversation: arrayField(raw, ...MEMBERS.conversation).map(entryOf),
    attachments: arrayField(raw, ...MEMBERS.attachments).map(attachmentOf),
    requesterEmail: requesterEmail(raw),
    templateId: template === '' ? undefined : template,
  };
}
