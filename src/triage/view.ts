// The triage screen as lines of text, from the state alone: a title line, the view's tickets as a
// table (the table `tkt list` draws), the highlighted ticket's detail (as `tkt show` renders
// it, once it has been read) or an overlay, a status line and the keys. Drawing reads; it never
// starts a read (update.ts asks for the detail the screen will show). Every line is cut to the
// terminal's width.
import type { Style } from '../output/style.js';
import type { Column, FittedTable, Row } from '../output/table.js';
import { displayWidth, truncate, truncateStart, wrapText } from '../output/width.js';
import { formatDue } from '../output/time.js';
import { TICKET_COLUMN_FIT } from '../listing/output.js';
import { kebabCase } from '../listing/query.js';
import { helpPage, helpRoom } from './help.js';
import { FOOTER_ENDING, FOOTER_KEYS, keyFor, OPEN_FOOTERS } from './keys.js';
import { coverRoom, layoutFor, type Layout } from './layout.js';
import type { Line } from './line-edit.js';
import { pickerMatches, type Choice } from './picker.js';
import type { TriageRow } from './rows.js';
import { currentRow, type Overlay, type TriageState } from './state.js';

/** Room for the highlight marker before each row. */
export const MARKER = 2;

// The columns of `tkt list`, giving way as they do there when the terminal is narrow.
export const TABLE_COLUMNS: Column[] = [
  { key: 'id', header: 'ID', align: 'right', ...TICKET_COLUMN_FIT.id },
  { key: 'status', header: 'STATUS', ...TICKET_COLUMN_FIT.status },
  { key: 'priority', header: 'PRIORITY', ...TICKET_COLUMN_FIT.priority },
  { key: 'due', header: 'DUE', ...TICKET_COLUMN_FIT.due },
  { key: 'title', header: 'TITLE', ...TICKET_COLUMN_FIT.title },
  { key: 'requester', header: 'REQUESTER', ...TICKET_COLUMN_FIT.requester },
  { key: 'assignee', header: 'ASSIGNEE', ...TICKET_COLUMN_FIT.assignee },
];

/** A ticket as a row of the triage table. */
export function tableRow({ id, summary }: TriageRow, now: Date): Row {
  const due = formatDue(summary.due, now, summary);
  return {
    id,
    status: summary.status,
    priority: summary.priority,
    due: due.text,
    overdue: due.overdue,
    title: summary.title,
    requester: summary.requester,
    assignee: summary.assignee,
  };
}

/** What drawing needs besides the state: the table fitted to the width (measured once per load), the style and the time. */
export interface Drawing {
  table: FittedTable;
  style: Style;
  color: boolean;
  now: Date;
}

