// `tkt watch` at a real terminal (tmux, private socket) against a sandbox: one line on stderr
// says that it watches and how to stop it, and Ctrl-C ends it with exit 130 and its `error:` line
// on a line of its own, not glued to the terminal's "^C". Every step waits for what the screen
// shows, never for a fixed time.
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/watch-terminal.test.ts');

describe.skipIf(skip)('tkt watch at a terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('watch', 'tech', (made) => {
    fixture = made;
  });

  it('says that it watches; Ctrl-C ends it with exit 130 and its error line on a line of its own', async () => {
    const command = `env -u CI NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' watch --view all-tickets; echo "[exit $?]"; sleep 60`;
    await terminal.start('w1', { width: 120, height: 20 }, command);
    const live = fixture.sandbox.state.tickets.filter((t) => !t.isDeleted).length;
    await terminal.waitFor('w1', `watching the view all-tickets (${live} tickets) every 60 s; Ctrl-C to stop`);
    await terminal.keys('w1', 'C-c');
    const ended = await terminal.waitFor('w1', '[exit 130]');
    expect(ended.trimEnd().split('\n').slice(-2)).toEqual(['error: interrupted', '[exit 130]']);
  });
});
