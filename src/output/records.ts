// Lists of records (tickets, lookup items) printed page by page as they arrive: a table at a
// terminal, tab-separated lines when piped, RFC 4180 CSV with --csv, IDs with -q, a JSON
// array otherwise. --columns chooses the columns of the first three. Piped and CSV cells carry
// machine values (ISO 8601 timestamps), the table human ones ("2d overdue"). Tables and TSV are
// human output and show control characters made visible; CSV to a program carries them as sent.
import { isObject } from '../api/member-access.js';
import type { IO } from './io.js';
import type { Format, Output } from './types.js';
import { distinctNames, memberKey, pagedNameCheck, type MemberAliases } from './members.js';
import { sanitizeInline, sanitizeText } from './sanitize.js';
import { createStyle } from './style.js';
import { renderPlainTable, type Cell } from './plain-table.js';
import type { Column, FittedTable } from './table.js';
import { writeText } from './write.js';
import type { RecordColumn, RecordSpec, RecordPrinter } from './types.js';

export interface RecordContext {
  format: Format;
  columns: readonly string[] | undefined;
  io: IO;
  now: () => Date;
  array: Output['array'];
  warning: Output['warning'];
}

interface Entry<T> {
  item: unknown;
  record: T;
}

/** A member read straight from the item (--columns createdOn), under any of its names: scalars as they are, objects as JSON. */
function itemColumn<T>(name: string, aliases: MemberAliases | undefined): RecordColumn<Entry<T>> {
  const value = ({ item }: Entry<T>): Cell => {
    if (!isObject(item)) return undefined;
    const key = memberKey(item, name, aliases);
    const found = key === undefined ? undefined : item[key];
    if (found === undefined || found === null) return undefined;
    return typeof found === 'object' ? JSON.stringify(found) : (found as Cell);
  };
  return { name, header: name.toUpperCase(), human: value, ...(name.toLowerCase() === 'id' ? { align: 'right' as const } : { shrink: true }) };
}

function ownColumn<T>(column: RecordColumn<T>): RecordColumn<Entry<T>> {
  const { human, machine, paint, ...rest } = column;
  return {
    ...rest,
    human: (entry, now) => human(entry.record, now),
    ...(machine === undefined ? {} : { machine: (entry: Entry<T>) => machine(entry.record) }),
    ...(paint === undefined ? {} : { paint: (text: string, entry: Entry<T>, now: Date) => paint(text, entry.record, now) }),
  };
}

