// JSON files a person may have edited: a BOM, an empty file, a syntax error named by line and column.
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/util/json-text.js';

const errorOf = (text: string) => {
  try {
    parseJsonText(text);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

describe('parseJsonText', () => {
  it('leaves out a leading BOM, and reads blanks only as nothing', () => {
    expect(parseJsonText('\ufeff{"a": 1}\n')).toEqual({ a: 1 });
    expect(parseJsonText('')).toBeUndefined();
    expect(parseJsonText(' \n\t\r\n')).toBeUndefined();
    expect(parseJsonText('[1, {"b": [true, null, -1.5e3, "x\\"y"]}]')).toEqual([1, { b: [true, null, -1500, 'x"y'] }]);
  });

  it('names the line and column of a syntax error, in characters, without a copy of the text', () => {
    const cases: [string, string][] = [
      ['{\n  "a": 1,\n}\n', 'line 3, column 1'],
      ['{\n  "a": 1\n  "b": 2\n}', 'line 3, column 3'],
      ["{\n\t'a': 1}", 'line 2, column 2'],
      ['{"é": tru}', 'line 1, column 7: unexpected "tru}"'],
      ['{"a": 1}\n// comment', 'line 2, column 1'],
      ['{"a": [1, 2}', 'line 1, column 12'],
      ['{"a": 01}', 'line 1, column 8'],
      ['{"a":\n', 'line 2, column 1'],
      ['\ufeff\ufeff{}', 'line 1, column 1'],
      ['{"a": "x\ny"}', 'line 1, column 7'],
    ];
    for (const [text, where] of cases) {
      const message = errorOf(text);
      expect(message, JSON.stringify(text)).toMatch(new RegExp(`^not valid JSON at ${where}`));
      expect(message).not.toContain('position');
      expect(message).not.toContain('is not valid JSON');
    }
  });
});
