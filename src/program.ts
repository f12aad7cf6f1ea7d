// Entry point: builds the commander program, runs it, and is the only place
// that maps errors to an `error:` line and an exit code (docs/cli.md section 5).
import { Command, CommanderError, Option } from '@commander-js/extra-typings';
import { createProcessHost, createRunState, type ProcessLike, type RunState, type StopSignal } from './process-host.js';
import { loadCommands, registerCommands, type LoadedCommand } from './commands/index.js';
import { commandCalled, type CommandName } from './commands/names.js';
import { ExitCode, InterruptedError, OutputClosedError, TktError, exitCodeOf, stoppedHow } from './errors.js';
import { cleanErrorText, errorHint, type LoginGlobals } from './cmdutil/error-text.js';
import { reflow } from './output/reflow.js';
import { isClosedPipe } from './output/write.js';
import { aliasHelpSection } from './desk/alias-help.js';
// Loaded with every run anyway (src/process-host.ts): a dynamic import of them would only make
// the bundle split them into chunks of their own.
import { createConfigStore } from './config/store.js';
import { defaultConfigDir } from './config/paths.js';

const EXAMPLES = `
Examples:
  $ tkt login --url https://helpdesk.example.com -u jdoe
  $ tkt list --view my-overdue-tickets
  $ tkt show 42
  $ tkt create --title "Printer on fire" --description - --requester aberg \\
      --site "Head Office" --department IT --status Open < notes.txt
  $ tkt list -q --view my-completed-tickets | tkt close -
  $ tkt list --all --status open --assignee none --query 'length(@)'
  $ tkt sandbox            # a local emulator of the service, with demo data`;

// Help is laid out for 80 columns whatever the terminal (commander would follow its width): the
// same text everywhere, so the bin can print help prepared at build time (src/fast-start.ts).
const HELP_WIDTH = 80;

// For the build, which prepares every command's help (scripts/build-start.mjs).
export { loadCommands };

/** The program with `commands` (loadCommands: every command, or the few a run needs) registered. */
export function buildProgram(proc: ProcessLike, state: RunState, commands: readonly LoadedCommand[]) {
  const program = createProgram(proc);
  registerCommands(program, createProcessHost(proc, state), commands);
  return program;
}

/** The program with its global options and help, and no command yet. */
function createProgram(proc: ProcessLike) {
  return new Command('tkt')
    .description('Command-line client for the help-desk ticketing service')
    .version(TKT_VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--url <url>', 'base URL of the service (env TKT_URL)')
    .option('--profile <name>', 'settings profile (env TKT_PROFILE)')
    .option('--json', 'print the API response as JSON')
    .option('-q, --quiet', 'print only the essentials (IDs)')
    .option('--query <expr>', 'JMESPath expression applied to the JSON output (implies --json)')
    .option('--raw', 'with --query: strings without quotes, arrays one element per line')
    .option('--no-input', 'never prompt (also when CI is set)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--timeout <seconds>', 'per-request time-out in seconds', '30')
    .option('--debug', 'HTTP trace on stderr (credentials redacted)')
    .addOption(new Option('--refresh', 'refetch cached lookups'))
    .option('--allow-http', 'accept plain http to a non-local host (tkt login saves it for the profile)')
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      // The text after a command's options (addHelpText) is written as prose: laid out here.
      writeOut: (text) => proc.stdout.write(reflow(text, HELP_WIDTH)),
      writeErr: (text) => proc.stderr.write(text),
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    })
    .addHelpText('after', EXAMPLES)
    .addHelpText('after', () => aliasHelpSection(proc.env));
}

/**
 * The commands a run of `argv` needs registered: the one it invokes, and for `tkt help NAME`
 * NAME's too. Every command (undefined) where the run needs the whole CLI (the program's help,
 * an unknown command's suggestions, the completion scripts) or the command's word cannot be told
 * for sure: commander then sees what it always saw.
 */
