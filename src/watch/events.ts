// The events `tkt watch` makes of two reads of the same tickets (docs/cli.md, README "Watching"):
// a ticket that entered the watched set (added), left it (removed: why, and its values when
// it was read since), or whose watched fields changed (changed, with old and new values); for
// `tkt watch ID...`, new conversation entries (replied). Every event has `changes` (docs/cli.md
// section 13 gives it in the event's shape): empty when there are none.
import { readListItem, type ConversationEntry } from '../model/ticket.js';

/** What a watch keeps of a ticket between polls, and prints with each event. */
export interface WatchedTicket {
  id: number | string;
  title: string | null;
  status: string | null;
  priority: string | null;
  assignee: string | null;
  requester: string | null;
  /** ISO 8601. */
  due: string | null;
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
  ticket: Omit<WatchedTicket, 'replies'>;
}

/** A list item (or a detail) as a watch keeps it; undefined when it has no ID. */
export function watchedTicket(raw: unknown, conversation?: readonly ConversationEntry[]): WatchedTicket | undefined {
  const item = readListItem(raw);
  if (item.id === undefined) return undefined;
  return {
    id: item.id,
    title: item.title ?? null,
    status: item.status ?? null,
    priority: item.priority ?? null,
    assignee: item.assignee ?? null,
    requester: item.requester ?? null,
    due: item.due?.toISOString() ?? null,
    ...(conversation === undefined ? {} : { replies: conversation.length }),
  };
}

function shown({ replies: _replies, ...ticket }: WatchedTicket): WatchEvent['ticket'] {
  return ticket;
}

/** Every ticket of `snapshot` as added (the first poll with --initial). */
export function addedEvents(snapshot: Snapshot, at: string): WatchEvent[] {
  return [...snapshot.values()].map((ticket) => ({ event: 'added', id: ticket.id, at, changes: {}, ticket: shown(ticket) }));
}

function changesOf(old: WatchedTicket, now: WatchedTicket): Changes {
  const changes: Changes = {};
  for (const name of WATCHED_FIELDS) if (old[name] !== now[name]) changes[name] = [old[name], now[name]];
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
    const now = departure?.ticket ?? old;
    events.push({ event: 'removed', id: old.id, at, changes: changesOf(old, now), reason: departure?.reason ?? 'left the view', ticket: shown(now) });
  }
  return events;
}
