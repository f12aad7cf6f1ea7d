import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { fitTable, measureTable, renderKeyValue, renderTable, type Column, type Row } from '../../src/output/table.js';
import { displayWidth } from '../../src/output/width.js';

const columns: Column[] = [
  { header: 'ID', key: 'id', align: 'right' },
  { header: 'SUBJECT', key: 'title', shrink: true },
  { header: 'STATUS', key: 'status' },
];
const rows: Row[] = [
  { id: 7, title: 'Printer on floor 2 keeps jamming whenever anyone prints double-sided', status: 'Open' },
  { id: 12345, title: 'VPN', status: 'On Hold' },
];
const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('renderTable on a terminal', () => {
  it('fits the width by truncating the shrinkable column with …, never the ID', async () => {
    const out = await renderTable(columns, rows, { width: 40, color: false });
    for (const line of lines(out)) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    expect(out).toContain('12345');
    expect(out).toContain('Printer on floor');
    expect(out).toContain('…');
    expect(out).not.toContain('double-sided');
    expect(out).toContain('On Hold');
  });

  it('shows an empty cell as -, so that a row read aloud keeps its columns apart; piped, it stays empty', async () => {
    const withEmpty: Row[] = [...rows, { id: 8, title: '', status: '' }, { id: 9, title: 'Toner', status: ' ' }];
    const out = lines(await renderTable(columns, withEmpty, { width: 80, color: false }));
    expect(out.at(-2)).toMatch(/^ {4}8 {2}- +-$/);
    // A last cell of spaces leaves none at the end (copied rows carried the padding).
    expect(out.at(-1)).toBe('    9  Toner');
    for (const line of out) expect(line).not.toMatch(/ $/);
    expect(renderTable(columns, withEmpty, { width: 80, color: false, plain: true }).split('\n').at(-3)).toBe('8\t\t');
  });

  it('leaves everything whole when it fits', async () => {
    const out = await renderTable(columns, rows, { width: 200, color: false });
    expect(out).toContain('whenever anyone prints double-sided');
    expect(out).not.toContain('…');
    expect(lines(out)[0]).toMatch(/ID.*SUBJECT.*STATUS/);
  });

  it('loses no column of a table without priorities (metadata, --columns): cut to their minimum, rows may run past the width', async () => {
    const narrow: Column[] = [columns[0]!, { ...columns[1]!, minWidth: 12 }, columns[2]!];
    for (const width of [40, 30, 24, 16, 10, 8]) {
      const out = await renderTable(narrow, rows, { width, color: false });
      expect(lines(out)[0], `${width}`).toMatch(/ID {2}SUBJECT.* {2}STATUS/);
      expect(out).toContain('12345');
    }
    // SUBJECT at its minWidth of 12, whatever the width.
    for (const width of [24, 10]) expect(lines(await renderTable(narrow, rows, { width, color: false }))[1]).toBe('    7  Printer on …  Open');
  });

  describe('columns giving way by priority', () => {
    const ticketColumns: Column[] = [
      { header: 'ID', key: 'id', align: 'right', priority: 5 },
      { header: 'STATUS', key: 'status', shrink: true, minWidth: 11, priority: 4 },
      { header: 'TITLE', key: 'title', shrink: true, minWidth: 24, priority: 5 },
      { header: 'REQUESTER', key: 'requester', shrink: true, minWidth: 8, priority: 0 },
      { header: 'ASSIGNEE', key: 'assignee', shrink: true, minWidth: 8, priority: 1 },
    ];
    const tickets: Row[] = [
      {
        id: 1031,
        status: 'In Progress',
        title: 'Mouse double-clicks on every single click since Monday',
        requester: 'Jörg Müller',
        assignee: 'Tom Technician',
      },
      { id: 1029, status: 'Open', title: 'Shared drive not mapped after the migration', requester: 'Anna Berg', assignee: '-' },
    ];
    const header = (width: number) =>
      lines(renderTable(ticketColumns, tickets, { width, color: false }))[0]!
        .trim()
        .split(/ {2,}/);
    /** The title column's width: from TITLE to the next header less the gap, or the first row's title when it is the last column. */
    const titleWidth = (width: number) => {
      const [head = '', first = ''] = lines(renderTable(ticketColumns, tickets, { width, color: false }));
      const at = head.indexOf('TITLE');
      const next = head.slice(at + 5).search(/\S/);
      return next < 0 ? displayWidth(first.slice(at)) : next + 5 - 2;
    };

    it('shrinks the lowest first, and leaves it out before the title goes below its minimum', () => {
      expect(header(120)).toEqual(['ID', 'STATUS', 'TITLE', 'REQUESTER', 'ASSIGNEE']);
      // Every column at its minimum fits: the requester and assignee are cut before the title.
      expect(header(70)).toEqual(['ID', 'STATUS', 'TITLE', 'REQUEST…', 'ASSIGNEE']);
      expect(titleWidth(70)).toBe(31);
      // They do not: the requester is left out, rather than the title cut below 24.
      expect(header(60)).toEqual(['ID', 'STATUS', 'TITLE', 'ASSIGNEE']);
      expect(titleWidth(60)).toBeGreaterThanOrEqual(24);
      expect(header(50)).toEqual(['ID', 'STATUS', 'TITLE']);
      expect(titleWidth(50)).toBeGreaterThanOrEqual(24);
      // The highest priorities stay; the title is cut below its minimum last of all.
      expect(header(30)).toEqual(['ID', 'TITLE']);
      for (const width of [120, 70, 50, 30, 20]) {
        for (const line of lines(renderTable(ticketColumns, tickets, { width, color: false }))) expect(displayWidth(line)).toBeLessThanOrEqual(width);
      }
    });
  });

  it('escapes control characters in server text', async () => {
    const out = await renderTable(columns, [{ id: 1, title: 'evil\u001b[2J\u001b]0;x\u0007\rtitle\nnext', status: 'Open' }], {
      width: 120,
      color: false,
    });
    expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(out).toContain('evil^[[2J^[]0;x^G^Mtitle next');
  });

  it('adds colour only when asked: bold headers, painted cells', async () => {
    const painted: Column[] = [columns[0]!, columns[1]!, { ...columns[2]!, paint: (text) => `<${text}>` }];
    const plainOut = await renderTable(painted, rows, { width: 120, color: false });
    expect(plainOut).not.toContain('\u001b[');
    expect(plainOut).not.toContain('<Open>');

    const colourOut = await renderTable(painted, rows, { width: 120, color: true });
    expect(colourOut).toContain('\u001b[1mSUBJECT\u001b[22m');
    expect(colourOut).toContain('<Open>');
  });

  it('keeps columns straight at 80 columns whatever the title holds: emoji, CJK, combining and zero-width marks', async () => {
    const titles = ['Plain ASCII title', '🔥 Server room too hot 🔥', '打印机坏了 in room 2', 'Café crème machine', 'ZWJ 👩‍💻 family', 'x\u200bzero width'];
    const out = await renderTable(
      [...columns, { header: 'DUE', key: 'due' }],
      titles.map((title, i) => ({ id: i + 1, title, status: 'Open', due: 'in 3h' })),
      { width: 80, color: false },
    );
    // The STATUS column starts at the same display column on every line: the header's and each row's.
    const statusAt = (line: string) => displayWidth(line.slice(0, line.search(/STATUS|Open/)));
    const starts = lines(out).map(statusAt);
    expect(new Set(starts).size).toBe(1);
    for (const line of lines(out)) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // No box: the title keeps the room.
    expect(out).not.toMatch(/[│┌─]/);
  });

  it('never runs past the width with a joined emoji or a skin tone, however the terminal draws it (up to one column a part each)', () => {
    const out = renderTable(
      columns,
      ['Fix 👩🏽‍💻 laptop for the new starter in room 4', 'Thanks 👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽👍🏽'].map((title, i) => ({ id: i + 1, title, status: 'Open' })),
      { width: 40, color: false },
    );
    // As wide as a terminal that draws each part of the sequence on its own.
    const widest = (line: string) => Array.from(line).reduce((sum, part) => sum + stringWidth(part), 0);
    for (const line of lines(out)) expect(widest(line), line).toBeLessThanOrEqual(40);
  });

  // A joined emoji is left out: it counts as its parts (the widest a terminal draws it), not as string-width's 2.
  it('keeps columns straight as Ink measures them (string-width): ©, ☀, a flag, Hangul Jamo Extended, CJK', () => {
    const titles = ['© 2026 licence', '☀ solar panel', 'Berlin 🇩🇪 office', 'ꥠꥡ jamo', '漢字 printer', 'สวัสดี Thai marks', 'x\u200bzero width', 'plain'];
    const out = renderTable(
      columns,
      titles.map((title, i) => ({ id: i + 1, title, status: 'Open' })),
      { width: 80, color: false },
    );
    // The column each line's STATUS cell starts at, as the terminal (and triage's Ink) counts.
    const starts = lines(out).map((line) => stringWidth(line.slice(0, line.search(/STATUS|Open/))));
    expect(new Set(starts).size).toBe(1);
  });

  it('counts wide characters as two columns', async () => {
    const out = await renderTable(columns, [{ id: 1, title: '打印机坏了打印机坏了打印机坏了打印机坏了', status: 'Open' }], {
      width: 30,
      color: false,
    });
    for (const line of lines(out)) expect(displayWidth(line)).toBeLessThanOrEqual(30);
    expect(out).toContain('…');
  });
});

