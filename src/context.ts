// What a command's run() receives instead of touching process.*.
import type { Readable, Writable } from 'node:stream';
import type { ApiClient } from './api/types.js';
import type { ConfigStore, Session } from './config/types.js';
import type { Output } from './output/format.js';
import type { Prompter } from './prompts/types.js';

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
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
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
   * Runs `use` while a program it starts (show's pager) has the terminal, as git does: a Ctrl-C,
   * which the terminal sends to that program too, is left to it (less stops a search with it);
   * a SIGTERM ends the run (InterruptedError, exit 143) once the program has closed, so it
   * never outlives tkt holding the terminal.
   */
  lendTerminal<T>(use: () => Promise<T>): Promise<T>;
  now(): Date;
  /** The resolved URL, token and user; throws AuthError / UsageError when they are missing. */
  session(): Promise<Session>;
  /** An authenticated client for the session (one keep-alive pool per run). */
  api(): Promise<ApiClient>;
  /** A client without a token, for `tkt login` (and its URL checks). */
  anonymousApi(baseUrl: string): Promise<ApiClient>;
}
