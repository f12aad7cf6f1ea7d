// TERM=dumb at a real terminal (tmux, private socket): the terminal of Emacs' M-x shell and of
// some IDE consoles, which shows escape sequences as text. The built CLI prints plain text there
// (unless FORCE_COLOR), and tkt triage, which draws a screen, refuses to start (README:
// Environment and files). Every step waits for what the screen shows, never for a fixed time.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

// script: what tkt writes to the terminal, kept byte for byte (tmux acts on escapes, not shows them).
const skip = skipWithout(['tmux', 'script'], 'test/pty/dumb-terminal.test.ts');
const ESC = '\u001b';

describe.skipIf(skip)('a dumb terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('dumb', 'tech', (made) => {
    fixture = made;
  });
  let sessions = 0;

  /** The screen, with its colours as escapes (capture-pane -e), once `command` (with `env`) has exited. */
  async function runAt(env: string, command: string): Promise<string> {
    sessions += 1;
    const name = `s${sessions}`;
    const line = `env -u CI -u NO_COLOR -u FORCE_COLOR ${env} TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' ${command}; echo "[exit $?]"; sleep 60`;
    await terminal.start(name, { width: 100, height: 30 }, line);
    return terminal.waitFor(name, /\[exit \d+\]/, { what: `${command} to end`, capture: ['-e'] });
  }

  it('gets plain tables and labels, where another terminal gets bold ones; FORCE_COLOR still paints', async () => {
    const styled = await runAt('TERM=xterm', 'list --limit 2');
    expect(styled).toContain(`${ESC}[1m`);
    for (const command of ['list --limit 2', 'show 1001 --no-pager']) {
      const plain = await runAt('TERM=dumb', command);
      expect(plain, command).toContain('[exit 0]');
      expect(plain, command).not.toContain(ESC);
    }
    expect(await runAt('TERM=dumb FORCE_COLOR=1', 'list --limit 2')).toContain(`${ESC}[1m`);
  });

  it('gets no pager, which could not draw there: show prints the ticket itself', async () => {
    const pager = `PAGER='sed s/^/PAGED:/'`;
    expect(await runAt(`TERM=xterm ${pager}`, 'show 1001')).toContain('PAGED:');
    const shown = await runAt(`TERM=dumb ${pager}`, 'show 1001');
    expect(shown).toContain('[exit 0]');
    expect(shown).toMatch(/^Title: /m);
    expect(shown).not.toContain('PAGED:');
  });

  it('gets no triage screen: exit 2 saying why, as without a terminal', async () => {
    const screen = await runAt('TERM=dumb', 'triage');
    expect(screen).toContain('error: tkt triage needs a terminal that can draw a screen: TERM is dumb');
    // The terminal wraps the hint where it likes (at a hyphen too): compared without white space.
    expect(screen.replace(/\s+/g, '')).toContain('orusetktlist--viewmy-open-or-unassignedandtheIDcommands');
    expect(screen).toContain('hint: ');
    expect(screen).toContain('[exit 2]');
    expect(screen).not.toContain(ESC);
  });

  /** `tkt ARGS` at TERM=dumb in `config`, its bytes logged by script: each line typed once the screen shows `asked`. */
  async function answering(config: string, args: string, answers: [asked: RegExp, line: string][], terminalEnv = 'TERM=dumb') {
    sessions += 1;
    const name = `s${sessions}`;
    const log = join(fixture.dir, `${name}.log`);
    const line = `env -u CI -u NO_COLOR -u FORCE_COLOR ${terminalEnv} TKT_CONFIG_DIR='${config}' script -qfec "node '${BIN}' ${args}" '${log}'; echo "[exit $?]"; sleep 60`;
    await terminal.start(name, { width: 100, height: 30 }, line);
    for (const [asked, typed] of answers) {
      await terminal.waitFor(name, asked, { what: `${asked} asked` });
      await terminal.type(name, typed);
      await terminal.keys(name, 'Enter');
    }
    const screen = await terminal.waitFor(name, /\[exit \d+\]/, { what: `${args} to end` });
    return { screen, written: (await readFile(log, 'utf8')).replaceAll('\r', '') };
  }

  it('asks line by line: no escape written, the password not echoed', async () => {
    const { screen, written } = await answering(join(fixture.dir, 'fresh'), `login --url ${fixture.sandbox.url} -u tech`, [[/^Password: ?$/m, 'tech']]);
    expect(screen).toContain('[exit 0]');
    expect(written).not.toContain(ESC);
    expect(written).toMatch(/^Password: \nLogged in to /m);
  });

  it("numbers a picker's choices and takes a name typed, with no escape written", async () => {
    const ticket = fixture.sandbox.state.tickets.find((t) => t.deletedOn === null)!;
    const omar = fixture.sandbox.state.users.find((user) => user.username === 'ohaddad')!.id;
    const { screen, written } = await answering(fixture.dir, `assign ${ticket.id}`, [[/^Number or name: ?$/m, 'omar']]);
    expect(screen).toContain('[exit 0]');
    expect(written).not.toContain(ESC);
    expect(written).toMatch(/^\d+\. Omar Haddad \(ohaddad\)$/m);
    // The choice is named, not only the text typed: what a screen reader says was chosen.
    expect(written).toMatch(/^Number or name: omar\r?\nAssign #\d+ to: Omar Haddad \(ohaddad\)\r?$/m);
    expect(ticket.assignedUser).toBe(omar);
  });

  // A screen-reader review: the only way to questions asked line by line was TERM=dumb, which
  // the triage screen refuses; TKT_SCREEN_READER asks so at any terminal.
  it('asks line by line at a terminal that draws, with TKT_SCREEN_READER', async () => {
    const ticket = fixture.sandbox.state.tickets.find((t) => t.deletedOn === null && t.id !== fixture.sandbox.state.tickets[0]!.id)!;
    const { screen, written } = await answering(
      fixture.dir,
      `assign ${ticket.id}`,
      [[/^Number or name: ?$/m, 'torres']],
      'TERM=xterm-256color TKT_SCREEN_READER=1',
    );
    expect(screen).toContain('[exit 0]');
    expect(written).toMatch(/^\d+\. Tina Torres \(ttorres\)\r?$/m);
    expect(written).toMatch(/^Number or name: torres\r?\nAssign #\d+ to: Tina Torres \(ttorres\)\r?$/m);
  });
});
