// The shell every run of a command line goes through, whichever way its command is found (the
// full CLI, src/program.ts, or a command's own bundle, src/command-bundle.ts): arguments that are
// not UTF-8, signals, a closed stdout, and the one place that maps errors to an `error:` line and
// an exit code (docs/cli.md section 5).
import { closeSync, fstatSync } from 'node:fs';
import { createRunState, tookTerminalInput, type CommandAction, type ProcessLike, type RunState, type StopSignal } from './process-host.js';
import type { CommandModule } from './commands/index.js';
import type { Program } from './commands/host.js';
import { ExitCode, FailedBeforeOutputClosedError, InterruptedError, OutputClosedError, TktError, exitCodeOf, howToGiveUp, stoppedHow } from './errors.js';
import { cleanErrorText, errorHint, type LoginGlobals } from './cmdutil/error-text.js';
import { isClosedPipe, pastFailureError, rememberFailures } from './output/write.js';
import { whenPipeReaderGone } from './util/pipe-reader.js';
import { isDumbTerminal } from './util/dumb-terminal.js';
import { buildChangedLines } from './util/build-changed.js';
import type { ArgvTable } from './cmdutil/argv-table.js';

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
  const changed = buildChangedLines(error);
  if (changed !== undefined) return changed.map(cleanErrorText);
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`error: ${cleanErrorText(message)}`];
  if (debug && error instanceof Error && error.stack !== undefined) lines.push(cleanErrorText(error.stack));
  else lines.push('hint: run again with --debug for details');
  return lines;
}

// SIGHUP (a closed terminal) ends a run as SIGTERM does: its temporary files removed, its drafts kept.
const SIGNAL_EXIT_CODES: Readonly<Record<StopSignal, number>> = { SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated, SIGHUP: ExitCode.hungUp };
// A prompt may have hidden the cursor when a signal ends the run at once.
const SHOW_CURSOR = '\u001b[?25h';
/** A signal repeated within this is the same one sent twice at once (README, Interruption). */
const SAME_SIGNAL_MS = 50;

/**
 * Removes bin/tkt.js's handlers of a signal that comes while Node loads tkt, once the run's own
 * are set (README, Interruption); a run without the bin (a test) has none.
 */
function handOverEarlySignals(): void {
  const handOver = (globalThis as Record<symbol, unknown>)[Symbol.for('tkt.handOverSignals')];
  if (typeof handOver === 'function') (handOver as () => void)();
}

/**
 * What a line written as a signal comes starts with: a line drawn in place (the wait notice, which
 * ends, a progress bar, which is drawn again under it), with the terminal's "^C" on it, gives way
 * to it; otherwise it starts a line of its own after the "^C" (a piped stderr has none).
 */
function lineAfterSignal(proc: ProcessLike, state: RunState): string {
  let erased = state.waitNotice?.end() === true;
  for (const line of state.liveLines) erased = line.erase() || erased;
  // The command's own break after the "^C" may have come first, as the signal reached it (IO.afterEcho).
  return erased || state.afterEcho.lineStarted || proc.stderr.isTTY !== true ? '' : '\n';
}

/**
 * At the first signal, while requests are in flight: the run waits for them (docs/cli.md
 * section 8), up to --timeout, saying so at once rather than looking hung, and how to end it now.
 */
function sayWaiting(proc: ProcessLike, state: RunState, name: StopSignal): void {
  const { count, timeoutSeconds } = state.requests;
  const again = howToGiveUp(name, proc.stdin.isTTY === true || proc.stderr.isTTY === true);
  const requests = count === 1 ? '1 request' : `${count} requests`;
  proc.stderr.write(`${lineAfterSignal(proc, state)}${stoppedHow(name)}: waiting up to ${timeoutSeconds}s for ${requests} in flight; ${again}\n`);
}

