// The triage screen as drawn from a state: the table's rows, and the detail pane at the sizes a
// terminal often has.
import { describe, expect, it } from 'vitest';
import { createLookups } from '../../src/lookups/index.js';
import { readListItem } from '../../src/model/ticket.js';
import { fitTable, measureTable } from '../../src/output/table.js';
import { createStyle } from '../../src/output/style.js';
import { renderTicketDetail } from '../../src/reading/detail.js';
import { layoutFor } from '../../src/triage/layout.js';
import { rowsOf } from '../../src/triage/rows.js';
import { initialState, withRows, type Overlay, type TriageState } from '../../src/triage/state.js';
import { displayWidth } from '../../src/output/width.js';
import { MARKER, screenLines, TABLE_COLUMNS, tableRow } from '../../src/triage/view.js';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({ login: 'tech' }, (harness) => (h = harness));

const now = new Date('2026-11-22T13:05:00Z');
const row = (ticket: Record<string, unknown>) => tableRow({ id: 1, summary: readListItem({ ticketId: 1, ...ticket }), searchText: '' }, now);

describe('triage table rows', () => {
  it("show a resolved or closed ticket's due as its date, not as time left or overdue", () => {
    const due = '2026-11-23T12:00:00Z';
    expect(row({ status: 'Open', dueDate: due })).toMatchObject({ due: 'in 23h', overdue: false });
    expect(row({ status: 'Closed', dueDate: due })).toMatchObject({ due: '2026-11-23', overdue: false });
    expect(row({ status: 'Resolved', dueDate: '2026-11-20T12:00:00Z' })).toMatchObject({ due: '2026-11-20', overdue: false });
  });
});

describe('the detail pane', () => {
  const DESCRIPTION = Array.from({ length: 12 }, (_, n) => `Line ${n + 1} of what the requester wrote.`).join('\n');

  /** The screen at `size` on the sandbox's tickets, the first highlighted: a ticket with every header field, and a long description. */
  async function screenAt(size: { columns: number; rows: number }): Promise<string[]> {
    const ticket = h.sandbox.state.tickets.find((t) => t.id === 1032)!;
    ticket.description = DESCRIPTION;
    const { ctx } = await h.context();
    const items = h.sandbox.state.tickets
      .filter((t) => t.id !== 1032)
      .slice(0, 20)
      .map((t) => ({ ...t, ticketId: t.id }));
    const state = withRows(initialState('AllTickets', size), rowsOf([{ ...ticket, ticketId: ticket.id }, ...items]), '');
    const { width } = layoutFor(size, state.visible.length);
    const text = await renderTicketDetail(ticket, { lookups: createLookups(ctx), now, color: false, width, descriptionFirst: true });
    const read = { ...state, details: new Map([[1032, { ticket, texts: new Map([[width, text]]) }]]) };
    const tableRows = read.visible.map((visible) => tableRow(visible, now));
    const table = fitTable(TABLE_COLUMNS, measureTable(TABLE_COLUMNS, tableRows), { width: width - MARKER, color: false });
    return screenLines(read, { table, style: createStyle(false), color: false, now });
  }

  /** The lines between the rule under the list and the status line. */
  const paneOf = (lines: string[]) => lines.slice(lines.findIndex((line) => line.startsWith('─')) + 1, -2).filter((line) => line !== '');

  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 100, rows: 30 },
  ]) {
    it(`shows the description's first lines at ${size.columns}x${size.rows}, and says the rest is cut and which key shows it`, async () => {
      const lines = await screenAt(size);
      expect(lines).toHaveLength(size.rows);
      const pane = paneOf(lines);
      expect(pane[0]).toMatch(/^ID: +1032$/);
      expect(pane).toContainEqual(expect.stringMatching(/^Title: +Server room temperature alarm$/));
      expect(pane).toContainEqual(expect.stringMatching(/^Status: /));
      expect(pane).toContain('Description');
      expect(pane).toContain('  Line 1 of what the requester wrote.');
      expect(pane).toContain('  Line 2 of what the requester wrote.');
      // The fields the pane has no room for come after the description, and the cut is said.
      expect(pane.at(-1)).toMatch(/^… \d+ more lines: Enter shows the whole ticket$/);
    });
  }
});