function titleLine(state: TriageState, width: number, style: Style): string {
  const total = `${state.rows.length} ${state.rows.length === 1 ? 'ticket' : 'tickets'}`;
  const count = state.filter === '' ? total : `${state.visible.length} of ${total}`;
  const shown = state.loading !== undefined ? 'loading…' : state.loadFailed && state.rows.length === 0 ? 'not loaded' : count;
  const view = kebabCase(state.view);
  // The profile before the view: two screens on two profiles differ where a cut leaves the line (README, Triage).
  const { shownProfile } = state.login;
  const profile = shownProfile === undefined ? undefined : `profile ${shownProfile}`;
  const head = profile === undefined ? 'tkt triage' : `tkt triage · ${profile}`;
  const title = `${head} · ${view} · ${shown}`;
  const compactCount = shown === count && state.filter !== '' ? `${state.visible.length}/${state.rows.length}` : undefined;
  const lead = profile ?? 'tkt triage';
  if (!state.filtering) {
    // The rows are an earlier read's (README, Triage): said once, here, until a read succeeds.
    // At a narrow width the label gives way as it does without it, down to what must stay (the
    // filter, the profile), beside which the words stay, the reason after them cut where it must.
    const failed = state.interval?.failed;
    const fitted = (labels: string[], last: string | undefined) => {
      if (failed === undefined) return style.bold(truncate(labels.find((candidate) => displayWidth(candidate) <= width) ?? labels.at(-1)!, width));
      const failure = `${NOT_READ_AGAIN}: ${failed}`;
      // Room for the words and at least the "…" of the reason cut after them.
      const label = labels.find((candidate) => displayWidth(`${candidate} · ${NOT_READ_AGAIN}`) < width) ?? last;
      return style.bold(truncate(label === undefined ? failure : `${label} · ${failure}`, width));
    };
    if (state.filter === '') {
      if (failed === undefined) return style.bold(truncate(title, width));
      return fitted([title, `${head} · ${shown}`, ...(profile === undefined ? [] : [profile])], profile);
    }
    // A filter on: what narrows the list (the filter, how many it leaves) and the profile outlast
    // the view's name (cut, then left out), then `tkt triage`, then the count's words, then `filter:`.
    const filter = `  filter: /${state.filter}`;
    const viewRoom = width - displayWidth(`${head} ·  · ${shown}${filter}`);
    const labels = [
      `${title}${filter}`,
      ...(viewRoom >= MIN_CUT_VIEW ? [`${head} · ${truncate(view, viewRoom)} · ${shown}${filter}`] : []),
      `${head} · ${shown}${filter}`,
      `${lead} · ${shown}${filter}`,
      ...(compactCount === undefined ? [] : [`${lead} · ${compactCount}${filter}`, `${lead} · ${compactCount} /${state.filter}`]),
    ];
    return fitted(labels, labels.at(-1));
  }
  // Being typed: the text and its cursor keep their room, as on a prompt line; the view's name
  // gives way first (cut, then left out), then the count, then the words around the text, the
  // profile last of them.
  const typed = displayWidth(state.filter) + displayWidth(TYPING_CURSOR);
  const fits = (label: string) => displayWidth(label) + typed <= width;
  const viewRoom = width - typed - displayWidth(`${head} ·  · ${shown}  filter: /`);
  const profileRoom = profile === undefined ? 0 : width - typed - displayWidth(' /');
  const label =
    [
      `${title}  filter: /`,
      ...(viewRoom >= MIN_CUT_VIEW ? [`${head} · ${truncate(view, viewRoom)} · ${shown}  filter: /`] : []),
      `${head} · ${shown}  filter: /`,
      ...(compactCount === undefined ? [] : [`${head} · ${compactCount}  filter: /`]),
      `${head}  filter: /`,
      // The profile stays as long as it can (README, Triage): without `filter:`, then cut.
      ...(profile === undefined ? [] : [`${profile}  filter: /`, `${profile} /`]),
      ...(profile !== undefined && profileRoom >= MIN_CUT_PROFILE ? [`${truncate(profile, profileRoom)} /`] : []),
      'filter: /',
    ].find(fits) ?? '/';
  return style.bold(label + withCursor({ text: state.filter, cursor: state.filterCursor }, width - displayWidth(label)));
}

/** The title's words while the rows are an earlier read's (--interval): they outlast all but the filter and the profile. */
const NOT_READ_AGAIN = '✗ not read again';

/** The fewest columns a view's name is cut to on the title line while filtering ("my-…"); shorter, it is left out. */
const MIN_CUT_VIEW = 4;
/** The same for the profile's words ("profile c…"). */
const MIN_CUT_PROFILE = 10;

function emptyListWhy(state: TriageState): string {
  if (state.loading !== undefined) return 'loading…';
  if (state.loadFailed) return 'could not load this view: R tries again';
  return state.filter === '' ? 'no tickets in this view' : 'no ticket matches the filter';
}

/** `*` before a row that the last --interval read found added or changed (README, Triage). */
const changedMark = (state: TriageState, row: TriageRow) => (state.marked.has(row.id) ? '*' : ' ');

