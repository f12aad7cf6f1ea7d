// Editing the line typed in triage's prompts, pickers and filter: readline's keys, a whole
// character (grapheme) at a time, never half of one.
import { describe, expect, it } from 'vitest';
import { editLine, insertText, type Line } from '../../src/triage/line-edit.js';
import type { KeyPress } from '../../src/util/terminal-input.js';

const BACKSPACE: KeyPress = { backspace: true };
const DELETE: KeyPress = { delete: true };
const LEFT: KeyPress = { leftArrow: true };
const RIGHT: KeyPress = { rightArrow: true };
const ctrl = (letter: string): [string, KeyPress] => [letter, { ctrl: true }];

/** `text` with the cursor where `|` is. */
const at = (marked: string): Line => ({ text: marked.replace('|', ''), cursor: marked.indexOf('|') });
/** The line as `text|rest`. */
const shown = (line: Line | undefined) => (line === undefined ? undefined : `${line.text.slice(0, line.cursor)}|${line.text.slice(line.cursor)}`);
const press = (line: Line, ...keys: (KeyPress | [string, KeyPress])[]) =>
  keys.reduce<Line | undefined>((last, key) => (last === undefined ? undefined : Array.isArray(key) ? editLine(last, ...key) : editLine(last, '', key)), line);
const LONE_SURROGATE = /\p{Cs}/u;

describe('editing a line', () => {
  it.each([
    ['an emoji of two UTF-16 units', 'Done 😀|', 'Done |'],
    ['an emoji with a skin tone', 'ok 👍🏽|', 'ok |'],
    ['emoji joined by ZWJ', 'by 👩‍💻|', 'by |'],
    ['a flag', 'FR 🇫🇷|', 'FR |'],
    ['a letter and its combining accent', 'cafe\u0301|', 'caf|'],
  ])('deletes %s whole with Backspace, leaving no half of it', (_, before, after) => {
    const edited = press(at(before), BACKSPACE);
    expect(shown(edited)).toBe(after);
    expect(edited!.text).not.toMatch(LONE_SURROGATE);
  });

  it('moves over whole characters with Left and Right, and deletes the one under the cursor with Delete', () => {
    expect(shown(press(at('a😀b👩‍💻|'), LEFT))).toBe('a😀b|👩‍💻');
    expect(shown(press(at('a😀b👩‍💻|'), LEFT, LEFT, LEFT))).toBe('a|😀b👩‍💻');
    expect(shown(press(at('a|😀b'), RIGHT))).toBe('a😀|b');
    expect(shown(press(at('a|😀b'), DELETE))).toBe('a|b');
    // Not past either end.
    expect(shown(press(at('|ab'), LEFT, BACKSPACE))).toBe('|ab');
    expect(shown(press(at('ab|'), RIGHT, DELETE))).toBe('ab|');
  });

  it("gives readline's keys their meanings: to the start and the end, and deleting to them or a word back", () => {
    expect(shown(press(at('fix the| printer'), { home: true }))).toBe('|fix the printer');
    expect(shown(press(at('fix the| printer'), ctrl('a')))).toBe('|fix the printer');
    expect(shown(press(at('fix the| printer'), { end: true }))).toBe('fix the printer|');
    expect(shown(press(at('fix the| printer'), ctrl('e')))).toBe('fix the printer|');
    expect(shown(press(at('fix the| printer'), ctrl('u')))).toBe('| printer');
    expect(shown(press(at('fix the| printer'), ctrl('k')))).toBe('fix the|');
    // Ctrl-W: the blanks before the cursor, then the word before them (unix-word-rubout).
    expect(shown(press(at('fix the  |printer'), ctrl('w')))).toBe('fix |printer');
    expect(shown(press(at('fix café😀|'), ctrl('w')))).toBe('fix |');
    expect(shown(press(at('|fix'), ctrl('w')))).toBe('|fix');
  });

  it('inserts typed or pasted text at the cursor', () => {
    expect(shown(insertText(at('Done|'), 'X'))).toBe('DoneX|');
    expect(shown(insertText(press(at('Done|'), LEFT, LEFT)!, 'X'))).toBe('DoX|ne');
  });

  it('is no edit for any other key', () => {
    expect(editLine(at('a|b'), 'x', {})).toBeUndefined();
    expect(editLine(at('a|b'), 'p', { ctrl: true })).toBeUndefined();
    expect(editLine(at('a|b'), '', { return: true })).toBeUndefined();
  });
});
