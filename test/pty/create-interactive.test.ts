// Drives the real built binary on a real pseudo-terminal (tmux): the @inquirer prompts,
// raw-mode keys, and the whole path from the first prompt to a created ticket.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/tools.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { loginAs } from '../helpers/harness.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tkt.js');

const STEP_TIMEOUT_MS = 10_000;

describe.skipIf(skipWithout(['tmux'], 'test/pty/create-interactive.test.ts'))('tkt create on a terminal', () => {
  let sandbox: RunningSandbox;
  let configDir: string;
  // A private tmux server, so the test never touches a user's sessions.
  const socket = `tkt-test-${process.pid}`;
  let sessions = 0;

  beforeAll(async () => {
    // `npm test` builds first; a bare `vitest run` of this file builds when dist is missing.
    if (!existsSync(join(ROOT, 'dist/main.js'))) await run('node', ['scripts/build.mjs'], { cwd: ROOT });
    sandbox = await startSandbox({ port: 0 });
    configDir = await mkdtemp(join(tmpdir(), 'tkt-pty-'));
    await loginAs(sandbox, configDir, 'admin');
  });

  afterAll(async () => {
    await run('tmux', ['-L', socket, 'kill-server']).catch(() => undefined);
    await sandbox?.close();
    if (configDir !== undefined) await rm(configDir, { recursive: true, force: true });
  });

  async function tmux(...args: string[]): Promise<string> {
    const { stdout } = await run('tmux', ['-L', socket, ...args]);
    return stdout;
  }

  /** Starts `tkt create` in a new 200x50 session; the pane stays after exit to show the code. */
  async function startCreate(): Promise<string> {
    sessions += 1;
    const name = `create-${sessions}`;
    // CI=true in CI would (rightly) turn prompting off: the terminal here is real.
    const command = `env -u CI NO_COLOR=1 TKT_CONFIG_DIR='${configDir}' node '${BIN}' create; echo "[exit $?]"; sleep 60`;
    await tmux('new-session', '-d', '-s', name, '-x', '200', '-y', '50', command);
    return name;
  }

  async function screen(session: string): Promise<string> {
    return tmux('capture-pane', '-p', '-t', session, '-S', '-100');
  }

  /** Polls the screen until it shows `text`, within a bounded wait. */
  async function waitFor(session: string, text: string): Promise<string> {
    const deadline = Date.now() + STEP_TIMEOUT_MS;
    for (;;) {
      const shown = await screen(session);
      if (shown.includes(text)) return shown;
      if (Date.now() > deadline) throw new Error(`"${text}" never appeared; the screen shows:\n${shown}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function type(session: string, text: string): Promise<void> {
    await tmux('send-keys', '-t', session, '-l', text);
  }

  async function keys(session: string, ...names: string[]): Promise<void> {
    await tmux('send-keys', '-t', session, ...names);
  }

  it('asks for every field, from the first prompt to a created ticket', async () => {
    const s = await startCreate();
    await waitFor(s, '? Title');
    await type(s, 'Typed on a real terminal');
    await keys(s, 'Enter');
    await waitFor(s, '? Description');
    await type(s, 'Keyboard sticks');
    await keys(s, 'Enter');
    await waitFor(s, '? Requester');
    await type(s, 'lind');
    // The unfiltered list shows Anna Lind too: wait until the filter has put the cursor on her.
    await waitFor(s, '❯ Anna Lind (alind)');
    await keys(s, 'Enter');
    await waitFor(s, '? Site');
    await keys(s, 'Down');
    await keys(s, 'Enter');
    await waitFor(s, '? Department');
    await keys(s, 'Enter');
    await waitFor(s, '? Status');
    await keys(s, 'Enter');
    await waitFor(s, '? Priority');
    for (let i = 0; i < 3; i += 1) await keys(s, 'Down');
    await keys(s, 'Enter');
    await waitFor(s, '? Category');
    await keys(s, 'Enter');
    await waitFor(s, '? Group');
    await keys(s, 'Enter');
    await waitFor(s, '? Assignee');
    await type(s, 'tom');
    await waitFor(s, '❯ Tom Tech (tech)');
    await keys(s, 'Enter');
    // The summary, then the question: Enter takes its default, yes.
    await waitFor(s, '? Create this ticket?');
    await keys(s, 'Enter');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toContain('[exit 0]');
    const id = Number(/Created ticket #(\d+)/.exec(shown)?.[1]);
    const created = sandbox.state.tickets.find((t) => t.id === id);
    const user = (username: string) => sandbox.state.users.find((u) => u.username === username)?.id;
    expect(created).toMatchObject({
      title: 'Typed on a real terminal',
      description: 'Keyboard sticks',
      creatorId: user('alind'),
      siteId: 2,
      departmentId: 1,
      ticketStatusId: 1,
      ticketPriorityId: 3,
      ticketCategoryId: null,
      groupId: null,
      assignedUser: user('tech'),
      source: 'Manual',
    });
  });

  it('Ctrl-C at a prompt exits 130 and creates nothing', async () => {
    const count = sandbox.state.tickets.length;
    const s = await startCreate();
    await waitFor(s, '? Title');
    await type(s, 'Never created');
    await keys(s, 'Enter');
    await waitFor(s, '? Description');
    await keys(s, 'C-c');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toContain('[exit 130]');
    expect(sandbox.state.tickets.length).toBe(count);
  });

  it('SIGTERM at a prompt (a cancelled job) closes the prompt, exits 143 and creates nothing', async () => {
    const count = sandbox.state.tickets.length;
    const s = await startCreate();
    await waitFor(s, '? Title');
    // The pane's shell runs `node ... create`: its one node child is tkt.
    const pane = (await tmux('display-message', '-p', '-t', s, '#{pane_pid}')).trim();
    // By parent only: Node 24 names its main thread, so the process is not called "node" there.
    const { stdout } = await run('pgrep', ['-P', pane]);
    process.kill(Number(stdout.trim().split('\n')[0]), 'SIGTERM');
    const shown = await waitFor(s, '[exit ');
    expect(shown).toContain('[exit 143]');
    expect(sandbox.state.tickets.length).toBe(count);
  });
});