/** How a run finds and runs its command, inside the shell of runCommandLine. */
export interface CommandLineRun {
  /** The command line as typed (before an alias is expanded), checked as UTF-8 before anything runs (README: Text values). */
  argv: readonly string[];
  /** Its grammar, when the run has it: an argument that is not UTF-8 is named by its option. */
  argvTable?: ArgvTable | undefined;
  /**
   * Runs the command; a number is the run's exit code, decided without a command (a shell
   * alias). `programOptions` gives the program's options as soon as they are known: the error
   * lines read --debug and --profile there before a command runs.
   */
  run(state: RunState, programOptions: (read: () => Record<string, unknown>) => void): Promise<number | undefined>;
  /** The exit code of an error that was printed already (commander's usage errors), or undefined. */
  printedErrorCode?(error: unknown): number | undefined;
  /** A line said after a usage error (exit 2): where the command line came from (an alias), or undefined. */
  usageOrigin?(): string | undefined;
}

/** Runs a command line as `how` says and returns the exit code. */
export async function runCommandLine(proc: ProcessLike, how: CommandLineRun): Promise<number> {
  const state = createRunState();
  // SIGINT, SIGTERM and SIGHUP alike (docs/cli.md section 8); the first one to come names the exit code.
  let received: StopSignal | undefined;
  let signals = 0;
  let firstAt = 0;
  const onSignal = (name: StopSignal) => {
    // GNU timeout sends its SIGTERM to tkt and then to its process group: one stop, not a
    // second signal that would give up the requests in flight. A person's second Ctrl-C is slower.
    if (signals === 1 && name === received && Date.now() - firstAt < SAME_SIGNAL_MS) return;
    if (signals === 0) firstAt = Date.now();
    if (state.terminalLent) {
      // The pager has the terminal: a Ctrl-C reached it too and is its to handle; a SIGTERM
      // ends the run once the pager has closed (Context.lendTerminal), as git does.
      if (name === 'SIGINT') return;
      received ??= name;
      return state.stop.abort(name);
    }
    received ??= name;
    signals += 1;
    // This signal's "^C" has no line after it yet.
    state.afterEcho.lineStarted = false;
    // The signal's name is the reason: a summary says how the run was stopped (stoppedHow).
    if (state.graceful && signals === 1) {
      // Uploads still being sent end at this abort.
      state.stop.abort(name);
      if (state.readsOnly) return state.halt.abort(name);
      // Reads end at this one (where the command awaits none): only the changes left are waited for.
      state.endReads.abort(name);
      if (state.requests.count > 0) sayWaiting(proc, state, name);
      return;
    }
    // The second: requests in flight are given up, and their rows or IDs recorded as in doubt.
    if (state.graceful && signals === 2) return state.halt.abort(name);
    // Nothing to wind down (or a third signal): leave now, as a shell user expects.
    if (proc.stderr.isTTY === true && !isDumbTerminal(proc.env)) proc.stderr.write(SHOW_CURSOR);
    proc.stderr.write(`${lineAfterSignal(proc, state)}error: ${stoppedHow(received)}\n`);
    proc.exit(SIGNAL_EXIT_CODES[received]);
  };
  const onInterrupt = () => onSignal('SIGINT');
  const onTerminate = () => onSignal('SIGTERM');
  const onHangUp = () => onSignal('SIGHUP');
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
  // A Ctrl-C read as a key (the triage screen, its terminal raw): the first SIGINT, whose wait the
  // command says itself. No signal was sent to the process group: the next SIGINT, however soon, is a second.
  state.interruptedByKey = () => {
    if (signals > 0) return;
    received = 'SIGINT';
    signals = 1;
    state.stop.abort('SIGINT');
  };
  // The kernel's SIGHUP comes with it; within SAME_SIGNAL_MS, the one that comes second is the same stop.
  let terminalLost = false;
  state.terminalGone = () => {
    // No modes to put back: Node 20's restore at exit would fail with EIO and abort the process
    // (exit 134), also where the run ends at once (a command with nothing to wind down).
    if (proc === process && !terminalLost) process.once('exit', leaveTerminalModes);
    terminalLost = true;
    if (received === undefined) onHangUp();
  };
  proc.on('SIGINT', onInterrupt);
  proc.on('SIGTERM', onTerminate);
  proc.on('SIGHUP', onHangUp);
  handOverEarlySignals();
  proc.stdout.on('error', onStdoutError);
  // Any other failure of stdout (a full disk), should no write of the command have met it: what
  // it wrote last may have failed after its write returned. A closed pipe is no failure
  // (onOutputClosed): a run stopped by a signal keeps its code.
  rememberFailures(proc.stdout);
  const stdoutFailure = () => (outputClosed ? undefined : pastFailureError(proc.stdout));
  let code: number = ExitCode.ok;
  // The program's options as commander stores them: the error lines read them before a command runs.
  let programOpts = (): Record<string, unknown> => ({});
  try {
    // A byte that is not UTF-8 came as U+FFFD: one typed as such is told from it only then.
    if (how.argv.some((word) => word.includes('\uFFFD'))) (await import('./cmdutil/argument-encoding.js')).assertUtf8Arguments(how.argv, how.argvTable);
    const decided = await how.run(state, (read) => (programOpts = read));
    if (decided !== undefined) return decided;
    const failure = stdoutFailure();
    if (failure !== undefined) throw failure;
    // A graceful command finished what was in flight when the signal came and told its outcome
    // (a create's new ID, a watch's events): the run still ends as stopped (docs/cli.md section 8).
    if (received !== undefined) {
      proc.stderr.write(`error: ${stoppedHow(received)}\n`);
      code = SIGNAL_EXIT_CODES[received];
    }
  } catch (caught) {
    // The help commander printed (exit 0) may have failed as any output.
    const error = (how.printedErrorCode?.(caught) === ExitCode.ok ? stdoutFailure() : undefined) ?? caught;
    // A closed stdout ends the run quietly, but does not hide a failure that came before it.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by the stdout error handler while the command runs
    if ((outputClosed && !(error instanceof FailedBeforeOutputClosedError)) || error instanceof OutputClosedError) return ExitCode.ok;
    // commander has already printed its own usage errors.
    const printed = how.printedErrorCode?.(error);
    // Stopped by a signal, the run exits with its code whatever else failed; a failure that is
    // not the stop itself (a change in doubt, a refusal) is told, then the stop.
    code = received !== undefined ? SIGNAL_EXIT_CODES[received] : (printed ?? exitCodeOf(error));
    const lines = printed === undefined ? errorLines(error, state.options ?? programOpts(), proc.env, received) : [];
    const origin = code === ExitCode.usage ? how.usageOrigin?.() : undefined;
    if (origin !== undefined) lines.push(cleanErrorText(origin));
    if (received !== undefined && !(error instanceof InterruptedError)) lines.push(`error: ${stoppedHow(received)}`);
    // The run's options, wherever they stood, once its command ran; before that, the program's.
    if (lines.length > 0) proc.stderr.write(`${lines.join('\n')}\n`);
  } finally {
    proc.off('SIGINT', onInterrupt);
    proc.off('SIGTERM', onTerminate);
    proc.off('SIGHUP', onHangUp);
    stopLookingForReader?.();
  }
  return code;
}

