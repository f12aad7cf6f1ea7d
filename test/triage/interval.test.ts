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
const opened = () => run(start(VIEW, SIZE, { intervalMs: INTERVAL }), { kind: 'viewLoaded', token: 1, items: ITEMS }, DOWN);

/** The timer's tick and the read it starts, answered with `items`. */
function ticked(step: Step, items: readonly unknown[]): Step {
  const tick = then(step, { kind: 'tick' });
  const [load] = loads(tick);
  if (load?.kind !== 'loadView') throw new Error('the tick read nothing');
  return run(tick, { kind: 'viewLoaded', token: load.token, items });
}

/** The screen's title line and status line (the one before the footer). */
function drawn(state: TriageState) {
  const natural = measureTable(
    TABLE_COLUMNS,
    state.rows.map((row) => tableRow(row, new Date())),
  );
  const table = fitTable(TABLE_COLUMNS, natural, { width: state.terminal.columns - MARKER, color: false });
  const lines = screenLines(state, { table, style: createStyle(false), color: false, now: new Date() });
  return { title: lines[0]!, status: lines.at(-2)! };
}

describe('tkt triage --interval', () => {
  it('starts the timer with the first read, and only with --interval', () => {
    expect(waits(start(VIEW, SIZE, { intervalMs: INTERVAL }))).toEqual([{ kind: 'wait', ms: INTERVAL }]);
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
    expect(drawn(after.state).status).toBe('#1023, #1050 changed (marked *)');
  });

  // A screen-reader review: "2 tickets changed" said which only by a * on their rows.
  it('names the first three tickets marked, and how many more', () => {
    const changed = ticked(opened(), [item(1050, 'New laptop'), item(1051, 'New phone'), item(1052, 'New desk'), item(1053, 'New chair'), ...ITEMS]);
    expect(drawn({ ...changed.state, terminal: { columns: 160, rows: 30 } }).status).toBe('#1050, #1051, #1052 and 1 more changed (marked *)');
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
    expect(drawn(later.state).status).toBe('#1031 changed (marked *)');
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

describe('an --interval read beside what an action did', () => {
  const refused = () => new Error('connect ECONNREFUSED 127.0.0.1:9');
  /** A reply to the highlighted #1029 that the service refused: kept, and said. */
  const replyFailed = () => {
    const asked = then(opened(), { kind: 'key', input: 'r', key: {} }, { kind: 'templatesRead', id: 1029, purpose: 'reply', names: [] });
    return run(asked, { kind: 'actionFailed', id: 1029, error: refused(), unsent: 'On its way.' });
  };
  const REPLY_FAILED = '✗ replying to #1029: connect ECONNREFUSED 127.0.0.1:9; your reply is kept: r opens it again';

  it("keeps an action's failure in the status line when a read by the timer fails, and says that failure in the title line once", () => {
    const failed = replyFailed();
    expect(drawn(failed.state).status).toBe(REPLY_FAILED);
    const tick = then(failed, { kind: 'tick' });
    const [load] = loads(tick);
    if (load?.kind !== 'loadView') throw new Error('the tick read nothing');
    const reloadFailed = run(tick, { kind: 'viewFailed', token: load.token, error: refused() });
    expect(drawn(reloadFailed.state).status).toBe(REPLY_FAILED);
    expect(drawn(reloadFailed.state).title).toBe('tkt triage · my-open-or-unassigned · 3 tickets · ✗ not read again: connect ECONNREFUSED 127.0.0.1:9');
    // The next failed read says the same, in the same place; the next good one clears it.
    const again = then(reloadFailed, { kind: 'tick' });
    const [next] = loads(again);
    if (next?.kind !== 'loadView') throw new Error('the tick read nothing');
    const twice = run(again, { kind: 'viewFailed', token: next.token, error: refused() });
    expect(drawn(twice.state)).toEqual(drawn(reloadFailed.state));
    const back = ticked(twice, ITEMS);
    expect(drawn(back.state)).toEqual({ title: 'tkt triage · my-open-or-unassigned · 3 tickets', status: REPLY_FAILED });
  });

  /** Opened (on `profile`, with `filter` applied), then a read by the timer that failed, at `columns`. */
  function failedRead(columns: number, { profile, filter }: { profile?: string; filter?: string } = {}): string {
    const login = { shownProfile: profile, globals: {}, env: {} };
    const loaded = run(start(VIEW, SIZE, { intervalMs: INTERVAL, login }), { kind: 'viewLoaded', token: 1, items: ITEMS });
    const typed: TriageEvent[] =
      filter === undefined
        ? []
        : [
            { kind: 'key', input: '/', key: {} },
            ...Array.from(filter, (input): TriageEvent => ({ kind: 'key', input, key: {} })),
            { kind: 'key', input: '', key: { return: true } },
          ];
    const tick = then(then(loaded, ...typed), { kind: 'tick' });
    const [load] = loads(tick);
    if (load?.kind !== 'loadView') throw new Error('the tick read nothing');
    const failed = run(tick, { kind: 'viewFailed', token: load.token, error: refused() });
    return drawn(then(failed, { kind: 'resized', columns, rows: 24 }).state).title;
  }

  // A split pane must still say that the list is an earlier read's: the title's label gives way
  // as it does without the warning (the view's name first, then the count), the words stay beside
  // what must (the filter, the profile), the reason after them cut where it must be.
  it.each([
    [100, 'tkt triage · my-open-or-unassigned · 3 tickets · ✗ not read again: connect ECONNREFUSED 127.0.0.1:9'],
    [80, 'tkt triage · my-open-or-unassigned · 3 tickets · ✗ not read again: connect ECON…'],
    [60, 'tkt triage · 3 tickets · ✗ not read again: connect ECONNREF…'],
    [32, '✗ not read again: connect ECONN…'],
  ])('keeps the failed read in the title at %i columns', (columns, title) => {
    expect(failedRead(columns)).toBe(title);
  });

  it('keeps the filter and the profile beside the failed read, at every width', () => {
    for (let columns = 100; columns >= 30; columns -= 1) {
      const filtered = failedRead(columns, { filter: 'printer' });
      expect(filtered, `${columns} columns`).toMatch(columns >= 45 ? /\/printer · ✗ not read again/ : /\/printer · ✗/);
      const onProfile = failedRead(columns, { profile: 'eu-west' });
      expect(onProfile, `${columns} columns`).toMatch(columns >= 35 ? /^(tkt triage · )?profile eu-west .*✗ not read again/ : /^profile eu-west · ✗/);
    }
  });

  it("adds which tickets a read by the timer changed after an action's failure, not over it", () => {
    const changed = ticked(replyFailed(), [item(1031, 'Mouse double-clicks', 'On Hold'), ...ITEMS.slice(1)]);
    expect(drawn({ ...changed.state, terminal: { columns: 160, rows: 30 } }).status).toBe(`${REPLY_FAILED} · #1031 changed (marked *)`);
    // Too narrow for both: the action's words first.
    expect(drawn({ ...changed.state, terminal: { columns: 100, rows: 30 } }).status).toBe(`${REPLY_FAILED} · #1031…`);
  });

  // A screen-reader review: at 60 columns the table left out priority, requester and assignee
  // without a word, where tkt list says which.
  it('says which columns the width left out when the status line has nothing else to say', () => {
    const narrow = { ...opened().state, terminal: { columns: 60, rows: 30 } };
    expect(drawn(narrow).status).toMatch(/^\(not shown at this width: [a-z, ]*requester[a-z, ]*\)$/);
    expect(drawn({ ...narrow, terminal: { columns: 120, rows: 30 } }).status).toBe('');
    expect(drawn({ ...narrow, status: { text: '✓ picked up #1029', tone: 'ok' } }).status).toBe('✓ picked up #1029');
  });
});
