// The UTF-8 check's side that converts (src/util/text-decode.ts): what an editor saved in another
// encoding is kept as a draft converted as the hint's iconv would. The refusals themselves are
// tested through their readers (test/util/text-read.test.ts).
import { describe, expect, it } from 'vitest';
import { convertedText, NotTextError, textOfFile } from '../../src/util/text-decode.js';

/** The refusal of `bytes`, as a reader throws it. */
function refusalOf(bytes: Buffer): NotTextError {
  try {
    textOfFile(bytes, 'draft.txt');
  } catch (error) {
    expect(error).toBeInstanceOf(NotTextError);
    return error as NotTextError;
  }
  throw new Error('expected a NotTextError');
}

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

  it('converts UTF-16 in the byte order its BOM says, and nothing for binary data', () => {
    const le = Buffer.from('\ufeffCaf\u00e9 \u20ac', 'utf16le');
    expect(convertedText(le, refusalOf(le))).toBe('Caf\u00e9 \u20ac');
    expect(convertedText(Buffer.from(le).swap16(), refusalOf(Buffer.from(le).swap16()))).toBe('Caf\u00e9 \u20ac');
    const binary = Buffer.from([0x41, 0x00, 0x42]);
    expect(convertedText(binary, refusalOf(binary))).toBeUndefined();
  });
});
