// The caller's queue at a glance (docs/cli.md section 10), for `tkt status`: how many of their
// tickets are open, overdue, due today, on hold, pending and escalated, how many in their groups
// have nobody assigned, then the most urgent few. Each count is the service's own view, walked
// whole, but "due today", which is the user's day (readQueue).
import { tktCommand } from '../config/session.js';
import type { ApiClient } from '../api/types.js';
import type { Context } from '../context/context.js';
import { renderPlainTable } from '../output/plain-table.js';
import { createStyle } from '../output/style.js';
import type { Column } from '../output/table.js';
import { formatDue, sameLocalDay } from '../output/time.js';
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

const idKey = (ticket: TicketListItem): string => String(listedTicketId(ticket));

export async function readQueue(api: ApiClient, signal: AbortSignal, now: Date): Promise<Queue> {
  const all = (listType: string) => viewTickets(api, listType, signal);
  const [lists, groups] = await Promise.all([Promise.all(COUNTS.map(([, listType]) => all(listType))), all('AllMyGroups')]);
  const counts: Record<string, number> = {};
  COUNTS.forEach(([key], index) => (counts[key] = lists[index]!.length));
  // "Due today" by the user's local day, as --due-before reads a date: the service's view counts
  // its own day (the sandbox's is UTC's), which in Tokyo held tickets due at 08:00 tomorrow. It
  // costs no request: what is due earlier today is in the overdue view, what is due later today
  // in the open, on-hold, pending or escalated one (and the service's due-today view is read too).
  // By ID: an item without one is exit 1 (listedTicketId), not a ticket counted once per view.
  const mine = new Map(
    lists
      .flat()
      .map((item) => readListItem(item))
      .map((ticket) => [idKey(ticket), ticket]),
  );
  counts.dueToday = [...mine.values()].filter((ticket) => !ticket.settled && ticket.due !== undefined && sameLocalDay(ticket.due, now)).length;
  // A resolved or closed ticket nobody was assigned to is no one's work.
  counts.unassignedInMyGroups = groups.map(readListItem).filter((ticket) => ticket.assignee === undefined && !ticket.settled).length;

  // The urgent table lists every overdue ticket the count counts, first: the service's overdue
  // view holds on-hold, pending and escalated tickets too. Then the tickets being worked, open
  // (In Progress too) and escalated ones: an escalated ticket due today goes before an open one
  // due next week. On-hold and pending ones wait on someone else, and come in only once overdue.
  const view = (key: (typeof COUNTS)[number][0]) => lists[COUNTS.findIndex(([countKey]) => countKey === key)]!.map(readListItem);
  const overdueView = view('overdue');
  const overdueIds = new Set(overdueView.map(idKey));
  // Once each: a ticket whose status changed between the reads may be in two views.
  const candidates = [...new Map([...overdueView, ...view('open'), ...view('escalated')].map((ticket) => [idKey(ticket), ticket])).values()];
  const dueOf = (ticket: TicketListItem) => ticket.due?.getTime() ?? Number.POSITIVE_INFINITY;
  const overdue = (ticket: TicketListItem) => Number(overdueIds.has(idKey(ticket)) || dueOf(ticket) < now.getTime());
  // Overdue first, then the nearest due date; tickets without one last. --json prints them as the service sent them.
  const urgent = candidates
    .sort((a, b) => overdue(b) - overdue(a) || dueOf(a) - dueOf(b))
    .slice(0, URGENT_SHOWN)
    .map((ticket) => ticket.raw);
  return { counts, urgent };
}

/** The IDs of the urgent tickets, in order. */
export function urgentIds(queue: Queue): (number | string)[] {
  return queue.urgent.map((item) => listedTicketId(readListItem(item)));
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
export async function renderQueue({ counts, urgent }: Queue, ctx: Context): Promise<{ text: string; leftOut: string }> {
  const piped = !ctx.io.stdoutIsTTY;
  const style = createStyle(ctx.io.stdoutColor);
  const rows: [string, number][] = [
    ...COUNTS.map(([key, , label]): [string, number] => [label, counts[key]!]),
    ['unassigned in your groups', counts.unassignedInMyGroups!],
  ];
  const tickets = urgent.map((item) => {
    const ticket = readListItem(item);
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
