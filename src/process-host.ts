// The host that commands register with: it turns commander's parsed options
// into a Context (the only place that reads process.*) and runs the handler.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from './api/types.js';
import type { Clock } from './api/clock.js';
import type { ConfigStore, Session } from './config/types.js';
import type { Context } from './context/context.js';
import { readGlobals, type GlobalOptions } from './config/globals.js';
import type { IO, LiveLine } from './output/io.js';
import type { ActionOptions, CommandHost, Handler } from './commands/host.js';
import type { CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Prompter } from './context/prompter.js';
import { configFolder } from './config/paths.js';
import { resolveSession, sparesSettingsFile } from './config/session.js';
import { createConfigStore } from './config/store.js';
import { urlIsProfiles } from './config/url.js';
import { createOutput } from './output/format.js';
import { InterruptedError } from './errors.js';
import { sanitizeInline } from './output/sanitize.js';
import { handOverTerminal, suspendToShell, type JobControl } from './util/terminal-handoff.js';
import { terminalSize, type SizedStream } from './output/terminal-size.js';
import { isCI } from './util/ci.js';
import { forScreenReader, isDumbTerminal } from './util/dumb-terminal.js';
import { assertNoEmptyOption } from './util/option-text.js';
import { namesProxy } from './api/proxy-env.js';
import type { StartTimer, UploadProgress, WaitNotice } from './output/waiting.js';

export type { StopSignal } from './errors.js';
import type { StopSignal } from './errors.js';

export interface ProcessLike {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean } & SizedStream;
  stderr: Writable & { isTTY?: boolean } & SizedStream;
  env: Record<string, string | undefined>;
  /** Signal handlers, and leaving at once: the real process's, or a test's stand-in. */
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
  exit(code: number): void;
  /** Ctrl-Z's stop (Context.suspend); a test's stand-in may have none. */
  pid?: JobControl['pid'];
  kill?: JobControl['kill'];
  once?: JobControl['once'];
  removeListener?: JobControl['removeListener'];
}

/** What a command's context reads of the process. */
export type ProcessStreams = Pick<ProcessLike, 'stdin' | 'stdout' | 'stderr' | 'env'>;

/** ...and how it stops it for Ctrl-Z, when it can. */
type ProcessParts = ProcessStreams & Partial<Pick<ProcessLike, 'pid' | 'kill' | 'once' | 'removeListener'>>;

/**
 * How a run is stopped (docs/cli.md section 8). The first SIGINT/SIGTERM aborts `stop`, with
 * the signal's name as the reason (a summary says how it was stopped): no new work starts, what is in flight finishes and is reported. The second aborts `halt`: requests
 * in flight are given up and reported as in doubt.
 */
export interface RunState {
  stop: AbortController;
  halt: AbortController;
  /** The command winds down by itself on the first signal; otherwise the run ends at once. */
  graceful: boolean;
  /** A graceful command that only reads: the first signal gives up requests in flight too (ActionOptions.readsOnly). */
  readsOnly: boolean;
  /** Aborted on the first signal: the reads in flight are given up, only changes waited for (ActionOptions.awaitsReads). */
  endReads: AbortController;
  /** A program tkt started has the terminal (Context.lendTerminal). */
  terminalLent: boolean;
  /** Suspended by Ctrl-Z (Context.suspend): settles once the terminal is taken back. */
  suspension?: Promise<unknown> | undefined;
  /** The run's wait notice, once made: a signal that ends the run at once erases its line first. */
  waitNotice: WaitNotice | undefined;
  /** The wait notice's clock; without it, the system's (a test moves its own). */
  waitTimer?: StartTimer;
  /** The lines drawn in place on stderr that show now (IO.liveLines): a signal's line takes their place. */
  liveLines: Set<LiveLine>;
  /** Whether a line was started after the terminal's "^C" of the latest signal (IO.afterEcho): it is started once. */
  afterEcho: { lineStarted: boolean };
  /** The requests sent and not yet settled: the first signal says it waits for them. */
  requests: RequestsInFlight;
  /** Set by the program: the command may wait long without writing (ActionOptions.waitsQuietly). */
  waitingQuietly?: () => void;
  /** Set by the program: a Ctrl-C read as a key counts as the run's first SIGINT (Context.interruptedByKey). */
  interruptedByKey?: () => void;
  /** Set by the program: the terminal hung up (its input failed, createIO), which ends the run as a SIGHUP does. */
  terminalGone?: () => void;
  /** The run's options (runOptions), once its command runs: the error lines read --debug and --profile there. */
  options?: Record<string, unknown>;
  /** Set by the full CLI (dist/main.js): Context.loadAhead for `command`; without it (tests, a command's bundle), nothing to load. */
  loadAhead?: LoadAhead;
}