function commandsRun(argv: readonly string[], program: Command): CommandName[] | undefined {
  const index = commandWordIndex(argv, program);
  const name = index === undefined ? undefined : commandCalled(argv[index]!);
  if (index === undefined || name === undefined || name === 'completion') return undefined;
  if (name !== 'help') return [name];
  const subject = argv.slice(index + 1).find((arg) => !arg.startsWith('-'));
  if (subject === undefined) return undefined;
  const named = commandCalled(subject);
  return named === undefined ? ['help'] : ['help', named];
}

/**
 * Where the command's word stands in `argv`: after the global options before it and their values.
 * Undefined for no word, `--`, or an option the program does not know (bundled short flags too).
 */
function commandWordIndex(argv: readonly string[], program: Command): number | undefined {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '-' || !arg.startsWith('-')) return index;
    const option = program.options.find((candidate) => candidate.long === arg.split('=')[0] || candidate.short === arg);
    if (option === undefined) return undefined;
    const next = argv[index + 1];
    if (!arg.includes('=') && (option.required || (option.optional && next !== undefined && !next.startsWith('-')))) index++;
  }
  return undefined;
}

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

/** The run's exit code: commander's own (help, version, a usage error), else exitCodeOf's. */
function runExitCode(error: unknown): number {
  if (error instanceof CommanderError) {
    const clean = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    return clean.includes(error.code) ? ExitCode.ok : ExitCode.usage;
  }
  return exitCodeOf(error);
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
  const { expandAlias, runShellAlias, savedAliases } = await import('./desk/aliases.js');
  const aliases = savedAliases(createConfigStore(defaultConfigDir(proc.env)));
  if (!Object.hasOwn(aliases, name)) return argv;
  const expansion = expandAlias(name, aliases[name]!, args);
  return expansion.kind === 'shell' ? runShellAlias(name, expansion.script, expansion.args, proc) : expansion.argv;
}

/** Runs tkt with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[], proc: ProcessLike): Promise<number> {
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
  const onStdoutError = (error: Error) => {
    if (!isClosedPipe(error)) return;
    outputClosed = true;
    state.stop.abort();
  };
  proc.on('SIGINT', onInterrupt);
  proc.on('SIGTERM', onTerminate);
  proc.stdout.on('error', onStdoutError);
  let code: number = ExitCode.ok;
  const program = createProgram(proc);
  try {
    const expanded = await withAlias(argv, proc);
    if (typeof expanded === 'number') return expanded;
    registerCommands(program, createProcessHost(proc, state), await loadCommands(commandsRun(expanded, program)));
    await program.parseAsync(expanded, { from: 'user' });
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by the stdout error handler while the command runs
    if (outputClosed || error instanceof OutputClosedError) return ExitCode.ok;
    code = error instanceof InterruptedError && received !== undefined ? SIGNAL_EXIT_CODES[received] : runExitCode(error);
    // commander has already printed its own usage errors.
    if (!(error instanceof CommanderError)) {
      // Global options are stored on the program as commander parses them, wherever they stood.
      proc.stderr.write(`${errorLines(error, program.opts(), proc.env, received).join('\n')}\n`);
    }
  } finally {
    proc.off('SIGINT', onInterrupt);
    proc.off('SIGTERM', onTerminate);
  }
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by the stdout error handler while the command runs
  return outputClosed ? ExitCode.ok : code;
}

/**
 * The bin's entry. Sets process.exitCode instead of calling process.exit(), so
 * that a large write to a piped stdout drains before the process ends.
 */
export async function main(argv: string[]): Promise<void> {
  process.exitCode = await runCli(argv, process);
  // Everything is recorded; only output is left to drain. A signal now still ends the process
  // at once, with its own code, as Node's default would, but without dying of it.
  for (const [name, code] of Object.entries(SIGNAL_EXIT_CODES)) process.on(name, () => process.exit(code));
}
