// The events `tkt watch` makes of two reads of the same tickets (docs/cli.md, README "Watching"):
// a ticket that entered the watched set (added), left it (removed: why, and its values when
// it was read since), or whose watched fields changed (changed, with old and new values); for
// `tkt watch ID...`, new conversation entries (replied). Every event has `changes` (docs/cli.md
// section 13 gives it in the event's shape): empty when there are none.
import { readListItem, type ConversationEntry } from '../model/ticket.js';

/**
 * What a watch keeps of a ticket between polls, and prints with each event. A field is null when
 * the service says it is empty, and undefined (absent from --state) when it does not say: the
 * spec names no list item's members, and a service's may carry fewer than the sandbox's.
 */
export interface WatchedTicket {
  id: number | string;
  title?: string | null;
  status?: string | null;
  priority?: string | null;
  assignee?: string | null;
  requester?: string | null;
  /** ISO 8601. */
  due?: string | null;
  /** Conversation entries seen (`tkt watch ID...` only). */
  replies?: number | undefined;
}

/** The fields whose change is a `changed` event, in the order they are told. */
export const WATCHED_FIELDS = ['status', 'priority', 'assignee', 'due', 'title'] as const;
export type WatchedField = (typeof WATCHED_FIELDS)[number];

/** The tickets of one poll by ID, in the service's order. */
export type Snapshot = Map<string, WatchedTicket>;

export interface Reply {
  from: string | null;
  /** The service's entry type (`RequesterReply`), as `tkt show --json` gives it; the line says it in words. */
  kind: string | null;
  at: string | null;
}

/**
 * Why a ticket left: read deleted (or gone), or still there but no longer in the view; or not read
 * (more missing tickets in one poll than it reads: README, Watching).
 */
export type RemovedReason = 'deleted' | 'left the view' | 'not confirmed';

/** What a poll learnt of a ticket of the previous poll that is not in this one. */
export interface Departure {
  reason: RemovedReason;
  /** Its values when the poll read it; undefined when it was not read, or is gone for good. */
  ticket: WatchedTicket | undefined;
}

export type Changes = Partial<Record<WatchedField, [string | null, string | null]>>;

export interface WatchEvent {
  event: 'added' | 'removed' | 'changed' | 'replied';
  id: number | string;
  /** When the poll that saw it was read, ISO 8601. */
  at: string;
  /** Old and new values: a change; for removed, how the ticket read since it left differs from when last seen. */
  changes: Changes;
  /** removed only. */
  reason?: RemovedReason;
  replies?: Reply[];
  /** Every field given: null for one the service has not said (docs/cli.md section 13 gives the event's shape). */
  ticket: ShownTicket;
}

type ShownField = WatchedField | 'requester';
export type ShownTicket = { id: number | string } & Record<ShownField, string | null>;
const SHOWN_FIELDS: readonly ShownField[] = [...WATCHED_FIELDS, 'requester'];

/** A list item (or a detail) as a watch keeps it, each field it does not carry left out; undefined when it has no ID. */
export function watchedTicket(raw: unknown, conversation?: readonly ConversationEntry[]): WatchedTicket | undefined {
  const item = readListItem(raw);
  if (item.id === undefined) return undefined;
  const values: Record<ShownField, string | undefined> = {
    title: item.title,
    status: item.status,
    priority: item.priority,
    assignee: item.assignee,
    requester: item.requester,
    due: item.due?.toISOString(),
  };
  const ticket: WatchedTicket = { id: item.id };
  // The watch's names are the field table's keys.
  for (const name of SHOWN_FIELDS) if (item.field(name).said) ticket[name] = values[name] ?? null;
  if (conversation !== undefined) ticket.replies = conversation.length;
  return ticket;
}

/** Whether the service left out a watched field of `ticket`, other than those of `besides`. */
export function lacksWatchedField(ticket: WatchedTicket, besides: ReadonlySet<WatchedField>): boolean {
  return WATCHED_FIELDS.some((name) => ticket[name] === undefined && !besides.has(name));
}