/**
 * Loads every module that `command` may import later, the prompts' modules if `prompts`, and
 * the proxy's client if `proxy` (Context.loadAhead).
 */
export type LoadAhead = (command: string, parts: { prompts: boolean; proxy: boolean }) => Promise<void>;

/** How many requests a run has in flight, and the --timeout that bounds the wait for them. */
export interface RequestsInFlight {
  count: number;
  timeoutSeconds: number;
}

export function createRunState(): RunState {
  return {
    stop: new AbortController(),
    halt: new AbortController(),
    endReads: new AbortController(),
    graceful: false,
    readsOnly: false,
    terminalLent: false,
    waitNotice: undefined,
    liveLines: new Set(),
    afterEcho: { lineStarted: false },
    requests: { count: 0, timeoutSeconds: 0 },
  };
}

function colorAllowed(globals: GlobalOptions, env: Record<string, string | undefined>, stderrIsTTY: boolean): boolean {
  if (!globals.color || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stderrIsTTY && !isDumbTerminal(env);
}

/**
 * Whether this process has handed the terminal's input to a prompt, the triage screen or a
 * program it started: then their modes may have changed, and Node's restore at exit is kept
 * (settleProcess).
 */
let terminalInputTaken = false;

export const tookTerminalInput = (): boolean => terminalInputTaken;

export function createIO(proc: ProcessStreams, globals: GlobalOptions, state?: Pick<RunState, 'liveLines' | 'afterEcho' | 'terminalGone'>): IO {
  // process.stdin is a stream made on first read, 2-3 ms over a pipe or /dev/null when stdout is
  // a file (net or fs streams loaded for it): read only by a command that reads stdin or may ask.
  const stdinIsTTY = () => proc.stdin.isTTY === true;
  const stdoutIsTTY = proc.stdout.isTTY === true;
  const stderrIsTTY = proc.stderr.isTTY === true;
  const mayAsk = stderrIsTTY && globals.input && !isCI(proc.env);
  const cursorControl = !isDumbTerminal(proc.env);
  const screenReader = forScreenReader(proc.env);
  // A terminal that hangs up fails its reads, writes and raw-mode changes with EIO, emitted as
  // 'error': unheard, that would end the run before the SIGHUP that comes with it keeps what was
  // typed (a prompt drawing on stderr, readline setting stdin back from raw mode).
  const terminalGone = () => state?.terminalGone?.();
  if (stderrIsTTY) proc.stderr.on('error', terminalGone);
  let watched = false;
  const watchTerminal = () => {
    if (watched) return;
    watched = true;
    proc.stdin.on('error', terminalGone);
    // In raw mode Ctrl-D is a key, not the end: input that ends then is a terminal gone (triage's
    // screen, whose run would otherwise end 0 with nothing kept, once nothing holds Node's loop).
    proc.stdin.on('end', () => {
      if ((proc.stdin as { isRaw?: boolean }).isRaw === true) terminalGone();
    });
  };
  const liveLines = state?.liveLines;
  const afterEcho = state?.afterEcho;
  return {
    get stdin() {
      if (proc.stdin.isTTY === true) {
        terminalInputTaken = true;
        watchTerminal();
      }
      return proc.stdin;
    },
    stdout: proc.stdout,
    stderr: proc.stderr,
    get stdinIsTTY() {
      return stdinIsTTY();
    },
    stdoutIsTTY,
    stderrIsTTY,
    color: colorAllowed(globals, proc.env, stderrIsTTY),
    animate: stderrIsTTY && cursorControl && !screenReader && colorAllowed(globals, proc.env, stderrIsTTY),
    cursorControl,
    screenReader,
    // Colour is stderr's to allow (2>/dev/null at a terminal: plain data too); FORCE_COLOR is
    // for a terminal that does not say so (CI logs), never for data in a pipe.
    stdoutColor: stdoutIsTTY && colorAllowed(globals, proc.env, stderrIsTTY),
    size: () => terminalSize([proc.stdout, proc.stderr], proc.env),
    get canPrompt() {
      return mayAsk && stdinIsTTY();
    },
    ...(liveLines === undefined ? {} : { liveLines }),
    ...(afterEcho === undefined ? {} : { afterEcho }),
  };
}

export interface ContextParts {
  io: IO;
  globals: GlobalOptions;
  env: Record<string, string | undefined>;
  config: ConfigStore;
  prompter: Prompter;
  signal: AbortSignal;
  /** Aborted on a second signal: requests in flight are given up. */
  halt?: AbortSignal;
  /** Aborted on the first signal of a command that awaits no read: reads in flight are given up; without it (tests), never. */
  endReads?: AbortSignal;
  /** Context.lendTerminal; without it (tests), `use` just runs. */
  lendTerminal?: Context['lendTerminal'];
  /** Context.suspend; without it (tests), nothing can be suspended. */
  suspend?: Context['suspend'];
  /**
   * The command says so when the service keeps it waiting (ActionOptions.saysWaiting), but while
   * a prompt or a program lent the terminal has it: `timer` is a test's clock, `made` gets the
   * notice once there is one, `uploadProgress` says how far an upload is (ActionOptions.uploadProgress).
   */
  waiting?: { timer?: StartTimer; made?: (notice: WaitNotice) => void; uploadProgress?: UploadProgress | undefined };
  /** Context.loadAhead; without it (tests), nothing to load. */
  loadAhead?: Context['loadAhead'];
  /** Context.interruptedByKey; without it (tests), nothing counts it. */
  interruptedByKey?: () => void;
  /** Counts the requests of every client while they are in flight (cli-run.ts says so at the first signal); without it (tests), nothing counts. */
  requests?: RequestsInFlight;
  /** The clients' clock of the waits between retries; without it, the system's (a test moves its own). */
  clock?: Clock;
}

/**
 * The wait notice (output/waiting.ts) of a command that asks for it, for a person watching a
 * terminal: stderr can animate (a TTY, colour not disabled), stdout is that terminal too (not a
 * pipe to a script or a pager, as gh decides for its spinner), not CI, and no --debug, whose
 * trace already says what is sent. Its module loads only then.
 */
async function waitNoticeFor({ waiting, io, env, globals }: ContextParts): Promise<WaitNotice | undefined> {
  if (waiting === undefined || !io.animate || !io.stdoutIsTTY || isCI(env) || globals.debug) return undefined;
  const notice = (await import('./output/waiting.js')).createWaitNotice(io, waiting.timer, waiting.uploadProgress);
  waiting.made?.(notice);
  return notice;
}

/**
 * Builds a Context from its parts. Clients are created on first use and
 * remembered, so a run shares one keep-alive pool; `dispose` closes them.
 */
export async function buildContext(parts: ContextParts): Promise<Context & { dispose(): Promise<void> }> {
  const now = () => new Date();
  const clients: ApiClient[] = [];
  let session: Session | undefined;
  const sessionClients = new Map<string, Promise<ApiClient>>();
  // Trace lines name URLs and errors from the service: cleaned like any text from it.
  const debug = parts.globals.debug ? (line: string) => parts.io.stderr.write(`debug: ${sanitizeInline(line)}\n`) : undefined;
  // Made with the first client (or prompt): one line for every client of the run.
  let waitNotice: Promise<WaitNotice | undefined> | undefined;
  // A prompt, the editor, the pager or a browser has the terminal: the line is off it meanwhile.
  const aside = async <T>(use: () => Promise<T>): Promise<T> => {
    const notice = parts.waiting === undefined ? undefined : await (waitNotice ??= waitNoticeFor(parts));
    return notice === undefined ? await use() : await notice.aside(use);
  };
  const lendTerminal = parts.lendTerminal ?? ((use) => use());
  // A request that may change something (one never retried) has left: the output module's changeSent.
  let changeSent = false;
  // The HTTP client (and undici, for a proxy) loads only for commands that talk to the service.
  const makeClient = async (baseUrl: string, token?: string, urlProfile?: string): Promise<ApiClient> => {
    const [{ createApiClient }, notice] = await Promise.all([import('./api/http.js'), (waitNotice ??= waitNoticeFor(parts))]);
    const client = createApiClient({
      baseUrl,
      env: parts.env,
      timeoutMs: parts.globals.timeout * 1000,
      userAgent: `tkt/${TKT_VERSION}`,
      ...(token === undefined ? {} : { token }),
      ...(urlProfile === undefined ? {} : { urlProfile }),
      ...(debug === undefined ? {} : { debug }),
      ...(parts.halt === undefined ? {} : { halt: parts.halt }),
      ...(parts.endReads === undefined ? {} : { endReads: parts.endReads }),
      stop: parts.signal,
      ...(parts.requests === undefined ? {} : { requests: parts.requests }),
      ...(parts.clock === undefined ? {} : { clock: parts.clock }),
    });
    clients.push(client);
    const tracked: ApiClient = {
      baseUrl: client.baseUrl,
      proxy: client.proxy,
      send(plan, options) {
        if (!plan.retry) changeSent = true;
        return client.send(plan, options);
      },
      dispose: () => client.dispose(),
    };
    return notice?.watching(tracked) ?? tracked;
  };
  // Output flags are checked (and --query compiled) before the command sends anything.
  const output = await createOutput({ flags: parts.globals, io: parts.io, now, changeSent: () => changeSent });
  const ctx: Context & { dispose(): Promise<void> } = {
    io: parts.io,
    globals: parts.globals,
    output,
    env: parts.env,
    config: parts.config,
    prompter: parts.waiting === undefined ? parts.prompter : promptsThrough((ask) => aside(() => ask(parts.prompter))),
    signal: parts.signal,
    ...(parts.halt === undefined ? {} : { halt: parts.halt }),
    lendTerminal: (use, holder) => aside(() => lendTerminal(use, holder)),
    suspend: parts.suspend ?? (async () => 'this run cannot be suspended'),
    now,
    async session() {
      session ??= resolveSession({ globals: parts.globals, env: parts.env, config: parts.config, now: now() });
      return session;
    },
    async api() {
      return await ctx.apiFor(await ctx.session());
    },
    async apiFor({ baseUrl, token, profile }) {
      const key = JSON.stringify([baseUrl, token]);
      let client = sessionClients.get(key);
      if (client === undefined) {
        // A refused connection names the profile when the URL is its own (network-advice.ts unreachedServiceHint).
        client = makeClient(baseUrl, token, urlIsProfiles(parts.globals, parts.env) ? profile : undefined);
        sessionClients.set(key, client);
      }
      return await client;
    },
    async anonymousApi(baseUrl: string) {
      return await makeClient(baseUrl);
    },
    loadAhead: parts.loadAhead ?? (async () => {}),
    interruptedByKey: parts.interruptedByKey ?? (() => {}),
    async dispose() {
      // Before the error line of a failed run, and before requests still in flight are awaited.
      (await waitNotice)?.end();
      await Promise.allSettled(clients.map((client) => client.dispose()));
    },
  };
  return ctx;
}

/** A Prompter each question of which is asked through `through`, which gives it the prompter to ask. */
function promptsThrough(through: <T>(ask: (prompter: Prompter) => Promise<T>) => Promise<T>): Prompter {
  return {
    input: (options) => through((prompter) => prompter.input(options)),
    password: (options) => through((prompter) => prompter.password(options)),
    confirm: (options) => through((prompter) => prompter.confirm(options)),
    select: (options) => through((prompter) => prompter.select(options)),
    search: (options) => through((prompter) => prompter.search(options)),
    editor: (options) => through((prompter) => prompter.editor(options)),
  };
}

/** Most runs never ask anything: the prompts (and their colour themes) load on the first question. */
function lazyPrompter(create: () => Promise<Prompter>): Prompter {
  let real: Promise<Prompter> | undefined;
  return promptsThrough(async (ask) => await ask(await (real ??= create())));
}

/** Context.lendTerminal for this process: the terminal handed over, and signals left to the program while it has it. */
function processLendTerminal(proc: ProcessStreams, state: RunState): Context['lendTerminal'] {
  return async (use, holder) => {
    // Already lent: the editor that the triage screen opens.
    if (state.terminalLent) return await use();
    // Suspended (or on its way back): the terminal is taken back before it is lent.
    while (state.suspension !== undefined) await state.suspension;
    state.terminalLent = true;
    terminalInputTaken = true;
    try {
      return await handOverTerminal({ stdin: proc.stdin, stdout: proc.stdout, cursorControl: !isDumbTerminal(proc.env) }, use, holder);
    } finally {
      state.terminalLent = false;
      // A SIGTERM came while the program had the terminal: it has closed, now the run ends.
      if (state.stop.signal.aborted) throw new InterruptedError();
    }
  };
}

/** Context.suspend for this process: stopped as a shell's Ctrl-Z stops a program, when its parts allow. */
function processSuspend(proc: ProcessParts, state: RunState): Context['suspend'] {
  return async (holder) => {
    const { pid, kill, once, removeListener } = proc;
    if (pid === undefined || kill === undefined || once === undefined || removeListener === undefined) return 'this run cannot be suspended';
    // A program has the terminal, or the last Ctrl-Z is still being undone: nothing to suspend now.
    if (state.terminalLent || state.suspension !== undefined) return undefined;
    const job: JobControl = { pid, kill: kill.bind(proc), once: once.bind(proc), removeListener: removeListener.bind(proc) };
    const suspension = suspendToShell(proc, job, holder);
    state.suspension = suspension.catch(() => undefined);
    try {
      return (await suspension) ? undefined : 'no shell with job control to return to';
    } finally {
      state.suspension = undefined;
    }
  };
}

/** The Context of a run of this process: its IO, the user's config folder, prompts at the terminal. */
export async function createProcessContext(
  proc: ProcessParts,
  globals: GlobalOptions,
  state: RunState,
  command: string,
  action: Pick<ActionOptions, 'saysWaiting' | 'uploadProgress' | 'keepsSettings' | 'awaitsReads'> = {},
): Promise<Context & { dispose(): Promise<void> }> {
  const io = createIO(proc, globals, state);
  // A loose token file, a lock waited for, a settings file skipped: said on stderr, each once a run.
  const folder = configFolder(proc.env);
  const config = createConfigStore(folder?.dir, {
    home: folder?.home,
    warn: (text) => void io.stderr.write(`warning: ${text}\n`),
    unreadableSettings: action.keepsSettings !== true && sparesSettingsFile({ globals, env: proc.env }) ? 'warn' : 'report',
  });
  const lendTerminal = processLendTerminal(proc, state);
  const suspend = processSuspend(proc, state);
  state.requests.timeoutSeconds = globals.timeout;
  return await buildContext({
    requests: state.requests,
    io,
    globals,
    env: proc.env,
    config,
    prompter: lazyPrompter(async () => {
      const [{ createInquirerPrompter }, { editorChoice }] = await Promise.all([import('./prompts/inquirer.js'), import('./config/settings.js')]);
      // `tkt config set editor` applies to every text typed in an editor.
      const editor = () => editorChoice({ config, env: proc.env, globals });
      return createInquirerPrompter({
        stdin: io.stdin,
        stderr: io.stderr,
        env: proc.env,
        color: io.color,
        editor,
        signal: state.stop.signal,
        lendTerminal,
        // The prompt is closed first (and opened again after): nothing else holds the terminal.
        suspend: () => suspend({ release: async () => {}, retake: () => {} }),
        rows: () => io.size().rows,
        cursorControl: io.cursorControl,
        screenReader: io.screenReader,
        columns: () => io.size().columns,
      });
    }),
    signal: state.stop.signal,
    halt: state.halt.signal,
    ...(action.awaitsReads === true ? {} : { endReads: state.endReads.signal }),
    lendTerminal,
    suspend,
    interruptedByKey: () => state.interruptedByKey?.(),
    // The prompts' modules only where the command can prompt (not tkt mcp, whose stdin is the
    // protocol's); the proxy's client only where the environment, read once, names a proxy.
    ...(state.loadAhead === undefined ? {} : { loadAhead: () => state.loadAhead!(command, { prompts: io.canPrompt, proxy: namesProxy(proc.env) }) }),
    ...(action.saysWaiting === false
      ? {}
      : {
          waiting: {
            ...(state.waitTimer === undefined ? {} : { timer: state.waitTimer }),
            made: (notice: WaitNotice) => (state.waitNotice = notice),
            uploadProgress: action.uploadProgress,
          },
        }),
  });
}

/** A command's handler and how it stops, as its module hands them to CommandHost.action. */
export interface CommandAction {
  handler: Handler<unknown[], OptionValues>;
  options: ActionOptions;
}

/**
 * Runs a command's handler with `args` and `opts` as commander hands them over, in a Context
 * built from the global options (`runOptions`, below).
 */
export async function runAction<Args extends unknown[], Opts extends OptionValues>(
  proc: ProcessLike,
  state: RunState,
  action: { handler: Handler<Args, Opts>; options: ActionOptions },
  line: { command: string; args: Args; opts: Opts; runOptions: Record<string, unknown> },
): Promise<void> {
  state.options = line.runOptions;
  assertNoEmptyOption(line.runOptions, action.options.mayBeEmpty);
  const globals = readGlobals(line.runOptions);
  state.graceful = action.options.graceful === true;
  state.readsOnly = action.options.readsOnly === true;
  if (action.options.waitsQuietly === true) state.waitingQuietly?.();
  const ctx = await createProcessContext(proc, globals, state, line.command, action.options);
  try {
    await action.handler(line.args, line.opts, ctx);
  } finally {
    await ctx.dispose();
  }
}

/**
 * A run's options as readGlobals reads them: the command's own, and each global option from
 * where it was given, after the command's word (its hidden copy, src/commander-program.ts) over
 * before it (the program's); the program's default otherwise.
 */
export function runOptions(command: CommandUnknownOpts): Record<string, unknown> {
  const [program, ...below] = commandChain(command);
  const options: Record<string, unknown> = { ...command.opts(), ...program.opts() };
  for (const level of below) {
    for (const [key, value] of Object.entries(level.opts())) if (level.getOptionValueSource(key) === 'cli') options[key] = value;
  }
  return options;
}

/** The command's own options, as its handler gets them: without the copies of the global ones. */
export function commandOptions(command: CommandUnknownOpts): OptionValues {
  const [program] = commandChain(command);
  const globalFlags = new Set(program.options.map((option) => option.flags));
  const copies = new Set(command.options.filter((option) => globalFlags.has(option.flags)).map((option) => option.attributeName()));
  return Object.fromEntries(Object.entries(command.opts()).filter(([key]) => !copies.has(key)));
}

/** The program, then each command down to `command`. */
function commandChain(command: CommandUnknownOpts): [CommandUnknownOpts, ...CommandUnknownOpts[]] {
  const chain: [CommandUnknownOpts, ...CommandUnknownOpts[]] = [command];
  for (let at = command.parent; at !== null; at = at.parent) chain.unshift(at);
  return chain;
}

/** The real host: one per process. */
export function createProcessHost(proc: ProcessLike, state: RunState): CommandHost {
  return {
    action(command, handler, options = {}) {
      command.action(async (...commanderArgs: unknown[]) => {
        // commander calls back with the arguments, then the options, then the command.
        const args = commanderArgs.slice(0, -2) as Parameters<typeof handler>[0];
        const opts = commandOptions(command) as Parameters<typeof handler>[1];
        // The command's own name (a nested command's, such as config get, is its parent's).
        const name = commandChain(command)[1]?.name() ?? command.name();
        await runAction(proc, state, { handler, options }, { command: name, args, opts, runOptions: runOptions(command) });
      });
    },
  };
}