describe('the detail text of the pane', () => {
  it('lines up the values of the fields before the description and after it in one column', async () => {
    const ticket = h.sandbox.state.tickets.find((t) => t.id === 1032)!;
    const { ctx } = await h.context();
    const text = await renderTicketDetail(ticket, { lookups: createLookups(ctx), now, color: false, width: 100, descriptionFirst: true });
    const valueColumn = (label: string) => {
      const line = text.split('\n').find((candidate) => candidate.startsWith(`${label}:`))!;
      return line.length - line.slice(label.length + 1).trimStart().length;
    };
    expect(valueColumn('Requester')).toBeGreaterThan(0);
    expect(valueColumn('ID')).toBe(valueColumn('Requester'));
    expect(valueColumn('Title')).toBe(valueColumn('Requester'));
  });
});

describe('a short terminal', () => {
  /** The screen at `size` with `overlay` open over the sandbox's first `tickets` tickets, those `filter` matches shown. */
  function screenWith(
    size: { columns: number; rows: number },
    overlay: Overlay | undefined,
    more: Partial<TriageState> = {},
    { tickets = 10, filter = '' } = {},
  ): string[] {
    const items = h.sandbox.state.tickets.slice(0, tickets).map((t) => ({ ...t, ticketId: t.id }));
    const state = { ...withRows(initialState('AllTickets', size), rowsOf(items), filter), overlay, ...more };
    const table = fitTable(
      TABLE_COLUMNS,
      measureTable(
        TABLE_COLUMNS,
        state.visible.map((visible) => tableRow(visible, now)),
      ),
      {
        width: size.columns - MARKER,
        color: false,
      },
    );
    return screenLines(state, { table, style: createStyle(false), color: false, now });
  }

  it('keeps the text being typed in a prompt when one line is left for it, and the keys on the last line', () => {
    const lines = screenWith({ columns: 40, rows: 3 }, { kind: 'prompt', label: 'Resolution notes for #1001', text: 'Fixed', cursor: 5, resolves: 1001 });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('> Fixed▏');
    expect(lines[2]).toBe('⏎ send  Esc cancel');
  });

  const picker = (choices: number) =>
    ({
      kind: 'picker',
      title: 'Assign #1001 to',
      query: 'om',
      cursor: 2,
      choices: Array.from({ length: choices }, (_, n) => ({ label: `Omar Haddad ${n + 1}`, value: String(n) })),
      selected: 0,
      assigns: 1001,
    }) as const;
  const LABEL = /^Assign #1001 to \(type to filter/;
  const choice = (n: number) => `${n === 1 ? '›' : ' '} Omar Haddad ${n}`;

  it('keeps the choice Enter takes in a picker at one line, then the label with the text typed, then the text on its own line', () => {
    expect(screenWith({ columns: 40, rows: 3 }, picker(1))[0]).toBe(choice(1));
    expect(screenWith({ columns: 40, rows: 4 }, picker(1)).slice(0, 2)).toEqual(['Assign #1001 to > om▏', choice(1)]);
    expect(screenWith({ columns: 40, rows: 5 }, picker(1)).slice(0, 3)).toEqual([expect.stringMatching(LABEL), '> om▏', choice(1)]);
  });

  // Under the list, the detail pane of a 10-line terminal has 2 lines, of an 8-line one 1. The
  // label, longer than 40 columns, takes two lines where there are enough.
  const WRAPPED = ['Assign #1001 to (type to filter, Enter', 'chooses, Esc cancels)'];
  for (const { rows, label, shown } of [
    { rows: 10, label: WRAPPED, shown: 4 },
    { rows: 8, label: WRAPPED, shown: 2 },
    { rows: 6, label: [expect.stringMatching(LABEL)], shown: 1 },
  ]) {
    it(`gives a picker the list's place and the detail's at 40x${rows}: its label, the text typed and as many choices as fit (${shown})`, () => {
      const lines = screenWith({ columns: 40, rows }, picker(9));
      expect(lines).toHaveLength(rows);
      expect(lines.slice(0, shown + label.length + 2)).toEqual([
        expect.stringMatching(/^tkt triage · /),
        ...label,
        '> om▏',
        ...Array.from({ length: shown }, (_, n) => choice(n + 1)),
      ]);
      expect(lines.at(-1)).toMatch(/^⏎ choose {2}Esc cancel {2}↑ ↓ move/);
    });
  }

  it("shows in the footer the keys that work in what is open, not the list's", () => {
    // It showed the list's keys (q quit, which types a q into a picker) whatever was open.
    const footer = (overlay: Overlay | undefined, more: Partial<TriageState> = {}, rows = 24) => screenWith({ columns: 80, rows }, overlay, more).at(-1);
    expect(footer(picker(3))).toBe('⏎ choose  Esc cancel  ↑ ↓ move  (type to filter)');
    expect(footer({ kind: 'prompt', label: 'Resolution notes for #1001', text: '', cursor: 0, resolves: 1001 })).toBe('⏎ send  Esc cancel');
    expect(footer({ kind: 'confirm', question: 'Close #1001? (y/n)', closes: 1001 })).toBe('y yes  any other key no');
    expect(footer(undefined, { filtering: true })).toBe('⏎ keep the filter  Esc clear it');
    expect(footer({ kind: 'help', top: 0 })).toBe('any key closes');
    expect(footer({ kind: 'help', top: 0 }, {}, 10)).toBe('↑ ↓ PgUp PgDn scroll  other keys close');
    expect(footer(undefined)).toMatch(/^⏎ show {2}.* {2}q quit {2}\? keys$/);
    // Cut at the width, as the list's.
    expect(screenWith({ columns: 20, rows: 10 }, picker(3)).at(-1)).toBe('⏎ choose  Esc cance…');
  });

  it("keeps the filter and a picker's text being typed in sight at 3 lines and 2, on the status line's", () => {
    // With no title line, the filter was typed blind; so was a picker's text, its one line the choice.
    const status = { text: '✓ picked up #1001', tone: 'ok' } as const;
    const filtering = (rows: number) => screenWith({ columns: 40, rows }, undefined, { filtering: true, filter: 'cafe', filterCursor: 4, status });
    expect(filtering(3)).toEqual([expect.stringMatching(/^› /), 'tkt triage · 10/10  filter: /cafe▏', '⏎ keep the filter  Esc clear it']);
    expect(filtering(2)).toEqual(['tkt triage · 10/10  filter: /cafe▏', '⏎ keep the filter  Esc clear it']);
    expect(screenWith({ columns: 40, rows: 3 }, picker(1), { status })).toEqual([choice(1), 'Assign #1001 to > om▏', expect.stringMatching(/^⏎ choose/)]);
    // Once the filter is kept, the status line is back.
    expect(screenWith({ columns: 40, rows: 3 }, undefined, { filter: 'cafe', status })[1]).toBe(status.text);
  });

  it('draws the cursor where it is in the text typed, and keeps it in sight in a text longer than the line', () => {
    const prompt = (text: string, cursor: number) => ({ kind: 'prompt', label: 'Resolution notes for #1001', text, cursor, resolves: 1001 }) as const;
    expect(screenWith({ columns: 40, rows: 3 }, prompt('Fixed it', 3))[0]).toBe('> Fix▏ed it');
    expect(screenWith({ columns: 40, rows: 3 }, prompt('Fixed 😀', 6))[0]).toBe('> Fixed ▏😀');
    const long = 'Replaced the toner, cleaned the drum, printed a test page';
    const atStart = screenWith({ columns: 40, rows: 3 }, prompt(long, 0))[0]!;
    expect(atStart).toBe(`> ▏${long.slice(0, 36)}…`);
    const inMiddle = screenWith({ columns: 40, rows: 3 }, prompt(long, long.indexOf('drum')))[0]!;
    expect(inMiddle).toMatch(/^> …[^▏]*cleaned the ▏drum[^▏]*…$/);
    expect(displayWidth(inMiddle)).toBe(40);
    expect(screenWith({ columns: 40, rows: 3 }, prompt(long, long.length))[0]).toBe(`> …${long.slice(-36)}▏`);
  });

  it('draws the cursor in the filter on the title line', () => {
    const lines = screenWith({ columns: 80, rows: 10 }, undefined, { filtering: true, filter: 'printer', filterCursor: 5 });
    expect(lines[0]).toMatch(/filter: \/print▏er$/);
  });

  it('keeps the filter being typed and its cursor on the title line at any width: the view, then the count, give way', () => {
    const filtering = (columns: number, filter = 'cafe', view = 'MyOpenOrUnassigned') =>
      screenWith({ columns, rows: 10 }, undefined, { view, filtering: true, filter, filterCursor: filter.length })[0]!;
    expect(filtering(80)).toBe('tkt triage · my-open-or-unassigned · 10 of 10 tickets  filter: /cafe▏');
    expect(filtering(65)).toBe('tkt triage · my-open-or-unass… · 10 of 10 tickets  filter: /cafe▏');
    expect(filtering(48)).toBe('tkt triage · 10 of 10 tickets  filter: /cafe▏');
    expect(filtering(40)).toBe('tkt triage · 10/10  filter: /cafe▏');
    expect(filtering(30)).toBe('tkt triage  filter: /cafe▏');
    expect(filtering(20)).toBe('filter: /cafe▏');
    expect(filtering(8)).toBe('/cafe▏');
    for (let columns = 80; columns >= 6; columns--) {
      const line = filtering(columns);
      expect(line, `${columns}`).toMatch(/\/cafe▏$/);
      expect(displayWidth(line), `${columns}`).toBeLessThanOrEqual(columns);
    }
    // Longer than the line: the part around the cursor, as in a prompt, after the slash alone.
    const long = filtering(20, 'replaced the toner and the drum');
    expect(long).toBe('/…oner and the drum▏');
    expect(displayWidth(long)).toBe(20);
  });

  it('counts one ticket in the singular on the title line, filtered or not', () => {
    const title = (filter: string) => screenWith({ columns: 80, rows: 10 }, undefined, { view: 'MyEscalatedTickets' }, { tickets: 1, filter })[0]!;
    expect(title('')).toBe('tkt triage · my-escalated-tickets · 1 ticket');
    expect(title('nothing')).toBe('tkt triage · my-escalated-tickets · 0 of 1 ticket  filter: /nothing');
    expect(screenWith({ columns: 80, rows: 10 }, undefined, {}, { tickets: 0 })[0]).toBe('tkt triage · all-tickets · 0 tickets');
  });

  it('names the profile on the title line, before the view, and keeps it while the filter is typed, cut last', () => {
    const login = { shownProfile: 'prod', globals: { profile: 'prod' }, env: {} };
    const title = (columns: number, more: Partial<TriageState> = {}) =>
      screenWith({ columns, rows: 10 }, undefined, { view: 'MyOpenOrUnassigned', login, ...more })[0]!;
    expect(title(80)).toBe('tkt triage · profile prod · my-open-or-unassigned · 10 tickets');
    // Cut at the width: the profile is what is left.
    expect(title(30)).toBe('tkt triage · profile prod · m…');
    const filtering = (columns: number) => title(columns, { filtering: true, filter: 'cafe', filterCursor: 4 });
    expect(filtering(80)).toBe('tkt triage · profile prod · my-open-or-unass… · 10 of 10 tickets  filter: /cafe▏');
    expect(filtering(45)).toBe('tkt triage · profile prod  filter: /cafe▏');
    expect(filtering(30)).toBe('profile prod  filter: /cafe▏');
    for (let columns = 80; columns >= 6; columns--) {
      expect(displayWidth(filtering(columns)), `${columns}`).toBeLessThanOrEqual(columns);
      expect(displayWidth(title(columns)), `${columns}`).toBeLessThanOrEqual(columns);
    }
  });

  describe('at 50 columns, with a long profile name', () => {
    const login = { shownProfile: 'customer-support-emea-night', globals: { profile: 'customer-support-emea-night' }, env: {} };
    const at = (columns: number, rows: number, overlay: Overlay | undefined, more: Partial<TriageState> = {}) =>
      screenWith({ columns, rows }, overlay, { view: 'MyOpenOrUnassigned', login, ...more });
    const CLOSE = { kind: 'confirm', question: 'Close #1001 on profile customer-support-emea-night? (y/n)', closes: 1001 } as const;

    it('wraps a question by words in the detail pane, so that its (y/n) is never cut off', () => {
      const lines = at(50, 24, CLOSE);
      const rule = lines.findIndex((line) => line.startsWith('─'));
      expect(lines.slice(rule + 1, rule + 3)).toEqual(['Close #1001 on profile', 'customer-support-emea-night? (y/n)']);
      // A pane of one line: the question takes the list's place, whole.
      expect(at(50, 8, CLOSE).slice(1, 3)).toEqual(['Close #1001 on profile', 'customer-support-emea-night? (y/n)']);
    });

    it("wraps a picker's label by words, its keys kept, above the text typed and the choices", () => {
      const lines = at(50, 24, picker(3));
      const rule = lines.findIndex((line) => line.startsWith('─'));
      expect(lines.slice(rule + 1, rule + 7)).toEqual([
        'Assign #1001 to (type to filter, Enter chooses,',
        'Esc cancels)',
        '> om▏',
        choice(1),
        choice(2),
        choice(3),
      ]);
    });

    it('keeps the filter, the count and the profile on the title line before the view', () => {
      const filtered = (columns: number) => at(columns, 10, undefined, { filter: 'monitor' })[0]!;
      expect(filtered(110)).toBe('tkt triage · profile customer-support-emea-night · my-open-or-unassigned · 10 of 10 tickets  filter: /monitor');
      expect(filtered(100)).toBe('tkt triage · profile customer-support-emea-night · my-open-or-… · 10 of 10 tickets  filter: /monitor');
      expect(filtered(56)).toBe('profile customer-support-emea-night · 10/10 /monitor');
      expect(filtered(50)).toBe('profile customer-support-emea-night · 10/10 /moni…');
      for (let columns = 110; columns >= 6; columns--) expect(displayWidth(filtered(columns)), `${columns}`).toBeLessThanOrEqual(columns);
    });

    it('keeps the profile while the filter is typed at 50 columns', () => {
      const typing = (columns: number) => at(columns, 10, undefined, { filtering: true, filter: 'monitor', filterCursor: 7 })[0]!;
      expect(typing(56)).toBe('profile customer-support-emea-night  filter: /monitor▏');
      expect(typing(50)).toBe('profile customer-support-emea-night /monitor▏');
      expect(typing(30)).toBe('profile customer-su… /monitor▏');
      for (let columns = 80; columns >= 9; columns--) expect(typing(columns), `${columns}`).toMatch(/\/monitor▏$/);
    });
  });

  const FAILED = {
    text: '✗ replying to #1025: Ticket 1025 was not found. (not found, HTTP 400); your reply is kept: r opens it again',
    tone: 'error',
  } as const;

  it("shows a failure's reason at 60 columns: the status line takes a second line from the detail pane, the keys stay last", () => {
    const lines = screenWith({ columns: 60, rows: 20 }, undefined, { status: FAILED });
    expect(lines).toHaveLength(20);
    expect(lines.slice(-3, -1)).toEqual(['✗ replying to #1025: Ticket 1025 was not found. (not found,', 'HTTP 400); your reply is kept: r opens it again']);
    expect(lines.at(-1)).toMatch(/q quit {2}\? keys$/);
    // At 40 columns the reason still comes whole; what was kept is cut after it.
    const narrow = screenWith({ columns: 40, rows: 20 }, undefined, { status: FAILED });
    expect(narrow.slice(-3, -1).join(' ')).toMatch(/^✗ replying to #1025: Ticket 1025 was not found\. \(not found, HTTP 400\); your.*…$/);
    for (const line of narrow) expect(displayWidth(line)).toBeLessThanOrEqual(40);
  });

  it('keeps the status line to one line, the reason first, where the detail has no line to give', () => {
    const lines = screenWith({ columns: 60, rows: 6 }, undefined, { status: FAILED });
    expect(lines).toHaveLength(6);
    expect(lines.at(-2)).toBe('✗ replying to #1025: Ticket 1025 was not found. (not found,…');
  });

  it("gives a prompt the list's place when the detail pane is too short for its label", () => {
    const lines = screenWith({ columns: 40, rows: 8 }, { kind: 'prompt', label: 'Resolution notes for #1001', text: 'Fixed', cursor: 5, resolves: 1001 });
    expect(lines.slice(1, 4)).toEqual(['Resolution notes for #1001', '> Fixed▏', 'Enter sends, Esc cancels']);
  });

  // The first key lines of the help at 40 columns: ↑ ↓ j k, then PgUp PgDn.
  const FIRST_KEYS = /^ {2}↑ ↓ {2}j k +move$/;
  const SECOND_KEYS = /^ {2}PgUp PgDn +move by a page$/;
  const MORE = /^… \d+ more lines: ↓ or PgDn scrolls$/;

  it('shows the help at 4 lines as a key line and how many more there are, over the title, above the status line and the keys', () => {
    const lines = screenWith({ columns: 40, rows: 4 }, { kind: 'help', top: 0 });
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(FIRST_KEYS);
    expect(lines[1]).toMatch(MORE);
    expect(lines[3]).toBe('↑ ↓ PgUp PgDn scroll  other keys close');
    expect(screenWith({ columns: 40, rows: 4 }, { kind: 'help', top: 1 })[0]).toMatch(SECOND_KEYS);
  });

  it('shows the help at 3 lines as one key line, the next one a line further', () => {
    const lines = screenWith({ columns: 40, rows: 3 }, { kind: 'help', top: 0 });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(FIRST_KEYS);
    expect(lines[2]).toBe('↑ ↓ PgUp PgDn scroll  other keys close');
    expect(screenWith({ columns: 40, rows: 3 }, { kind: 'help', top: 1 })[0]).toMatch(SECOND_KEYS);
  });

  it('shows the help at 5 lines under its header: a key line and how many more there are', () => {
    const lines = screenWith({ columns: 40, rows: 5 }, { kind: 'help', top: 0 });
    expect(lines.slice(0, 3)).toEqual([expect.stringMatching(/^Keys \(/), expect.stringMatching(FIRST_KEYS), expect.stringMatching(MORE)]);
  });
});
