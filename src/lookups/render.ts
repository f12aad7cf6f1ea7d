// `tkt metadata` for people: each collection as a table under its name; piped, plain data.
import type { IO } from '../output/io.js';
import { createStyle } from '../output/style.js';
import { renderTable, type Column } from '../output/table.js';
import { scalarFields, scalarMemberNames } from '../output/members.js';
import { sanitizeInline } from '../output/sanitize.js';

/** Columns in first-seen order, the ID first: every collection has one, whatever else it has. */
function columnsOf(items: readonly unknown[]): Column[] {
  return scalarMemberNames(items).map((key) => ({
    header: key.toUpperCase(),
    key,
    ...(key.toLowerCase() === 'id' ? { align: 'right' as const } : { shrink: true }),
  }));
}

export async function renderCollections(collections: readonly [string, unknown[]][], io: IO): Promise<string> {
  if (!io.stdoutIsTTY) return plainCollections(collections);
  const style = createStyle(io.stdoutColor);
  const parts = await Promise.all(
    collections.map(async ([name, items]) => {
      const title = style.bold(`${sanitizeInline(name)} (${items.length})`);
      if (items.length === 0) return `${title}\n  (none)\n`;
      const rows = items.map(scalarFields);
      const table = renderTable(columnsOf(items), rows, { width: io.size().columns, color: io.stdoutColor, plain: !io.stdoutIsTTY });
      return `${title}\n${table}`;
    }),
  );
  return parts.join('\n');
}

/**
 * Piped, data only, like `tkt list`: a tab-separated line per item without headings or blank
 * lines, its collection's name first, so `grep ^sites` or `awk '$1 == "status"'` picks one.
 */
function plainCollections(collections: readonly [string, unknown[]][]): string {
  return collections
    .map(([name, items]) => {
      // Piped lines are never cut: no width.
      const table = renderTable(columnsOf(items), items.map(scalarFields), { width: Number.POSITIVE_INFINITY, color: false, plain: true });
      return table.replace(/^(?=.)/gm, `${sanitizeInline(name)}\t`);
    })
    .join('');
}
