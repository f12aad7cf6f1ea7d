import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/bulk/csv.js';
import { UsageError } from '../../src/errors.js';

const cellsOf = (text: string) => parseCsv(text).map((record) => record.cells);

describe('parseCsv', () => {
  it('splits plain records on commas and line breaks', () => {
    expect(cellsOf('title,site\nPrinter,HQ\nVPN,Remote\n')).toEqual([
      ['title', 'site'],
      ['Printer', 'HQ'],
      ['VPN', 'Remote'],
    ]);
  });

  it('reads CRLF line ends and a file without a final line break', () => {
    expect(cellsOf('a,b\r\n1,2\r\n3,4')).toEqual([
      ['a', 'b'],
      ['1', '2'],
      ['3', '4'],
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    expect(cellsOf('title,description\n"Printer, 2nd floor","He said ""on fire""\nthen left"\n')).toEqual([
      ['title', 'description'],
      ['Printer, 2nd floor', 'He said "on fire"\nthen left'],
    ]);
  });

  it('keeps a CRLF inside a quoted field as it is', () => {
    expect(cellsOf('a\r\n"x\r\ny"\r\n')).toEqual([['a'], ['x\r\ny']]);
  });

  it('keeps empty cells, including empty quoted ones and a trailing empty cell', () => {
    expect(cellsOf('a,b,c\n,"",\n')).toEqual([
      ['a', 'b', 'c'],
      ['', '', ''],
    ]);
  });

  it('skips blank lines but reports the line each record starts on', () => {
    const records = parseCsv('a,b\n\n"multi\nline",2\n\r\nlast,3\n');
    expect(records.map((r) => [r.cells[0], r.line])).toEqual([
      ['a', 1],
      ['multi\nline', 3],
      ['last', 6],
    ]);
  });

  it('treats a quote in the middle of an unquoted field as text', () => {
    expect(cellsOf('a\n5" floppy\n')).toEqual([['a'], ['5" floppy']]);
  });

  it('rejects an unterminated quote, naming the line where it opened', () => {
    expect(() => parseCsv('a,b\n1,"never closed\nmore\n')).toThrow(UsageError);
    expect(() => parseCsv('a,b\n1,"never closed\nmore\n')).toThrow(/line 2: a quoted field is never closed/);
  });

  it('rejects text after a closing quote instead of guessing', () => {
    expect(() => parseCsv('a\n"x"y\n')).toThrow(/line 2: unexpected "y" after a closing quote/);
  });

  it('returns nothing for an empty file', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv('\n\n')).toEqual([]);
  });
});
