// Entry point: runs a command line, through the quick path (src/cmdutil/quick-parse.ts) or
// commander's program (src/commander-program.ts), and is the only place that maps errors to an
// `error:` line and an exit code (docs/cli.md section 5).
import { createRunState, runAction, type CommandAction, type ProcessLike, type StopSignal } from './process-host.js';
import { loadCommands, type CommandModule } from './commands/index.js';
import type { Program } from './commands/host.js';
import type { ArgvTable } from './cmdutil/argv-table.js';
import { quickParse, type QuickCommandLine } from './cmdutil/quick-parse.js';
import { builtinNames, commandCalled } from './commands/names.js';
import { ExitCode, FailedBeforeOutputClosedError, InterruptedError, OutputClosedError, TktError, exitCodeOf, stoppedHow } from './errors.js';
import { cleanErrorText, errorHint, type LoginGlobals } from './cmdutil/error-text.js';
import { isClosedPipe } from './output/write.js';
import { whenPipeReaderGone } from './util/pipe-reader.js';
// Loaded with every run anyway (src/process-host.ts): a dynamic import of them would only make
// the bundle split them into chunks of their own.
import { createConfigStore } from './config/store.js';
import { defaultConfigDir } from './config/paths.js';

// For the build, which prepares every command's help and the command line's table (scripts/build-start.mjs).
export { loadCommands };
export const commanderProgram = () => import('./commander-program.js');

function errorLines(
  error: unknown,
  globals: LoginGlobals & { debug?: boolean | undefined },
  env: Record<string, string | undefined>,
  stoppedBy: StopSignal | undefined,
): string[] {
  const debug = globals.debug === true;
  if (error instanceof TktError) {
    const message = error instanceof InterruptedError && error.bare ? stoppedHow(stoppedBy) : error.message;
    const lines = [`error: ${cleanErrorText(message)}`];
    for (const detail of error.details) lines.push(`  ${cleanErrorText(detail)}`);
    const hint = errorHint(error, globals, env);
    if (hint !== undefined) lines.push(`hint: ${cleanErrorText(hint)}`);
    if (debug && error.stack !== undefined) lines.push(cleanErrorText(error.stack));
    return lines;
  }
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`error: ${cleanErrorText(message)}`];
  if (debug && error instanceof Error && error.stack !== undefined) lines.push(cleanErrorText(error.stack));
  else lines.push('hint: run again with --debug for details');
  return lines;
}

const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated };
// A prompt may have hidden the cursor when a signal ends the run at once.
const SHOW_CURSOR = '\u001b[?25h';

/**
 * The command line with an alias (tkt alias) at its start replaced by its expansion, or the exit
 * code of a shell alias, which has run. A built-in command or its alias is never looked up.
 */
async function withAlias(argv: string[], proc: ProcessLike): Promise<string[] | number> {
  const [name, ...args] = argv;
  if (name === undefined || name.startsWith('-') || commandCalled(name) !== undefined) return argv;
  const { checkExpansionStart, expandAlias, runShellAlias, savedAliases } = await import('./desk/aliases.js');
  const aliases = savedAliases(createConfigStore(defaultConfigDir(proc.env)));
  if (!Object.hasOwn(aliases, name)) return argv;
  // One saved by hand or by an older tkt may not start with a command: named, with its expansion.
  checkExpansionStart(name, aliases[name]!, { builtins: builtinNames(), aliases }, { saved: true });
  // Help for a tkt alias is `tkt help NAME`, its placeholders unfilled; a shell alias's script gets
  // every argument, --help too (README: Aliases).
  if (!aliases[name]!.startsWith('!') && asksForHelp(args)) return ['help', name];
  const expansion = expandAlias(name, aliases[name]!, args);
  return expansion.kind === 'shell' ? runShellAlias(name, expansion.script, expansion.args, proc) : expansion.argv;
}

/** -h or --help among the arguments before "--", as commander finds it. */
const asksForHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '-h' || arg === '--help');
};

/** A command line read without commander, and the handler its command registers. */
interface QuickRun {
  line: QuickCommandLine;
  action: CommandAction;
}

/**
 * `argv` ready to run without building commander's program (docs/architecture.md, "The quick
 * path"), or undefined where commander must read it: the table cannot tell (help, the version,
 * errors), or the command's module registers its handler some other way.
 */
async function quickRun(argv: readonly string[], table: ArgvTable): Promise<QuickRun | undefined> {
  const line = quickParse(argv, table);
  if (line === undefined) return undefined;
  const name = commandCalled(line.command);
  const [loaded] = name === undefined ? [] : await loadCommands([name]);
  const action = loaded === undefined ? undefined : registeredAction(loaded.module);
  return action === undefined ? undefined : { line, action };
}

/**
 * The handler `module` registers. Its definition is replayed on a stand-in that only chains
 * (every method returns the stand-in): what the definition says, the table already holds.
 */
function registeredAction(module: CommandModule): CommandAction | undefined {
  let action: CommandAction | undefined;
  const chain: Program = new Proxy(() => undefined, { get: (_, key) => (key === 'then' ? undefined : () => chain) }) as unknown as Program;
  module.register(chain, {
    action(_command, handler, options = {}) {
      // The quick parse hands over what commander would (test/cmdutil/quick-parse.test.ts).
      action = { handler: handler as unknown as CommandAction['handler'], options };
    },
  });
  return action?.options.readsProgram === true ? undefined : action;
}

