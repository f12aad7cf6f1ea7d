// What a command registers on, and how its handler is typed: the host (src/process-host.ts)
// implements it for the real process.
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../context/context.js';
import type { UploadProgress } from '../output/waiting.js';

/** A command's handler: its arguments and its own options, typed from its definition, and the run's Context. */
export type Handler<Args extends unknown[], Opts extends OptionValues> = (args: Args, opts: Opts, ctx: Context) => Promise<void>;

/** What commands register on: the program, whatever its global options. */
export type Program = CommandUnknownOpts;

export interface ActionOptions {
  /**
   * The command stops by itself on Ctrl-C (bulk runs, the sandbox, a change of one ticket sent
   * through cmdutil/send-change.ts, whose answer is awaited and told); otherwise Ctrl-C exits at
   * once. A graceful run that finishes after the signal still exits 130 or 143 (src/cli-run.ts).
   */
  graceful?: boolean;
  /**
   * With graceful: the command only reads, so the first Ctrl-C also gives up the requests in
   * flight (no answer is awaited that nobody will see, nothing can be in doubt); the command
   * still closes its output before the run ends (tkt list --all --json).
   */
  readsOnly?: boolean;
  /**
   * With graceful: the first Ctrl-C lets reads in flight answer too, as the command tells what it
   * read (tkt mcp's calls, the triage screen's action). Otherwise a read is given
   * up at once (it changes nothing, and the change it was for is not sent): only changes already
   * sent are waited for.
   */
  awaitsReads?: boolean;
  /**
   * At a terminal, a request the service has not answered within a second says so on stderr
   * (output/waiting.ts) until it answers, off the terminal while a prompt, the editor or the pager
   * has it; the default. False for a command that draws its own screen or speaks a protocol on
   * its streams (triage, watch, mcp).
   */
  saysWaiting?: boolean;
  /** The same line says how far an upload's files are sent (tkt attach: output/upload-progress.ts). */
  uploadProgress?: UploadProgress;
  /**
   * The handler reads the program it was registered on (help, completion scripts): commander
   * builds it for every run of the command, never the quick path (docs/architecture.md).
   */
  readsProgram?: boolean;
  /**
   * The command may wait long without writing (tkt watch between polls): a piped stdout whose
   * reader goes away is noticed without a write (src/util/pipe-reader.ts), not at the next one.
   */
  waitsQuietly?: boolean;
  /**
   * The options (by attribute) whose empty value means something: any other option given an
   * empty or blank value is exit 2 naming it, before the handler runs (README: Text values).
   */
  mayBeEmpty?: readonly string[];
  /**
   * The command reads or writes the settings file itself (login, config, alias...): one it cannot
   * read stops it, even when TKT_URL and TKT_TOKEN spare every other command (sparesSettingsFile).
   */
  keepsSettings?: boolean;
}

/** The ActionOptions of a command every subcommand of which reads or writes the settings file itself (config, alias). */
export const KEEPS_SETTINGS: ActionOptions = { keepsSettings: true };

export interface CommandHost {
  /** Runs `handler` when `command` is called, with the Context built from the global options. */
  action<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(
    command: Command<Args, Opts, Globals>,
    handler: Handler<Args, Opts>,
    options?: ActionOptions,
  ): void;
}
