// The real built binary on a real pseudo-terminal (tmux, on a private socket): `tkt auth token`
// refuses a terminal unless --show, and the `editor` setting is the editor a reply opens.
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/tools.js';
import { createConfigStore } from '../../src/config/store.js';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';

const skip = skipWithout(['tmux'], 'test/pty/settings-terminal.test.ts');

describe.skipIf(skip)('settings at a real terminal', () => {
  let fixture: TerminalFixture;
  let dir: string;
  const terminal = useTerminal('settings', 'admin', async (made) => {
    fixture = made;
    dir = fixture.dir;
  });
  let sessions = 0;

  /** Runs tkt with `args` in a new terminal; resolves with the screen once it has exited. */
  async function onTerminal(args: string): Promise<string> {
    sessions += 1;
    const name = `s${sessions}`;
    // No CI (it turns prompting off) and no VISUAL/EDITOR (they would win over the setting).
    const command = `env -u CI -u VISUAL -u EDITOR NO_COLOR=1 TKT_CONFIG_DIR='${dir}' node '${BIN}' ${args}; echo "[exit $?]"; sleep 60`;
    await terminal.start(name, { width: 200, height: 50 }, command);
    return terminal.waitFor(name, '[exit ', { what: `tkt ${args} to exit`, capture: ['-J', '-S', '-100'] });
  }

  it('auth token refuses the terminal without --show, prints with it', async () => {
    const token = createConfigStore(dir).readToken('default')!.token;
    const refused = await onTerminal('auth token');
    expect(refused).toContain('error: refusing to print the token to a terminal');
    expect(refused).toContain('[exit 2]');
    expect(refused).not.toContain(token.slice(0, 20));
    const shown = await onTerminal('auth token --show');
    expect(shown).toContain(token);
    expect(shown).toContain('[exit 0]');
  });

  it('reply opens the editor saved with tkt config set editor', async () => {
    const editor = join(dir, 'fake-editor.sh');
    await writeFile(editor, '#!/bin/sh\nprintf "Written by the configured editor\\n" > "$1"\n');
    await chmod(editor, 0o755);
    const set = await onTerminal(`config set editor '${editor}'`);
    expect(set).toContain('[exit 0]');
    const ticket = fixture.sandbox.state.tickets.find((t) => !t.isDeleted && t.ticketStatusId !== 7)!;
    const replied = await onTerminal(`reply ${ticket.id} --to someone@example.com --subject Hi`);
    expect(replied).toContain('[exit 0]');
    const messages = fixture.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).map((c) => c.message);
    expect(messages).toContain('Written by the configured editor');
  });
});
