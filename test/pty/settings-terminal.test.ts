// The real built binary on a real pseudo-terminal (tmux, on a private socket): `tkt auth token`
// refuses a terminal unless --show, and the `editor` setting is the editor a reply opens.
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/tools.js';
import { createConfigStore } from '../../src/config/store.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { loginAs } from '../helpers/harness.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tkt.js');
const STEP_TIMEOUT_MS = 10_000;

const skip = skipWithout(['tmux'], 'test/pty/settings-terminal.test.ts');

describe.skipIf(skip)('settings at a real terminal', () => {
  let sandbox: RunningSandbox;
  let dir: string;
  const socket = `tkt-settings-${process.pid}`;
  let sessions = 0;

  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/main.js'))) await run('node', ['scripts/build.mjs'], { cwd: ROOT });
    sandbox = await startSandbox({ port: 0 });
    dir = await mkdtemp(join(tmpdir(), 'tkt-pty-settings-'));
    await loginAs(sandbox, dir, 'admin');
  });

  afterAll(async () => {
    await run('tmux', ['-L', socket, 'kill-server']).catch(() => undefined);
    await sandbox?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  /** Runs tkt with `args` in a new terminal; resolves with the screen once it has exited. */
  async function onTerminal(args: string): Promise<string> {
    sessions += 1;
    const name = `s${sessions}`;
    // No CI (it turns prompting off) and no VISUAL/EDITOR (they would win over the setting).
    const command = `env -u CI -u VISUAL -u EDITOR NO_COLOR=1 TKT_CONFIG_DIR='${dir}' node '${BIN}' ${args}; echo "[exit $?]"; sleep 60`;
    await run('tmux', ['-L', socket, 'new-session', '-d', '-s', name, '-x', '200', '-y', '50', command]);
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      const { stdout } = await run('tmux', ['-L', socket, 'capture-pane', '-p', '-J', '-t', name, '-S', '-100']);
      if (stdout.includes('[exit ')) return stdout;
      if (Date.now() > deadline) throw new Error(`tkt ${args} never exited; the screen shows:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 100));
    }
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
    const ticket = sandbox.state.tickets.find((t) => !t.isDeleted && t.ticketStatusId !== 7)!;
    const replied = await onTerminal(`reply ${ticket.id} --to someone@example.com --subject Hi`);
    expect(replied).toContain('[exit 0]');
    const messages = sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).map((c) => c.message);
    expect(messages).toContain('Written by the configured editor');
  });
});