// A field that needs quotes: a comma, a quote, a line break, or any other control character,
// which a quoted field may hold (RFC 4180) and some readers take for a separator when bare.
const NEEDS_QUOTES = /[",\u0000-\u001f\u007f-\u009f]/;

/** RFC 4180: a field that needs it is quoted, quotes doubled; CRLF ends a record. `text` gives a cell's text. */
function csvLine(cells: readonly Cell[], text: (value: string) => string): string {
  return (
    cells
      .map((cell) => {
        const field = cell === null || cell === undefined ? '' : text(String(cell));
        return NEEDS_QUOTES.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
      })
      .join(',') + '\r\n'
  );
}

/**
 * CSV is for programs (a spreadsheet, a script): piped or redirected, each value exactly as the
 * service sent it. At a terminal a person reads it, and service text must not drive the
 * terminal: control characters are made visible there, as in every human output.
 */
const csvText = (io: IO) => (io.stdoutIsTTY ? sanitizeText : (text: string) => text);

export function createRecordPrinter<T>(out: RecordContext, spec: RecordSpec<T>): RecordPrinter {
  const { io } = out;
  let count = 0;

  if (out.format === 'json') {
    const array = out.array(spec.aliases, spec.noun);
    return { page: (items) => array.push(items), end: () => array.end(), cutShort: () => array.cutShort() };
  }
  if (out.format === 'quiet') {
    return {
      async page(items) {
        const lines = items.flatMap((item) => {
          const line = spec.quiet?.(spec.prepare(item));
          return line === undefined ? [] : [line + '\n'];
        });
        if (lines.length > 0) await writeText(io.stdout, lines.join(''));
      },
      async end() {},
      async cutShort() {},
    };
  }

  // Asked for twice (id,ID; title,subject of a ticket), a column is shown once, where first named.
  const asked = out.columns === undefined ? undefined : distinctNames(out.columns, spec.aliases);
  const check =
    asked === undefined ? undefined : pagedNameCheck(asked, '--columns', { ownNames: spec.columns.map((column) => column.name), aliases: spec.aliases });
  let chosen: RecordColumn<Entry<T>>[] | undefined;
  const byName = (name: string) => spec.columns.find((column) => column.name.toLowerCase() === name.toLowerCase());
  const choose = (items: readonly unknown[]): RecordColumn<Entry<T>>[] => {
    const names = asked ?? spec.defaultColumns(items);
    return names.map((name) => {
      const own = byName(name);
      return own === undefined ? itemColumn<T>(name, spec.aliases) : ownColumn(own);
    });
  };
  const csv = out.format === 'csv';
  const csvCell = csvText(io);
  const tty = io.stdoutIsTTY && !csv;
  // At a terminal, one table over every page (list --all): the first page fixes the columns and
  // their widths, and later rows are fitted to them, so columns never shift and memory stays flat.
  let fitted: FittedTable | undefined;
  // The page being drawn: the table, made with the first page, paints each page's own rows.
  let pageEntries: Entry<T>[] = [];
  let pageNow = new Date(0);

  return {
    async page(items) {
      if (items.length === 0) return;
      check?.page(items);
      chosen ??= choose(items);
      const columns = chosen;
      const entries = items.map((item) => ({ item, record: spec.prepare(item) }));
      const now = out.now();
      pageEntries = entries;
      pageNow = now;
      count += entries.length;
      if (csv) {
        const header =
          count === entries.length
            ? csvLine(
                columns.map((column) => column.name),
                csvCell,
              )
            : '';
        const cells = (entry: Entry<T>) => columns.map((column) => (column.machine ?? column.human)(entry, now));
        await writeText(io.stdout, header + entries.map((entry) => csvLine(cells(entry), csvCell)).join(''));
        return;
      }
      const rows = entries.map((entry, index) => {
        const row: Record<string, Cell> = { __index: index };
        for (const column of columns) row[column.name] = tty ? column.human(entry, now) : (column.machine ?? column.human)(entry, now);
        return row;
      });
      const tableColumns = columns.map((column): Column => ({
        header: column.header,
        key: column.name,
        ...(column.shrink === undefined ? {} : { shrink: column.shrink }),
        ...(column.minWidth === undefined ? {} : { minWidth: column.minWidth }),
        // Columns named with --columns were all asked for: none gives way to another.
        ...(column.priority === undefined || out.columns !== undefined ? {} : { priority: column.priority }),
        ...(column.align === undefined ? {} : { align: column.align }),
        ...(column.paint === undefined ? {} : { paint: (text, row) => column.paint!(text, pageEntries[row.__index as number]!, pageNow) }),
      }));
      const heading =
        tty && spec.heading !== undefined && count === entries.length ? `${createStyle(io.stdoutColor).bold(sanitizeInline(spec.heading))}\n` : '';
      let text: string;
      if (tty) {
        const first = fitted === undefined;
        // Only a table at a terminal measures widths: the module that does loads on first use.
        if (fitted === undefined) {
          const { fitTable, measureTable } = await import('./table.js');
          fitted = fitTable(tableColumns, measureTable(tableColumns, rows), { width: io.size().columns, color: io.stdoutColor });
        }
        text = [...(first ? [fitted.header] : []), ...rows.map(fitted.line)].map((line) => line + '\n').join('');
      } else text = renderPlainTable(tableColumns, rows);
      await writeText(io.stdout, heading + text);
    },
    async end() {
      // No record (or none an object) came back to check the names tkt does not know against: said, not passed in silence.
      for (const text of check?.warnings(spec.noun) ?? []) await out.warning(text);
      if (count > 0) {
        // Told once, under the whole table (list --all's pages share one); only to a person at the terminal.
        if (fitted !== undefined && io.stderrIsTTY) {
          const { leftOutNote } = await import('./table.js');
          await writeText(io.stderr, leftOutNote(fitted.leftOut, '--columns chooses', io.size().columns));
        }
        return;
      }
      if (!csv) {
        if (spec.none !== undefined) await writeText(io.stderr, `${sanitizeInline(spec.none)}\n`);
        return;
      }
      // CSV keeps its header when nothing matched, so a reader still sees the columns: named as
      // when rows came (`id` for `--columns ID`), a header `tkt close -` knows (src/bulk/ids.ts).
      const names = (asked ?? spec.defaultColumns([])).map((name) => byName(name)?.name ?? name);
      if (names.length > 0) await writeText(io.stdout, csvLine(names, csvCell));
    },
    async cutShort() {},
  };
}
