// The paginated list (spec 4.1): list types, search, filterBy and paging.
// One pass over the tickets kept newest first; no per-request sort, so a page
// stays fast with tens of thousands of tickets.
import type { SandboxTicket, SandboxUser } from './model.js';
import { Permission, StatusType } from './model.js';
import type { SandboxStore } from './store.js';
import { fullName } from './views.js';

export const LIST_TYPES = [
  'AllMyGroups', 'MyOpenOrUnassigned', 'UnassignedTickets', 'MyOpenTickets', 'MyTicketsOnhold',
  'MyOverdueTickets', 'MyPendingTickets', 'MyTicketsDueToday', 'MyEscalated', 'AllEscalated',
  'MyCompletedTickets', 'AllMyTickets', 'MyOpenTasks', 'MyCompletedTasks', 'TicketsOnHold',
  'OverdueTickets', 'TicketsDueToday', 'PendingTickets', 'CompletedTickets', 'AllTickets',
] as const;
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

/** The page of tickets, plus how many matched in all (sent as X-Total-Count). */
export function listTickets(store: SandboxStore, user: SandboxUser, permissions: readonly string[], query: ListQuery, now: Date): { page: SandboxTicket[]; total: number } {
  const predicate = LIST_PREDICATES[query.listType];
  const onlyOwn = permissions.includes(Permission.onlyPrivate);
  const nowIso = now.toISOString();
  const todayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())).toISOString();
  const tomorrowStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)).toISOString();
  const statusTypes = new Map(store.state.lookups.status.map((s) => [s.id, s.statusType]));
  const matchesSearch = searchMatcher(store, query);
  const first = (query.page - 1) * query.length;
  const page: SandboxTicket[] = [];
  let total = 0;
  for (const ticket of store.newestFirst) {
    if (ticket.isDeleted) continue;
    const involvesUser = ticket.creatorId === user.id || ticket.assignedUser === user.id;
    if (onlyOwn && !involvesUser) continue;
    const statusType = statusTypes.get(ticket.ticketStatusId);
    const completed = statusType === StatusType.resolved || statusType === StatusType.closed;
    const due = ticket.dueDate;
    const facts: Facts = {
      statusType,
      involvesUser,
      completed,
      overdue: due !== null && due < nowIso && !completed,
      dueToday: due !== null && due >= todayStart && due < tomorrowStart && !completed,
    };
    if (!predicate(ticket, facts, user) || !matchesSearch(ticket)) continue;
    if (total >= first && page.length < query.length) page.push(ticket);
    total++;
  }
  return { page, total };
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
