// How the terminal's lines are shared out: update.ts needs it too (a page is the list's height;
// the detail is rendered at the screen's width).

/** Lines around the list and the detail: title, table header, detail rule, status, keys. */
const CHROME_LINES = 5;
/** The list's share of the lines left, when there are enough tickets to fill it. */
const LIST_SHARE = 0.45;
const MIN_LIST_LINES = 3;

export interface TerminalSize {
  columns: number;
  rows: number;
}

export interface Layout {
  width: number;
  listLines: number;
  detailLines: number;
}

/** The list gets what its tickets need, up to its share; the detail the rest. */
export function layoutFor(size: TerminalSize, tickets: number): Layout {
  const free = Math.max(2, size.rows - CHROME_LINES);
  const listLines = Math.max(1, Math.min(free - 1, Math.max(MIN_LIST_LINES, Math.min(tickets, Math.floor(free * LIST_SHARE)))));
  return { width: Math.max(20, size.columns), listLines, detailLines: Math.max(1, free - listLines) };
}