function listLines(state: TriageState, layout: Layout, { table, style, color, now }: Drawing): string[] {
  const lines = layout.listHeader ? [`  ${table.header}`] : [];
  if (state.visible.length === 0) lines.push(`  ${emptyListWhy(state)}`);
  // The highlight sits in the middle of the window once the list is longer than it.
  const top = Math.max(0, Math.min(state.selected - Math.floor(layout.listLines / 2), state.visible.length - layout.listLines));
  state.visible.slice(top, top + layout.listLines).forEach((row, offset) => {
    const text = table.line(tableRow(row, now));
    const highlighted = top + offset === state.selected;
    const line = `${highlighted ? '›' : ' '}${changedMark(state, row)}${text}`;
    // With colour the row is painted inverse; without, the marker alone shows it.
    lines.push(highlighted && color ? style.inverse(line) : state.marked.has(row.id) ? style.bold(line) : line);
  });
  return lines;
}

/** Every key, over the list and the detail: the detail's room alone is too short at 80x24. */
function helpLines(state: TriageState, top: number, style: Style): string[] {
  const { header, shown, more } = helpPage(state.terminal, top);
  return [...(header === undefined ? [] : [style.bold(header)]), ...shown, ...(more === undefined ? [] : [style.dim(more)])];
}

/**
 * As many of the footer's keys as fit the width, then "q quit" and "? keys", which lists them all;
 * while something is open, or the filter is typed, the keys that work there (a q there is typed).
 */
function footerLine(state: TriageState, width: number): string {
  const open = openFooter(state);
  if (open !== undefined) return truncate(open, width);
  let keys = '';
  for (const entry of FOOTER_KEYS) {
    const longer = `${keys}${entry}  `;
    if (displayWidth(longer + FOOTER_ENDING) > width) break;
    keys = longer;
  }
  return truncate(keys + FOOTER_ENDING, width);
}

function openFooter({ overlay, filtering, terminal }: TriageState): string | undefined {
  if (overlay?.kind === 'help') return helpPage(terminal, overlay.top).scrolls ? OPEN_FOOTERS.helpScrolling : OPEN_FOOTERS.help;
  if (overlay !== undefined) return OPEN_FOOTERS[overlay.kind];
  return filtering ? OPEN_FOOTERS.filter : undefined;
}

/** Where the text being typed takes the next character (screen.ts puts a screen reader's cursor there). */
export const TYPING_CURSOR = '▏';

/**
 * Text being typed, in `width` columns, with the cursor drawn where it is: when the text is
 * longer, the part around the cursor, cut before it (at least half the room kept for what
 * comes before the cursor) and after it.
 */
function withCursor({ text, cursor }: Line, width: number): string {
  const room = width - displayWidth(TYPING_CURSOR);
  const before = text.slice(0, cursor);
  const after = text.slice(cursor);
  const beforeShown = truncateStart(before, Math.max(room - displayWidth(after), Math.ceil(room / 2)));
  return beforeShown + TYPING_CURSOR + truncate(after, room - displayWidth(beforeShown));
}

/** The line of text being typed. */
const typingLine = (line: Line, width: number) => `> ${withCursor(line, width - 2)}`;

/** The label and the text typed on one line, the label cut first: a picker at two lines. */
function labelledTypingLine(label: string, text: Line, width: number, style: Style): string {
  const typing = typingLine(text, width);
  const room = width - displayWidth(typing) - 1;
  return room > 1 ? `${style.bold(truncate(label, room))} ${typing}` : typing;
}

/** Words on as many lines of the width as they need, at most `most`: the last one cut. */
function wrappedLines(text: string, width: number, most: number): string[] {
  const lines = wrapText(text, width).split('\n');
  return lines.length <= most ? lines : [...lines.slice(0, most - 1), truncate(lines.slice(most - 1).join(' '), width)];
}

/** What a picker says above the text typed. */
const pickerLabel = (title: string) => `${title} (type to filter, Enter chooses, Esc cancels)`;

/**
 * An overlay's lines, for `height` lines: where the detail would be, or over the list too (coverOf).
 * A question or a label longer than the width is wrapped by words, as tkt delete's question, so
 * that its end ("(y/n)", the keys) is never cut off.
 */
