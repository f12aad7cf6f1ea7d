// tkt triage, the built binary on a real terminal (tmux, on a private socket) against a
// sandbox: one screen, driven key by key through the whole round (move, filter, pick up,
// reply through a scripted $EDITOR, resolve, close, a failing action, switch view, assign,
// mark read, reopen, the pager, resizes, help, quit), each effect checked in the sandbox's
// state. Every step waits for what the screen shows, never for a fixed time.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const RESOLVED = 6;
const CLOSED = 7;

const skip = skipWithout(['tmux'], 'test/pty/triage.test.ts');

beforeAll(ensureBuilt);

describe('tkt triage without a terminal', () => {
  it('exits 2 with a hint', async () => {
    // A config folder of its own: no default-view setting of the machine's changes the hint.
    const configDir = await mkdtemp(join(tmpdir(), 'tkt-triage-pipe-'));
    const env = { ...process.env, TKT_CONFIG_DIR: configDir, TKT_URL: 'http://127.0.0.1:9', TKT_TOKEN: 'a-token' };
    const child = spawnSync(process.execPath, [BIN, 'triage'], { encoding: 'utf8', input: '', env });
    await rm(configDir, { recursive: true, force: true });

    expect(child.status).toBe(2);
    expect(child.stderr).toContain('tkt triage needs a terminal: stdin, stdout and stderr must all be one');
    expect(child.stderr).toContain('tkt list --view my-open-or-unassigned');
    expect(child.stdout).toBe('');
  });

  it('refuses -q and --query as it refuses --json: it prints no data', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'tkt-triage-data-'));
    const env = { ...process.env, TKT_CONFIG_DIR: configDir, TKT_URL: 'http://127.0.0.1:9', TKT_TOKEN: 'a-token' };
    try {
      for (const [flags, named] of [
        [['-q'], '-q'],
        [['--query', '[].id'], '--query'],
      ] as const) {
        const child = spawnSync(process.execPath, [BIN, 'triage', ...flags], { encoding: 'utf8', input: '', env });
        expect(child.status).toBe(2);
        expect(child.stderr).toContain(`error: tkt triage is interactive: it has no ${named} output`);
        expect(child.stderr).toContain("hint: for the view's tickets as data: tkt list --view my-open-or-unassigned --all --json");
      }
    } finally {
      await rm(configDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(skip)('tkt triage at a real terminal', () => {
  let fixture: TerminalFixture;
  let dir: string;
  let techId: string;
  const terminal = useTerminal('triage', 'tech', async (made) => {
    fixture = made;
    dir = fixture.dir;
    techId = fixture.sandbox.demoLogins.find((login) => login.username === 'tech')!.userId;
    const editor = join(dir, 'editor.sh');
    // While editor-wait exists, the editor waits, as `code --wait` does, until a Ctrl-C ends it.
    await writeFile(
      editor,
      `#!/bin/sh\ntouch "${dir}/editor-open"\nwhile [ -f "${dir}/editor-wait" ]; do sleep 0.05; done\nprintf "Written by the scripted editor\\n" > "$1"\n`,
    );
    const pager = join(dir, 'pager.sh');
    await writeFile(pager, `#!/bin/sh\ncat > '${join(dir, 'paged.txt')}'\n`);
    await Promise.all([chmod(editor, 0o755), chmod(pager, 0o755)]);
    // No CI (the screen needs a terminal that may be asked); colour off so the screen is plain text.
    const command = `env -u CI -u VISUAL NO_COLOR=1 EDITOR='${editor}' PAGER='${pager}' TKT_CONFIG_DIR='${dir}' node '${BIN}' triage; echo "[exit $?]"; sleep 60`;
    await terminal.start('triage', { width: 120, height: 36 }, command);
  });
  const { tmux } = terminal;
  const keys = (...names: string[]) => terminal.keys('triage', ...names);
  const type = (text: string) => terminal.type('triage', text);
  /** The screen of `session` once `test` accepts it. */
  const waitFor = (test: RegExp | ((text: string) => boolean), what?: string, session = 'triage') =>
    terminal.waitFor(session, test, what === undefined ? {} : { what });
  const waitUntil = (test: () => boolean, what: string) => terminal.waitUntil('triage', test, what);
  const ticket = (id: number) => fixture.sandbox.state.tickets.find((t) => t.id === id)!;
  const highlighted = (text: string) => /^› +(\d+) /m.exec(text)?.[1];
  const lines = (text: string) => text.replace(/\n+$/, '').split('\n');

  it('opens on the default view with the first ticket highlighted and its detail read', async () => {
    const text = await waitFor(/Title: +Mouse double-clicks/);
    expect(lines(text)[0]).toMatch(/^tkt triage · my-open-or-unassigned · 10 tickets/);
    expect(text).toMatch(/ID +STATUS +PRIORITY +DUE +TITLE +REQUESTER +ASSIGNEE/);
    expect(highlighted(text)).toBe('1031');
    // NO_COLOR: no colour, no inverse or dim either; the marker alone shows the highlight.
    expect(await tmux('capture-pane', '-p', '-e', '-t', 'triage')).not.toContain('\x1b[');
  });

  it('moves with j/k, the arrows, PgDn/PgUp and End/Home', async () => {
    await keys('j');
    await waitFor((text) => highlighted(text) === '1029', 'j to 1029');
    await keys('Down');
    await waitFor((text) => highlighted(text) === '1028', 'Down to 1028');
    await keys('k');
    await waitFor((text) => highlighted(text) === '1029', 'k to 1029');
    await keys('End');
    await waitFor((text) => highlighted(text) === '1013', 'End to the last ticket');
    await keys('Home');
    await waitFor((text) => highlighted(text) === '1031', 'Home to the first');
    await keys('PageDown');
    await waitFor((text) => highlighted(text) !== '1031', 'PgDn leaves the first');
    await keys('PageUp');
    // The detail follows the highlight.
    await waitFor((text) => highlighted(text) === '1031' && /Title: +Mouse double-clicks/.test(text), 'PgUp back to 1031 and its detail');
  });

  it('reads each ticket once while moving, and reads the view again with R', async () => {
    const shows = (id: string) => (text: string) => highlighted(text) === id && new RegExp(`^ID: +${id}$`, 'm').test(text);
    await keys('j');
    await waitFor(shows('1029'), 'the detail of 1029');
    const reads = () => fixture.sandbox.stats.byRoute['GET /api/TicketsApi/{id}'] ?? 0;
    const before = reads();
    await keys('k');
    await waitFor(shows('1031'), 'the detail of 1031 again');
    await keys('j');
    await waitFor(shows('1029'), 'the detail of 1029 again');
    expect(reads()).toBe(before);

    // Changed behind the screen's back: R shows it, in the row and in the detail (read anew).
    const title = ticket(1029).title;
    ticket(1029).title = 'Renamed elsewhere';
    await keys('R');
    await waitFor((text) => /^› +1029 .*Renamed elsewhere/m.test(text) && /^Title: +Renamed elsewhere$/m.test(text), 'the row and detail of 1029 read again');
    ticket(1029).title = title;
    await keys('R');
    await keys('k');
    await waitFor((text) => highlighted(text) === '1031' && !text.includes('Renamed elsewhere'), 'back to 1031, the old title again');
  });

  it('filters with /, then picks up the highlighted ticket', async () => {
    // Typed in one go, the keys reach tkt as one chunk: "/" starts the filter, "\r" ends it.
    await type('/printer\r');
    const text = await waitFor(/2 of 10 tickets {2}filter: \/printer/);
    expect(highlighted(text)).toBe('1023');
    expect(text).not.toMatch(/^ +1031 /m);

    await keys('p');
    const done = await waitFor(/✓ picked up #1023/);
    expect(ticket(1023).assignedUser).toBe(techId);
    // The row is read again: the assignee shows.
    await waitFor((screenText) => /^› +1023 .*Tom Tech *$/m.test(screenText), 'the row of 1023 with its new assignee');
    expect(done).toBeTruthy();
  });

  it('replies with the message written in $EDITOR; a Ctrl-C there ends the editor, not the screen', async () => {
    await writeFile(join(dir, 'editor-wait'), '');
    await keys('r');
    await waitUntil(() => existsSync(join(dir, 'editor-open')), 'the editor to open');
    await keys('C-c');
    await waitFor(/✗ replying to #1023: interrupted/);
    expect(fixture.sandbox.state.conversations.filter((c) => c.ticketId === 1023)).toEqual([]);

    await rm(join(dir, 'editor-wait'));
    await keys('r');
    await waitFor(/✓ replied to #1023 \(to [^)]+@/);
    const messages = fixture.sandbox.state.conversations.filter((c) => c.ticketId === 1023).map((c) => c.message);
    expect(messages).toContain('Written by the scripted editor');
  });

  it('resolves with notes typed at the prompt, and closes after confirming', async () => {
    await keys('s');
    await waitFor(/Resolution notes for #1023/);
    await type('Toner replaced');
    await keys('Enter');
    await waitFor(/✓ resolved #1023/);
    expect(ticket(1023).ticketStatusId).toBe(RESOLVED);
    expect(ticket(1023).resolution?.details).toBe('Toner replaced');
    await waitFor((text) => /^› +1023 +Resolved /m.test(text), 'the row of 1023 resolved');

    await keys('j');
    await waitFor((text) => highlighted(text) === '1015', 'j to 1015');
    await keys('c');
    await waitFor(/Close #1015\? \(y\/n\)/);
    await keys('n');
    await waitFor(/nothing was changed/);
    expect(ticket(1015).ticketStatusId).not.toBe(CLOSED);
    await keys('c');
    await waitFor(/Close #1015\? \(y\/n\)/);
    await keys('y');
    await waitFor(/✓ closed #1015/);
    expect(ticket(1015).ticketStatusId).toBe(CLOSED);
  });

  it("shows the service's message when an action fails, and stays usable", async () => {
    // Deleted behind the screen's back: the service answers 404.
    ticket(1015).isDeleted = true;
    await keys('m');
    const text = await waitFor(/✗ marking read #1015: /);
    expect(text).toMatch(/Ticket 1015 was not found\. \(not found, HTTP 404\)/);
    // A reply that cannot be sent is kept (and saved on quit: the last test).
    await keys('r');
    await waitFor(/✗ replying to #1015: Ticket 1015 was not found\. .*HTTP \d+\);\s[\s\S]*your reply is\s+kept: r opens it again/);
    ticket(1015).isDeleted = false;
    // Resolution notes the service refused (a 500) are kept too: s offers them again. Closed above,
    // the ticket is reopened behind the screen's back: s reads it before sending, and a closed one
    // would be refused before any resolve was sent (test/triage/effects.test.ts).
    ticket(1015).ticketStatusId = 1;
    fixture.sandbox.failNext('POST /api/TicketsApi/resolve/{id}', 500);
    await keys('s');
    await waitFor(/Resolution notes for #1015/);
    await type('Cable reseated');
    await keys('Enter');
    // The reason first; what was kept after it, on the status line's second line when it is long.
    await waitFor(/✗ resolving #1015: .*HTTP 500\);\s[\s\S]*your notes are\s+kept: s opens them again/);
    await keys('s');
    await waitFor(/^> Cable reseated▏/m, 'the kept notes on the prompt line');
    await keys('Escape');
    await waitFor(/nothing was changed/);
    await keys('k');
    await waitFor((screenText) => highlighted(screenText) === '1023', 'k to 1023 after the failure');
  });

  it('marks read, reopens, and shows the full ticket in the pager', async () => {
    ticket(1023).isRead = false;
    await keys('m');
    await waitFor(/✓ marked #1023 read/);
    expect(ticket(1023).isRead).toBe(true);

    await keys('o');
    await waitFor(/✓ reopened #1023/);
    expect(ticket(1023).ticketStatusId).toBe(1);

    await keys('Enter');
    await waitFor(() => existsSync(join(dir, 'paged.txt')), 'the pager to be given the ticket');
    // The screen comes back after the pager.
    await waitFor(/^tkt triage · /m);
    const paged = readFileSync(join(dir, 'paged.txt'), 'utf8');
    expect(paged).toMatch(/Title: +Printer toner low/);
    expect(paged).toContain('Written by the scripted editor');
  });

  it('clears the filter with Esc, switches view and assigns through the pickers', async () => {
    await keys('Escape');
    await waitFor(/my-open-or-unassigned · \d+ tickets/);
    await keys('v');
    await waitFor(/Switch to view/);
    await type('unassigned-t');
    await keys('Enter');
    const text = await waitFor(/tkt triage · unassigned-tickets · \d+ tickets/);
    const id = Number(
      highlighted(await waitFor((screenText) => highlighted(screenText) !== undefined && /Title:/.test(screenText), 'the first unassigned ticket')),
    );
    expect(ticket(id).assignedUser).toBeNull();
    expect(text).toBeTruthy();

    await keys('a');
    await waitFor(new RegExp(`Assign #${id} to`));
    await type('tom');
    await keys('Enter');
    await waitFor(new RegExp(`✓ assigned #${id} to Tom Tech`));
    expect(ticket(id).assignedUser).toBe(techId);
  });

  it('fits 80x24 and 200x50 after a resize, and lists the keys with ?', async () => {
    // The header on the first line too: right after a resize, tmux shows the old frame moved up
    // to keep the cursor, its footer already on its last line. The terminal's last line is left
    // empty (src/triage/app.ts: a frame as tall as the terminal is drawn over a cleared one).
    const redrawnFor = (height: number) => (screenText: string) =>
      lines(screenText).length === height - 1 &&
      /^tkt triage · /.test(lines(screenText)[0] ?? '') &&
      /^⏎ show .*\? keys$/.test(lines(screenText)[height - 2] ?? '');
    await tmux('resize-window', '-t', 'triage', '-x', '80', '-y', '24');
    let text = await waitFor(redrawnFor(24), 'the frame redrawn at 80x24');
    expect(lines(text)[0]).toMatch(/^tkt triage · unassigned-tickets/);
    expect(lines(text).every((line) => line.length <= 80)).toBe(true);
    expect(text).toMatch(/ID +STATUS +PRIORITY +DUE +TITLE/);

    await tmux('resize-window', '-t', 'triage', '-x', '200', '-y', '50');
    text = await waitFor(redrawnFor(50), 'the frame redrawn at 200x50');
    expect(lines(text)[0]).toMatch(/^tkt triage · unassigned-tickets/);
    // Wide enough for the whole footer.
    expect(text).toMatch(/R refresh {2}q quit {2}\? keys$/m);

    await keys('?');
    await waitFor(/Keys \(any key closes this\)/);
    await keys('x');
    await waitFor((screenText) => !screenText.includes('Keys (any key closes this)'), 'the help to close');
  });

  it('paints the highlighted row inverse without NO_COLOR, and closes the screen on SIGTERM, exiting 143', async () => {
    const pidFile = join(dir, 'triage.pid');
    const command = `env -u CI -u NO_COLOR -u FORCE_COLOR TERM=xterm-256color TKT_CONFIG_DIR='${dir}' sh -c 'echo $$ > "${pidFile}"; exec node "${BIN}" triage'; echo "[exit $?]"; sleep 60`;
    await terminal.start('term', { width: 100, height: 30 }, command);
    await waitFor(/Title: /, 'the screen', 'term');
    expect(await tmux('capture-pane', '-p', '-e', '-t', 'term')).toMatch(/\x1b\[[0-9;]*7m(\x1b\[[0-9;]*m)*› /);
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    const text = await waitFor(/\[exit \d+\]/, 'the exit', 'term');
    expect(text).toContain('[exit 143]');
    expect(text).not.toContain('tkt triage ·');
  });

  it('quits with q, giving the terminal back with exit 0', async () => {
    await keys('q');
    const text = await waitFor(/\[exit \d+\]/);
    expect(text).toContain('[exit 0]');
    expect(text).not.toContain('tkt triage ·');
    // The reply kept from the failed send is not lost with the screen: saved, and where is said.
    const saved = join(dir, 'drafts', 'reply-1015.txt');
    expect(text.replace(/\n/g, '')).toContain(`warning: the reply to #1015 was not sent; it is saved in ${saved}`);
    expect(readFileSync(saved, 'utf8')).toBe('Written by the scripted editor\n');
    const notes = join(dir, 'drafts', 'resolution-1015.txt');
    expect(text.replace(/\n/g, '')).toContain(`warning: the resolution of #1015 was not sent; it is saved in ${notes}`);
    expect(readFileSync(notes, 'utf8')).toBe('Cable reseated\n');
  });
});
