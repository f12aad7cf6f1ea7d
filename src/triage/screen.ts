// The triage screen in Ink (React for terminals): the program's state drawn by view.ts, and the
// keys and pastes handed to the program as events. Colour only through tkt's own style
// (NO_COLOR, --no-color), never Ink's.
import { Box, Text, useCursor } from 'ink';
import { createElement as h, useMemo, useSyncExternalStore, type ReactElement } from 'react';
import { createStyle } from '../output/style.js';
import { fitTable, measureTable, type FittedTable, type Row } from '../output/table.js';
import { useKeysAndPastes } from './input.js';
import { layoutFor } from './layout.js';
import type { TriageProgram } from './program.js';
import type { TriageRow } from './rows.js';
import { MARKER, screenLines, TABLE_COLUMNS, tableRow, TYPING_CURSOR } from './view.js';
import { displayWidth } from '../output/width.js';

export interface ScreenProps {
  program: TriageProgram;
  color: boolean;
  now: () => Date;
  /** TKT_SCREEN_READER: the terminal's cursor is kept where the reader's attention is (readerCursor). */
  screenReader: boolean;
}

/**
 * The table fitted to the width. Its columns are measured over the view's tickets once a load
 * (the costly part, with 20,000 of them): filtering and moving draw only the rows shown.
 */
function useTable(rows: readonly TriageRow[], width: number, color: boolean, now: () => Date): FittedTable {
  const columns = useMemo(() => {
    const style = createStyle(color);
    return TABLE_COLUMNS.map((column) =>
      column.key === 'due' ? { ...column, paint: (text: string, row: Row) => (row.overdue === true ? style.red(text) : text) } : column,
    );
  }, [color]);
  const natural = useMemo(() => {
    const at = now();
    return measureTable(
      columns,
      rows.map((row) => tableRow(row, at)),
    );
  }, [rows, columns]);
  return useMemo(() => fitTable(columns, natural, { width: width - MARKER, color }), [columns, natural, width, color]);
}

const line = (text: string, key: number): ReactElement => h(Text, { key, wrap: 'truncate-end' }, text === '' ? ' ' : text);

const ESCAPES = /\x1b\[[0-9;]*m/g;

/**
 * Where a screen reader's "read the current line" should land: while text is being typed
 * (`typing`: the filter, a prompt, a picker), at its cursor (▏), or in a picker with nothing typed
 * the choice Enter takes; else the highlighted row (›), at its start. The screen hides the
 * terminal's cursor otherwise, and a reader then reads the keys line, never the ticket. A ▏ in a
 * ticket's own text is not taken for the cursor: it is looked for only while something is typed.
 */
export function readerCursor(lines: readonly string[], typing: boolean): { x: number; y: number } | undefined {
  const plain = lines.map((text) => text.replace(ESCAPES, ''));
  // The filter is typed on the title line; a prompt or a picker's text under the list, its last ▏.
  const typed = !typing ? -1 : plain[0]?.includes(TYPING_CURSOR) === true ? 0 : plain.findLastIndex((text) => text.includes(TYPING_CURSOR));
  return typed === -1 ? highlightedRow(plain) : cursorIn(plain, typed);
}

function highlightedRow(plain: readonly string[]): { x: number; y: number } | undefined {
  const highlighted = plain.findIndex((text) => text.startsWith('›'));
  return highlighted === -1 ? undefined : { x: 0, y: highlighted };
}

function cursorIn(plain: readonly string[], typing: number): { x: number; y: number } {
  // A picker's filter with nothing typed yet: the choice under it that Enter would take.
  const choice = /^> ▏\s*$/.test(plain[typing]!) ? plain.findIndex((text, y) => y > typing && text.startsWith('›')) : -1;
  if (choice !== -1) return { x: 0, y: choice };
  return { x: displayWidth(plain[typing]!.slice(0, plain[typing]!.indexOf(TYPING_CURSOR))), y: typing };
}

export function TriageScreen({ program, color, now, screenReader }: ScreenProps): ReactElement {
  const state = useSyncExternalStore(program.subscribe, program.snapshot);
  const layout = layoutFor(state.terminal, state.visible.length);
  const table = useTable(state.rows, layout.width, color, now);
  useKeysAndPastes(
    (input, key) => program.dispatch({ kind: 'key', input, key }),
    (text) => program.dispatch({ kind: 'paste', text }),
  );
  const lines = screenLines(state, { table, style: createStyle(color), color, now: now() });
  const { setCursorPosition } = useCursor();
  const typing = state.filtering || state.overlay?.kind === 'prompt' || state.overlay?.kind === 'picker';
  setCursorPosition(screenReader ? readerCursor(lines, typing) : undefined);
  return h(Box, { flexDirection: 'column', width: layout.width, height: state.terminal.rows }, ...lines.map(line));
}
