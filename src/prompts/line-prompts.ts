// The prompts at a dumb terminal (TERM=dumb: Emacs' M-x shell, some IDE consoles, a screen
// reader's plain console), which shows escape sequences as text: each question is written once
// and answered with a line, as a shell's `read` is. Nothing moves the cursor, nothing is drawn
// again, no colour. The line is the terminal's own (cooked mode: it echoes and edits it, and
// Ctrl-C is its SIGINT, which stops the run); only a password is read in raw mode, unechoed.
// Pickers number their choices: a number picks, text narrows the list (ranked as every picker
// ranks what is typed) and picks when one choice is left; the choice picked is then named.
import type { Writable } from 'node:stream';
import type { Choice, Prompter } from '../context/prompter.js';
import { InterruptedError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { foldForMatch } from '../util/fold.js';
import { noAnswer, type TypeAhead } from './typeahead.js';

export interface LinePromptsIO {
  stderr: Writable;
  /** The run's stop signal (SIGTERM, or Ctrl-C as the terminal's SIGINT): the question closes. */
  signal?: AbortSignal;
}

/** A list this long is shown whole; a longer one is narrowed by typing first. */
export const LIST_ALL = 50;

const ENTER = new Set(['\r', '\n']);
/** The end of input where the terminal does not make it one: a password is read in raw mode. */
const CTRL_D = '\u0004';
const BACKSPACE = new Set(['\u007f', '\b']);

/** The choices that `term` matches, the best first (searchMatches). */
type Search = (choices: readonly { name: string; description?: string | undefined }[], term: string) => number[];

/** "Title: ", "Delete ticket #7? ": a question that ends in its own mark keeps it. */
function question(message: string): string {
  return /[?:]$/.test(message) ? `${message} ` : `${message}: `;
}

function numbered<T>(choices: readonly Choice<T>[]): string {
  return choices.map((choice, index) => `${index + 1}. ${choice.name}${choice.description === undefined ? '' : ` - ${choice.description}`}\n`).join('');
}

export function createLinePrompts(typeAhead: TypeAhead, io: LinePromptsIO, search: Search): Omit<Prompter, 'editor'> {
  const input = typeAhead.input as TypeAhead['input'] & { setRawMode?(raw: boolean): unknown };
  /** The last line ended with \r: a \n right after it is the same Enter (a terminal that sends both). */
  let afterCR = false;

  /** Writes `prompt` and reads one line; `hidden`: in raw mode, nothing echoed. */
  function readLine(prompt: string, hidden = false): Promise<string> {
    return typeAhead.during(
      (interrupted) =>
        new Promise<string>((resolve, reject) => {
          const signal = io.signal === undefined ? interrupted : AbortSignal.any([io.signal, interrupted]);
          let line = '';
          const finish = () => {
            input.off('data', onData);
            input.off('end', onEnd);
            input.pause();
            signal.removeEventListener('abort', onAbort);
            if (hidden) input.setRawMode?.(false);
          };
          const closed = (why: Error) => {
            finish();
            // The question's line ends: what follows (the error, the shell) starts a line of its own.
            io.stderr.write('\n');
            reject(why);
          };
          // A Ctrl-Z too (typeahead.ts): the type-ahead reads its reason from its own signal.
          const onAbort = () => closed(new InterruptedError());
          // The input ended (Ctrl-D at the cooked line, a closed terminal): no answer comes.
          const onEnd = () => closed(noAnswer());
          // The type-ahead gives one key (a character, or a key's escape sequence) at a time.
          const onData = (chunk: Buffer | string) => {
            const key = String(chunk);
            const skipped = afterCR && key === '\n';
            afterCR = false;
            if (skipped) return;
            if (ENTER.has(key)) {
              afterCR = key === '\r';
              finish();
              // Raw mode: the terminal echoed no Enter either.
              if (hidden) io.stderr.write('\n');
              resolve(line);
            } else if (key === CTRL_D && hidden && line === '') closed(noAnswer());
            else if (BACKSPACE.has(key)) line = Array.from(line).slice(0, -1).join('');
            // Arrows and other keys that are no text are not part of the answer.
            else if (!/^[\u0000-\u001f]/.test(key)) line += key;
          };
          if (signal.aborted) return reject(new InterruptedError());
          if (input.readableEnded) return reject(noAnswer());
          signal.addEventListener('abort', onAbort, { once: true });
          input.once('end', onEnd);
          if (hidden) input.setRawMode?.(true);
          io.stderr.write(prompt);
          input.on('data', onData);
          input.resume();
        }),
      // The terminal edits the line and sends it whole at Enter: an Esc comes with it, too late to cancel.
      'typed',
    );
  }

  /**
   * The choice a number or part of a name picked, named on a line of its own ("Site: Head
   * Office"), as a full terminal's "✔ Site Head Office" does: the echoed "7" does not say what
   * was chosen (a screen reader reads only that). A name typed whole needs no second line.
   */
  function chosen<T>(message: string, choice: Choice<T>): T {
    io.stderr.write(`${question(message)}${choice.name}\n`);
    return choice.value;
  }

  async function pick<T>(message: string, choices: readonly Choice<T>[], initial?: T): Promise<T> {
    const fallback = choices.find((choice) => choice.value === initial);
    let shown: readonly Choice<T>[] = [];
    if (choices.length <= LIST_ALL) {
      shown = choices;
      io.stderr.write(`${message}\n${numbered(shown)}`);
    } else io.stderr.write(`${message} (${choices.length} choices: type part of a name to list the ones that match)\n`);
    // Enter's choice, as `(default: Open)`; one named in parentheses, `(none)`, without a second pair.
    const byDefault = fallback === undefined ? '' : ` (default: ${fallback.name.replace(/^\((.*)\)$/, '$1')})`;
    for (;;) {
      const hint = `${shown.length > 0 ? 'Number or name' : 'Name'}${byDefault}: `;
      const answer = (await readLine(hint)).trim();
      if (answer === '') {
        if (fallback !== undefined) return fallback.value;
        io.stderr.write(`An answer is needed: ${shown.length > 0 ? 'type a number from the list, or part of a name' : 'type part of a name'}.\n`);
        continue;
      }
      const number = /^\d+$/.test(answer) ? Number(answer) : undefined;
      const byNumber = number === undefined ? undefined : shown[number - 1];
      if (byNumber !== undefined) return chosen(message, byNumber);
      const matching = search(choices, answer).map((index) => choices[index]!);
      const exact = matching.filter((choice) => foldForMatch(choice.name) === foldForMatch(answer));
      if (exact.length === 1) return exact[0]!.value;
      if (matching.length === 1) return chosen(message, matching[0]!);
      if (matching.length === 0) {
        io.stderr.write(`No choice matches "${answer}"${number === undefined || shown.length === 0 ? '' : ` and the list has no number ${answer}`}.\n`);
        continue;
      }
      shown = matching.slice(0, LIST_ALL);
      const more = matching.length - shown.length;
      io.stderr.write(`${matching.length} match "${answer}":\n${numbered(shown)}${more > 0 ? `and ${more} more: type more of the name\n` : ''}`);
    }
  }

  /** Answers read until `validate` takes one; what it says of the others, each on a line of its own. */
  async function untilValid(read: () => Promise<string>, validate: ((value: string) => true | string) | undefined): Promise<string> {
    for (;;) {
      const answer = await read();
      const valid = validate?.(answer) ?? true;
      if (valid === true) return answer;
      io.stderr.write(`${valid}\n`);
    }
  }

  return {
    input: ({ message, default: initial, validate }) =>
      untilValid(async () => {
        const typed = await readLine(question(initial === undefined || initial === '' ? message : `${message} (default: ${sanitizeInline(initial)})`));
        return typed === '' && initial !== undefined ? initial : typed;
      }, validate),
    password: ({ message, validate }) => untilValid(() => readLine(question(message), true), validate),
    async confirm({ message, default: initial = true }) {
      for (;;) {
        const answer = (await readLine(`${message} ${initial ? '[Y/n]' : '[y/N]'} `)).trim().toLowerCase();
        if (answer === '') return initial;
        if (answer === 'y' || answer === 'yes') return true;
        if (answer === 'n' || answer === 'no') return false;
        io.stderr.write('Answer y (yes) or n (no).\n');
      }
    },
    select: ({ message, choices, default: initial }) => pick(message, choices, initial),
    search: ({ message, choices, default: initial }) => pick(message, choices, initial),
  };
}