describe('measureTable / fitTable', () => {
  it('draws any row alone as renderTable draws it among all, with the widths measured over all', () => {
    const natural = measureTable(columns, rows);
    expect(natural).toEqual([5, 68, 7]);
    const table = fitTable(columns, natural, { width: 40, color: false });
    expect([table.header, table.line(rows[1]!)].join('\n')).toBe(
      lines(renderTable(columns, rows, { width: 40, color: false }))
        .filter((_line, i) => i !== 1)
        .join('\n'),
    );
  });
});

describe('renderTable plain (piped)', () => {
  it('prints tab-separated rows without header, truncation or borders', async () => {
    const out = await renderTable(columns, rows, { width: 20, color: false, plain: true });
    expect(out).toBe('7\tPrinter on floor 2 keeps jamming whenever anyone prints double-sided\tOpen\n12345\tVPN\tOn Hold\n');
  });

  it('keeps one row per line even when cells hold tabs or newlines', async () => {
    const out = await renderTable(columns, [{ id: 1, title: 'a\tb\nc', status: null }], { width: 80, color: false, plain: true });
    expect(out).toBe('1\ta b c\t\n');
  });

  it('prints nothing for no rows', async () => {
    expect(await renderTable(columns, [], { width: 80, color: false, plain: true })).toBe('');
  });
});

