// Real terminals for tests: a private tmux server (its own socket, so a test never touches a
// user's sessions), screens read until they show what a step waits for (never a fixed sleep),
// and the built CLI with a sandbox and a logged-in config folder to run it against.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { loginAs } from './harness.js';

const run = promisify(execFile);
export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/tkt.js');
const STEP_TIMEOUT_MS = 10_000;

/** `npm test` builds first; a bare `vitest run` of one file builds when dist is missing. */
export async function ensureBuilt(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist/main.js'))) await run('node', ['scripts/build.mjs'], { cwd: ROOT });
}

export interface Screen {
  /** The pane's text; `captureArgs` add to tmux capture-pane (-e keeps colours). */
  (session: string, ...captureArgs: string[]): Promise<string>;
}

export interface WaitOptions {
  /** What the step waits for, in the failure's message (default: the test itself). */
  what?: string;
  /** Added to tmux capture-pane: -J joins wrapped lines, -S -100 adds scrollback. */
  capture?: string[];
}

export interface Tmux {
  /** Any tmux command on this server; resolves with its stdout. */
  tmux(...args: string[]): Promise<string>;
  /** A new detached session of `width`x`height` running `command` (sh syntax). */
  start(session: string, size: { width: number; height: number }, command: string): Promise<void>;
  screen: Screen;
  keys(session: string, ...names: string[]): Promise<void>;
  /** Types `text` literally. */
  type(session: string, text: string): Promise<void>;
  /** The screen once `test` accepts it; fails naming `what` and showing the screen after 10 s. */
  waitFor(session: string, test: RegExp | string | ((text: string) => boolean), options?: WaitOptions): Promise<string>;
  /** Waits for a condition outside the screen (a file, the sandbox's state). */
  waitUntil(session: string, test: () => boolean, what: string): Promise<void>;
  close(): Promise<void>;
}

export function privateTmux(name: string): Tmux {
  const socket = `tkt-${name}-${process.pid}`;
  const tmux = async (...args: string[]) => (await run('tmux', ['-L', socket, ...args])).stdout;
  const screen: Screen = (session, ...captureArgs) => tmux('capture-pane', '-p', '-t', session, ...captureArgs);
  const accepts = (test: RegExp | string | ((text: string) => boolean), text: string) =>
    typeof test === 'string' ? text.includes(test) : typeof test === 'function' ? test(text) : test.test(text);
  const pause = () => new Promise((r) => setTimeout(r, 50));
  // tmux's server exits with its last session, and a new-session that reaches it while it
  // exits fails ("server exited unexpectedly"): the server is started first and told to stay,
  // until close() ends it.
  let serverUp: Promise<string> | undefined;
  return {
    tmux,
    async start(session, { width, height }, command) {
      await (serverUp ??= tmux('start-server', ';', 'set-option', '-s', 'exit-empty', 'off'));
      await tmux('new-session', '-d', '-s', session, '-x', String(width), '-y', String(height), command);
    },
    screen,
    async keys(session, ...names) {
      await tmux('send-keys', '-t', session, ...names);
    },
    async type(session, text) {
      await tmux('send-keys', '-t', session, '-l', text);
    },
    async waitFor(session, test, { what = String(test), capture = [] } = {}) {
      let text = '';
      for (const started = Date.now(); Date.now() - started < STEP_TIMEOUT_MS; await pause()) {
        text = await screen(session, ...capture);
        if (accepts(test, text)) return text;
      }
      throw new Error(`timed out waiting for ${what}; the screen shows:\n${text}`);
    },
    async waitUntil(session, test, what) {
      for (const started = Date.now(); !test(); await pause()) {
        if (Date.now() - started > STEP_TIMEOUT_MS) throw new Error(`timed out waiting for ${what}; the screen shows:\n${await screen(session)}`);
      }
    },
    close: async () => {
      await run('tmux', ['-L', socket, 'kill-server']).catch(() => undefined);
    },
  };
}

/** Waits for something a closed terminal leaves behind (a file written as tkt ended): no screen to show. */
export async function waitForLeftBehind(test: () => boolean, what: string): Promise<void> {
  for (const started = Date.now(); !test(); await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (Date.now() - started > STEP_TIMEOUT_MS) throw new Error(`timed out waiting for ${what}`);
  }
}

export interface TerminalFixture {
  sandbox: RunningSandbox;
  /** The config folder, logged in as the user asked for (TKT_CONFIG_DIR). */
  dir: string;
  close(): Promise<void>;
}

/** The built CLI, a sandbox, and a config folder logged in as `user` (a demo login). */
export async function terminalFixture(prefix: string, user: string): Promise<TerminalFixture> {
  await ensureBuilt();
  const sandbox = await startSandbox({ port: 0 });
  const dir = await mkdtemp(join(tmpdir(), `tkt-pty-${prefix}-`));
  await loginAs(sandbox, dir, user);
  return {
    sandbox,
    dir,
    async close() {
      await sandbox.close();
      // A tkt the closed terminal's SIGHUP is still ending may write Node's compile cache into the
      // folder's cache/code/node/ (Node 22.1+) as it exits: tried again until it is gone (ENOTEMPTY).
      await rm(dir, { recursive: true, force: true, maxRetries: 10 });
    },
  };
}

/**
 * For one describe block: a private tmux server and a fixture logged in as `user`, `ready`
 * called with the fixture once it is made (the block's own set-up), both closed after the block.
 */
export function useTerminal(name: string, user: string, ready: (fixture: TerminalFixture) => void | Promise<void>): Tmux {
  const terminal = privateTmux(name);
  let fixture: TerminalFixture | undefined;
  beforeAll(async () => {
    fixture = await terminalFixture(name, user);
    await ready(fixture);
  });
  afterAll(async () => {
    await terminal.close();
    await fixture?.close();
  });
  return terminal;
}
