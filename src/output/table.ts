// Tables for human output. On a terminal: aligned columns that never run past the width. When
// room is short, columns give way by priority: the least important shrink first (those marked
// `shrink`, to their minWidth) and are then left out, so the title keeps a readable width; the
// most important are cut only when nothing else is left. Piped (`plain`): one tab-separated
// line per row, no header, nothing truncated, as `gh` does, for grep/cut/awk (plain-table.ts).
import { cellText, renderPlainTable, type Cell, type Row } from './plain-table.js';
import { sanitizeInline, sanitizeText } from './sanitize.js';
import { createStyle } from './style.js';
import { displayWidth, truncate, wrapText } from './width.js';

export type { Cell, Row };

export interface Column {
  header: string;
  key: string;
  /** This column is truncated with "…" when the table is wider than the terminal. */
  shrink?: boolean;
  /** Narrowest a shrinking column gets before columns are left out; default: its header's width, at least 8. */
  minWidth?: number;
  /**
   * How much the column matters when room is short (default 0): columns below the table's
   * highest priority shrink first and are then left out, lowest first (the rightmost of equals).
   */
  priority?: number;
  align?: 'left' | 'right';
  /** Colours a cell (after truncation); used only when colour is on. */
  paint?: (text: string, row: Row) => string;
}

export interface TableOptions {
  /** Terminal columns available. */
  width: number;
  color: boolean;
  /** Tab-separated lines without header or truncation (stdout is not a terminal). */
  plain?: boolean;
  /** Told the keys of the columns left out for width (FittedTable.leftOut), when a terminal's table left out any. */
  onLeftOut?: (keys: string[]) => void;
}

const DEFAULT_MIN_WIDTH = 8;
// An empty cell at a terminal: read aloud, a blank leaves the listener to guess which column the
// next word is in ("Kofi Mensah": requester or assignee?). Piped tables keep it empty for scripts.
const EMPTY_CELL = '-';
// Columns stand apart by two spaces, as in gh's and docker's tables: no box to take room from
// the title at 80 columns.
const COLUMN_GAP = '  ';
/** The width a terminal has unless made narrower: what a narrower one leaves out is said (FittedTable.leftOut). */
const STANDARD_WIDTH = 80;

/** The shown columns (indexes) and their widths. */
interface Fitted {
  shown: number[];
  widths: Map<number, number>;
}

const priorityOf = (column: Column) => column.priority ?? 0;

/**
 * Narrows the shrinkable columns of `shown` (lowest priority first, the widest of a priority
 * first) towards `floor` until they fit `available`; false when they cannot.
 */
function shrinkToFit(
  columns: readonly Column[],
  shown: readonly number[],
  widths: Map<number, number>,
  floor: (i: number) => number,
  available: number,
): boolean {
  let excess = [...widths.values()].reduce((sum, w) => sum + w, 0) - available;
  const levels = [...new Set(shown.map((i) => priorityOf(columns[i]!)))].sort((a, b) => a - b);
  for (const level of levels) {
    const shrinking = shown.filter((i) => columns[i]!.shrink && priorityOf(columns[i]!) === level);
    while (excess > 0) {
      const widest = shrinking.filter((i) => widths.get(i)! > floor(i)).sort((a, b) => widths.get(b)! - widths.get(a)!)[0];
      if (widest === undefined) break;
      widths.set(widest, widths.get(widest)! - 1);
      excess -= 1;
    }
  }
  return excess <= 0;
}

/**
 * The columns that fit `width` and their widths. Below the highest priority, a column is left
 * out (lowest priority first) rather than have the others shrink past their minWidth; the
 * columns of the highest priority are then cut down to a character, and left out from the right
 * only when even that is too wide. A lone column left is cut to the width. A table whose columns
 * all have one priority (metadata, or columns the user named with --columns) loses none: cut to
 * their minWidth, its rows may run past the width, and the terminal wraps them.
 */
