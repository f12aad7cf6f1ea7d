// The UTF-8 check's hints (src/util/text-decode.ts): which encoding a refused text likely is, and
// how to convert it. The refusals themselves are tested through their readers
// (test/util/text-read.test.ts), the conversion in test/util/text-convert.test.ts.
import { describe, expect, it } from 'vitest';
import { refusalOf } from '../helpers/text-refusal.js';

describe('the hint of a text that is not UTF-8', () => {
  const hintOf = (bytes: number[]) => {
    const error = refusalOf(Buffer.from(bytes));
    return { encoding: error.encoding, hint: error.hint };
  };
  const BROKEN = {
    encoding: 'UTF-8',
    hint: 'it is UTF-8 with broken bytes (cut short?): drop them: iconv -f UTF-8 -t UTF-8 -c draft.txt > draft.txt.new && mv draft.txt.new draft.txt',
  };
  const LEGACY = {
    encoding: 'WINDOWS-1252',
    hint: 'save it as UTF-8, or convert it: iconv -f WINDOWS-1252 -t UTF-8 draft.txt > draft.txt.new && mv draft.txt.new draft.txt',
  };

  it('names UTF-8 cut at its start (a continuation byte first) broken UTF-8 when a whole character follows', () => {
    // `tail -c 4` of "aaa\u00e9\u00e9\n".
    expect(hintOf([0xa9, 0xc3, 0xa9, 0x0a])).toEqual(BROKEN);
  });

  it('names UTF-8 cut at its end broken UTF-8 when a whole character comes before', () => {
    // `head -c 6` of "\u00e9t\u00e9 \u20ac": the euro sign's first byte alone.
    expect(hintOf([0xc3, 0xa9, 0x74, 0xc3, 0xa9, 0x20, 0xe2])).toEqual(BROKEN);
  });

  it("names a stray byte among valid multi-byte characters broken UTF-8 (a compiler's quotes and one bad byte)", () => {
    expect(hintOf([...Buffer.from('\u2018x\u2019 '), 0xff, 0x0a])).toEqual(BROKEN);
  });

  it('keeps the WINDOWS-1252 hint for a text with no valid multi-byte sequence', () => {
    expect(hintOf([...Buffer.from('Caf', 'latin1'), 0xe9, 0x0a, 0x93, 0x78, 0x94])).toEqual(LEGACY);
    expect(hintOf([0xbf, 0x51, 0x75, 0xe9, 0x3f])).toEqual(LEGACY);
  });
});