function overlayLines(overlay: Exclude<Overlay, { kind: 'help' }>, layout: Layout, height: number, style: Style): string[] {
  const { width } = layout;
  switch (overlay.kind) {
    case 'confirm':
      return wrappedLines(overlay.question, width, height).map(style.bold);
    case 'prompt':
      // On a short terminal the text being typed keeps its line before the label does.
      if (height === 1) return [typingLine(overlay, width)];
      return [...wrappedLines(overlay.label, width, height - 1).map(style.bold), typingLine(overlay, width), style.dim('Enter sends, Esc cancels')];
    case 'picker': {
      const label = height >= 3 ? wrappedLines(pickerLabel(overlay.title), width, height - 2) : [];
      const shown = pickerMatches(overlay.choices, overlay.query);
      const room = Math.max(1, height - Math.max(2, label.length + 1));
      const top = Math.max(0, Math.min(overlay.selected - Math.floor(room / 2), shown.length - room));
      const choiceLine = (choice: Choice, index: number) => truncate(`${index === overlay.selected ? '› ' : '  '}${choice.label}`, width);
      const choices = shown.length === 0 ? ['  nothing matches'] : shown.slice(top, top + room).map((choice, offset) => choiceLine(choice, top + offset));
      // On a short terminal the choice Enter takes keeps its line first, then the label with the text typed.
      if (height === 1) return choices;
      const query = { text: overlay.query, cursor: overlay.cursor };
      if (height === 2) return [labelledTypingLine(overlay.title, query, width, style), ...choices];
      return [...label.map(style.bold), typingLine(query, width), ...choices];
    }
  }
}

/** The lines an overlay needs to say what it asks: a picker its label, the text typed and a choice. */
const WANTED_LINES = { confirm: 1, prompt: 2, picker: 3 } as const;

/** The lines an overlay would take with its words wrapped, to show them all. */
function wantedLines(overlay: Exclude<Overlay, { kind: 'help' }>, width: number): number {
  const lines = (text: string) => wrapText(text, width).split('\n').length;
  switch (overlay.kind) {
    case 'confirm':
      return lines(overlay.question);
    case 'prompt':
      return lines(overlay.label) + 1;
    case 'picker':
      return lines(pickerLabel(overlay.title)) + 2;
  }
}

/**
 * The room of an overlay that covers the list and the detail, or undefined when it fits in the
 * detail pane: the help always covers them; a question, a prompt or a picker when the detail pane
 * is too short for it (README, Triage), over the title too when they are (as the help).
 */
function coverOf(state: TriageState, layout: Layout): { lines: number; overTitle: boolean } | undefined {
  const { overlay } = state;
  if (overlay === undefined) return undefined;
  if (overlay.kind === 'help') return helpRoom(state.terminal);
  // Its words wrapped decide whether it fits the pane; the title's line is taken only for what it needs unwrapped.
  return layout.detailLines >= wantedLines(overlay, layout.width) ? undefined : coverRoom(state.terminal, WANTED_LINES[overlay.kind]);
}

function detailLines(state: TriageState, layout: Layout, style: Style): string[] {
  if (state.overlay !== undefined && state.overlay.kind !== 'help') return overlayLines(state.overlay, layout, layout.detailLines, style);
  const row = currentRow(state);
  if (row === undefined) return [];
  if (state.failedRead?.id === row.id) return [style.red(`could not read #${row.id}: ${state.failedRead.error}`)];
  const text = state.details.get(row.id)?.texts.get(layout.width);
  if (text === undefined) return [style.dim(`reading #${row.id}…`)];
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= layout.detailLines) return lines;
  // Cut: its last line says so, and which key shows the whole ticket.
  const shown = lines.slice(0, Math.max(0, layout.detailLines - 1));
  const more = `… ${lines.length - shown.length} more lines: ${keyFor('show')} shows the whole ticket`;
  return [...shown, style.dim(truncate(more, layout.width))];
}

