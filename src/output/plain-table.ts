// Tables piped (stdout not a terminal): one tab-separated line per row, no header, nothing
// truncated, as `gh` does, for grep/cut/awk. Apart from table.ts, which loads string-width (its
// Segmenter and Unicode-property patterns cost tens of milliseconds at load): `tkt list | ...`,
// `list -q` and `list --json` never need it.
import { sanitizeInline } from './sanitize.js';

export type Cell = string | number | boolean | null | undefined;
export type Row = Readonly<Record<string, Cell>>;

/** A cell as one line of text, control characters made visible. */
export function cellText(value: Cell): string {
  return value === null || value === undefined ? '' : sanitizeInline(String(value));
}

export function renderPlainTable(columns: readonly { key: string }[], rows: readonly Row[]): string {
  return rows.map((row) => columns.map((column) => cellText(row[column.key])).join('\t') + '\n').join('');
}