function fitColumns(columns: readonly Column[], headers: readonly string[], natural: readonly number[], width: number): Fitted {
  const floor = (i: number) =>
    columns[i]!.shrink ? Math.min(natural[i]!, columns[i]!.minWidth ?? Math.max(displayWidth(headers[i]!), DEFAULT_MIN_WIDTH)) : natural[i]!;
  const top = Math.max(...columns.map(priorityOf));
  const prioritised = columns.some((column) => priorityOf(column) < top);
  let shown = columns.map((_column, i) => i);
  for (;;) {
    const available = width - COLUMN_GAP.length * (shown.length - 1);
    const widths = new Map(shown.map((i) => [i, natural[i]!]));
    if (shrinkToFit(columns, shown, widths, floor, available)) return { shown, widths };
    const below = shown.filter((i) => priorityOf(columns[i]!) < top);
    const lowest = Math.min(...below.map((i) => priorityOf(columns[i]!)));
    // The rightmost column of the lowest priority, when one is below the top.
    let dropped = below.filter((i) => priorityOf(columns[i]!) === lowest).at(-1);
    if (dropped === undefined) {
      if (!prioritised) return { shown, widths: new Map(shown.map((i) => [i, floor(i)])) };
      if (shrinkToFit(columns, shown, widths, () => 1, available)) return { shown, widths };
      if (shown.length === 1) return { shown, widths: new Map([[shown[0]!, Math.max(1, width)]]) };
      dropped = shown.at(-1);
    }
    shown = shown.filter((i) => i !== dropped);
  }
}

/** A table fitted to a width: its header line, and any row's line (a screen draws only those it shows). */
export interface FittedTable {
  header: string;
  line(row: Row): string;
  /**
   * The keys of the columns left out for a terminal narrower than 80 columns that 80 would show,
   * in the table's order: what a large font or a split pane costs, not the layout every terminal
   * has (at 80 the default list leaves the requester out, and says nothing of it).
   */
  leftOut: string[];
}

/**
 * The line after a table at a terminal that left out columns for width (none: ''): a reader
 * who cannot see the header is told what is missing, and `how` says how to get it. Broken
 * between words for the terminal's `width`, which would break it inside one; `how` names what to
 * type, kept whole (on a line of its own when the last line has no room for it).
 */
export function leftOutNote(leftOut: readonly string[], how: string, width: number): string {
  if (leftOut.length === 0) return '';
  const names = wrapText(`(not shown at this width: ${leftOut.map(sanitizeInline).join(', ')};`, width);
  const last = names.slice(names.lastIndexOf('\n') + 1);
  return `${names}${displayWidth(`${last} ${how})`) <= width ? ' ' : '\n'}${how})\n`;
}

/** The width each column needs, header included: the part of drawing a table that reads every row. */
export function measureTable(columns: readonly Column[], rows: readonly Row[]): number[] {
  return columns.map((column) => {
    let width = displayWidth(sanitizeInline(column.header));
    for (const row of rows) width = Math.max(width, displayWidth(cellText(row[column.key])));
    return width;
  });
}

