// How `tkt list` prints tickets, page by page as they arrive (so `--all` over 100,000 tickets
// never holds them all): a table for people, IDs with -q, one JSON array with --json.
import type { Context } from '../context.js';
import { createJsonArrayWriter } from '../output/json.js';
import { createStyle } from '../output/style.js';
import { renderTable, type Column, type Row } from '../output/table.js';
import { formatDue } from '../output/time.js';
import { writeText } from '../output/write.js';
import { sanitizeInline } from '../output/sanitize.js';
import { scalarFields, summarizeTicket, type TicketSummary } from './summary.js';

export interface ListPrinter {
  page(items: readonly unknown[]): Promise<void>;
  /** Closes the output; says "no tickets" (human) or prints `[]` (--json) when there were none. */
  end(): Promise<void>;
}

// Fallback columns are capped so an item with fifty fields still gives a readable table.
const MAX_FALLBACK_COLUMNS = 8;

function ticketColumns(color: boolean): Column[] {
  const style = createStyle(color);
  return [
    { header: 'ID', key: 'id', align: 'right' },
    { header: 'TITLE', key: 'title', shrink: true, minWidth: 12 },
    { header: 'STATUS', key: 'status', shrink: true, minWidth: 8 },
    { header: 'PRIORITY', key: 'priority' },
    { header: 'REQUESTER', key: 'requester', shrink: true, minWidth: 10 },
    { header: 'ASSIGNEE', key: 'assignee', shrink: true, minWidth: 10 },
    { header: 'DUE', key: 'due', paint: (text, row) => (row.overdue ? style.red(text) : text) },
  ];
}

function ticketRow(ticket: TicketSummary, now: Date): Row {
  const due = formatDue(ticket.due, now);
  return {
    id: ticket.id,
    title: ticket.title,
    status: ticket.status,
    priority: ticket.priority,
    requester: ticket.requester,
    assignee: ticket.assignee,
    due: due.text,
    overdue: due.overdue,
  };
}

/** When no item has an ID or a title, the shape is unknown: show what scalars there are. */
function fallbackTable(items: readonly unknown[]): { columns: Column[]; rows: Row[] } {
  const rows = items.map(scalarFields);
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].slice(0, MAX_FALLBACK_COLUMNS);
  const columns = keys.map((key, i): Column => ({ header: key.toUpperCase(), key, shrink: i > 0 }));
  return { columns, rows };
}

export function createListPrinter(ctx: Context): ListPrinter {
  const { io, globals } = ctx;
  let count = 0;

  if (globals.json) {
    const writer = createJsonArrayWriter(io.stdout);
    return {
      async page(items) {
        for (const item of items) await writer.push(item);
      },
      end: () => writer.end(),
    };
  }

  const summarize = (items: readonly unknown[]) => items.map(summarizeTicket);

  if (globals.quiet) {
    return {
      async page(items) {
        const ids = summarize(items).flatMap((ticket) => (ticket.id === undefined ? [] : [sanitizeInline(String(ticket.id))]));
        if (ids.length > 0) await writeText(io.stdout, ids.join('\n') + '\n');
      },
      async end() {},
    };
  }

  return {
    async page(items) {
      if (items.length === 0) return;
      count += items.length;
      const tickets = summarize(items);
      const known = tickets.some((ticket) => ticket.id !== undefined || ticket.title !== undefined);
      const now = ctx.now();
      const { columns, rows } = known
        ? { columns: ticketColumns(io.color), rows: tickets.map((ticket) => ticketRow(ticket, now)) }
        : fallbackTable(items);
      await writeText(io.stdout, await renderTable(columns, rows, { width: io.columns, color: io.color, plain: !io.stdoutIsTTY }));
    },
    async end() {
      if (count === 0) await writeText(io.stderr, 'no tickets\n');
    },
  };
}
