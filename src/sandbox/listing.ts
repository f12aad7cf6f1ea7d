// The paginated list (docs/service.md 4.1): list types, search, filterBy and paging.
// One pass over the tickets kept newest first; no per-request sort, so a page
// stays fast with tens of thousands of tickets.
import type { SandboxTicket, SandboxUser } from './model.js';
import { Permission, StatusType } from './model.js';
import type { SandboxStore } from './store.js';
import { fullName, ticketApiModel } from './views.js';

// The service's own list types (docs/service.md 4.1). The client has its copy (tickets/list-query.ts): the
// sandbox stands for the service and shares no code with the client, on purpose.
// jscpd:ignore-start
export const LIST_TYPES = [
  'AllMyGroups',
  'MyOpenOrUnassigned',
  'UnassignedTickets',
  'MyOpenTickets',
  'MyTicketsOnhold',
  'MyOverdueTickets',
  'MyPendingTickets',
  'MyTicketsDueToday',
  'MyEscalated',
  'AllEscalated',
  'MyCompletedTickets',
  'AllMyTickets',
  'MyOpenTasks',
  'MyCompletedTasks',
  'TicketsOnHold',
  'OverdueTickets',
  'TicketsDueToday',
  'PendingTickets',
  'CompletedTickets',
  'AllTickets',
] as const;
// jscpd:ignore-end
export type ListType = (typeof LIST_TYPES)[number];

