// Lending the terminal to a program tkt starts (the editor, the pager, a shell) and taking it
// back: the one way every such program gets it (Context.lendTerminal).
//
// Before it starts, tkt lets go: a full-screen holder (the triage screen) stops drawing and
// reading, raw mode is left, and stdin stops being read. A listener removed is not enough: Node
// keeps reading a TTY it has started reading, and what it reads never reaches the program (a
// key typed in vim went to tkt). After the program has exited, raw mode comes back at once (so
// nothing the terminal sends is echoed or held for a line), the input is read up to the
// terminal's answer to a status request of tkt's, and the terminal's own answers in it are
// dropped (the cursor-position report an editor asked for on its way out); the keys are put
// back for whoever reads next (a prompt, the holder), and the holder draws again.
import type { Readable, Writable } from 'node:stream';
import { BRACKETED_PASTE_OFF, keysOnly } from './terminal-input.js';

/** What holds the terminal while tkt runs, such as a full-screen UI: let go before a program starts, taken back after. */
export interface TerminalHolder {
  /** Stops drawing and reading. */
  release(): Promise<void>;
  /** Reads and draws again. */
  retake(): void;
}

interface TerminalInput extends Readable {
  isTTY?: boolean;
  isRaw?: boolean;
  setRawMode?(raw: boolean): unknown;
}

export interface TerminalStreams {
  stdin: Readable;
  stdout: Writable & { isTTY?: boolean };
  /** false at a dumb terminal (TERM=dumb), which shows escapes as text: none is written to it (IO.cursorControl). */
  cursorControl?: boolean;
}

// A program that ends without undoing these (killed, crashed) would leave its pastes marked and
// focus changes typed into the next reader; a holder that wants them turns them on again.
const FOCUS_REPORTING_OFF = '\x1b[?1004l';

/** After one turn of the event loop: what was waiting on a file descriptor being read has been read. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/**
 * Stops reading stdin. A TTY's stream stops reading when paused (Node's process.stdin), on the
 * tick after pause(), which says so only once no 'readable' listener is left: the holder's was
 * removed just now, and the stream takes note of it on the next tick. Whoever reads next starts
 * the reading again only once it has stopped.
 */
async function stopReading(stdin: Readable): Promise<void> {
  await nextTurn();
  stdin.pause();
  await nextTurn();
}

// The terminal's status, asked for after the program: terminals answer in order, so once its
// answer (ESC[0n, or ESC[3n) is in, so is every answer the program was owed. A terminal that
// answers nothing holds tkt up this long.
const STATUS_REQUEST = '\x1b[5n';
const STATUS_ANSWER = /\x1b\[[03]n/;
const STATUS_WAIT_MS = 500;

/**
 * Reads the input that came until the terminal's status answer (or, with no way to ask,
 * what is waiting now), and puts back only its keys and pastes.
 */
async function dropTerminalReplies(stdin: Readable, ask: Writable | undefined): Promise<void> {
  const chunks: Buffer[] = [];
  let answered = () => {};
  const answer = new Promise<void>((resolve) => (answered = resolve));
  const gather = (chunk: Buffer | string) => {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    if (STATUS_ANSWER.test(Buffer.concat(chunks).toString('latin1'))) answered();
  };
  stdin.on('data', gather);
  stdin.resume();
  if (ask === undefined) await nextTurn();
  else {
    ask.write(STATUS_REQUEST);
    const timer = setTimeout(answered, STATUS_WAIT_MS);
    await answer;
    clearTimeout(timer);
  }
  stdin.off('data', gather);
  await stopReading(stdin);
  const keys = keysOnly(Buffer.concat(chunks).toString('utf8'));
  if (keys !== '') stdin.unshift(keys);
}

/** Stopping the process as a shell's job control does (the real process's): by its ID, with signals. */
export interface JobControl {
  pid: number;
  kill(pid: number, signal: 'SIGTSTP' | 'SIGWINCH'): unknown;
  once(event: 'SIGCONT', listener: () => void): unknown;
  removeListener(event: 'SIGCONT', listener: () => void): unknown;
}

/**
 * Stops the process with SIGTSTP, as the terminal's Ctrl-Z does to a program in cooked mode,
 * until the shell continues it (fg); false when nothing stopped it. Stopped, the process runs on
 * only once continued, with the SIGCONT already there to be read within a turn of the loop. A
 * process group with no shell of the session's to continue it (an orphaned one: tkt run by tmux or
 * `sh -c` without job control) is not stopped: the kernel discards SIGTSTP there.
 */
async function stopUntilContinued(job: JobControl): Promise<boolean> {
  const heard = { continued: false };
  const onContinue = () => {
    heard.continued = true;
  };
  job.once('SIGCONT', onContinue);
  try {
    job.kill(job.pid, 'SIGTSTP');
    await nextTurn();
  } catch {
    // No such signal on this system (Windows).
  } finally {
    job.removeListener('SIGCONT', onContinue);
  }
  // Resized while stopped, the terminal told the shell, not tkt: its size read again, as on a resize.
  if (heard.continued) job.kill(job.pid, 'SIGWINCH');
  return heard.continued;
}

/**
 * Suspends the process to the shell (Ctrl-Z in a full-screen program, as less and vim do): the
 * holder lets go (and leaves the alternate screen), the terminal is left as tkt found it and
 * unread, the process stops; continued, it takes the terminal back as after a program lent it.
 * False when it could not be stopped: the holder has the terminal back at once.
 */
export async function suspendToShell(terminal: TerminalStreams, job: JobControl, holder: TerminalHolder): Promise<boolean> {
  return await handOverTerminal(terminal, () => stopUntilContinued(job), holder);
}

/** Runs `use`, which starts a program on the terminal and resolves once it has exited, with the terminal lent to it. */
export async function handOverTerminal<T>(terminal: TerminalStreams, use: () => Promise<T>, holder?: TerminalHolder): Promise<T> {
  const stdin = terminal.stdin as TerminalInput;
  const setRawMode = stdin.isTTY === true ? stdin.setRawMode?.bind(stdin) : undefined;
  await holder?.release();
  const wasRaw = stdin.isRaw === true;
  const controls = terminal.stdout.isTTY === true && terminal.cursorControl !== false ? terminal.stdout : undefined;
  setRawMode?.(false);
  await stopReading(stdin);
  try {
    return await use();
  } finally {
    if (setRawMode !== undefined) {
      setRawMode(true);
      await dropTerminalReplies(stdin, controls);
      // The holder reads keys as they are typed; anyone else gets the terminal as it was.
      setRawMode(holder !== undefined || wasRaw);
    }
    controls?.write(BRACKETED_PASTE_OFF + FOCUS_REPORTING_OFF);
    holder?.retake();
  }
}
