// The caller's queue at a glance (docs/cli.md section 10), for `tkt status`: how many of their
// tickets are open, overdue, due today, on hold, pending and escalated, how many in their groups
// have nobody assigned, then the most urgent few. Each count is the service's own view, walked
// whole, but "due today", which is the user's day (readQueue). What a list item leaves out (its
// due date, its assignee) is read from the ticket's detail, as `tkt list`'s filters read it.
import { tktCommand } from '../config/session.js';
import type { ApiClient } from '../api/types.js';
import type { Context } from '../context/context.js';
import { OperationError } from '../errors.js';
import { renderPlainTable } from '../output/plain-table.js';
import { createStyle } from '../output/style.js';
import type { Column } from '../output/table.js';
import { formatDue, sameLocalDay } from '../output/time.js';
import { judgeEach, type DetailReads } from './details.js';
import { TICKET_COLUMN_FIT } from './output.js';
import { viewTickets } from './pages.js';
import { listedTicketId, readListItem, type TicketListItem } from '../model/ticket.js';
import { isoUtc } from '../util/iso-time.js';

// Counted views, in the order they are shown (docs/cli.md section 10), with their list types.
const COUNTS = [
  ['open', 'MyOpenTickets', 'open'],
  ['overdue', 'MyOverdueTickets', 'overdue'],
  ['dueToday', 'MyTicketsDueToday', 'due today'],
  ['onHold', 'MyTicketsOnhold', 'on hold'],
  ['pending', 'MyPendingTickets', 'pending'],
  ['escalated', 'MyEscalated', 'escalated'],
] as const;
const URGENT_SHOWN = 5;

export interface Queue {
  /** open, overdue, dueToday, onHold, pending, escalated, unassignedInMyGroups. */
  counts: Record<string, number>;
  /** The most urgent tickets, as the list gives them: the overdue ones (whatever their status) first, then open and escalated ones by nearest due date. */
  urgent: unknown[];
}

/** The queue (what --json prints), and its urgent tickets as tkt read them. */
export interface QueueReading {
  queue: Queue;
  /** The urgent tickets in order, read from the detail where the list item left out the due date that orders them. */
  urgent: TicketListItem[];
}

const idKey = (item: unknown): string => String(listedTicketId(readListItem(item)));

/** Each ticket of `items` once, by ID: a ticket whose status changed between the reads may be in two views. */
function eachOnce(items: readonly unknown[]): unknown[] {
  return [...new Map(items.map((item) => [idKey(item), item])).values()];
}

/** What a queue's count or order needs of a ticket that neither its list item nor its detail says. */
function unsaidFor(what: string) {
  return (id: number | string) => new OperationError(`ticket #${id}: neither the list nor its detail says its ${what}, which the queue's counts need`);
}

/** The ticket's due date, when it says one (null too). */
function dueSaid(item: unknown): TicketListItem | undefined {
  const ticket = readListItem(item);
  return ticket.says('due') ? ticket : undefined;
}

export async function readQueue(api: ApiClient, signal: AbortSignal, now: Date): Promise<QueueReading> {
  const all = (listType: string) => viewTickets(api, listType, signal);
  const [lists, groups] = await Promise.all([Promise.all(COUNTS.map(([, listType]) => all(listType))), all('AllMyGroups')]);
  const counts: Record<string, number> = {};
  COUNTS.forEach(([key], index) => (counts[key] = lists[index]!.length));
  // A ticket whose item leaves out both its due date and its assignee is read once for both.
  const reads: DetailReads = { api: () => Promise.resolve(api), signal, read: new Map() };
  // "Due today" by the user's local day, as --due-before reads a date: the service's view counts
  // its own day (the sandbox's is UTC's), which in Tokyo held tickets due at 08:00 tomorrow. It
  // costs no request when the items say their due dates: what is due earlier today is in the
  // overdue view, what is due later today in the open, on-hold, pending or escalated one (and the
  // service's due-today view is read too).
  const mine = await judgeEach(eachOnce(lists.flat()), dueSaid, reads, unsaidFor('due date'));
  counts.dueToday = mine.filter((ticket) => !ticket.settled && ticket.due !== undefined && sameLocalDay(ticket.due, now)).length;
  // A resolved or closed ticket nobody was assigned to is no one's work.
  const unassigned = await judgeEach(
    eachOnce(groups),
    (item) => {
      const ticket = readListItem(item);
      const assignee = ticket.field('assignee');
      if (!assignee.said || assignee.unread) return undefined;
      if (!assignee.empty) return false;
      return ticket.says('settled') ? !ticket.settled : undefined;
    },
    reads,
    unsaidFor('assignee and status'),
  );
  counts.unassignedInMyGroups = unassigned.filter(Boolean).length;

  // The urgent table lists every overdue ticket the count counts, first: the service's overdue
  // view holds on-hold, pending and escalated tickets too. Then the tickets being worked, open
  // (In Progress too) and escalated ones: an escalated ticket due today goes before an open one
  // due next week. On-hold and pending ones wait on someone else, and come in only once overdue.
  const view = (key: (typeof COUNTS)[number][0]) => lists[COUNTS.findIndex(([countKey]) => countKey === key)]!;
  const overdueIds = new Set(view('overdue').map(idKey));
  const candidates = eachOnce([...view('overdue'), ...view('open'), ...view('escalated')]);
  const tickets = await judgeEach(candidates, dueSaid, reads, unsaidFor('due date'));
  const dueOf = (index: number) => tickets[index]!.due?.getTime() ?? Number.POSITIVE_INFINITY;
  const inOverdueView = candidates.map((item) => overdueIds.has(idKey(item)));
  const overdue = (index: number) => Number(inOverdueView[index]! || dueOf(index) < now.getTime());
  // Overdue first, then the nearest due date; tickets without one last. --json prints them as the service sent them.
  const order = candidates
    .map((_item, index) => index)
    .sort((a, b) => overdue(b) - overdue(a) || dueOf(a) - dueOf(b))
    .slice(0, URGENT_SHOWN);
  return { queue: { counts, urgent: order.map((index) => candidates[index]) }, urgent: order.map((index) => tickets[index]!) };
}