describe('renderKeyValue', () => {
  it('aligns values, skips missing ones and indents continuation lines', () => {
    const out = renderKeyValue(
      [
        ['Title', 'VPN down'],
        ['Assignee', undefined],
        ['Description', 'line one\nline two'],
        ['ID', 42],
      ],
      { color: false },
    );
    expect(out).toBe(['Title:        VPN down', 'Description:  line one', '              line two', 'ID:           42', ''].join('\n'));
  });

  it('wraps long values by words to the width, continuing under the value column', () => {
    const out = renderKeyValue(
      [
        ['Title', 'Printer on the second floor jams on every double-sided job'],
        ['ID', 42],
      ],
      { color: false, width: 40 },
    );
    expect(out).toBe(['Title:  Printer on the second floor jams', '        on every double-sided job', 'ID:     42', ''].join('\n'));
    // Without a width (piped) nothing is wrapped.
    expect(renderKeyValue([['Title', 'Printer on the second floor jams on every double-sided job']], { color: false })).toBe(
      'Title:  Printer on the second floor jams on every double-sided job\n',
    );
  });

  it('puts each value under its label, wrapped to the width, where no value column fits beside the labels', () => {
    const pairs: [string, string | number][] = [
      ['Title', 'Printer on the second floor jams'],
      ['Description', 'line one\nline two'],
      ['ID', 42],
    ];
    const out = renderKeyValue(pairs, { color: false, width: 24 });
    expect(out).toBe(['Title:', '  Printer on the second', '  floor jams', 'Description:', '  line one', '  line two', 'ID:', '  42', ''].join('\n'));
  });

  it('escapes control characters in values', () => {
    expect(renderKeyValue([['Title', 'x\u001b]0;pwned\u0007']], { color: false })).toBe('Title:  x^[]0;pwned^G\n');
  });
});
