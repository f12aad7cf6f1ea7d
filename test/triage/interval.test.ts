// tkt triage --interval as data: the wait effect, the tick that reads the view again, the rows
// that changed marked (through tkt watch's differ) until the highlight moves, the highlight
// kept on its ticket.
import { describe, expect, it } from 'vitest';
import type { TriageEvent } from '../../src/triage/events.js';
import type { TriageState } from '../../src/triage/state.js';
import { start, type Step } from '../../src/triage/update.js';
import { MARKER, screenLines, TABLE_COLUMNS, tableRow } from '../../src/triage/view.js';
import { fitTable, measureTable } from '../../src/output/table.js';
import { createStyle } from '../../src/output/style.js';
import { run, stepsAfter as then } from '../helpers/triage-steps.js';

const SIZE = { columns: 100, rows: 30 };
const VIEW = 'MyOpenOrUnassigned';
const INTERVAL = 30_000;

const item = (id: number, title: string, status = 'Open') => ({ id, title, status, priority: 'Normal', requester: 'Rita Requester' });
const ITEMS = [item(1031, 'Mouse double-clicks'), item(1029, 'Printer jams'), item(1023, 'Printer toner low')];
const DOWN: TriageEvent = { kind: 'key', input: '', key: { downArrow: true } };

const highlighted = (state: TriageState) => state.visible[state.selected]?.id;
const loads = (step: Step) => step.effects.filter((effect) => effect.kind === 'loadView');
const waits = (step: Step) => step.effects.filter((effect) => effect.kind === 'wait');

/** Opened with --interval, the first read done, the highlight moved to the second row. */
const opened = () => run(start(VIEW, SIZE, INTERVAL), { kind: 'viewLoaded', token: 1, items: ITEMS }, DOWN);

/** The timer's tick and the read it starts, answered with `items`. */
function ticked(step: Step, items: readonly unknown[]): Step {
  const tick = then(step, { kind: 'tick' });
  const [load] = loads(tick);
  if (load?.kind !== 'loadView') throw new Error('the tick read nothing');
  return run(tick, { kind: 'viewLoaded', token: load.token, items });
}

describe('tkt triage --interval', () => {
  it('starts the timer with the first read, and only with --interval', () => {
    expect(waits(start(VIEW, SIZE, INTERVAL))).toEqual([{ kind: 'wait', ms: INTERVAL }]);
    expect(waits(start(VIEW, SIZE))).toEqual([]);
  });

  it('reads the view again on a tick and waits again', () => {
    const tick = then(opened(), { kind: 'tick' });
    expect(loads(tick)).toEqual([{ kind: 'loadView', view: VIEW, token: 2 }]);
    expect(waits(tick)).toEqual([{ kind: 'wait', ms: INTERVAL }]);
  });

  it('does not start a second read while one is under way, but keeps the timer going', () => {
    const reading = then(opened(), { kind: 'key', input: 'R', key: {} });
    const tick = then(reading, { kind: 'tick' });
    expect(loads(tick)).toEqual([]);
    expect(waits(tick)).toEqual([{ kind: 'wait', ms: INTERVAL }]);
  });

  it('marks the rows changed or added since the previous read, and keeps the highlight on its ticket', () => {
    const before = opened();
    expect(highlighted(before.state)).toBe(1029);
    // A new ticket on top pushes the highlighted one down a row; 1023 changed its status.
    const after = ticked(before, [item(1050, 'New laptop'), ...ITEMS.slice(0, 2), item(1023, 'Printer toner low', 'In Progress')]);
    expect([...after.state.marked].sort()).toEqual([1023, 1050]);
    expect(highlighted(after.state)).toBe(1029);
    expect(after.state.status?.text).toBe('2 tickets changed (marked *)');
  });

  it('marks nothing when nothing changed, and leaves the status line as it was', () => {
    const before = opened();
    const after = ticked({ ...before, state: { ...before.state, status: { text: '✓ picked up #1029', tone: 'ok' } } }, ITEMS);
    expect(after.state.marked.size).toBe(0);
    expect(after.state.status?.text).toBe('✓ picked up #1029');
  });

  it('clears the marks when the highlight moves, not on other keys', () => {
    const changed = ticked(opened(), [item(1031, 'Mouse double-clicks', 'On Hold'), ...ITEMS.slice(1)]);
    expect([...changed.state.marked]).toEqual([1031]);
    expect(then(changed, { kind: 'key', input: '?', key: {} }).state.marked.size).toBe(1);
    expect(then(changed, DOWN).state.marked.size).toBe(0);
  });

  it('keeps the marks through later reads that change nothing, until the highlight moves', () => {
    const changed = ticked(opened(), [item(1031, 'Mouse double-clicks', 'On Hold'), ...ITEMS.slice(1)]);
    const later = ticked(changed, [item(1031, 'Mouse double-clicks', 'On Hold'), ...ITEMS.slice(1)]);
    expect([...later.state.marked]).toEqual([1031]);
    expect(later.state.status?.text).toBe('1 ticket changed (marked *)');
  });

  it('draws a * before a marked row', () => {
    const changed = ticked(opened(), [item(1031, 'Mouse double-clicks', 'On Hold'), ...ITEMS.slice(1)]);
    const style = createStyle(false);
    const natural = measureTable(
      TABLE_COLUMNS,
      changed.state.rows.map((row) => tableRow(row, new Date())),
    );
    const table = fitTable(TABLE_COLUMNS, natural, { width: SIZE.columns - MARKER, color: false });
    const lines = screenLines(changed.state, { table, style, color: false, now: new Date() });
    expect(lines.find((line) => line.includes('1031'))).toMatch(/^ \* *1031 /);
    expect(lines.find((line) => line.includes('1029'))).toMatch(/^› *1029 /);
  });
});
