// A text refused as not UTF-8 converted as the hint's iconv would (src/util/text-convert.ts): what
// an editor saved in another encoding is kept as a draft.
import { describe, expect, it } from 'vitest';
import { convertedText } from '../../src/util/text-convert.js';
import { refusalOf } from '../helpers/text-refusal.js';

describe('convertedText', () => {
  it('converts Windows-1252 by the WHATWG table, 0x80-0x9F included: the euro sign is U+20AC, never a C1 control (Node 20 decodes them as Latin-1)', () => {
    const bytes = Buffer.from([0x50, 0x72, 0x69, 0x63, 0x65, 0x3a, 0x20, 0x31, 0x30, 0x80, 0x2c, 0x20, 0x93, 0x63, 0x61, 0x66, 0xe9, 0x94, 0x0a]);
    const error = refusalOf(bytes);
    expect(error.encoding).toBe('WINDOWS-1252');
    expect(convertedText(bytes, error)).toBe('Price: 10\u20ac, \u201ccaf\u00e9\u201d\n');
  });

  it('maps all of 0x80-0x9F by the WHATWG windows-1252 index, the five bytes it leaves undefined to themselves', () => {
    const c1 = Buffer.from(Array.from({ length: 32 }, (_, index) => 0x80 + index));
    const codePoints = [...convertedText(c1, refusalOf(c1))!].map((char) => char.codePointAt(0));
    // prettier-ignore
    expect(codePoints).toEqual([
      0x20ac, 0x0081, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008d, 0x017d, 0x008f,
      0x0090, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x009d, 0x017e, 0x0178,
    ]);
  });

  it('keeps the bytes outside 0x80-0x9F as Latin-1 has them', () => {
    const bytes = Buffer.from([0x41, 0xa0, 0xa4, 0xc4, 0xe9, 0xff]);
    expect(convertedText(bytes, refusalOf(bytes))).toBe('A\u00a0\u00a4\u00c4\u00e9\u00ff');
  });

  it('drops the broken bytes of broken UTF-8, as iconv -c does', () => {
    const bytes = Buffer.from([0xa9, 0xc3, 0xa9, 0x0a]);
    expect(convertedText(bytes, refusalOf(bytes))).toBe('\u00e9\n');
  });

  it('keeps a U+FFFD that was in the text, as iconv -c does: only the broken bytes go', () => {
    // A log that had already replaced a character, then was cut by `head -c` inside the euro sign.
    const bytes = Buffer.concat([Buffer.from('caf\ufffd \u00e9'), Buffer.from([0xe2, 0x82, 0x0a, 0xff, 0x41])]);
    expect(convertedText(bytes, refusalOf(bytes))).toBe('caf\ufffd \u00e9\nA');
  });

  it('converts UTF-16 in the byte order its BOM says, and nothing for binary data', () => {
    const le = Buffer.from('\ufeffCaf\u00e9 \u20ac', 'utf16le');
    expect(convertedText(le, refusalOf(le))).toBe('Caf\u00e9 \u20ac');
    expect(convertedText(Buffer.from(le).swap16(), refusalOf(Buffer.from(le).swap16()))).toBe('Caf\u00e9 \u20ac');
    const binary = Buffer.from([0x41, 0x00, 0x42]);
    expect(convertedText(binary, refusalOf(binary))).toBeUndefined();
  });
});
