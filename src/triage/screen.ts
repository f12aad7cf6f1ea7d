// The triage screen, drawn with Ink (React for terminals) from a snapshot of the session:
// a title line, the view's tickets as a table (the table `tkt list` draws, one width
// function), the highlighted ticket's detail (as `tkt show` renders it) or an overlay, a
// status line and the keys. Every line is cut to the terminal's width; the layout follows
// resizes. Colour only through tkt's own style (NO_COLOR, --no-color), never Ink's.
import { Box, Text, useStdout } from 'ink';
import { createElement as h, useEffect, useMemo, useState, useSyncExternalStore, type ReactElement } from 'react';
import { createStyle, type Style } from '../output/style.js';
import { displayWidth, fitTable, measureTable, truncate, truncateStart, type Column, type FittedTable, type Row } from '../output/table.js';
import type { TerminalSize } from '../output/terminal-size.js';
import { formatDue } from '../output/time.js';
import { TICKET_COLUMN_FIT } from '../tickets/list-output.js';
import { kebabCase } from '../tickets/list-query.js';
import { useKeysAndPastes } from './input.js';
import { FOOTER_ENDING, FOOTER_KEYS, KEY_MAP, pickerMatches, type Choice, type Overlay, type TriageRow, type TriageSession, type TriageState } from './session.js';

export interface ScreenProps {
  session: TriageSession;
  color: boolean;
  now: () => Date;
  /** The terminal's size now (IO.size): Ink's stdout only says when it changes. */
  size: () => TerminalSize;
}

/** Lines around the list and the detail: title, table header, detail rule, status, keys. */
const CHROME_LINES = 5;
/** The list's share of the lines left, when there are enough tickets to fill it. */
const LIST_SHARE = 0.45;
const MIN_LIST_LINES = 3;
/** Room for the highlight marker before each row. */
const MARKER = 2;

interface Layout {
  width: number;
  listLines: number;
  detailLines: number;
}

/** How the terminal's lines are shared: the list gets what its tickets need, up to its share. */
function layoutFor(columns: number, rows: number, tickets: number): Layout {
  const free = Math.max(2, rows - CHROME_LINES);
  const listLines = Math.max(1, Math.min(free - 1, Math.max(MIN_LIST_LINES, Math.min(tickets, Math.floor(free * LIST_SHARE)))));
  return { width: Math.max(20, columns), listLines, detailLines: Math.max(1, free - listLines) };
}

// The columns of `tkt list`, giving way as they do there when the terminal is narrow.
const TABLE_COLUMNS: Column[] = [
  { key: 'id', header: 'ID', align: 'right', ...TICKET_COLUMN_FIT.id },
  { key: 'status', header: 'STATUS', ...TICKET_COLUMN_FIT.status },
  { key: 'priority', header: 'PRIORITY', ...TICKET_COLUMN_FIT.priority },
  { key: 'due', header: 'DUE', ...TICKET_COLUMN_FIT.due },
  { key: 'title', header: 'TITLE', ...TICKET_COLUMN_FIT.title },
  { key: 'requester', header: 'REQUESTER', ...TICKET_COLUMN_FIT.requester },
  { key: 'assignee', header: 'ASSIGNEE', ...TICKET_COLUMN_FIT.assignee },
];

/** A ticket as a row of the triage table (exported for its tests). */
export function tableRow({ id, summary }: TriageRow, now: Date): Row {
  const due = formatDue(summary.due, now, summary);
  return { id, status: summary.status, priority: summary.priority, due: due.text, overdue: due.overdue, title: summary.title, requester: summary.requester, assignee: summary.assignee ?? '-' };
}

function useTerminalSize(read: () => TerminalSize): TerminalSize {
  const { stdout } = useStdout();
  const [size, setSize] = useState(read);
  useEffect(() => {
    const resized = () => setSize(read());
    stdout.on('resize', resized);
    return () => void stdout.off('resize', resized);
  }, [stdout, read]);
  return size;
}

/**
 * The table fitted to the width. Its columns are measured over the view's tickets once a load
 * (the costly part, with 20,000 of them): filtering and moving draw only the rows shown.
 */
function useTable(rows: readonly TriageRow[], width: number, color: boolean, now: () => Date): FittedTable {
  const columns = useMemo(() => {
    const style = createStyle(color);
    return TABLE_COLUMNS.map((column) => (column.key === 'due' ? { ...column, paint: (text: string, row: Row) => (row.overdue === true ? style.red(text) : text) } : column));
  }, [color]);
  const natural = useMemo(() => {
    const at = now();
    return measureTable(columns, rows.map((row) => tableRow(row, at)));
  }, [rows, columns]);
  return useMemo(() => fitTable(columns, natural, { width: width - MARKER, color }), [columns, natural, width, color]);
}

const line = (text: string, key: string | number): ReactElement => h(Text, { key, wrap: 'truncate-end' }, text === '' ? ' ' : text);

function titleLine(state: TriageState, width: number, style: Style): string {
  const count = state.filter === '' ? `${state.rows.length} tickets` : `${state.visible.length} of ${state.rows.length} tickets`;
  const filter = state.filtering ? `  filter: /${state.filter}▏` : state.filter === '' ? '' : `  filter: /${state.filter}`;
  const shown = state.loading ? 'loading…' : state.loadFailed && state.rows.length === 0 ? 'not loaded' : count;
  const text = truncate(`tkt triage · ${kebabCase(state.view)} · ${shown}${filter}`, width);
  return style.bold(text);
}

