// The records of `tkt list`: which columns a ticket has, how each reads at a terminal
// ("2d overdue") and piped or in CSV (ISO 8601), and what -q prints. The output module
// decides the format and prints page by page as they arrive, so `--all` over 100,000
// tickets never holds them all.
import type { Output } from '../output/types.js';
import type { RecordColumn, RecordPrinter } from '../output/types.js';
import { scalarMemberNames } from '../output/members.js';
import { createStyle } from '../output/style.js';
import { formatDay, formatDue } from '../output/time.js';
import { sanitizeInline } from '../output/sanitize.js';
import { isoUtc } from '../util/iso-time.js';
import { TICKET_MEMBER_ALIASES, listedTicketId, readListItem, type TicketListItem } from '../model/ticket.js';

// Fallback columns are capped so an item with fifty fields still gives a readable table.
const MAX_FALLBACK_COLUMNS = 8;

const iso = (date: Date | undefined) => (date === undefined ? undefined : isoUtc(date));

/**
 * How the ticket columns give way at a narrow terminal, in `tkt list` and in triage: the ID and
 * the title stay, and the title keeps 24 columns; before it gets less, the requester is left
 * out, then the assignee, the priority, the due date and the status (each first cut to its
 * minWidth).
 */
export const TICKET_COLUMN_FIT = {
  id: { priority: 5 },
  title: { shrink: true, minWidth: 24, priority: 5 },
  status: { shrink: true, minWidth: 11, priority: 4 },
  due: { priority: 3 },
  priority: { shrink: true, minWidth: 8, priority: 2 },
  assignee: { shrink: true, minWidth: 8, priority: 1 },
  requester: { shrink: true, minWidth: 8, priority: 0 },
  created: { priority: 0 },
} as const;

function ticketColumns(color: boolean): RecordColumn<TicketListItem>[] {
  const style = createStyle(color);
  return [
    // Never blank: an item whose ID tkt cannot find fails the run (listedTicketId), as -q does.
    { name: 'id', header: 'ID', human: listedTicketId, align: 'right', ...TICKET_COLUMN_FIT.id },
    { name: 'title', header: 'TITLE', human: (t) => t.title, ...TICKET_COLUMN_FIT.title },
    { name: 'status', header: 'STATUS', human: (t) => t.status, ...TICKET_COLUMN_FIT.status },
    { name: 'priority', header: 'PRIORITY', human: (t) => t.priority, ...TICKET_COLUMN_FIT.priority },
    { name: 'requester', header: 'REQUESTER', human: (t) => t.requester, ...TICKET_COLUMN_FIT.requester },
    { name: 'assignee', header: 'ASSIGNEE', human: (t) => t.assignee, ...TICKET_COLUMN_FIT.assignee },
    {
      name: 'due',
      header: 'DUE',
      human: (t, now) => formatDue(t.due, now, t).text,
      machine: (t) => iso(t.due),
      paint: (text, t, now) => (formatDue(t.due, now, t).overdue ? style.red(text) : text),
      ...TICKET_COLUMN_FIT.due,
    },
    // The local day, as DUE and --created-after read days; piped, the UTC timestamp.
    {
      name: 'created',
      header: 'CREATED',
      human: (t) => (t.created === undefined ? undefined : formatDay(t.created)),
      machine: (t) => iso(t.created),
      ...TICKET_COLUMN_FIT.created,
    },
  ];
}

const DEFAULT_TICKET_COLUMNS = ['id', 'title', 'status', 'priority', 'requester', 'assignee', 'due'];

/** Tickets page by page in the run's output format; says "no tickets" (human) when there were none. */
export function createListPrinter(output: Output, color: boolean): Promise<RecordPrinter> {
  return output.records<TicketListItem>({
    prepare: readListItem,
    columns: ticketColumns(color),
    // When no item has an ID or a title the shape is unknown: show what scalars there are.
    defaultColumns: (items) =>
      items.length === 0 ||
      items.some((item) => {
        const t = readListItem(item);
        return t.id !== undefined || t.title !== undefined;
      })
        ? DEFAULT_TICKET_COLUMNS
        : scalarMemberNames(items, MAX_FALLBACK_COLUMNS),
    aliases: TICKET_MEMBER_ALIASES,
    noun: 'tickets',
    quiet: (t) => sanitizeInline(String(listedTicketId(t))),
    none: 'no tickets',
  });
}
