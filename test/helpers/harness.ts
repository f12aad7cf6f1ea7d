// Command tests run the real command code against a real sandbox over real
// HTTP: this builds that world (sandbox on port 0, temp config dir, fake IO,
// scripted prompter) and tears it down.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { Clock } from '../../src/api/clock.js';
import { buildContext } from '../../src/process-host.js';
import { createConfigStore } from '../../src/config/store.js';
import type { Context } from '../../src/context/context.js';
import type { GlobalOptions } from '../../src/config/globals.js';
import type { IO } from '../../src/output/io.js';
import { createOutput } from '../../src/output/format.js';
import { runCli } from '../../src/program.js';
import { argvTable } from './program.js';
import { processSignals, type ProcessSignals } from '../cli/fake-process.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { createTestIO, type TestIOOptions } from './io.js';
import { createScriptedPrompter, type ScriptedAnswer } from './prompter.js';

export interface HarnessOptions {
  sandbox?: SandboxOptions;
  /** Demo login to be logged in as (token in the profile's cache), or false for none. */
  login?: string | false;
  globals?: Partial<GlobalOptions>;
  stdin?: string;
  /** Pretend stdin, stdout and stderr are terminals (prompts allowed). */
  tty?: boolean;
  /** With tty: a colour terminal (progress bars are drawn). */
  color?: boolean;
  /** With tty: the terminal's size (default 80x24, reported by the terminal). */
  size?: Pick<TestIOOptions, 'columns' | 'rows' | 'rowsReported'>;
  answers?: ScriptedAnswer[];
  env?: Record<string, string>;
  /** The HTTP clients' clock of the waits between retries (a manualClock: they end when the test says). */
  clock?: Clock;
}

export const DEFAULT_GLOBALS: GlobalOptions = {
  url: undefined,
  profile: undefined,
  json: false,
  quiet: false,
  input: true,
  color: false,
  timeout: 10,
  debug: false,
  refresh: false,
  allowHttp: false,
};

export interface Harness {
  sandbox: RunningSandbox;
  configDir: string;
  env: Record<string, string>;
  /** A fresh context (new IO, new prompter) for one command run. */
  context(options?: Omit<HarnessOptions, 'sandbox' | 'login'>): Promise<CommandRun>;
  /**
   * Runs the whole CLI in-process (commander, error mapping, exit code) with fake streams;
   * `signals` delivers SIGINT/SIGTERM to the run when the test says (processSignals).
   */
  cli(
    argv: string[],
    options?: { stdin?: string | Buffer; env?: Record<string, string>; signals?: ProcessSignals },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Fails when a context's scripted answers were not all asked for (then forgets those contexts). */
  assertPromptsDone(): void;
  /** Stops the sandbox; fails, like assertPromptsDone, on scripted answers never asked for. */
  close(): Promise<void>;
}

export interface CommandRun {
  ctx: Context;
  stdout(): string;
  stderr(): string;
  prompter: ReturnType<typeof createScriptedPrompter>;
  /** The first signal: stop starting work. */
  abort: AbortController;
  /** The second signal: give up requests in flight. */
  halt: AbortController;
}

/** The context with other streams: its output module prints to them too. */
export async function withIO(ctx: Context, io: IO): Promise<Context> {
  return { ...ctx, io, output: await createOutput({ flags: ctx.globals, io, now: ctx.now }) };
}

function namesOf(sandbox: RunningSandbox, userId: string): { firstName?: string; lastName?: string } {
  const user = sandbox.state.users.find((candidate) => candidate.id === userId);
  return user === undefined ? {} : { firstName: user.firstName, lastName: user.lastName };
}

export async function loginAs(sandbox: RunningSandbox, configDir: string, username: string, profile = 'default'): Promise<void> {
  const login = sandbox.demoLogins.find((l) => l.username === username);
  if (login === undefined) throw new Error(`no demo login ${username}`);
  const config = createConfigStore(configDir);
  await config.saveProfile(profile, { url: sandbox.url });
  await config.writeToken(profile, {
    token: sandbox.issueToken(username),
    url: sandbox.url,
    userId: login.userId,
    username,
    // As tkt login saves them (whoami's name, templates' {{me.name}}).
    ...namesOf(sandbox, login.userId),
    expiresAt: new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString(),
  });
}

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ port: 0, ...options.sandbox });
  const configDir = await mkdtemp(join(tmpdir(), 'tkt-test-'));
  const login = options.login ?? 'admin';
  if (login !== false) await loginAs(sandbox, configDir, login);
  else await createConfigStore(configDir).saveProfile('default', { url: sandbox.url });
  const env: Record<string, string> = { TKT_CONFIG_DIR: configDir, ...options.env };
  const contexts: { dispose(): Promise<void> }[] = [];
  let prompters: ReturnType<typeof createScriptedPrompter>[] = [];
  const assertPromptsDone = () => {
    const pending = prompters;
    prompters = [];
    for (const prompter of pending) prompter.assertDone();
  };

  return {
    sandbox,
    configDir,
    env,
    async context(runOptions = {}) {
      const tty = runOptions.tty ?? options.tty ?? false;
      const color = runOptions.color ?? options.color ?? false;
      const test = createTestIO({ stdin: runOptions.stdin ?? options.stdin ?? '', isTTY: tty, canPrompt: tty, color, ...runOptions.size });
      const prompter = createScriptedPrompter(runOptions.answers ?? options.answers ?? []);
      prompters.push(prompter);
      const abort = new AbortController();
      const halt = new AbortController();
      const ctx = await buildContext({
        io: test.io,
        globals: { ...DEFAULT_GLOBALS, ...options.globals, ...runOptions.globals },
        env: { ...env, ...runOptions.env },
        config: createConfigStore(configDir),
        prompter,
        signal: abort.signal,
        halt: halt.signal,
        ...(runOptions.clock === undefined ? {} : { clock: runOptions.clock }),
      });
      contexts.push(ctx);
      return { ctx, stdout: test.stdout, stderr: test.stderr, prompter, abort, halt };
    },
    async cli(argv, cliOptions = {}) {
      const stdin = new PassThrough();
      stdin.end(cliOptions.stdin ?? '');
      let stdout = '';
      let stderr = '';
      const collect = (append: (s: string) => void) => {
        const stream = new PassThrough();
        stream.on('data', (chunk: Buffer) => append(chunk.toString('utf8')));
        return stream;
      };
      const out = collect((s) => (stdout += s));
      const err = collect((s) => (stderr += s));
      // Through the quick path where the CLI takes it (src/program.ts), as the built bin does.
      const code = await runCli(
        argv,
        { stdin, stdout: out, stderr: err, env: { ...env, ...cliOptions.env }, ...(cliOptions.signals ?? processSignals()) },
        { argvTable },
      );
      await new Promise((resolve) => setImmediate(resolve));
      return { code, stdout, stderr };
    },
    assertPromptsDone,
    async close() {
      await Promise.allSettled(contexts.map((c) => c.dispose()));
      await sandbox.close();
      await rm(configDir, { recursive: true, force: true });
      assertPromptsDone();
    },
  };
}
