// The triage screen in Ink (React for terminals): the program's state drawn by view.ts, and the
// keys and pastes handed to the program as events. Colour only through tkt's own style
// (NO_COLOR, --no-color), never Ink's.
import { Box, Text } from 'ink';
import { createElement as h, useMemo, useSyncExternalStore, type ReactElement } from 'react';
import { createStyle } from '../output/style.js';
import { fitTable, measureTable, type FittedTable, type Row } from '../output/table.js';
import { useKeysAndPastes } from './input.js';
import { layoutFor } from './layout.js';
import type { TriageProgram } from './program.js';
import type { TriageRow } from './rows.js';
import { MARKER, screenLines, TABLE_COLUMNS, tableRow } from './view.js';

export interface ScreenProps {
  program: TriageProgram;
  color: boolean;
  now: () => Date;
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

export function TriageScreen({ program, color, now }: ScreenProps): ReactElement {
  const state = useSyncExternalStore(program.subscribe, program.snapshot);
  const layout = layoutFor(state.terminal, state.visible.length);
  const table = useTable(state.rows, layout.width, color, now);
  useKeysAndPastes(
    (input, key) => program.dispatch({ kind: 'key', input, key }),
    (text) => program.dispatch({ kind: 'paste', text }),
  );
  const lines = screenLines(state, { table, style: createStyle(color), color, now: now() });
  return h(Box, { flexDirection: 'column', width: layout.width, height: state.terminal.rows }, ...lines.map(line));
}