export interface RunOptions {
  /** The command line's table (dist/argv-table.json): without it, commander reads every command line. */
  argvTable?: ArgvTable | undefined;
}

/** Runs tkt with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[], proc: ProcessLike, options: RunOptions = {}): Promise<number> {
  const state = createRunState();
  // SIGINT and SIGTERM alike (docs/cli.md section 8); the first one to come names the exit code.
  let received: StopSignal | undefined;
  let signals = 0;
  const onSignal = (name: StopSignal) => {
    if (state.terminalLent) {
      // The pager has the terminal: a Ctrl-C reached it too and is its to handle; a SIGTERM
      // ends the run once the pager has closed (Context.lendTerminal), as git does.
      if (name === 'SIGINT') return;
      received ??= name;
      return state.stop.abort(name);
    }
    received ??= name;
    signals += 1;
    // The signal's name is the reason: a summary says how the run was stopped (stoppedHow).
    if (state.graceful && signals === 1) return state.stop.abort(name);
    // The second: requests in flight are given up, and their rows or IDs recorded as in doubt.
    if (state.graceful && signals === 2) return state.halt.abort();
    // Nothing to wind down (or a third signal): leave now, as a shell user expects.
    if (proc.stderr.isTTY === true) proc.stderr.write(SHOW_CURSOR);
    // The wait notice's line, with the terminal's "^C" on it, gives way to the error line;
    // otherwise the error starts a line of its own after the "^C".
    const erased = state.waitNotice?.end() === true;
    proc.stderr.write(`${erased ? '' : '\n'}error: ${stoppedHow(received)}\n`);
    proc.exit(SIGNAL_EXIT_CODES[name]);
  };
  const onInterrupt = () => onSignal('SIGINT');
  const onTerminate = () => onSignal('SIGTERM');
  // A closed stdout (`tkt list --all | head -1`) ends the run quietly: nothing new is sent.
  let outputClosed = false;
  const onOutputClosed = () => {
    outputClosed = true;
    state.stop.abort();
  };
  const onStdoutError = (error: Error) => {
    if (isClosedPipe(error)) onOutputClosed();
  };
  // A command that may wait long without writing (a watch between polls) hears of it without
  // writing (ActionOptions.waitsQuietly); any other hears of it at its next write.
  let stopLookingForReader: (() => void) | undefined;
  state.waitingQuietly = () => {
    const stdoutFd = (proc.stdout as { fd?: unknown }).fd;
    if (typeof stdoutFd === 'number') stopLookingForReader ??= whenPipeReaderGone(stdoutFd, onOutputClosed);
  };
  proc.on('SIGINT', onInterrupt);
  proc.on('SIGTERM', onTerminate);
  proc.stdout.on('error', onStdoutError);
  let code: number = ExitCode.ok;
  // The program's options as commander stores them: the error lines read them before a command runs.
  let programOpts = (): Record<string, unknown> => ({});
  let commander: Awaited<ReturnType<typeof commanderProgram>> | undefined;
  try {
    const expanded = await withAlias(argv, proc);
    if (typeof expanded === 'number') return expanded;
    const quick = options.argvTable === undefined ? undefined : await quickRun(expanded, options.argvTable);
    if (quick !== undefined) {
      programOpts = () => quick.line.programOpts;
      await runAction(proc, state, quick.action, quick.line);
    } else {
      commander = await commanderProgram();
      await commander.runWithCommander(expanded, proc, state, (opts) => (programOpts = opts));
    }
  } catch (error) {
    // A closed stdout ends the run quietly, but does not hide a failure that came before it.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by the stdout error handler while the command runs
    if ((outputClosed && !(error instanceof FailedBeforeOutputClosedError)) || error instanceof OutputClosedError) return ExitCode.ok;
    // commander has already printed its own usage errors.
    const commanders = commander?.commanderExitCode(error);
    code = error instanceof InterruptedError && received !== undefined ? SIGNAL_EXIT_CODES[received] : (commanders ?? exitCodeOf(error));
    // The run's options, wherever they stood, once its command ran; before that, the program's.
    if (commanders === undefined) proc.stderr.write(`${errorLines(error, state.options ?? programOpts(), proc.env, received).join('\n')}\n`);
  } finally {
    proc.off('SIGINT', onInterrupt);
    proc.off('SIGTERM', onTerminate);
    stopLookingForReader?.();
  }
  return code;
}

/** dist/argv-table.json, which the build writes beside the bundle; undefined if it is missing. */
function builtArgvTable(): ArgvTable | undefined {
  try {
    return JSON.parse(process.getBuiltinModule('node:fs').readFileSync(new URL('argv-table.json', import.meta.url), 'utf8')) as ArgvTable;
  } catch {
    return undefined;
  }
}

/**
 * The bin's entry. Sets process.exitCode instead of calling process.exit(), so
 * that a large write to a piped stdout drains before the process ends.
 */
export async function main(argv: string[]): Promise<void> {
  process.exitCode = await runCli(argv, process, { argvTable: builtArgvTable() });
  // Everything is recorded; only output is left to drain. A signal now still ends the process
  // at once, with its own code, as Node's default would, but without dying of it.
  for (const [name, code] of Object.entries(SIGNAL_EXIT_CODES)) process.on(name, () => process.exit(code));
}
