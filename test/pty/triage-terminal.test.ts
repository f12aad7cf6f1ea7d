// tkt triage's use of the terminal, on real terminals (tmux, private socket) against a sandbox:
// the default pager taking the whole screen and leaving nothing behind, pasted text, what fits
// at 80x24 and narrower, Ctrl-C, and a run that cannot start. Each test opens its own screen;
// every step waits for what the screen shows, never for a fixed time.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/output/width.js';
import { KEY_TABLE } from '../../src/triage/keys.js';
import { BIN, useTerminal, waitForLeftBehind, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux', 'less'], 'test/pty/triage-terminal.test.ts');
/** The sandbox's status On Hold: neither open nor resolved nor closed. */
const ON_HOLD = 3;

describe.skipIf(skip)('tkt triage and the terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('triage-terminal', 'tech', (made) => {
    fixture = made;
  });
  let sessions = 0;
  const highlighted = (text: string) => /^› +(\d+) /m.exec(text)?.[1];
  const lines = (text: string) => text.replace(/\n+$/, '').split('\n');
  const ticket = (id: number) => fixture.sandbox.state.tickets.find((t) => t.id === id)!;

  /**
   * `tkt triage ARGS` in a new terminal of `size`, with the user's default pager (no PAGER or
   * LESS from the test's environment) and no colour; the shell says how it exited, then shows
   * what the terminal sends it (cat -v) until the test ends.
   */
  async function openTriage(size: { width: number; height: number }, options: { args?: string; env?: string; redirect?: string } = {}) {
    sessions += 1;
    const name = `t${sessions}`;
    const command = `env -u CI -u PAGER -u LESS -u VISUAL NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' ${options.env ?? ''} node '${BIN}' triage ${options.args ?? ''} ${options.redirect ?? ''}; echo "[exit $?]"; cat -v`;
    await terminal.start(name, size, command);
    const waitFor = (test: RegExp | ((text: string) => boolean), what?: string) => terminal.waitFor(name, test, what === undefined ? {} : { what });
    return {
      name,
      waitFor,
      keys: (...names: string[]) => terminal.keys(name, ...names),
      type: (text: string) => terminal.type(name, text),
      /** Pastes `text` as a terminal does: line breaks sent as CR, and in bracketed-paste markers when the program asked for them. */
      paste: async (text: string) => {
        await terminal.tmux('set-buffer', '-b', name, text);
        await terminal.tmux('paste-buffer', '-p', '-b', name, '-t', name);
      },
      /** The triage screen once the highlighted ticket's detail is shown. */
      ready: () => waitFor((text) => highlighted(text) !== undefined && /^Title: /m.test(text), 'the first ticket and its detail'),
    };
  }

  it('shows the ticket in less over the whole screen with Enter, and leaves nothing behind', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const id = highlighted(await triage.ready())!;
    await triage.keys('Enter');
    // The detail fits the screen, yet less stays until q (no -F) ...
    const paged = await triage.waitFor(/^\(END\)/m, "less's (END) prompt");
    expect(paged).toMatch(new RegExp(`^ID: +${id}$`, 'm'));
    expect(paged).not.toContain('tkt triage ·');
    await triage.keys('q');
    await triage.waitFor(/^tkt triage · /, 'the screen back after less');
    await triage.keys('q');
    // ... and prints nothing into the shell's own screen (no -X): only the exit line is there.
    const shell = await triage.waitFor(/\[exit \d+\]/, 'the exit');
    expect(shell).toContain('[exit 0]');
    expect(shell).not.toMatch(/^ID: /m);
  });

  // Not quit at once by -F: from tkt's LESS for tkt show, from the user's LESS, or on the pager's command line.
  it.each(['PAGER=less', 'PAGER=less LESS=FRX', `PAGER='less -FX'`, `PAGER="$(command -v less) -FRX" LESS=F`])(
    'keeps a configured less (%s) up until q on a ticket that fits the screen',
    async (env) => {
      const triage = await openTriage({ width: 80, height: 24 }, { env });
      const id = highlighted(await triage.ready())!;
      await triage.keys('Enter');
      const paged = await triage.waitFor(/^\(END\)/m, "less's (END) prompt");
      expect(paged).toMatch(new RegExp(`^ID: +${id}$`, 'm'));
      await triage.keys('q');
      await triage.waitFor(/^tkt triage · /, 'the screen back after less');
    },
  );

  it("keeps the pager setting's less -FRX up until q", async () => {
    const config = (...args: string[]) => execFileSync('node', [BIN, 'config', ...args], { env: { ...process.env, TKT_CONFIG_DIR: fixture.dir } });
    config('set', 'pager', 'less -FRX');
    try {
      const triage = await openTriage({ width: 80, height: 24 });
      await triage.ready();
      await triage.keys('Enter');
      await triage.waitFor(/^\(END\)/m, "less's (END) prompt");
      await triage.keys('q');
      await triage.waitFor(/^tkt triage · /, 'the screen back after less');
    } finally {
      config('unset', 'pager');
    }
  });

  it('takes pasted text as text in the resolve prompt, the filter and the picker, never as keys', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const id = Number(highlighted(await triage.ready()));
    const status = ticket(id).ticketStatusId;
    await triage.keys('s');
    await triage.waitFor(new RegExp(`Resolution notes for #${id}`));
    // Its line breaks would be Enter, its s a second resolve and its c a close, were they keys.
    await triage.paste('Toner replaced.\nThen s and c were pressed.\n');
    await triage.waitFor(/^> Toner replaced\. Then s and c were pressed\.▏/m, 'the whole paste on the prompt line');
    expect(ticket(id).ticketStatusId).toBe(status);
    await triage.keys('Enter');
    await triage.waitFor(new RegExp(`✓ resolved #${id}`));
    expect(ticket(id).resolution?.details).toBe('Toner replaced. Then s and c were pressed.');

    await triage.keys('/');
    await triage.paste('mouse\n');
    await triage.waitFor(/filter: \/mouse▏/, 'the filter still being typed after the pasted line break');
    await triage.keys('Escape');
    await triage.keys('a');
    await triage.waitFor(/Assign #\d+ to/);
    await triage.paste('tom\n');
    await triage.waitFor((text) => /^> tom▏/m.test(text) && /Assign #\d+ to/.test(text), 'the picker still open, filtered by the paste');
    await triage.keys('Escape');
    await triage.waitFor(/nothing was changed/);

    // Pasted over the list, q is not a key: triage stays.
    await triage.paste('q');
    await triage.waitFor(/pasted text goes into/, 'the paste turned away');
    await triage.keys('q');
    await triage.waitFor(/\[exit 0\]/);
    // Bracketed paste is off again: the shell gets a paste without markers.
    await triage.paste('after\n');
    const shell = await triage.waitFor(/^after$|\^\[\[200~/m, 'the paste in the shell');
    expect(shell).toMatch(/^after$/m);
  });

  it('gives the keys sent in one write with a, r or s to the picker or prompt it opens, never to the list', async () => {
    const triage = await openTriage({ width: 100, height: 30 }, { args: '--view all-tickets' });
    await triage.ready();
    // A resolved ticket: o would reopen it, were it read as a key of the list.
    await triage.type('/1011');
    await triage.keys('Enter');
    await triage.waitFor((text) => highlighted(text) === '1011' && /^Title: /m.test(text), 'ticket 1011 and its detail');
    const { ticketStatusId: status, assignedUser: assignee } = ticket(1011);
    await triage.type('aom');
    await triage.waitFor((text) => /Assign #1011 to/.test(text) && /^> om▏/m.test(text), 'the assign picker, filtered by om');
    await triage.keys('Escape');
    await triage.waitFor(/nothing was changed/);
    // s on a resolved ticket asks for nothing: the keys after it are dropped, never the list's.
    await triage.type('sNot yet');
    await triage.waitFor(/^✓ #1011 already resolved, nothing changed/m, 's said the ticket resolved');
    expect(ticket(1011).ticketStatusId).toBe(status);
    // On hold, behind the screen's back: s asks for the notes once it has read the ticket, and o would reopen it.
    ticket(1011).ticketStatusId = ON_HOLD;
    // s (no templates) and the notes up to Esc, in one write: the prompt has them, nothing is sent.
    await triage.type('sNot yet\x1b');
    await triage.waitFor(/^nothing was changed/m, 'the prompt closed by the Esc typed ahead');
    await triage.type('sNot yet');
    await triage.waitFor(/^> Not yet▏/m, 'the notes in the prompt');
    await triage.keys('Escape');
    expect(ticket(1011).ticketStatusId).toBe(ON_HOLD);
    expect(ticket(1011).assignedUser).toBe(assignee);
    ticket(1011).ticketStatusId = status;
  });

  it('edits the resolve prompt where its cursor is, a whole emoji at a time, at 40x10', async () => {
    const triage = await openTriage({ width: 40, height: 10 });
    const id = Number(highlighted(await triage.waitFor((text) => highlighted(text) !== undefined, 'the first ticket')));
    await triage.keys('s');
    await triage.waitFor(/^> ▏$/m, 'the prompt');
    await triage.type('Done 😀');
    await triage.keys('BSpace');
    await triage.waitFor(/^> Done ▏$/m, 'the emoji gone whole');
    await triage.keys('Left', 'Left');
    await triage.type('X');
    await triage.waitFor(/^> DonX▏e$/m, 'X typed before the last two characters');
    await triage.keys('Home');
    await triage.type('[');
    await triage.keys('End');
    await triage.type('ok');
    await triage.waitFor(/^> \[DonXe ok▏$/m, 'the text edited at both ends');
    await triage.keys('Enter');
    await triage.waitFor(new RegExp(`✓ resolved #${id}`));
    expect(ticket(id).resolution?.details).toBe('[DonXe ok');
  });

  it('shows the end of a text longer than the prompt line, where the cursor is', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const id = Number(highlighted(await triage.ready()));
    await triage.keys('s');
    await triage.waitFor(new RegExp(`Resolution notes for #${id}`));
    const notes = Array.from({ length: 12 }, (_, i) => `step ${i + 1} done`).join(', ');
    await triage.paste(notes);
    const text = await triage.waitFor(/^> …/m, 'the prompt line cut at its start');
    // "> …", the text's end, the cursor: 80 columns.
    expect(lines(text).find((line) => line.startsWith('> '))).toBe(`> …${notes.slice(-76)}▏`);
    await triage.keys('Escape');
    await triage.waitFor(/nothing was changed/);
  });

  it('gives the title the room at 80 columns, and keeps every row on one line at 50', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const text = await triage.ready();
    const header = lines(text)[1]!;
    // The requester gives way before the title is cut below 24 columns.
    expect(header).toMatch(/^ +ID +STATUS +PRIORITY +DUE +TITLE {20,}ASSIGNEE$/);
    const id = Number(highlighted(text));
    expect(lines(text).find((line) => line.startsWith('›'))).toContain(ticket(id).title.slice(0, 24));

    await terminal.tmux('resize-window', '-t', triage.name, '-x', '50', '-y', '24');
    const narrow = await triage.waitFor(
      (screen) => /^ +ID +STATUS/.test(lines(screen)[1] ?? '') && !lines(screen)[1]!.includes('ASSIGNEE'),
      'the table at 50 columns',
    );
    for (const line of lines(narrow)) expect(line.length).toBeLessThanOrEqual(50);
    // Each ticket a line of its own, from the header to the rule over the detail: none wrapped onto the next.
    const rows = lines(narrow).slice(
      2,
      lines(narrow).findIndex((line) => line.startsWith('─')),
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) expect(row).toMatch(/^[› ] +\d+ /);
  });

  // A screen-reader review: every key cleared the whole terminal (a frame as tall as it made Ink
  // write ESC[2J ESC[3J), which wiped the shell's scrollback, the user's earlier output with it.
  it("leaves the shell's scrollback as it was: no key clears the terminal", async () => {
    sessions += 1;
    const name = `t${sessions}`;
    await terminal.start(
      name,
      { width: 80, height: 24 },
      `seq 1 60; env -u CI -u PAGER -u LESS -u VISUAL NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' triage; echo "[exit $?]"; cat -v`,
    );
    const history = async () => Number((await terminal.tmux('display', '-p', '-t', name, '#{history_size}')).trim());
    const first = highlighted(
      await terminal.waitFor(name, (text) => highlighted(text) !== undefined && /^Title: /m.test(text), { what: 'the first ticket and its detail' }),
    );
    const before = await history();
    expect(before).toBeGreaterThan(30);

    await terminal.keys(name, 'j');
    await terminal.waitFor(name, (text) => highlighted(text) !== undefined && highlighted(text) !== first, { what: 'the next ticket' });
    await terminal.keys(name, '?');
    await terminal.waitFor(name, /Keys \(any key closes this\)/, { what: 'the keys' });
    await terminal.keys(name, 'x');
    await terminal.waitFor(name, (text) => !text.includes('Keys (any key closes this)'), { what: 'the keys closed' });
    await terminal.keys(name, 'q');
    await terminal.waitFor(name, /\[exit 0\]/, { what: 'the exit' });

    expect(await history()).toBeGreaterThanOrEqual(before);
  });

  // A screen-reader review: the cursor was hidden in a corner, so "read the current line" read the
  // keys line, never the highlighted ticket or the filter being typed.
  // At 80x10 too: a code review found the cursor a line too high in a frame as tall as the terminal.
  it.each([
    [80, 24],
    [80, 10],
  ])('keeps the terminal cursor on the highlighted row, and on the text typed, with TKT_SCREEN_READER at %ix%i', async (width, height) => {
    const triage = await openTriage({ width, height }, { env: 'TKT_SCREEN_READER=1' });
    const cursor = async () => {
      const [x, y, shown] = (await terminal.tmux('display', '-p', '-t', triage.name, '#{cursor_x} #{cursor_y} #{cursor_flag}')).trim().split(' ').map(Number);
      return { x, y, shown };
    };
    const rowOf = (text: string) => text.split('\n').findIndex((line) => line.startsWith('›'));
    /** Waits until the cursor is on line `y` (Ink places it as it draws the frame). */
    const cursorOn = async (y: number, what: string) => {
      for (const started = Date.now(); (await cursor()).y !== y; await new Promise((resolve) => setTimeout(resolve, 20))) {
        if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}: the cursor is at ${JSON.stringify(await cursor())}`);
      }
    };
    let text = await triage.waitFor((screen) => highlighted(screen) !== undefined, 'the first ticket highlighted');
    await cursorOn(rowOf(text), 'the cursor on the highlighted row');
    expect(await cursor()).toEqual({ x: 0, y: rowOf(text), shown: 1 });

    const first = highlighted(text);
    await triage.keys('j');
    text = await triage.waitFor((screen) => highlighted(screen) !== first, 'the next ticket');
    await cursorOn(rowOf(text), 'the cursor on the next row');

    await triage.keys('/');
    await triage.type('mo');
    text = await triage.waitFor(/filter: \/mo▏/, 'the filter typed');
    const typedAt = text.split('\n').findIndex((line) => line.includes('▏'));
    await cursorOn(typedAt, 'the cursor on the filter');
    const { x } = await cursor();
    expect(text.split('\n')[typedAt]!.indexOf('▏')).toBe(x);
    await triage.keys('Escape');
    await triage.keys('q');
    expect(await triage.waitFor(/\[exit \d+\]/, 'the exit')).toContain('[exit 0]');
  });

  it('lists every key with ? at 80x24, and ends the footer with q quit and ? keys', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const text = await triage.ready();
    // Above the terminal's last line, left empty (src/triage/app.ts).
    const footer = lines(text)[22]!;
    expect(footer).toMatch(/^⏎ show {2}\/ filter {2}p pick up .* {2}q quit {2}\? keys$/);
    expect(footer.length).toBeLessThanOrEqual(80);

    await triage.keys('?');
    const help = await triage.waitFor(/Keys \(any key closes this\)/);
    for (const key of ['↑ ↓  j k', 'PgUp PgDn', 'Home End  g G', '/', 'Enter', 'p', 'r', 's', 'c', 'a', 'o', 'm', 'v', 'R', '?', 'q', 'Ctrl-C', 'Ctrl-Z']) {
      expect(help, key).toMatch(new RegExp(`^  ${key.replace(/[?/↑↓]/g, '\\$&')} +\\S`, 'm'));
    }
    expect(lines(help)).toHaveLength(23);
    await triage.keys('x');
    await triage.waitFor((screen) => !screen.includes('Keys (any key closes this)') && /^Title: /m.test(screen), 'the detail back after the help');
  });

  it.each([
    [80, 6],
    [20, 6],
    [10, 3],
  ])('keeps the highlighted ticket and the keys line at %ix%i, giving up the detail and the table first, and draws nothing wider', async (width, height) => {
    const triage = await openTriage({ width, height });
    const screen = await triage.waitFor((text) => lines(text).some((line) => line.startsWith('›')), 'the highlighted ticket');
    const shown = lines(screen);
    expect(shown.length).toBeLessThanOrEqual(height);
    // The footer on the last line: both its endings where they fit, else as much of them as fits.
    expect(shown[height - 1]).toMatch(width >= 20 ? /q quit {2}\? keys$/ : /^q quit/);
    for (const line of shown) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    // Still usable: j moves the highlight, ? shows the keys, q quits.
    const first = shown.find((line) => line.startsWith('›'));
    await triage.keys('j');
    await triage.waitFor((text) => lines(text).some((line) => line.startsWith('›') && line !== first), 'the next ticket highlighted');
    await triage.keys('?');
    // Under its header, or at 3 lines the first key line alone.
    const keys = /^Keys |^ +↑ ↓ {2}j k/m;
    await triage.waitFor(keys, 'the keys');
    await triage.keys('x');
    await triage.waitFor((text) => !keys.test(text), 'the list back');
    await triage.keys('q');
    expect(await triage.waitFor(/\[exit \d+\]/, 'the exit')).toContain('[exit 0]');
  });

  it('scrolls the keys at 40x10, a line or a page at a time, the last line saying how many more there are', async () => {
    const triage = await openTriage({ width: 40, height: 10 });
    await triage.waitFor((text) => highlighted(text) !== undefined, 'the first ticket');
    await triage.keys('?');
    // Under the title line and the help's own header; above the status line and the footer.
    const body = (screen: string) => lines(screen).slice(2, 8);
    const more = (screen: string) => body(screen).some((line) => /^… \d+ more lines/.test(line));
    // A whole frame, not one caught while Ink redraws it: all ten lines, and the help's body ends
    // with how many lines are left or with its last line (a frame half drawn ended the walk early
    // in CI once, its last lines not yet written).
    const whole = (screen: string) => lines(screen).length === 10 && (more(screen) || /^ +Ctrl-C /m.test(screen));
    let screen = await triage.waitFor((text) => /^Keys /m.test(text) && whole(text), 'the help');
    expect(more(screen)).toBe(true);
    expect(lines(screen)).toHaveLength(10);
    for (const line of lines(screen)) expect(displayWidth(line)).toBeLessThanOrEqual(40);

    // j to the end, a line at a time: each screen's first line, then the last screen's, are the whole help.
    const seen: string[] = [];
    while (more(screen)) {
      const top = body(screen)[0];
      seen.push(top!);
      await triage.keys('j');
      screen = await triage.waitFor((next) => body(next)[0] !== top && whole(next), 'the help a line further');
    }
    seen.push(...body(screen));
    const words = seen.join(' ').replace(/\s+/g, ' ');
    for (const row of KEY_TABLE) {
      const keys = row.keys.map((group) => Object.keys(group).join(' ')).join(' ');
      expect(words, keys).toContain(`${keys} ${row.help}`);
    }

    await triage.keys('PageUp');
    screen = await triage.waitFor((next) => more(next) && whole(next), 'the more-lines line back after PgUp');
    expect(screen).not.toMatch(/^ +Ctrl-C /m);
    await triage.keys('End');
    screen = await triage.waitFor((next) => !more(next) && whole(next), 'the end of the help');
    expect(screen).toMatch(/^ +Ctrl-C /m);
    await triage.keys('Home');
    await triage.waitFor((next) => /^ +↑ ↓ {2}j k /.test(body(next)[0] ?? ''), 'the top of the help');
    await triage.keys('PageDown');
    await triage.waitFor((next) => !/↑ ↓/.test(body(next)[0] ?? ''), 'the help a page further');
    // Any other key closes it.
    await triage.keys('x');
    await triage.waitFor((next) => !next.includes('Keys (') && highlighted(next) !== undefined, 'the list back after the help');
  });

  it('shows and scrolls the keys after a resize to 40x4 and to 40x3, the shortest screens', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    await triage.ready();
    await terminal.tmux('resize-window', '-t', triage.name, '-x', '40', '-y', '4');
    await triage.waitFor((screen) => lines(screen).length <= 4 && highlighted(screen) !== undefined, 'the list at 40x4');
    await triage.keys('?');
    // A key line, then how many more there are; the status line and the footer under them.
    let screen = await triage.waitFor((text) => /^ +↑ ↓ {2}j k /.test(lines(text)[0] ?? ''), 'the first key line at 40x4');
    expect(lines(screen)[1]).toMatch(/^… \d+ more lines: ↓ or PgDn scrolls$/);
    await triage.keys('j');
    screen = await triage.waitFor((text) => /^ +PgUp PgDn /.test(lines(text)[0] ?? ''), 'the help a line further at 40x4');
    expect(lines(screen)[1]).toMatch(/^… \d+ more lines/);
    await terminal.tmux('resize-window', '-t', triage.name, '-x', '40', '-y', '3');
    await triage.waitFor((text) => lines(text).length <= 3 && /^ +PgUp PgDn /.test(lines(text)[0] ?? ''), 'the same key line at 40x3');
    await triage.keys('j');
    await triage.waitFor((text) => lines(text).length <= 3 && /^ +Home End {2}g G /.test(lines(text)[0] ?? ''), 'the help a line further at 40x3');
    await triage.keys('x');
    await triage.waitFor((text) => highlighted(text) !== undefined, 'the list back after the help');
  });

  it("shows the service's reason first when an action fails at 80 columns", async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const id = Number(highlighted(await triage.ready()));
    // Deleted behind the screen's back: the service answers 404 with its message.
    ticket(id).isDeleted = true;
    try {
      await triage.keys('m');
      const text = await triage.waitFor(new RegExp(`✗ marking read #${id}: `));
      const status = lines(text).find((line) => line.startsWith('✗'))!;
      expect(status).toMatch(new RegExp(`^✗ marking read #${id}: Ticket ${id} was not found\\. \\(not found, HTTP 404\\)$`));
    } finally {
      ticket(id).isDeleted = false;
    }
  });

  it('wraps a description of wide characters without spaces inside the detail, keeping its indent', async () => {
    const triage = await openTriage({ width: 80, height: 50 });
    const id = Number(highlighted(await triage.ready()));
    const description = ticket(id).description;
    ticket(id).description = '打印机卡纸了'.repeat(40);
    try {
      // R reads the view and the details again.
      await triage.keys('R');
      await triage.keys('G');
      await triage.keys('g');
      const text = await triage.waitFor((screen) => highlighted(screen) === String(id) && screen.includes('打印机'), 'the description in the detail');
      // Nothing pushed off the screen: the title line first, the detail's header whole.
      expect(lines(text)[0]).toMatch(/^tkt triage · /);
      expect(text).toMatch(new RegExp(`^ID: +${id}$`, 'm'));
      expect(text).toMatch(/^Title: /m);
      const wide = lines(text).filter((line) => line.includes('打印机'));
      expect(wide.length).toBeGreaterThan(1);
      for (const line of wide) {
        expect(line).toMatch(/^ {2}[打印机卡纸了]+$/);
        expect(displayWidth(line)).toBeLessThanOrEqual(80);
      }
    } finally {
      ticket(id).description = description;
    }
  });

  it('ends with exit 130 on Ctrl-C, as an interrupted command does (q is exit 0)', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    await triage.ready();
    await triage.keys('C-c');
    const shell = await triage.waitFor(/\[exit \d+\]/, 'the exit');
    expect(shell).toContain('[exit 130]');
    expect(shell).toContain('error: interrupted');
    expect(shell).not.toContain('tkt triage ·');
  });

  it('keeps the notes being typed at the s prompt when Ctrl-C leaves triage: saved in drafts/ with the command that sends them, exit 130', async () => {
    const triage = await openTriage({ width: 200, height: 24 });
    const id = Number(highlighted(await triage.ready()));
    // Neither resolved nor closed, whatever the tests before did to it: s asks for the notes.
    const status = ticket(id).ticketStatusId;
    ticket(id).ticketStatusId = ON_HOLD;
    await triage.keys('s');
    await triage.waitFor(new RegExp(`Resolution notes for #${id}`));
    await triage.type('Replaced the mouse, tested OK');
    await triage.waitFor(/^> Replaced the mouse, tested OK▏/m, 'the notes typed');
    await triage.keys('C-c');
    const shell = await triage.waitFor(/\[exit \d+\]/, 'the exit');
    const saved = join(fixture.dir, 'drafts', `resolution-${id}.txt`);
    expect(shell).toContain('[exit 130]');
    expect(shell).toContain(
      `warning: the resolution of #${id} was not sent; it is saved in ${saved}\nhint: send it with "tkt resolve ${id} --details-file ${saved}"`,
    );
    expect(readFileSync(saved, 'utf8')).toBe('Replaced the mouse, tested OK\n');
    expect(ticket(id).ticketStatusId).toBe(ON_HOLD);
    ticket(id).ticketStatusId = status;
  });

  it('suspends on Ctrl-Z to a shell with job control, which has its terminal as it was, and comes back with fg', async () => {
    sessions += 1;
    const name = `t${sessions}`;
    await terminal.start(name, { width: 100, height: 30 }, 'env -u PAGER -u LESS -u CI PS1="$ " bash --norc --noprofile -i');
    await terminal.waitFor(name, /^\$ ?$/m, { what: "the shell's prompt" });
    // The command alone: after `cmd; echo`, bash runs the echo when cmd stops.
    await terminal.type(name, `env NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' triage`);
    await terminal.keys(name, 'Enter');
    const screen = await terminal.waitFor(name, (text) => highlighted(text) !== undefined && /^Title: /m.test(text), { what: 'the triage screen' });
    const first = highlighted(screen);
    await terminal.keys(name, 'C-z');
    // The shell's own screen and prompt: triage's is gone, the job stopped.
    const stopped = await terminal.waitFor(name, /Stopped/, { what: 'the job stopped' });
    expect(stopped).not.toContain('tkt triage ·');
    await terminal.type(name, "echo \"modes: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | sort | tr '\\n' ' ')\"; jobs");
    await terminal.keys(name, 'Enter');
    const afterModes = (text: string) => text.split(/^modes: /m)[1] ?? '';
    const shell = await terminal.waitFor(name, (text) => /^\[1\]\+ +Stopped +env /m.test(afterModes(text)), { what: 'the stopped job in jobs' });
    // The terminal as the shell wants it: lines and echo, not raw.
    expect(afterModes(shell)).toMatch(/^echo icanon *$/m);
    await terminal.type(name, 'fg');
    await terminal.keys(name, 'Enter');
    await terminal.waitFor(name, (text) => highlighted(text) === first && /^Title: /m.test(text), { what: 'the triage screen again' });
    await terminal.keys(name, 'j');
    await terminal.waitFor(name, (text) => highlighted(text) !== first && highlighted(text) !== undefined, { what: 'j moving the highlight' });
    // Back at another size: drawn at that one.
    await terminal.keys(name, 'C-z');
    await terminal.waitFor(name, (text) => afterModes(text).includes('fg') && /Stopped/.test(afterModes(text).split('fg')[1] ?? ''), { what: 'stopped again' });
    await terminal.tmux('resize-window', '-t', name, '-x', '40', '-y', '10');
    await terminal.type(name, 'fg');
    await terminal.keys(name, 'Enter');
    const narrow = await terminal.waitFor(name, (text) => highlighted(text) !== undefined && /q quit {2}\? keys$/m.test(text), { what: 'the screen at 40x10' });
    expect(lines(narrow)).toHaveLength(10);
    for (const line of lines(narrow)) expect(displayWidth(line)).toBeLessThanOrEqual(40);
    await terminal.keys(name, 'q');
    // The shell's prompt, last: what is typed before it may still go to triage, as it ends.
    await terminal.waitFor(name, (text) => !text.includes('q quit') && /(^|\n)\$ ?\n*$/.test(text), { what: 'the shell after q' });
    await terminal.type(name, 'echo "[exit $?]"');
    await terminal.keys(name, 'Enter');
    expect(await terminal.waitFor(name, /^\[exit \d+\]/m, { what: 'the exit' })).toMatch(/^\[exit 0\]/m);
  });

  it('says so and stays when Ctrl-Z has no shell with job control to stop to', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    const id = highlighted(await triage.ready());
    await triage.keys('C-z');
    await triage.waitFor(/^Ctrl-Z: /m, 'why it did not suspend');
    await triage.keys('j');
    await triage.waitFor((text) => highlighted(text) !== id && highlighted(text) !== undefined, 'j moving the highlight');
  });

  it('says what it needs when stderr is not the terminal: stdin, stdout and stderr', async () => {
    const errors = join(fixture.dir, 'triage-stderr.txt');
    const triage = await openTriage({ width: 80, height: 24 }, { redirect: `2>'${errors}'` });
    expect(await triage.waitFor(/\[exit \d+\]/, 'the exit')).toContain('[exit 2]');
    expect(readFileSync(errors, 'utf8')).toContain(
      'error: tkt triage needs a terminal: stdin, stdout and stderr must all be one (and neither --no-input nor CI set)',
    );
  });

  it('ends with the usual error and exit code when the first load fails (a refused token: 4 and the hint)', async () => {
    const triage = await openTriage({ width: 80, height: 24 }, { env: 'TKT_TOKEN=not-a-valid-token' });
    const shell = await triage.waitFor(/\[exit \d+\]/, 'the exit');
    expect(shell).toContain('[exit 4]');
    expect(shell).toMatch(/^error: not authenticated \(HTTP 401\)/m);
    expect(shell).toMatch(/^hint: the token in TKT_TOKEN was refused/m);
    expect(shell).not.toContain('tkt triage ·');
  });

  it('says a later load failed rather than that the view has no tickets', async () => {
    const triage = await openTriage({ width: 80, height: 24 });
    await triage.ready();
    fixture.sandbox.failNext('POST /api/TicketsApi', 500);
    await triage.keys('v');
    await triage.waitFor(/Switch to view/);
    await triage.type('unassigned-t');
    await triage.keys('Enter');
    const text = await triage.waitFor(/could not load unassigned-tickets/);
    expect(lines(text)[0]).toBe('tkt triage · unassigned-tickets · not loaded');
    expect(text).toContain('  could not load this view: R tries again');
    expect(text).not.toContain('no tickets');
    // R tries again, and the view comes.
    await triage.keys('R');
    await triage.waitFor(
      (screen) => /^tkt triage · unassigned-tickets · \d+ tickets$/m.test(screen) && highlighted(screen) !== undefined,
      'the view read again',
    );
  });

  // A closed terminal sends its shell a SIGHUP; a shell that ignores it (trap '' HUP) sends tkt
  // none. tkt sees its input end, which in raw mode no Ctrl-D can do, and ends as on SIGHUP: 129,
  // where a screen whose loop had nothing left ended 0, its kept texts unsaved.
  it('ends as a hang-up (129) when its terminal closes, though no SIGHUP reaches it', async () => {
    sessions += 1;
    const name = `t${sessions}`;
    const exitFile = join(fixture.dir, `${name}.exit`);
    await terminal.start(
      name,
      { width: 80, height: 24 },
      `trap '' HUP; env -u CI -u PAGER -u LESS -u VISUAL NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' triage; echo $? > '${exitFile}'`,
    );
    await terminal.waitFor(name, (text) => highlighted(text) !== undefined, { what: 'the screen' });

    await terminal.tmux('kill-session', '-t', name);

    await waitForLeftBehind(() => existsSync(exitFile) && readFileSync(exitFile, 'utf8').endsWith('\n'), 'the exit code written by the shell');
    expect(readFileSync(exitFile, 'utf8')).toBe('129\n');
  });

  it('refuses --json at a terminal rather than ignore it, pointing to tkt list --json', async () => {
    const triage = await openTriage({ width: 80, height: 24 }, { args: '--json' });
    // -J: the hint's line, wrapped by the terminal, read as one.
    const shell = await terminal.waitFor(triage.name, /\[exit \d+\]/, { what: 'the exit', capture: ['-J'] });
    expect(shell).toContain('[exit 2]');
    expect(shell).toMatch(/^error: tkt triage is interactive: it has no --json output$/m);
    expect(shell).toMatch(/^hint: for the view's tickets as data: tkt list --view my-open-or-unassigned --all --json \(or -q for their IDs\)$/m);
  });
});
