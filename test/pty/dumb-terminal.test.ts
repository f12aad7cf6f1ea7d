// TERM=dumb at a real terminal (tmux, private socket): the terminal of Emacs' M-x shell and of
// some IDE consoles, which shows escape sequences as text. The built CLI prints plain text there
// (unless FORCE_COLOR), and tkt triage, which draws a screen, refuses to start (README:
// Environment and files). Every step waits for what the screen shows, never for a fixed time.
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/dumb-terminal.test.ts');
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
});
