// Keys typed ahead of the prompts reach the next prompt, as at a shell. Each @inquirer prompt
// opens its own readline on its input, and between two prompts nothing is listening: a prompt
// ignores the rest of a chunk after the Enter that ends it, and drops what was waiting when it
// starts (inquirer discards a TTY's stale input). So the prompts never read the terminal
// themselves: they read a stream fed here one key at a time, and only while a prompt is open;
// the keys it did not take wait for the next one. Ctrl-C is not given: it interrupts the prompt
// (inquirer.ts erases a prompt interrupted, which inquirer alone would leave drawn).
//
// Esc is not given either: it does nothing in inquirer, where a person who presses it to get out
// goes on typing into the question (the next shell command ends up as a ticket's title). It
// cancels the question, as it does triage's (README, Interruption): no signal, so not said to be
// interrupted. Esc and a character read together are that character with Alt (Alt-B, a word
// back in readline), given as such. A line the terminal edits itself (line-prompts.ts) has Esc
// as a character of its own.
//
// Ctrl-D is given, as readline's end of input on an empty line: the prompt is then closed
// without an answer (exit 1), where inquirer alone would leave it open and deaf.
//
// Ctrl-Z is not given either: readline's own handling of it leaves the prompt dead after `fg`
// (it pauses its input on SIGCONT and redraws only its own muted line). The prompt is closed
// (and erased), the run suspended to the shell, and on `fg` the same prompt opens again with
// the keys it had been given, so it is drawn anew with what was typed.
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CancelledError, InterruptedError, OperationError } from '../errors.js';
import { createTerminalInputReader } from '../util/terminal-input.js';

const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const CTRL_Z = '\u001a';
const ESC = '\u001b';
/** A question closed by the end of input (Ctrl-D on an empty answer): declined, exit 1. */
export const noAnswer = (): OperationError => new OperationError('no answer: Ctrl-D closed the question');

/** The reason a prompt is closed for Ctrl-Z: it opens again once the run is continued. */
const SUSPENDED = Symbol('suspended');

interface TerminalInput extends Readable {
  isRaw?: boolean;
  setRawMode?(raw: boolean): unknown;
}

export interface TypeAhead {
  /** What the prompts read. Not a TTY (inquirer then starts at once), but it sets the terminal's raw mode. */
  input: Readable;
  /**
   * Shows one prompt, which reads `input`, with the terminal's keys given to it until it settles.
   * `show` must open the prompt before it returns: the keys waiting are given at once. A Ctrl-C
   * aborts `interrupted` (an InterruptedError its reason), and so does Esc (a CancelledError)
   * unless `escape` says it is typed.
   */
  during<T>(show: (interrupted: AbortSignal) => Promise<T>, escape?: EscapeKey): Promise<T>;
}

/** What Esc does at a prompt: it cancels it, or it is typed, on a line the terminal edits itself (line-prompts.ts). */
export type EscapeKey = 'cancels' | 'typed';

/** Text, not a key: what Esc read with it makes Alt and that character. */
const isCharacter = (key: string) => !/^[\u0000-\u001f\u007f]/.test(key);

/**
 * Suspends the run to the shell until it is continued (Context.suspend); without it, Ctrl-Z is
 * ignored, as a prompt has nothing else to do with it.
 */
export type Suspend = () => Promise<unknown>;

export function createTypeAhead(stdin: TerminalInput, suspend?: Suspend): TypeAhead {
  const input = Object.assign(new PassThrough(), {
    setRawMode(raw: boolean) {
      stdin.setRawMode?.(raw);
      return input;
    },
  });
  Object.defineProperty(input, 'isRaw', { get: () => stdin.isRaw === true });
  const decoder = new StringDecoder('utf8');
  const reader = createTerminalInputReader();
  /** Keys read and not yet given to a prompt: one character or escape sequence each. */
  const keys: string[] = [];
  /** The prompt open, aborted by a Ctrl-C, an Esc or a Ctrl-Z. */
  let open: AbortController | undefined;
  let escapeKey: EscapeKey = 'cancels';
  /** The keys given to the prompt open, given again when it opens again after a Ctrl-Z. */
  let given: string[] = [];
  let feeding = false;

  // One key, then a turn of the event loop: a prompt that the key ends has settled by then
  // (its validation and answer are promise steps), and the keys after it are not given.
  async function feed(): Promise<void> {
    if (feeding) return;
    feeding = true;
    while (open !== undefined && !open.signal.aborted && keys.length > 0) {
      const prompt = open;
      const key = keys.shift()!;
      if (key === CTRL_C) prompt.abort(new InterruptedError());
      else if (key === ESC && escapeKey === 'cancels') prompt.abort(new CancelledError());
      else if (key === CTRL_Z) {
        if (suspend !== undefined) prompt.abort(SUSPENDED);
      } else {
        input.write(key);
        given.push(key);
      }
      await nextTurn();
      // Ctrl-D on an empty line closes the prompt's readline (which pauses its input), not the
      // prompt: it would wait for ever, the terminal back in line mode echoing what is typed
      // (a password too). The question is declined: the run ends as declining a confirmation does.
      if (key === CTRL_D && input.isPaused() && !prompt.signal.aborted) prompt.abort(noAnswer());
    }
    feeding = false;
  }

  const read = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let afterEscape = false;
    for (const typed of reader.read(text)) {
      const keysOf = typed.kind === 'key' ? [typed.sequence] : Array.from(typed.text);
      // Esc and a character in one read: that character with Alt, one key (a terminal sends them at once).
      if (afterEscape && typed.kind === 'key' && isCharacter(typed.sequence)) keys.push(`${keys.pop()!}${typed.sequence}`);
      else keys.push(...keysOf);
      afterEscape = typed.kind === 'key' && typed.sequence === ESC;
    }
    void feed();
  };
  stdin.once('end', () => input.end());

  return {
    input,
    async during(show, escape = 'cancels') {
      given = [];
      for (;;) {
        const prompt = new AbortController();
        open = prompt;
        escapeKey = escape;
        stdin.on('data', read);
        stdin.resume();
        try {
          const answer = show(prompt.signal);
          void feed();
          return await answer;
        } catch (error) {
          if (prompt.signal.reason !== SUSPENDED) throw error;
        } finally {
          open = undefined;
          stdin.off('data', read);
          stdin.pause();
        }
        // Not read while suspended: the terminal is the shell's until `fg`.
        await suspend?.();
        keys.unshift(...given);
        given = [];
      }
    },
  };
}
