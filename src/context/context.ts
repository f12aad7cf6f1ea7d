// What a command's run() receives instead of touching process.*.
import type { ApiClient } from '../api/types.js';
import type { ConfigStore, Session } from '../config/types.js';
import type { Output } from '../output/types.js';
import type { Prompter } from './prompter.js';
import type { TerminalHolder } from '../util/terminal-handoff.js';
import type { GlobalOptions } from '../config/globals.js';
import type { IO } from '../output/io.js';

export interface Context {
  io: IO;
  globals: GlobalOptions;
  /** Decides human / -q / JSON / --query / CSV output: commands print through it. */
  output: Output;
  env: Readonly<Record<string, string | undefined>>;
  config: ConfigStore;
  prompter: Prompter;
  /** Aborted on Ctrl-C or SIGTERM, the signal's name as its reason; bulk commands stop starting new work. */
  signal: AbortSignal;
  /** Aborted on a second signal: what is in flight is given up (a watch's --exec command ended); without it (tests), never. */
  halt?: AbortSignal;
  /**
   * Runs `use` while a program it starts (the editor, the pager, a shell) has the terminal, as git
   * does: tkt reads nothing from it meanwhile (`holder`, such as the triage screen, lets go of
   * it first and takes it back after), and what the terminal answers the program (a
   * cursor-position report) is dropped when tkt takes it back (util/terminal-handoff.ts). A
   * Ctrl-C, which the terminal sends to that program too, is left to it (less stops a search
   * with it); a SIGTERM ends the run (InterruptedError, exit 143) once the program has closed,
   * so it never outlives tkt holding the terminal. Called again while lent, `use` just runs.
   */
  lendTerminal<T>(use: () => Promise<T>, holder?: TerminalHolder): Promise<T>;
  /**
   * Suspends the run to the shell, as Ctrl-Z does a program at the terminal (job control): the
   * holder (the triage screen) lets go of the terminal, which is left as tkt found it, the process
   * stops until the shell continues it (fg), and the holder takes the terminal back. Resolves
   * then; or at once with why not, when it could not be stopped (no shell with job control).
   */
  suspend(holder: TerminalHolder): Promise<string | undefined>;
  now(): Date;
  /** The resolved URL, token and user; throws AuthError / UsageError when they are missing. */
  session(): Promise<Session>;
  /** An authenticated client for the session (one keep-alive pool per run). */
  api(): Promise<ApiClient>;
  /**
   * The client of a session read otherwise (tkt mcp reads its login afresh for every call): one
   * per service and token for the whole run, so calls with the same login share its pool.
   */
  apiFor(session: Pick<Session, 'baseUrl' | 'token' | 'profile'>): Promise<ApiClient>;
  /** A client without a token, for `tkt login` (and its URL checks). */
  anonymousApi(baseUrl: string): Promise<ApiClient>;
  /**
   * For a command that runs for hours or days (tkt mcp, triage, watch, sandbox): loads now every
   * module of the bundle it may import later, so that a newer tkt installed under it, whose
   * dist/ has other file names, cannot break it (docs/architecture.md, "Long-running commands").
   * Called once its options are checked, before its first screen or request.
   */
  loadAhead(): Promise<void>;
  /**
   * A Ctrl-C read as a key by a screen whose terminal is raw (tkt triage) is the run's first
   * SIGINT, as the terminal would have sent it (docs/cli.md section 8): `signal` is aborted, and
   * the next Ctrl-C, a SIGINT again, gives up what is in flight. The command says that it waits.
   */
  interruptedByKey(): void;
}