/** The IDs of the urgent tickets, in order. */
export function urgentIds(reading: QueueReading): (number | string)[] {
  return reading.urgent.map(listedTicketId);
}

// The urgent tickets sit under the counts, indented as they are.
const INDENT = '  ';

/**
 * The queue as people read it: the counts, then the urgent tickets as an aligned table. Piped,
 * as `tkt list` is (README: Output): tab-separated lines without headings, the counts then the
 * urgent tickets, due dates in ISO 8601; the overdue ones left out are in the overdue count.
 * `leftOut` is the line for stderr, after it, that names the columns a narrow terminal's table
 * left out (else '').
 */
export async function renderQueue({ queue: { counts }, urgent }: QueueReading, ctx: Context): Promise<{ text: string; leftOut: string }> {
  const piped = !ctx.io.stdoutIsTTY;
  const style = createStyle(ctx.io.stdoutColor);
  const rows: [string, number][] = [
    ...COUNTS.map(([key, , label]): [string, number] => [label, counts[key]!]),
    ['unassigned in your groups', counts.unassignedInMyGroups!],
  ];
  const tickets = urgent.map((ticket) => {
    const due = formatDue(ticket.due, ctx.now(), ticket);
    const dueText = piped ? (ticket.due === undefined ? undefined : isoUtc(ticket.due)) : due.text === '' ? 'no due date' : due.text;
    return { id: ticket.id, due: dueText, overdue: due.overdue, priority: ticket.priority, status: ticket.status, title: ticket.title };
  });
  const columns: Column[] = [
    // Giving way at a narrow terminal as `tkt list`'s columns do: the ID and the title stay.
    { header: 'ID', key: 'id', align: 'right', ...TICKET_COLUMN_FIT.id },
    { header: 'DUE', key: 'due', paint: (text, row) => (row.overdue === true ? style.red(text) : text), ...TICKET_COLUMN_FIT.due },
    { header: 'PRIORITY', key: 'priority', ...TICKET_COLUMN_FIT.priority },
    { header: 'STATUS', key: 'status', ...TICKET_COLUMN_FIT.status },
    { header: 'TITLE', key: 'title', ...TICKET_COLUMN_FIT.title },
  ];
  if (piped) {
    const countColumns = [{ key: 'label' }, { key: 'count' }];
    const text =
      renderPlainTable(
        countColumns,
        rows.map(([label, count]) => ({ label, count })),
      ) + renderPlainTable(columns, tickets);
    return { text, leftOut: '' };
  }
  const width = Math.max(...rows.map(([label]) => label.length));
  let leftOut = '';
  const lines = [style.bold('Your queue'), ...rows.map(([label, count]) => `${INDENT}${label.padEnd(width)}  ${String(count).padStart(4)}`)];
  if (tickets.length > 0) {
    // The table module (and string-width) loads only at a terminal: not piped, for --json or -q.
    const { leftOutNote, renderTable } = await import('../output/table.js');
    const table = renderTable(columns, tickets, {
      width: ctx.io.size().columns - INDENT.length,
      color: ctx.io.stdoutColor,
      // Only to a person at the terminal; `tkt status` has no --columns, and show has every field.
      onLeftOut: (keys) => (leftOut = ctx.io.stderrIsTTY ? leftOutNote(keys, `"${tktCommand(ctx, 'show ID')}" has them`, ctx.io.size().columns) : ''),
    });
    lines.push(
      '',
      style.bold('Most urgent'),
      ...table
        .trimEnd()
        .split('\n')
        .map((line) => INDENT + line),
    );
    // The overdue tickets come first: those the table has no room for are said, not dropped.
    const overdueNotShown = counts.overdue! - Math.min(counts.overdue!, urgent.length);
    if (overdueNotShown > 0) lines.push(`${INDENT}and ${overdueNotShown} more overdue: ${tktCommand(ctx, 'list --view my-overdue-tickets')}`);
  }
  return { text: `${lines.join('\n')}\n`, leftOut };
}
