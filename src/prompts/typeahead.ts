// Keys typed ahead of the prompts reach the next prompt, as at a shell. Each @inquirer prompt
// opens its own readline on its input, and between two prompts nothing is listening: a prompt
// ignores the rest of a chunk after the Enter that ends it, and drops what was waiting when it
// starts (inquirer discards a TTY's stale input). So the prompts never read the terminal
// themselves: they read a stream fed here one key at a time, and only while a prompt is open;
// the keys it did not take wait for the next one. Ctrl-C is not given: it interrupts the prompt
// (inquirer.ts erases a prompt interrupted, which inquirer alone would leave drawn).
import { PassThrough, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InterruptedError } from '../errors.js';
import { createTerminalInputReader } from '../util/terminal-input.js';

const CTRL_C = '\u0003';

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
   * aborts `interrupted`.
   */
  during<T>(show: (interrupted: AbortSignal) => Promise<T>): Promise<T>;
}

export function createTypeAhead(stdin: TerminalInput): TypeAhead {
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
  /** The prompt open, aborted by a Ctrl-C. */
  let open: AbortController | undefined;
  let feeding = false;

  // One key, then a turn of the event loop: a prompt that the key ends has settled by then
  // (its validation and answer are promise steps), and the keys after it are not given.
  async function feed(): Promise<void> {
    if (feeding) return;
    feeding = true;
    while (open !== undefined && !open.signal.aborted && keys.length > 0) {
      const key = keys.shift();
      if (key === CTRL_C) open.abort(new InterruptedError());
      else input.write(key);
      await nextTurn();
    }
    feeding = false;
  }

  const read = (chunk: Buffer | string) => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (const typed of reader.read(text)) keys.push(...(typed.kind === 'key' ? [typed.sequence] : Array.from(typed.text)));
    void feed();
  };
  stdin.once('end', () => input.end());

  return {
    input,
    async during(show) {
      const prompt = new AbortController();
      open = prompt;
      stdin.on('data', read);
      stdin.resume();
      try {
        const answer = show(prompt.signal);
        void feed();
        return await answer;
      } finally {
        open = undefined;
        stdin.off('data', read);
        stdin.pause();
      }
    },
  };
}
