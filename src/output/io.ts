// The streams of a run and what they are: terminals or not, colour, size.
import type { Readable, Writable } from 'node:stream';
import type { TerminalSize } from './terminal-size.js';

export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /**
   * Colour on stderr (a TTY that is not TERM=dumb, or FORCE_COLOR; colour not disabled).
   * Each stream has its own: nothing else decides colour.
   */
  color: boolean;
  /**
   * Progress bars and spinners on stderr: only at a terminal that moves its cursor
   * (cursorControl), with colour not disabled. FORCE_COLOR never turns them on: a CI log would
   * keep every frame.
   */
  animate: boolean;
  /**
   * The terminal, if there is one, acts on the escape sequences that move the cursor, draw a
   * screen or notify (not TERM=dumb, which shows them as text): progress bars, spinners, the pager
   * and triage's screen need it. Colour is decided apart (color, stdoutColor).
   */
  cursorControl: boolean;
  /** Colour in data on stdout: only when stdout is a TTY and colour is allowed on stderr (above). */
  stdoutColor: boolean;
  /** The terminal's size now (it follows resizes): $COLUMNS/$LINES, else 80x24, when it reports none. */
  size(): TerminalSize;
  /** stdin and stderr are TTYs and neither --no-input nor CI: commands may ask. */
  canPrompt: boolean;
  /**
   * TKT_SCREEN_READER (util/dumb-terminal.ts): questions are asked line by line, as at a dumb
   * terminal (a reader reads a drawn picker again whole at each arrow key), nothing animates, and
   * triage keeps the terminal's cursor on the highlighted row.
   */
  screenReader: boolean;
  /**
   * The lines drawn in place on stderr that show now (progress.ts, TransientLine): a line the run
   * prints at a signal takes their place (src/cli-run.ts), as the terminal's "^C" lands on them.
   */
  liveLines?: Set<LiveLine>;
  /**
   * Whether a line was started after the terminal's "^C" of the run's latest signal: set by the
   * break below, read by the line the run itself says at the signal (src/cli-run.ts), so that
   * the two do not leave a blank line between them.
   */
  afterEcho?: { lineStarted: boolean };
}

/** A line drawn in place on stderr (progress.ts, TransientLine), as what else writes to the terminal sees it. */
export interface LiveLine {
  /** Takes the line off the screen; true when it was showing. */
  erase(): boolean;
  /** Draws again the text last drawn, after an erase. */
  restore(): void;
}

/**
 * When `signal` aborts with SIGINT at a terminal, which has echoed "^C", a line break on stderr:
 * what follows (the poll in progress, the error line) starts on a line of its own. For commands
 * that Ctrl-C usually ends (watch, sandbox), and a change whose answer is awaited after it (a
 * single one: a progress bar redraws its own line). A line drawn in place that shows (the wait
 * notice of the change, or of its upload) has the "^C" on it and is erased, with it, before
 * anything else is printed: no break, which would leave that line on the screen. Returns the way
 * to stop listening.
 */
export function breakLineAfterCtrlC(io: IO, signal: AbortSignal): () => void {
  const afterCtrlC = () => {
    if (signal.reason !== 'SIGINT' || !io.stderrIsTTY || (io.liveLines?.size ?? 0) > 0) return;
    io.stderr.write('\n');
    if (io.afterEcho !== undefined) io.afterEcho.lineStarted = true;
  };
  signal.addEventListener('abort', afterCtrlC, { once: true });
  return () => signal.removeEventListener('abort', afterCtrlC);
}