/** Up to SHOWN_MARKS of the tickets an --interval read marked, by ID, in words a screen reader reads too: `#1023, #1050 and 2 more`. */
function markedTickets(marked: ReadonlySet<number>): string {
  const ids = [...marked].sort((a, b) => a - b);
  const shown = ids.slice(0, SHOWN_MARKS).map((id) => `#${id}`);
  const more = ids.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
const SHOWN_MARKS = 3;

/**
 * What the last action did, then which rows the --interval reads marked (with neither, the
 * columns the width left out): a read by the timer
 * adds to the action's words, never replaces them (README, Triage). Words longer than the width
 * take a second line when `most` allows it (a failure's reason and what was kept), cut after that.
 */
function statusLines(state: TriageState, width: number, style: Style, most: number, leftOut: readonly string[]): string[] {
  const changed = state.marked.size === 0 ? undefined : `${markedTickets(state.marked)} changed (marked *)`;
  if (state.status === undefined) {
    if (changed !== undefined) return [truncate(changed, width)];
    // Nothing else to say: the columns the width left out, as tkt list says them (a reader who
    // cannot see the header learns what is missing).
    return [leftOut.length === 0 ? '' : style.dim(truncate(`(not shown at this width: ${leftOut.join(', ')})`, width))];
  }
  const { text, tone } = state.status;
  const lines = wrappedLines(text, width, most);
  const paint = (line: string) => (tone === 'error' ? style.red(line) : tone === 'ok' ? style.green(line) : line);
  const last = lines.at(-1)!;
  const room = width - displayWidth(last);
  const ending = changed === undefined || room <= 0 ? paint(last) : paint(last) + truncate(` · ${changed}`, room);
  return [...lines.slice(0, -1).map(paint), ending];
}

/**
 * With no title line (3 lines or fewer), the filter being typed, or a picker's text (its one line
 * the choice Enter takes), has no line of its own: it takes the status line's, never typed blind.
 */
function typedWithoutLine(state: TriageState, width: number, style: Style): string | undefined {
  const { overlay } = state;
  if (overlay?.kind === 'picker') return labelledTypingLine(overlay.title, { text: overlay.query, cursor: overlay.cursor }, width, style);
  return overlay === undefined && state.filtering ? titleLine(state, width, style) : undefined;
}

/** Between the title line and the status line: the list (with its header), a rule and the detail, or what covers them. */
function middleLines(state: TriageState, layout: Layout, drawing: Drawing): string[] {
  const { style } = drawing;
  const height = layout.middleLines;
  const fit = (lines: string[], count: number) => [...lines.slice(0, count), ...Array<string>(Math.max(0, count - lines.length)).fill('')];
  const cover = coverOf(state, layout);
  if (cover !== undefined && state.overlay !== undefined) {
    const { overlay } = state;
    return fit(overlay.kind === 'help' ? helpLines(state, overlay.top, style) : overlayLines(overlay, layout, cover.lines, style), cover.lines);
  }
  if (layout.detailLines === 0) return fit(listLines(state, layout, drawing), height);
  return [
    ...fit(listLines(state, layout, drawing), height - 1 - layout.detailLines),
    style.dim('─'.repeat(layout.width)),
    ...fit(detailLines(state, layout, style), layout.detailLines),
  ];
}

/** The whole screen, one string per terminal line; the keys line is the last one at any height. */
export function screenLines(state: TriageState, drawing: Drawing): string[] {
  const full = layoutFor(state.terminal, state.visible.length);
  const { style } = drawing;
  // A status line too long for the width takes a line of the detail pane, which keeps one; not
  // while something is open there, nor from the list (README, Triage).
  const typed = full.title ? undefined : typedWithoutLine(state, full.width, style);
  const status =
    typed !== undefined ? [typed] : statusLines(state, full.width, style, full.detailLines >= 2 && state.overlay === undefined ? 2 : 1, drawing.table.leftOut);
  const taken = status.length - 1;
  const layout = { ...full, detailLines: full.detailLines - taken, middleLines: full.middleLines - taken };
  // On a short screen what covers the list takes the title's line too (coverOf).
  const title = layout.title && coverOf(state, layout)?.overTitle !== true;
  const all = [
    ...(title ? [titleLine(state, layout.width, style)] : []),
    ...middleLines(state, layout, drawing),
    ...status,
    style.dim(footerLine(state, layout.width)),
  ];
  return all.slice(Math.max(0, all.length - state.terminal.rows));
}
