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
  /** The title line; given up on a terminal of 3 lines. */
  title: boolean;
  /** The table's header; given up on a terminal of 4 lines or fewer. */
  listHeader: boolean;
  listLines: number;
  /** 0 on a terminal too short for the detail: no rule over it either. */
  detailLines: number;
  /** The lines between the title and the status line: the list with its header, the rule and the detail, or the help. */
  middleLines: number;
}

/**
 * The list gets what its tickets need, up to its share; the detail the rest. On a short terminal
 * the detail goes first, then the table's header, then the title: the highlighted ticket, the
 * status line and the keys always keep their lines (README, Triage). Never wider than the terminal.
 */
export function layoutFor(size: TerminalSize, tickets: number): Layout {
  const width = Math.max(1, size.columns);
  if (size.rows < CHROME_LINES + 2) {
    const title = size.rows >= 4;
    const listHeader = size.rows >= 5;
    const listLines = Math.max(1, size.rows - 2 - Number(title) - Number(listHeader));
    return { width, title, listHeader, listLines, detailLines: 0, middleLines: Number(listHeader) + listLines };
  }
  const free = size.rows - CHROME_LINES;
  const listLines = Math.max(1, Math.min(free - 1, Math.max(MIN_LIST_LINES, Math.min(tickets, Math.floor(free * LIST_SHARE)))));
  const detailLines = free - listLines;
  return { width, title: true, listHeader: true, listLines, detailLines, middleLines: 1 + listLines + 1 + detailLines };
}

/**
 * The lines of what covers the list and the detail (the help, or an overlay the detail pane is too
 * short for): theirs, and the title's too when those are fewer than the `wanted` lines.
 */
export function coverRoom(terminal: TerminalSize, wanted: number): { lines: number; overTitle: boolean } {
  const { title, middleLines } = layoutFor(terminal, 0);
  const overTitle = title && middleLines < wanted;
  return { lines: middleLines + Number(overTitle), overTitle };
}
