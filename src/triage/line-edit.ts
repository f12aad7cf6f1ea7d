// The line typed in a prompt, a picker or the filter, with its cursor, and readline's keys that
// edit it (README, Triage): Left and Right move, Home/End and Ctrl-A/Ctrl-E to the ends,
// Backspace and Delete delete before and under the cursor, Ctrl-U to the start, Ctrl-K to the
// end, Ctrl-W the word before the cursor. The cursor moves and deletes a whole character as the
// terminal draws it (a grapheme: an emoji with its modifiers, a letter with its accents), never
// half of one.
import { graphemeAt } from '../output/width.js';
import type { KeyPress } from '../util/terminal-input.js';

export interface Line {
  readonly text: string;
  /** In UTF-16 units, between two graphemes. */
  readonly cursor: number;
}

export const lineOf = (text: string): Line => ({ text, cursor: text.length });

/** Where the character before `at` starts (`at` itself at the start). */
const previousStart = (text: string, at: number) => (at === 0 ? 0 : graphemeAt(text, at - 1).start);
/** Where the character from `at` ends (`at` itself at the end). */
const nextEnd = (text: string, at: number) => (at >= text.length ? at : graphemeAt(text, at).end);

/** Where the word before `at` starts: blanks skipped back, then what is not blank (readline's unix-word-rubout). */
function wordStart(text: string, at: number): number {
  let start = at;
  const blankBefore = () => /^\s$/u.test(text.slice(previousStart(text, start), start));
  while (start > 0 && blankBefore()) start = previousStart(text, start);
  while (start > 0 && !blankBefore()) start = previousStart(text, start);
  return start;
}

const without = ({ text }: Line, from: number, to: number): Line => ({ text: text.slice(0, from) + text.slice(to), cursor: from });

/** `text` typed or pasted at the cursor. */
export const insertText = (line: Line, text: string): Line => ({
  text: line.text.slice(0, line.cursor) + text + line.text.slice(line.cursor),
  cursor: line.cursor + text.length,
});

/** The line after an editing key; undefined for any other key. */
export function editLine(line: Line, input: string, key: KeyPress): Line | undefined {
  const { text, cursor } = line;
  const ctrl = key.ctrl === true ? input : undefined;
  if (key.leftArrow === true) return { text, cursor: previousStart(text, cursor) };
  if (key.rightArrow === true) return { text, cursor: nextEnd(text, cursor) };
  if (key.home === true || ctrl === 'a') return { text, cursor: 0 };
  if (key.end === true || ctrl === 'e') return { text, cursor: text.length };
  if (key.backspace === true) return without(line, previousStart(text, cursor), cursor);
  if (key.delete === true) return without(line, cursor, nextEnd(text, cursor));
  if (ctrl === 'u') return without(line, 0, cursor);
  if (ctrl === 'k') return without(line, cursor, text.length);
  if (ctrl === 'w') return without(line, wordStart(text, cursor), cursor);
  return undefined;
}
