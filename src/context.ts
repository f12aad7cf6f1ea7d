// What a command's run() receives instead of touching process.*.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from './api/types.js';
import type { ConfigStore, Session } from './config/types.js';
import type { Output } from './output/format.js';
import type { TerminalSize } from './output/terminal-size.js';
import type { Prompter } from './prompts/types.js';
import type { TerminalHolder } from './util/terminal-handoff.js';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * Colour on stderr (a TTY, or FORCE_COLOR; colour not disabled).
   * Each stream has its own: nothing else decides colour.
   */
  color: boolean;
  /**
   * Progress bars and spinners on stderr: only at a terminal, with colour not disabled.
   * FORCE_COLOR never turns them on: a CI log would keep every frame.
   */
  animate: boolean;
  /** Colour in data on stdout: only when stdout is a TTY (and colour not disabled). */
  stdoutColor: boolean;
  /** The terminal's size now (it follows resizes): $COLUMNS/$LINES, else 80x24, when it reports none. */
  size(): TerminalSize;
  /** stdin and stderr are TTYs and neither --no-input nor CI: commands may ask. */
  canPrompt: boolean;
}

export interface GlobalOptions {
  url: string | undefined;
  profile: string | undefined;
  json: boolean;
  quiet: boolean;
  input: boolean;
  color: boolean;
  /** Seconds per request. */
  timeout: number;
  debug: boolean;
  /** Refetch lookups instead of using the cache. */
  refresh: boolean;
  /** Accept plain http to a non-loopback host for this run (login also saves it in the profile). */
  allowHttp: boolean;
  /** --query EXPR (JMESPath), implies JSON. */
  query?: string | undefined;
  /** With --query: strings bare, arrays one element per line. */
  raw?: boolean | undefined;
  /** --fields, --csv and --columns as typed, on the commands that take them. */
  fields?: string | undefined;
  csv?: boolean | undefined;
  columns?: string | undefined;
}

export interface Context {
  io: IO;
  globals: GlobalOptions;
  /** Decides human / -q / JSON / --query / CSV output: commands print through it. */
  output: Output;
  env: Readonly<Record<string, string | undefined>>;
  config: ConfigStore;
  prompter: Prompter;
  /** Aborted on Ctrl-C; bulk commands stop starting new work. */
  signal: AbortSignal;
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
  now(): Date;
  /** The resolved URL, token and user; throws AuthError / UsageError when they are missing. */
  session(): Promise<Session>;
  /** An authenticated client for the session (one keep-alive pool per run). */
  api(): Promise<ApiClient>;
  /** A client without a token, for `tkt login` (and its URL checks). */
  anonymousApi(baseUrl: string): Promise<ApiClient>;
}