function listLines(state: TriageState, table: FittedTable, layout: Layout, style: Style, color: boolean, now: Date): string[] {
  const lines = [`  ${table.header}`];
  if (state.visible.length === 0) {
    const why = state.loading ? 'loading…' : state.loadFailed ? 'could not load this view: R tries again' : state.filter === '' ? 'no tickets in this view' : 'no ticket matches the filter';
    lines.push(`  ${why}`);
  }
  // The highlight sits in the middle of the window once the list is longer than it.
  const top = Math.max(0, Math.min(state.selected - Math.floor(layout.listLines / 2), state.visible.length - layout.listLines));
  state.visible.slice(top, top + layout.listLines).forEach((row, offset) => {
    const text = table.line(tableRow(row, now));
    const highlighted = top + offset === state.selected;
    // With colour the row is painted inverse; without, the marker alone shows it.
    lines.push(highlighted ? (color ? style.inverse(`› ${text}`) : `› ${text}`) : `  ${text}`);
  });
  return lines;
}

/** Every key, over the list and the detail: the detail's room alone is too short at 80x24. */
function helpLines(style: Style): string[] {
  const width = Math.max(...KEY_MAP.map(([keys]) => keys.length));
  return [style.bold('Keys (any key closes this)'), ...KEY_MAP.map(([keys, what]) => `  ${keys.padEnd(width)}  ${what}`)];
}

/** As many of the footer's keys as fit the width, then "q quit" and "? keys", which lists them all. */
function footerLine(width: number): string {
  let keys = '';
  for (const [key, what] of FOOTER_KEYS) {
    const longer = `${keys}${key} ${what}  `;
    if (displayWidth(longer + FOOTER_ENDING) > width) break;
    keys = longer;
  }
  return truncate(keys + FOOTER_ENDING, width);
}

/** Text being typed, with the cursor after it: its end, where the cursor is, when it is too long. */
const typingLine = (text: string, width: number) => `> ${truncateStart(text, width - 3)}▏`;

function overlayLines(overlay: Exclude<Overlay, { kind: 'help' }>, layout: Layout, style: Style): string[] {
  switch (overlay.kind) {
    case 'confirm':
      return [style.bold(overlay.question)];
    case 'prompt':
      return [style.bold(overlay.label), typingLine(overlay.text, layout.width), style.dim('Enter sends, Esc cancels')];
    case 'picker': {
      const shown = pickerMatches(overlay.choices, overlay.query);
      const room = Math.max(1, layout.detailLines - 3);
      const top = Math.max(0, Math.min(overlay.selected - Math.floor(room / 2), shown.length - room));
      const choiceLine = (choice: Choice, index: number) => truncate(`${index === overlay.selected ? '› ' : '  '}${choice.label}`, layout.width);
      return [
        style.bold(`${overlay.title} (type to filter, Enter chooses, Esc cancels)`),
        typingLine(overlay.query, layout.width),
        ...(shown.length === 0 ? ['  nothing matches'] : shown.slice(top, top + room).map((choice, offset) => choiceLine(choice, top + offset))),
      ];
    }
  }
}

function detailLines(props: ScreenProps, state: TriageState, layout: Layout, style: Style): string[] {
  if (state.overlay !== undefined && state.overlay.kind !== 'help') return overlayLines(state.overlay, layout, style);
  const row = state.visible[state.selected];
  if (row === undefined) return [];
  const detail = props.session.detailText(row.id, layout.width, props.color);
  if (detail.error !== undefined) return [style.red(`could not read #${row.id}: ${detail.error}`)];
  if (detail.text === undefined) return [style.dim(`reading #${row.id}…`)];
  return detail.text.replace(/\n$/, '').split('\n');
}

function statusLine(state: TriageState, width: number, style: Style): string {
  if (state.status === undefined) return '';
  const text = truncate(state.status.text, width);
  return state.status.tone === 'error' ? style.red(text) : state.status.tone === 'ok' ? style.green(text) : text;
}

export function TriageScreen(props: ScreenProps): ReactElement {
  const { session, color } = props;
  const state = useSyncExternalStore(session.subscribe, session.snapshot);
  const { columns, rows } = useTerminalSize(props.size);
  const layout = layoutFor(columns, rows, state.visible.length);
  const table = useTable(state.rows, layout.width, color, props.now);
  const style = createStyle(color);
  useKeysAndPastes((input, key) => session.press(input, key, layout.listLines), (text) => session.paste(text));

  const pad = (lines: string[], count: number) => [...lines, ...Array<string>(Math.max(0, count - lines.length)).fill('')];
  // Between the title line and the status line: the list (with its header), a rule and the detail, or the help.
  const middle =
    state.overlay?.kind === 'help'
      ? pad(helpLines(style), layout.listLines + 1 + 1 + layout.detailLines)
      : [
          ...pad(listLines(state, table, layout, style, color, props.now()), layout.listLines + 1),
          style.dim('─'.repeat(layout.width)),
          ...pad(detailLines(props, state, layout, style).slice(0, layout.detailLines), layout.detailLines),
        ];
  const all = [titleLine(state, layout.width, style), ...middle, statusLine(state, layout.width, style), style.dim(footerLine(layout.width))];
  return h(Box, { flexDirection: 'column', width: layout.width, height: rows }, ...all.slice(0, rows).map(line));
}
