// Tables for human output. On a terminal: aligned columns that fit the width by truncating the
// columns marked `shrink` (the subject first, as the widest), never the ID. Piped (`plain`): one
// tab-separated line per row, no header, nothing truncated, as `gh` does, for grep/cut/awk.
import { sanitizeInline, sanitizeText } from './sanitize.js';
import { createStyle } from './style.js';

export type Cell = string | number | boolean | null | undefined;
export type Row = Readonly<Record<string, Cell>>;

export interface Column {
  header: string;
  key: string;
  /** This column is truncated with "…" when the table is wider than the terminal. */
  shrink?: boolean;
  /** Narrowest a shrinking column gets; default: its header's width, at least 8. */
  minWidth?: number;
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
}

const ELLIPSIS = '…';
const DEFAULT_MIN_WIDTH = 8;
// Columns stand apart by two spaces, as in gh's and docker's tables: no box to take room from
// the title at 80 columns.
const COLUMN_GAP = '  ';

const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]|\p{Extended_Pictographic}/u;
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\u200b-\u200f\ufe00-\ufe0f]+$/u;
// Building a Segmenter loads ICU data (about 8 ms): only runs that draw a table pay for it.
let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Intl.Segments {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return segmenter.segment(text);
}

function graphemeWidth(grapheme: string): number {
  if (ZERO_WIDTH.test(grapheme)) return 0;
  return WIDE.test(grapheme) ? 2 : 1;
}

/** Columns a string takes on a terminal (CJK and emoji take two). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const { segment } of graphemes(text)) width += graphemeWidth(segment);
  return width;
}

/** `text` cut to at most `width` columns, ending in "…" when it was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const next = graphemeWidth(segment);
    if (used + next > width - 1) break;
    kept += segment;
    used += next;
  }
  return kept + ELLIPSIS;
}

function cellText(value: Cell): string {
  return value === null || value === undefined ? '' : sanitizeInline(String(value));
}

/** Widths that fit `available`, narrowing the widest shrinkable column one step at a time. */
function fitWidths(columns: readonly Column[], headers: readonly string[], natural: number[], available: number): number[] {
  const widths = [...natural];
  const floor = columns.map((column, i) =>
    Math.min(natural[i] ?? 0, column.minWidth ?? Math.max(displayWidth(headers[i]!), DEFAULT_MIN_WIDTH)),
  );
  let excess = widths.reduce((sum, w) => sum + w, 0) - available;
  while (excess > 0) {
    let widest = -1;
    columns.forEach((column, i) => {
      if (column.shrink && widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    });
    // Nothing left to shrink: let the terminal wrap rather than cut an ID.
    if (widest < 0) break;
    widths[widest]! -= 1;
    excess -= 1;
  }
  return widths;
}

export function renderTable(columns: readonly Column[], rows: readonly Row[], options: TableOptions): string {
  const texts = rows.map((row) => columns.map((column) => cellText(row[column.key])));
  if (options.plain) return texts.map((cells) => cells.join('\t') + '\n').join('');
  // Headers may be the service's member names (metadata, --columns).
  const headers = columns.map((column) => sanitizeInline(column.header));

  const natural = columns.map((_column, i) => Math.max(displayWidth(headers[i]!), ...texts.map((cells) => displayWidth(cells[i]!))));
  const available = options.width - COLUMN_GAP.length * (columns.length - 1);
  const widths = fitWidths(columns, headers, natural, available);
  const style = createStyle(options.color);
  // Padded with our own width function, the one that cut the cells: emoji, CJK and zero-width
  // marks keep the columns straight (a table library measuring its own way did not).
  const line = (cells: readonly string[], paint: (text: string, i: number) => string) =>
    cells
      .map((text, i) => {
        const pad = ' '.repeat(Math.max(0, widths[i]! - displayWidth(text)));
        const last = i === cells.length - 1;
        const painted = paint(text, i);
        return columns[i]!.align === 'right' ? pad + painted : last ? painted : painted + pad;
      })
      .join(COLUMN_GAP);
  const header = line(headers.map((text, i) => truncate(text, widths[i]!)), (text) => style.bold(text));
  const body = texts.map((cells, r) =>
    line(
      cells.map((text, i) => truncate(text, widths[i]!)),
      (text, i) => (options.color && columns[i]!.paint ? columns[i]!.paint!(text, rows[r]!) : text),
    ),
  );
  return [header, ...body].map((text) => text + '\n').join('');
}

export interface KeyValueOptions {
  color: boolean;
  /** Terminal width to wrap values to, by words; undefined: lines as they are (piped). */
  width?: number | undefined;
}

// Narrower than this, a value column is not worth wrapping into: the terminal wraps instead.
const MIN_VALUE_WIDTH = 20;

/**
 * "Label:  value" lines with aligned values, for detail headers. Pairs whose value is null
 * or undefined are left out; multi-line and wrapped values continue under the value column.
 */
export function renderKeyValue(pairs: readonly (readonly [string, Cell])[], options: KeyValueOptions): string {
  const shown = pairs.filter(([, value]) => value !== null && value !== undefined);
  const labelWidth = Math.max(0, ...shown.map(([label]) => displayWidth(label) + 1));
  const style = createStyle(options.color);
  const indent = ' '.repeat(labelWidth + 2);
  const room = options.width === undefined ? undefined : options.width - indent.length;
  return shown
    .map(([label, value]) => {
      const labelText = `${label}:`.padEnd(labelWidth + 2);
      const text = sanitizeText(String(value));
      const lines = (room === undefined || room < MIN_VALUE_WIDTH ? text : wrapText(text, room)).split('\n');
      return style.bold(labelText) + lines.join('\n' + indent) + '\n';
    })
    .join('');
}

/**
 * Long lines broken between words to fit `width` columns (as the terminal counts them), each
 * continuation keeping its line's indent; a word longer than the width stays whole, as a URL must.
 */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (displayWidth(line) <= width) return line;
      const indent = /^\s*/.exec(line)![0];
      const lines: string[] = [];
      let current = '';
      for (const word of line.slice(indent.length).split(/ +/)) {
        const candidate = current === '' ? indent + word : `${current} ${word}`;
        if (current !== '' && displayWidth(candidate) > width) {
          lines.push(current);
          current = indent + word;
        } else current = candidate;
      }
      lines.push(current);
      return lines.join('\n');
    })
    .join('\n');
}
