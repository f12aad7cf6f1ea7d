import { describe, expect, it } from 'vitest';
import { escapeJsonControls, sanitizeForModel, sanitizeInline, sanitizeText } from '../../src/output/sanitize.js';

// Anything that could reach the terminal as a control sequence.
const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('sanitizeText', () => {
  it('shows a CSI sequence (clear screen, cursor move) as text instead of running it', () => {
    const out = sanitizeText('before\u001b[2J\u001b[Hafter');
    expect(out).toBe('before^[[2J^[[Hafter');
    expect(out).not.toMatch(CONTROL_CHARS);
  });

  it('defuses an OSC window-title set, with BEL and with ST terminators', () => {
    expect(sanitizeText('\u001b]0;pwned\u0007title')).toBe('^[]0;pwned^Gtitle');
    expect(sanitizeText('\u001b]2;pwned\u001b\\title')).toBe('^[]2;pwned^[\\title');
  });

  it('keeps a lone CR from overwriting the line, but reads CRLF as a line break', () => {
    expect(sanitizeText('Printer broken\rAll fine')).toBe('Printer broken^MAll fine');
    expect(sanitizeText('line 1\r\nline 2')).toBe('line 1\nline 2');
  });

  it('escapes the 8-bit C1 controls, including the one-byte CSI', () => {
    expect(sanitizeText('a\u009b2Jb\u0085c')).toBe('a<U+009B>2Jb<U+0085>c');
  });

  it('escapes every C0 control but newline and tab, and DEL', () => {
    for (let code = 0; code < 0x20; code++) {
      const char = String.fromCharCode(code);
      const out = sanitizeText(`x${char}y`);
      if (char === '\n' || char === '\t') expect(out).toBe(`x${char}y`);
      else expect(out).not.toMatch(CONTROL_CHARS);
    }
    expect(sanitizeText('a\u007fb')).toBe('a^?b');
    expect(sanitizeText('a\u0000b\u0008c')).toBe('a^@b^Hc');
  });

  it('shows the bidi controls that reorder what follows (Trojan Source): a title cannot read backwards', () => {
    expect(sanitizeText('invoice \u202efdp.exe')).toBe('invoice <U+202E>fdp.exe');
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      expect(sanitizeInline(`a${String.fromCharCode(code)}b`)).toBe(`a<U+${code.toString(16).toUpperCase()}>b`);
    }
  });

  it('leaves right-to-left text and its marks alone', () => {
    const text = 'שלום \u200fעולם مرحبا';
    expect(sanitizeText(text)).toBe(text);
  });

  it('leaves ordinary text, accents, CJK and emoji alone', () => {
    const text = 'Crème brûlée — 打印机 🖨️ ok\n\tindented';
    expect(sanitizeText(text)).toBe(text);
  });
});

describe('sanitizeInline', () => {
  it('puts multi-line text on one line', () => {
    expect(sanitizeInline('first\nsecond\r\n\tthird')).toBe('first second third');
  });

  it('still escapes controls', () => {
    expect(sanitizeInline('a\u001b[31mred')).toBe('a^[[31mred');
  });
});

describe('escapeJsonControls', () => {
  it('writes DEL and C1 controls as \\u escapes: the same JSON document, no raw CSI', () => {
    const value = { title: 'a\u009b31mb\u007f', ok: 'é€' };
    const json = escapeJsonControls(JSON.stringify(value));
    expect(json).toBe('{"title":"a\\u009b31mb\\u007f","ok":"é€"}');
    expect(json).not.toMatch(CONTROL_CHARS);
    expect(JSON.parse(json)).toEqual(value);
  });

  it('writes bidi controls as \\u escapes too', () => {
    const value = { title: 'invoice \u202efdp.exe\u2066' };
    const json = escapeJsonControls(JSON.stringify(value));
    expect(json).toBe('{"title":"invoice \\u202efdp.exe\\u2066"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('sanitizeForModel', () => {
  it('removes the controls a terminal would run (ESC, BEL, NUL, a lone CR, C1) and keeps lines and tabs', () => {
    expect(sanitizeForModel('a\u001b[2J\u0007b\u0000c\rd\u009be\r\nf\tg')).toBe('a[2Jbcde\nf\tg');
  });

  it('shows bidi controls and zero-width characters as <U+202E>, as tkt show does: the model sees the text carries them', () => {
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff]) {
      expect(sanitizeForModel(`a${String.fromCharCode(code)}b`)).toBe(`a<U+${code.toString(16).toUpperCase()}>b`);
    }
    expect(sanitizeForModel('invoice \u202efdp.exe')).toBe('invoice <U+202E>fdp.exe');
  });

  it('gives the same text when applied twice, and leaves right-to-left text, its marks and emoji alone', () => {
    const shown = sanitizeForModel('x\u202ey\u200bz');
    expect(sanitizeForModel(shown)).toBe(shown);
    const text = 'שלום \u200fעולם مرحبا 🖨️ Crème';
    expect(sanitizeForModel(text)).toBe(text);
  });
});