/** `columns` fitted to `options.width` for cells as wide as `natural` (measureTable's answer). */
export function fitTable(columns: readonly Column[], natural: readonly number[], options: Pick<TableOptions, 'width' | 'color'>): FittedTable {
  // Headers may be the service's member names (metadata, --columns).
  const headers = columns.map((column) => sanitizeInline(column.header));
  const { shown, widths } = fitColumns(columns, headers, natural, options.width);
  const standard = options.width < STANDARD_WIDTH ? fitColumns(columns, headers, natural, STANDARD_WIDTH).shown : shown;
  const style = createStyle(options.color);
  // Padded with the width function that cut the cells, string-width 8 (Ink's): emoji, CJK,
  // Thai vowel marks and zero-width spaces keep the columns straight. cli-table3 (0.6.5) pads
  // with its own string-width 4, which counts those marks and spaces one column each.
  const line = (cells: readonly string[], paint: (text: string, i: number) => string) =>
    shown
      .map((i, position) => {
        // A column that does not shrink (an ID, a date) is as wide as its cells, but a row drawn
        // after it was measured (a later page of list --all) may hold a wider one: never cut
        // it, the row runs a little long instead.
        const text = columns[i]!.shrink || shown.length === 1 ? truncate(cells[i]!, widths.get(i)!) : cells[i]!;
        const pad = ' '.repeat(Math.max(0, widths.get(i)! - displayWidth(text)));
        const last = position === shown.length - 1;
        const painted = paint(text, i);
        return columns[i]!.align === 'right' ? pad + painted : last ? painted : painted + pad;
      })
      .join(COLUMN_GAP)
      // A last cell of spaces leaves none to copy with the row.
      .replace(/ +$/, '');
  return {
    leftOut: columns.filter((_column, i) => standard.includes(i) && !shown.includes(i)).map((column) => column.key),
    header: line(headers, (text) => style.bold(text)),
    line: (row) =>
      line(
        // A marker column (no header: profiles' `*`) stays blank where it marks nothing.
        columns.map((column) => cellText(row[column.key]) || (column.header === '' ? '' : EMPTY_CELL)),
        (text, i) => (options.color && columns[i]!.paint ? columns[i]!.paint!(text, row) : text),
      ),
  };
}

export function renderTable(columns: readonly Column[], rows: readonly Row[], options: TableOptions): string {
  if (options.plain) return renderPlainTable(columns, rows);
  const table = fitTable(columns, measureTable(columns, rows), options);
  if (table.leftOut.length > 0) options.onLeftOut?.(table.leftOut);
  return [table.header, ...rows.map(table.line)].map((text) => text + '\n').join('');
}

export interface KeyValueOptions {
  color: boolean;
  /** Terminal width to wrap values to, by words; undefined: lines as they are (piped). */
  width?: number | undefined;
  /** The pairs whose labels the values line up after (default: `pairs`): blocks of one screen shown apart keep one column. */
  alignedWith?: readonly (readonly [string, Cell])[];
}

// Narrower than this, a value column beside the labels is not worth wrapping into: each value
// goes under its label instead, indented as a section's text is.
const MIN_VALUE_WIDTH = 20;
const STACKED_INDENT = '  ';

const isShown = ([, value]: readonly [string, Cell]) => value !== null && value !== undefined;

/** The width of the labels' column, colon included: what the values line up after. */
const labelColumn = (pairs: readonly (readonly [string, Cell])[]): number => Math.max(0, ...pairs.filter(isShown).map(([label]) => displayWidth(label) + 1));

/** The columns a line of a value has in renderKeyValue's layout of `pairs` at `width` (beside the labels, or under them). */
export function keyValueRoom(pairs: readonly (readonly [string, Cell])[], width: number): number {
  const room = width - labelColumn(pairs) - 2;
  return room < MIN_VALUE_WIDTH ? width - STACKED_INDENT.length : room;
}

/**
 * "Label:  value" lines with aligned values, for detail headers. Pairs whose value is null
 * or undefined are left out; multi-line and wrapped values continue under the value column.
 * On a terminal too narrow for that column, "Label:" lines with the value under each, wrapped
 * to the width.
 */
export function renderKeyValue(pairs: readonly (readonly [string, Cell])[], options: KeyValueOptions): string {
  const shown = pairs.filter(isShown);
  const labelWidth = labelColumn(options.alignedWith ?? pairs);
  const style = createStyle(options.color);
  const indent = ' '.repeat(labelWidth + 2);
  const { width } = options;
  const room = width === undefined ? undefined : width - indent.length;
  return shown
    .map(([label, value]) => {
      const text = sanitizeText(String(value));
      if (width !== undefined && room !== undefined && room < MIN_VALUE_WIDTH) {
        return `${style.bold(`${label}:`)}\n${wrapText(text.replace(/^(?=.)/gm, STACKED_INDENT), width)}\n`;
      }
      const labelText = `${label}:`.padEnd(labelWidth + 2);
      const lines = (room === undefined ? text : wrapText(text, room)).split('\n');
      return style.bold(labelText) + lines.join('\n' + indent) + '\n';
    })
    .join('');
}