export const SEARCH_FIELDS = ['Subject', 'TicketId', 'Priority', 'Requester'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

export interface ListQuery {
  listType: ListType;
  search: string | undefined;
  searchIn: readonly SearchField[];
  page: number;
  length: number;
}

/** Facts about one ticket that the list types are defined by. */
interface Facts {
  statusType: number | undefined;
  involvesUser: boolean;
  overdue: boolean;
  dueToday: boolean;
  completed: boolean;
}

type Predicate = (ticket: SandboxTicket, facts: Facts, user: SandboxUser) => boolean;

const isOpen = (f: Facts): boolean => f.statusType === StatusType.open;
const LIST_PREDICATES: Record<ListType, Predicate> = {
  AllMyGroups: (t, _f, u) => t.groupId !== null && u.groupIds.includes(t.groupId),
  MyOpenOrUnassigned: (t, f) => (isOpen(f) && f.involvesUser) || (t.assignedUser === null && !f.completed),
  UnassignedTickets: (t) => t.assignedUser === null,
  MyOpenTickets: (_t, f) => isOpen(f) && f.involvesUser,
  MyTicketsOnhold: (_t, f) => f.statusType === StatusType.onHold && f.involvesUser,
  MyOverdueTickets: (_t, f) => f.overdue && f.involvesUser,
  MyPendingTickets: (_t, f) => f.statusType === StatusType.pending && f.involvesUser,
  MyTicketsDueToday: (_t, f) => f.dueToday && f.involvesUser,
  MyEscalated: (_t, f) => f.statusType === StatusType.escalated && f.involvesUser,
  AllEscalated: (_t, f) => f.statusType === StatusType.escalated,
  MyCompletedTickets: (_t, f) => f.completed && f.involvesUser,
  AllMyTickets: (_t, f) => f.involvesUser,
  MyOpenTasks: (t, _f, u) => t.tasks.some((task) => task.assignedTo === u.id && !task.done),
  MyCompletedTasks: (t, _f, u) => t.tasks.some((task) => task.assignedTo === u.id && task.done),
  TicketsOnHold: (_t, f) => f.statusType === StatusType.onHold,
  OverdueTickets: (_t, f) => f.overdue,
  TicketsDueToday: (_t, f) => f.dueToday,
  PendingTickets: (_t, f) => f.statusType === StatusType.pending,
  CompletedTickets: (_t, f) => f.completed,
  AllTickets: () => true,
};

export function parseListType(value: string): ListType | undefined {
  const wanted = value.trim().toLowerCase();
  return LIST_TYPES.find((t) => t.toLowerCase() === wanted);
}

export function parseSearchField(value: string): SearchField | undefined {
  const wanted = value.trim().toLowerCase();
  return SEARCH_FIELDS.find((f) => f.toLowerCase() === wanted);
}

const CACHE_ENTRIES = 50;
interface CachedMatches {
  version: number;
  second: number;
  tickets: SandboxTicket[];
}
// Walking page after page of one query (tkt list --all) must not rescan 20,000 tickets
// each time: the matches are kept until the store changes or the clock's second moves on.
const matchCache = new WeakMap<SandboxStore, Map<string, CachedMatches>>();

/** The page of tickets, plus how many matched in all (sent as X-Total-Count). */
export function listTickets(
  store: SandboxStore,
  user: SandboxUser,
  permissions: readonly string[],
  query: ListQuery,
  now: Date,
): { page: SandboxTicket[]; total: number } {
  const onlyOwn = permissions.includes(Permission.onlyPrivate);
  const key = JSON.stringify([query.listType, user.id, onlyOwn, query.search?.trim().toLowerCase() ?? '', [...query.searchIn].sort()]);
  const second = Math.floor(now.getTime() / 1000);
  let cache = matchCache.get(store);
  if (!cache) matchCache.set(store, (cache = new Map()));
  let entry = cache.get(key);
  if (!entry || entry.version !== store.version || entry.second !== second) {
    entry = { version: store.version, second, tickets: matchingTickets(store, user, onlyOwn, query, now) };
    cache.delete(key);
    cache.set(key, entry);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  }
  const first = (query.page - 1) * query.length;
  return { page: entry.tickets.slice(first, first + query.length), total: entry.tickets.length };
}

interface DetailCache {
  version: number;
  json: Map<number, string>;
}
const detailCaches = new WeakMap<SandboxStore, DetailCache>();

/**
 * A ticket's TicketApiModel as JSON, kept until the store changes: a requester's pages repeat
 * the whole detail of every ticket, and building 20,000 of them for each walk is most of its cost.
 */
export function ticketApiModelJson(store: SandboxStore, ticket: SandboxTicket): string {
  let cache = detailCaches.get(store);
  if (cache === undefined || cache.version !== store.version) {
    cache = { version: store.version, json: new Map() };
    detailCaches.set(store, cache);
  }
  let json = cache.json.get(ticket.id);
  if (json === undefined) cache.json.set(ticket.id, (json = JSON.stringify(ticketApiModel(store, ticket))));
  return json;
}

interface RequesterIndex {
  version: number;
  byCreator: Map<string, SandboxTicket[]>;
}
const requesterIndexes = new WeakMap<SandboxStore, RequesterIndex>();

/**
 * A requester's live tickets, newest first (list by username). Indexed once per change of the
 * store: walking a requester's 800 pages must not rescan every ticket for each of them.
 */
export function ticketsOfRequester(store: SandboxStore, creatorId: string): readonly SandboxTicket[] {
  let index = requesterIndexes.get(store);
  if (index === undefined || index.version !== store.version) {
    const byCreator = new Map<string, SandboxTicket[]>();
    for (const ticket of store.newestFirst) {
      if (ticket.isDeleted || !ticket.creatorId) continue;
      const own = byCreator.get(ticket.creatorId);
      if (own === undefined) byCreator.set(ticket.creatorId, [ticket]);
      else own.push(ticket);
    }
    index = { version: store.version, byCreator };
    requesterIndexes.set(store, index);
  }
  return index.byCreator.get(creatorId) ?? [];
}

function matchingTickets(store: SandboxStore, user: SandboxUser, onlyOwn: boolean, query: ListQuery, now: Date): SandboxTicket[] {
  const predicate = LIST_PREDICATES[query.listType];
  const nowIso = now.toISOString();
  const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const tomorrowStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
  const statusTypes: number[] = [];
  for (const status of store.state.lookups.status) statusTypes[status.id] = status.statusType;
  const matchesSearch = searchMatcher(store, query);
  const matches: SandboxTicket[] = [];
  // One Facts object reused for every ticket: this loop runs 20,000 times a request.
  const facts: Facts = { statusType: undefined, involvesUser: false, overdue: false, dueToday: false, completed: false };
  for (const ticket of store.newestFirst) {
    if (ticket.isDeleted) continue;
    const involvesUser = ticket.creatorId === user.id || ticket.assignedUser === user.id;
    if (onlyOwn && !involvesUser) continue;
    const statusType = statusTypes[ticket.ticketStatusId];
    const completed = statusType === StatusType.resolved || statusType === StatusType.closed;
    const due = ticket.dueDate;
    facts.statusType = statusType;
    facts.involvesUser = involvesUser;
    facts.completed = completed;
    facts.overdue = due !== null && !completed && due < nowIso;
    facts.dueToday = due !== null && !completed && due >= todayStart && due < tomorrowStart;
    if (predicate(ticket, facts, user) && matchesSearch(ticket)) matches.push(ticket);
  }
  return matches;
}

function searchMatcher(store: SandboxStore, query: ListQuery): (ticket: SandboxTicket) => boolean {
  const needle = query.search?.trim().toLowerCase();
  if (!needle) return () => true;
  const fields = new Set(query.searchIn.length > 0 ? query.searchIn : SEARCH_FIELDS);
  const priorityIds = new Set(store.state.lookups.priorities.filter((p) => p.priority.toLowerCase().includes(needle)).map((p) => p.id));
  const requesterIds = new Set(
    store.state.users.filter((u) => fullName(u).toLowerCase().includes(needle) || u.username.toLowerCase().includes(needle)).map((u) => u.id),
  );
  return (ticket) =>
    (fields.has('Subject') && ticket.title.toLowerCase().includes(needle)) ||
    (fields.has('TicketId') && String(ticket.id).includes(needle)) ||
    (fields.has('Priority') && ticket.ticketPriorityId !== null && priorityIds.has(ticket.ticketPriorityId)) ||
    (fields.has('Requester') && requesterIds.has(ticket.creatorId));
}
