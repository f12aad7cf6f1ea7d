// tkt lending the terminal to the editor, on real terminals (tmux, private socket) against a
// sandbox: triage with a real vim and with a scripted editor that holds the terminal until the
// test lets it go, and tkt reply at the shell. While the editor has the terminal every key is
// the editor's; once it is back, what the terminal sends on its own (cursor-position reports,
// device attributes, focus events) is never a key of the screen, nor left for the shell; and
// nothing of the handoff stays in the shell. Every step waits for what the screen or the
// sandbox shows, never for a fixed time.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux', 'vim'], 'test/pty/editor-terminal.test.ts');

describe.skipIf(skip)('tkt and the editor at a real terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('editor', 'tech', (made) => {
    fixture = made;
  });
  let sessions = 0;
  const highlighted = (text: string) => /^› +(\d+) /m.exec(text)?.[1];
  const lines = (text: string) => text.replace(/\n+$/, '').split('\n');
  const ticket = (id: number) => fixture.sandbox.state.tickets.find((t) => t.id === id)!;
  const replies = (id: number) => fixture.sandbox.state.conversations.filter((c) => c.ticketId === id).map((c) => c.message);
  const listReads = () => fixture.sandbox.stats.byRoute['POST /api/TicketsApi'] ?? 0;

  /** `tkt reply ID` at 80x24 with `editor` as $EDITOR, then as openTriage's shell; the session's name. */
  async function openReply(id: number, editor: string) {
    sessions += 1;
    const name = `e${sessions}`;
    const command = `env -u CI -u VISUAL EDITOR='${editor}' TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' reply ${id}; echo "[exit $?]"; cat -v`;
    await terminal.start(name, { width: 80, height: 24 }, command);
    return name;
  }

  /**
   * `tkt triage` at 80x24 with `editor` as $EDITOR and no colour; the shell then says how it
   * exited and shows, with cat -v, what the terminal sends it until the test ends.
   */
  async function openTriage(editor: string) {
    sessions += 1;
    const name = `e${sessions}`;
    const command = `env -u CI -u VISUAL NO_COLOR=1 EDITOR="${editor}" TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' triage; echo "[exit $?]"; cat -v`;
    await terminal.start(name, { width: 80, height: 24 }, command);
    const waitFor = (test: RegExp | ((text: string) => boolean), what?: string) => terminal.waitFor(name, test, what === undefined ? {} : { what });
    const text = await waitFor((screen) => highlighted(screen) !== undefined && /^Title: /m.test(screen), 'the first ticket and its detail');
    return {
      id: Number(highlighted(text)),
      waitFor,
      keys: (...names: string[]) => terminal.keys(name, ...names),
      type: (text: string) => terminal.type(name, text),
      /** One key at a time, as a person types: each its own read by whoever is reading. */
      typeSlowly: async (text: string) => {
        for (const char of text) await terminal.type(name, char);
      },
    };
  }

  it("replies with a real vim: every key typed there is vim's, and the status line stays", async () => {
    const triage = await openTriage('vim -N -u NONE -i NONE');
    const { id } = triage;
    const before = { status: ticket(id).ticketStatusId, assignee: ticket(id).assignedUser };
    await triage.keys('r');
    await triage.waitFor(new RegExp(`^# Reply to #${id}: `, 'm'), 'vim open on the reply');
    // Letters that are triage's keys too: o reopens, p picks up, R reads the view again, q quits.
    const message = 'Hello from vim: open, pick up, Refresh, quit.';
    await triage.typeSlowly(`i${message}`);
    await triage.keys('Escape');
    await triage.typeSlowly(':wq');
    await triage.keys('Enter');
    const back = await triage.waitFor(new RegExp(`✓ replied to #${id} `), 'the screen back, saying the reply went');
    expect(replies(id)).toEqual([message]);
    expect({ status: ticket(id).ticketStatusId, assignee: ticket(id).assignedUser }).toEqual(before);
    expect(back).not.toContain('read again');

    // The status line stays while the screen is used.
    await triage.keys('j');
    const moved = await triage.waitFor((text) => highlighted(text) !== String(id), 'j moving the highlight');
    expect(lines(moved).at(-2)).toMatch(new RegExp(`^✓ replied to #${id} `));

    await triage.keys('q');
    const shell = await triage.waitFor(/\[exit \d+\]/, 'the exit');
    expect(shell).toContain('[exit 0]');
    // Neither the "waiting for your editor" line nor the editor's screen stays in the shell.
    expect(shell).not.toContain('waiting for your editor');
    expect(shell).not.toContain('Reply to');
  });

  it('gives the editor the keys typed while it holds the terminal, and drops what the terminal answers after it', async () => {
    const dir = fixture.dir;
    const fifo = join(dir, 'editor-go');
    const opened = join(dir, 'editor-open');
    execFileSync('mkfifo', [fifo]);
    const editor = join(dir, 'fifo-editor.sh');
    // Opens, waits until the test writes to the FIFO, then reads the line typed meanwhile from
    // the terminal and saves it. On its way out it asks the terminal for the cursor position and
    // its attributes: the answers reach tkt's input after the editor has gone, as vim's can.
    await writeFile(
      editor,
      `#!/bin/sh\ntouch '${opened}'\nread go < '${fifo}'\nIFS= read -r typed\nprintf '%s\\n' "$typed" > "$1"\nprintf '\\033[6n\\033[c\\033[>c' > /dev/tty\n`,
    );
    await chmod(editor, 0o755);
    try {
      const triage = await openTriage(editor);
      const { id } = triage;
      const before = { status: ticket(id).ticketStatusId, assignee: ticket(id).assignedUser };
      const reads = listReads();
      const earlier = replies(id).length;
      await triage.keys('r');
      await terminal.waitUntil(`e${sessions}`, () => existsSync(opened), 'the editor to open');
      // Typed while the editor waits: triage's keys, were triage reading (R, o, p, q, Enter).
      await triage.typeSlowly('R o p q j');
      await triage.keys('Enter');
      await writeFile(fifo, 'go\n');
      await triage.waitFor(new RegExp(`✓ replied to #${id} `), 'the reply sent');
      expect(replies(id).slice(earlier)).toEqual(['R o p q j']);
      expect({ status: ticket(id).ticketStatusId, assignee: ticket(id).assignedUser }).toEqual(before);

      // Focus events and a cursor-position report, as a terminal sends them, then a key.
      await triage.type('\x1b[I\x1b[O\x1b[2;2R');
      await triage.keys('j');
      const moved = await triage.waitFor((text) => highlighted(text) !== String(id), 'j moving the highlight');
      expect(lines(moved).at(-2)).toMatch(new RegExp(`^✓ replied to #${id} `));
      // No R among them: the view was not read again.
      expect(listReads()).toBe(reads);

      // In the assign picker, they are not text either.
      await triage.keys('a');
      await triage.waitFor(/Assign #\d+ to/);
      await triage.type('\x1b[2;2R\x1b[I');
      await triage.type('tom');
      const picker = await triage.waitFor(/^> .*tom▏/m, 'the query typed');
      expect(lines(picker).find((line) => line.startsWith('> '))).toBe('> tom▏');
      await triage.keys('Escape');
      await triage.waitFor(/nothing was changed/);

      await triage.keys('q');
      const shell = await triage.waitFor(/\[exit \d+\]/, 'the exit');
      expect(shell).toContain('[exit 0]');
      expect(shell).not.toContain('waiting for your editor');
      // The shell gets nothing the terminal answered: cat -v shows what it reads.
      await triage.type('after');
      await triage.keys('Enter');
      const after = await triage.waitFor(/after$/m, 'the line typed in the shell');
      expect(after).not.toContain('^[');
    } finally {
      await rm(fifo, { force: true });
      await rm(opened, { force: true });
    }
  });

  it('tkt reply names the ticket in the editor, and an editor quit with no message sends nothing: exit 1, as git commit', async () => {
    const id = 1031;
    const earlier = replies(id).length;
    const name = await openReply(id, 'vim -N -u NONE -i NONE');
    await terminal.waitFor(name, `# Reply to #${id}: ${ticket(id).title}`, { what: 'vim open on the reply, naming the ticket' });
    await terminal.type(name, ':q!');
    await terminal.keys(name, 'Enter');
    const shown = await terminal.waitFor(name, /\[exit \d+\]/, { what: 'tkt reply ending' });
    expect(shown).toContain('error: aborted: empty message, nothing was sent');
    expect(shown).toContain('[exit 1]');
    expect(replies(id).length).toBe(earlier);
  });

  it('tkt reply sends the lines typed above the scissors, #1234 ones included, and none of the lines below it', async () => {
    const id = 1031;
    const editor = join(fixture.dir, 'typing-editor.sh');
    // Types the reply at the top of the file, as a person does, leaving what tkt wrote below it.
    await writeFile(editor, `#!/bin/sh\n{ printf 'Same fault as\\n#1234 last week.\\n'; cat "$1"; } > "$1.new" && mv "$1.new" "$1"\n`);
    await chmod(editor, 0o755);
    const earlier = replies(id).length;
    const name = await openReply(id, editor);
    const shown = await terminal.waitFor(name, /\[exit 0\]/, { what: 'the reply sent' });
    expect(replies(id).slice(earlier)).toEqual(['Same fault as\n#1234 last week.']);
    // The "waiting" line is erased once the editor is done, as git erases its own.
    expect(shown).not.toContain('waiting for your editor');
    expect(shown).toMatch(/^✓ replied to #1031/m);
  });

  it('leaves the shell nothing of what the terminal answered the editor of tkt reply', async () => {
    // A ticket of the demo data with a requester e-mail.
    const id = 1031;
    const editor = join(fixture.dir, 'asking-editor.sh');
    // Writes the reply, then, echo off as an editor has it, asks the terminal for the cursor
    // position and its attributes, and is gone before the answers come.
    await writeFile(editor, `#!/bin/sh\nprintf 'Sent from the shell\\n' > "$1"\nstty -echo\nprintf '\\033[6n\\033[c' > /dev/tty\n`);
    await chmod(editor, 0o755);
    const earlier = replies(id).length;
    const name = await openReply(id, editor);
    await terminal.waitFor(name, /\[exit 0\]/, { what: 'the reply sent' });
    expect(replies(id).slice(earlier)).toEqual(['Sent from the shell']);
    // cat -v shows what reaches the shell: the line typed, and no ^[[…R before it.
    await terminal.type(name, 'after');
    await terminal.keys(name, 'Enter');
    const shell = await terminal.waitFor(name, /^after$/m, { what: 'the line typed in the shell' });
    expect(shell).not.toContain('^[');
  });
});
