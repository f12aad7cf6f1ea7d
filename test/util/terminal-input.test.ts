import { describe, expect, it } from 'vitest';
import { createTerminalInputReader, keyPressOf, keysOnly, type TerminalInput } from '../../src/util/terminal-input.js';

const keys = (...sequences: string[]): TerminalInput[] => sequences.map((sequence) => ({ kind: 'key', sequence }));
const readAll = (...chunks: string[]) => {
  const reader = createTerminalInputReader();
  return chunks.flatMap((chunk) => reader.read(chunk));
};

describe('the terminal input reader', () => {
  it('reads typed text as one key per character, wide and astral ones whole', () => {
    expect(readAll('jé打🙂\r')).toEqual(keys('j', 'é', '打', '🙂', '\r'));
  });

  it('reads the escape sequences of keys whole', () => {
    const arrows = [
      '\x1b[A',
      '\x1b[B',
      '\x1b[1;5C',
      '\x1bOD',
      '\x1b[H',
      '\x1b[F',
      '\x1b[5~',
      '\x1b[6~',
      '\x1b[3~',
      '\x1b[Z',
      '\x1b[15;2~',
      '\x1b[[A',
      '\x1bOP',
    ];
    expect(readAll(arrows.join(''))).toEqual(keys(...arrows));
  });

  it('drops what the terminal answers: cursor-position reports, device attributes, mode reports, focus events', () => {
    const replies = ['\x1b[2;2R', '\x1b[24;80R', '\x1b[?1;2c', '\x1b[>84;0;0c', '\x1b[0n', '\x1b[?2004;1$y', '\x1b[I', '\x1b[O', '\x1b[8;24;80t', '\x1b[?1u'];
    expect(readAll(`j${replies.join('')}k`)).toEqual(keys('j', 'k'));
  });

  it('drops OSC and DCS strings, ended by BEL or ESC \\, also when they come in pieces', () => {
    expect(readAll('a\x1b]11;rgb:0000/0000/0000\x07b\x1bP>|tmux 3.3a\x1b\\c')).toEqual(keys('a', 'b', 'c'));
    expect(readAll('a\x1b]10;rgb:ff', 'ff/ffff/ffff\x1b', '\\b')).toEqual(keys('a', 'b'));
    // Its letters are no keys, whichever piece they come in: a string's R never reads the view again.
    expect(readAll('\x1b]', '52;c;Rq', '\x07')).toEqual([]);
  });

  it('waits for the rest of a sequence cut at the end of a chunk', () => {
    expect(readAll('j\x1b[2', ';2R', 'k')).toEqual(keys('j', 'k'));
    expect(readAll('\x1b[', 'A')).toEqual(keys('\x1b[A'));
    expect(readAll('\x1bO', 'B')).toEqual(keys('\x1bOB'));
  });

  it('reads a lone ESC as the Escape key, and ESC before a letter as Escape and then the letter', () => {
    expect(readAll('\x1b')).toEqual(keys('\x1b'));
    expect(readAll('\x1ba')).toEqual(keys('\x1b', 'a'));
    expect(readAll('\x1b\x1b[A')).toEqual(keys('\x1b', '\x1b[A'));
  });

  it('gathers a bracketed paste as text, its letters and line breaks no keys, across chunks', () => {
    expect(readAll('x\x1b[200~q\r\x1b[A', 'R\x1b[20', '1~y')).toEqual([
      { kind: 'key', sequence: 'x' },
      { kind: 'paste', text: 'q\r\x1b[AR' },
      { kind: 'key', sequence: 'y' },
    ]);
    // An end marker without its start is no key either.
    expect(readAll('\x1b[201~j')).toEqual(keys('j'));
  });

  it('drops a broken sequence up to the byte that broke it', () => {
    expect(readAll('\x1b[2;\x01x')).toEqual(keys('\x01', 'x'));
  });
});

describe('keysOnly', () => {
  it('keeps the keys and pastes of a text as sent, without the replies', () => {
    expect(keysOnly('j\x1b[2;2R\x1b[I\x1b[Ak\x1b[200~pasted\x1b[201~\x1b]11;rgb:0/0/0\x07')).toBe('j\x1b[Ak\x1b[200~pasted\x1b[201~');
  });
});

describe('keyPressOf', () => {
  it('names the special keys', () => {
    expect(keyPressOf('\r')).toEqual({ input: '', key: { return: true } });
    expect(keyPressOf('\x7f')).toEqual({ input: '', key: { backspace: true } });
    expect(keyPressOf('\x1b')).toEqual({ input: '', key: { escape: true } });
    expect(keyPressOf('\x1b[A').key).toEqual({ upArrow: true });
    expect(keyPressOf('\x1bOB').key).toEqual({ downArrow: true });
    expect(keyPressOf('\x1b[1;5B').key).toEqual({ downArrow: true });
    expect(keyPressOf('\x1b[5~').key).toEqual({ pageUp: true });
    expect(keyPressOf('\x1b[6;2~').key).toEqual({ pageDown: true });
    expect(keyPressOf('\x1b[1~').key).toEqual({ home: true });
    expect(keyPressOf('\x1b[F').key).toEqual({ end: true });
    expect(keyPressOf('\x1b[3~').key).toEqual({ delete: true });
  });

  it('gives Ctrl and a letter as the letter with ctrl, and a typed character as itself', () => {
    expect(keyPressOf('\x03')).toEqual({ input: 'c', key: { ctrl: true } });
    expect(keyPressOf('R')).toEqual({ input: 'R', key: {} });
    expect(keyPressOf('打')).toEqual({ input: '打', key: {} });
  });

  it('gives a key it does not name no input: F5 types nothing', () => {
    expect(keyPressOf('\x1b[15~')).toEqual({ input: '', key: {} });
  });
});