/**
 * The handler `module` registers. Its definition is replayed on a stand-in that only chains
 * (every method returns the stand-in): what the definition says, the table already holds.
 */
export function registeredAction(module: CommandModule): CommandAction | undefined {
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

/**
 * Node puts back, as it exits, the terminal modes it found on fds 0-2 at its start. Started beside
 * a pager (`tkt list --all | less`), it found less's raw mode and put it back after less had
 * restored the terminal (no echo at the prompt), or put the shell's back under a less still
 * running. Node skips a closed fd: a run that changed no mode closes its terminal's (character
 * devices: a terminal, or /dev/null, whose writes are done) as the process exits. It must stay
 * the last 'exit' listener (settleProcess adds it at the very end): nothing may write after it;
 * but for a terminal that hung up, where nothing can be written anyway (state.terminalGone).
 */
function leaveTerminalModes(): void {
  for (const fd of [0, 1, 2]) {
    try {
      if (fstatSync(fd).isCharacterDevice()) closeSync(fd);
    } catch {
      // Closed already.
    }
  }
}

/**
 * Ends a run of the bin with `code`. Sets process.exitCode instead of calling process.exit(), so
 * that a large write to a piped stdout drains before the process ends.
 */
export function settleProcess(code: number): void {
  process.exitCode = code;
  if (!tookTerminalInput()) process.once('exit', leaveTerminalModes);
  // Everything is recorded; only output is left to drain. A signal now still ends the process
  // at once, with its own code, as Node's default would, but without dying of it.
  for (const [name, signalCode] of Object.entries(SIGNAL_EXIT_CODES)) process.on(name, () => process.exit(signalCode));
}
