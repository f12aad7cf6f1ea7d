// `tkt show` on a real terminal (tmux, private socket) through the real default pager, less -FRX:
// the header wrapped by words under its value column, and the pager keeping the terminal until it
// closes: Ctrl-C is less's, a SIGTERM ends tkt only once less is gone (exit 143).
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const WIDTH = 60;
const TITLE = 'A very long ticket title that goes on past the width of a narrow terminal window';

const skip = skipWithout(['tmux', 'less'], 'test/pty/show-pager.test.ts');

describe.skipIf(skip)('tkt show at a real terminal, through less', () => {
  let fixture: TerminalFixture;
  let dir: string;
  let ticketId: number;
  const terminal = useTerminal('show', 'admin', async (made) => {
    fixture = made;
    dir = fixture.dir;
    const ticket = fixture.sandbox.state.tickets.find((t) => !t.isDeleted)!;
    ticket.title = TITLE;
    // Longer than the screen, so less stays open.
    ticket.description = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    ticketId = ticket.id;
  });
  const { tmux, waitFor } = terminal;
  let sessions = 0;

  /** Starts `tkt show` in a new terminal with less open on it; returns the session and tkt's PID. */
  async function showInLess(): Promise<{ name: string; pid: number }> {
    sessions += 1;
    const name = `s${sessions}`;
    const pidFile = join(dir, `${name}.pid`);
    // The script becomes tkt (exec), so the PID it writes is tkt's. No PAGER or LESS from the
    // test's environment: the default pager, as a user gets it.
    const script = join(dir, 'show.sh');
    await writeFile(script, `echo $$ > "$1"\nexec env -u PAGER -u LESS -u CI NO_COLOR=1 TKT_CONFIG_DIR='${dir}' node '${BIN}' show ${ticketId}\n`);
    await terminal.start(name, { width: WIDTH, height: 20 }, `sh '${script}' '${pidFile}'; echo "[exit $?]"; sleep 60`);
    // less's prompt on the last line: the text is longer than the screen.
    await waitFor(name, (screen) => /^:\s*$/m.test(screen), { what: "less's prompt" });
    return { name, pid: Number(readFileSync(pidFile, 'utf8')) };
  }

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('wraps the header by words under the value column, and leaves Ctrl-C to less', async () => {
    const { name, pid } = await showInLess();
    const screen = await tmux('capture-pane', '-p', '-t', name);
    const lines = screen.split('\n');
    const title = lines.findIndex((line) => line.startsWith('Title:'));
    const valueAt = lines[title]!.indexOf('A very');
    // The rest of the title continues under the value, no word cut.
    const continued = lines[title + 1]!;
    expect(continued.slice(0, valueAt).trim()).toBe('');
    expect(`${lines[title]!.slice(valueAt)} ${continued.slice(valueAt)}`).toBe(TITLE);

    await tmux('send-keys', '-t', name, 'C-c');
    await new Promise((r) => setTimeout(r, 500));
    expect(alive(pid)).toBe(true);
    expect(await tmux('capture-pane', '-p', '-t', name)).not.toContain('[exit');
    await tmux('send-keys', '-t', name, 'q');
    expect(await waitFor(name, (text) => text.includes('[exit '), { what: 'tkt to exit' })).toContain('[exit 0]');
  });

  it('on SIGTERM waits for less to close, then exits 143', async () => {
    const { name, pid } = await showInLess();
    process.kill(pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    // less still has the terminal, and tkt waits for it rather than leave it behind.
    expect(alive(pid)).toBe(true);
    expect(await tmux('capture-pane', '-p', '-t', name)).toMatch(/^:\s*$/m);
    await tmux('send-keys', '-t', name, 'q');
    expect(await waitFor(name, (text) => text.includes('[exit '), { what: 'tkt to exit' })).toContain('[exit 143]');
  });
});