/** `ticket` with each field it does not say taken from `other`, a reading of the same ticket (its detail, or how it was last seen). */
export function withFieldsOf(ticket: WatchedTicket, other: WatchedTicket | undefined): WatchedTicket {
  if (other === undefined || !SHOWN_FIELDS.some((name) => ticket[name] === undefined && other[name] !== undefined)) return ticket;
  const known = { ...ticket };
  for (const name of SHOWN_FIELDS) if (known[name] === undefined) known[name] = other[name];
  return known;
}

/**
 * Each ticket of `after` with what it does not say as `before` last saw it: the snapshot kept, so
 * that a change the service does not say now is told once it says it again.
 */
export function keepLastKnown(after: Snapshot, before: Snapshot | undefined): Snapshot {
  if (before === undefined) return after;
  return new Map([...after].map(([key, ticket]) => [key, withFieldsOf(ticket, before.get(key))]));
}

/** The watched fields that no ticket of `snapshot` says (undefined for no ticket): their changes cannot be told. */
export function unsaidFields(snapshot: Snapshot): WatchedField[] | undefined {
  if (snapshot.size === 0) return undefined;
  const unsaid = new Set<WatchedField>(WATCHED_FIELDS);
  // Most services' first ticket says every field.
  for (const ticket of snapshot.values()) {
    for (const name of unsaid) if (ticket[name] !== undefined) unsaid.delete(name);
    if (unsaid.size === 0) break;
  }
  return [...unsaid];
}

function shown(ticket: WatchedTicket): ShownTicket {
  const given: ShownTicket = { id: ticket.id, title: null, status: null, priority: null, assignee: null, requester: null, due: null };
  for (const name of SHOWN_FIELDS) given[name] = ticket[name] ?? null;
  return given;
}

/** Every ticket of `snapshot` as added (the first poll with --initial). */
export function addedEvents(snapshot: Snapshot, at: string): WatchEvent[] {
  return [...snapshot.values()].map((ticket) => ({ event: 'added', id: ticket.id, at, changes: {}, ticket: shown(ticket) }));
}

/** What changed of the fields both say: one not said is no change, to empty or from it. */
function changesOf(old: WatchedTicket, now: WatchedTicket): Changes {
  const changes: Changes = {};
  for (const name of WATCHED_FIELDS) {
    const [from, to] = [old[name], now[name]];
    if (from !== undefined && to !== undefined && from !== to) changes[name] = [from, to];
  }
  return changes;
}

/**
 * What happened between `before` and `after`: changes and additions in the order of `after`,
 * then removals in the order of `before`. `conversations` gives the new entries of a ticket
 * whose count of entries grew (`tkt watch ID...`); `departures`, what the poll learnt of the
 * tickets that left (a ticket it says nothing of left the view, as last seen).
 */
export function diffSnapshots(
  before: Snapshot,
  after: Snapshot,
  at: string,
  conversations?: Map<string, readonly ConversationEntry[]>,
  departures?: Map<string, Departure>,
): WatchEvent[] {
  const events: WatchEvent[] = [];
  for (const [key, ticket] of after) {
    const old = before.get(key);
    if (old === undefined) {
      events.push({ event: 'added', id: ticket.id, at, changes: {}, ticket: shown(ticket) });
      continue;
    }
    const changes = changesOf(old, ticket);
    if (Object.keys(changes).length > 0) events.push({ event: 'changed', id: ticket.id, at, changes, ticket: shown(ticket) });
    const entries = conversations?.get(key);
    if (entries !== undefined && old.replies !== undefined && entries.length > old.replies) {
      const replies = entries.slice(old.replies).map((entry) => ({ from: entry.from ?? null, kind: entry.type ?? null, at: entry.at?.toISOString() ?? null }));
      events.push({ event: 'replied', id: ticket.id, at, changes: {}, replies, ticket: shown(ticket) });
    }
  }
  for (const [key, old] of before) {
    if (after.has(key)) continue;
    const departure = departures?.get(key);
    const now = withFieldsOf(departure?.ticket ?? old, old);
    events.push({ event: 'removed', id: old.id, at, changes: changesOf(old, now), reason: departure?.reason ?? 'left the view', ticket: shown(now) });
  }
  return events;
}
