// The rows of a `tkt create --from` file. test/bulk/create-from.test.ts reads a few files end to
// end; these are the edge cases of each format and of the row hash that --resume relies on.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { detectFormat, readRows, rowHash, type InputRow } from '../../src/bulk/rows.js';

/** What --resume and the checks see of each row. */
const shape = (rows: readonly InputRow[]) => rows.map(({ row, line, values, problems }) => ({ row, line, values, problems }));

/** The UsageError `read` throws (fails the test when it throws nothing, or something else). */
function usageErrorOf(read: () => unknown): UsageError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('detectFormat', () => {
  it('goes by the extension in any case', () => {
    expect(detectFormat('ROWS.CSV', '[{"title":"A"}]')).toBe('csv');
    expect(detectFormat('rows.JSONL', 'title,site')).toBe('jsonl');
    expect(detectFormat('rows.NdJson', '[')).toBe('jsonl');
  });

  it('reads .json as an array only when it starts with "[", after blanks (the reader drops a BOM)', () => {
    expect(detectFormat('rows.json', '\n  [ {"title":"A"} ]')).toBe('json');
    expect(detectFormat('rows.json', '{"title":"A"}\n{"title":"B"}\n')).toBe('jsonl');
    // Neither "[" nor "{": still JSON Lines for .json, whose rows then say what is wrong.
    expect(detectFormat('rows.json', 'title\nA\n')).toBe('jsonl');
  });

  it('tells any other file by its first character: "[" an array, "{" JSON Lines, else CSV', () => {
    expect(detectFormat('export', '  [{"title":"A"}]')).toBe('json');
    expect(detectFormat('rows.txt', '\n{"title":"A"}')).toBe('jsonl');
    expect(detectFormat('rows.txt', '')).toBe('csv');
  });
});

describe('readRows: JSON Lines', () => {
  it('numbers rows among the data lines and lines across the whole file, with CRLF', () => {
    const rows = readRows('{"title":"A"}\r\n\r\n   \r\n{"title":"B"}\r\n', 'jsonl', 'register');
    expect(shape(rows)).toEqual([
      { row: 1, line: 1, values: { title: 'A' }, problems: [] },
      { row: 2, line: 4, values: { title: 'B' }, problems: [] },
    ]);
  });

  it('turns a CRLF inside a value into LF, as a text body read from a file is; a lone CR stays (README: Text values)', () => {
    const line = JSON.stringify({ title: 'A', description: 'two\r\nlines\r\n\rand a CR', tag: '1\r\n;2' });
    const [row] = readRows(`${line}\r\n`, 'jsonl', 'register');
    expect(row!.values).toEqual({ title: 'A', description: 'two\nlines\n\rand a CR', tag: ['1', '2'] });
    const [element] = readRows(`[${line}]`, 'json', 'register');
    expect(element!.values).toEqual(row!.values);
  });

  it('matches keys without regard to case or surrounding blanks', () => {
    const [row] = readRows('{" Title ":"A","SITE":"HQ","Tag":"7"}', 'jsonl', 'register');
    expect(row!.values).toEqual({ title: 'A', site: 'HQ', tag: ['7'] });
    expect(row!.problems).toEqual([]);
  });

  it('leaves out null and blank values, as a left-out option, and splits ;-lists with their blanks dropped', () => {
    const [row] = readRows('{"title":"A","site":null,"priority":"  ","tag":" 1; ;2;","attach":""}', 'jsonl', 'register');
    expect(row!.values).toEqual({ title: 'A', tag: ['1', '2'] });
    expect(row!.problems).toEqual([]);
  });

  it('takes numbers as text, and a number or a list of numbers for a list column', () => {
    const [row] = readRows('{"title":"A","site":1.5,"tag":3,"attach":["a.txt",2]}', 'jsonl', 'register');
    expect(row!.values).toEqual({ title: 'A', site: '1.5', tag: ['3'], attach: ['a.txt', '2'] });
  });

  it('takes a JSON list wherever the option may repeat (cc, tag, attach), as the option given several times', () => {
    const [row] = readRows('{"title":"A","cc":["a@x.org","b@y.org"],"tag":[1],"attach":["a.txt"]}', 'jsonl', 'register');
    expect(row!.problems).toEqual([]);
    expect(row!.values).toEqual({ title: 'A', cc: ['a@x.org', 'b@y.org'], tag: ['1'], attach: ['a.txt'] });
  });

  it('keeps an address list given as text whole: it splits on commas and semicolons as --cc does, and its hash stays', () => {
    const [json] = readRows('{"title":"A","cc":"a@x.org, b@y.org;c@z.org"}', 'jsonl', 'register');
    const [csv] = readRows('title,cc\nA,"a@x.org, b@y.org;c@z.org"\n', 'csv', 'register');
    expect(json!.values).toEqual({ title: 'A', cc: 'a@x.org, b@y.org;c@z.org' });
    expect(csv!.hash).toBe(json!.hash);
  });

  it('names each value of the wrong type, keeping the values it can read', () => {
    const [row] = readRows('{"title":true,"site":[1],"tag":[{"id":1}],"description":{"text":"x"},"priority":"high"}', 'jsonl', 'register');
    expect(row!.problems).toEqual([
      'title: expected text or a number, got boolean',
      'site: expected text or a number, got a list',
      'tag: expected a list of texts or numbers',
      'description: expected text or a number, got object',
    ]);
    expect(row!.values).toEqual({ priority: 'high' });
  });

  it('refuses a key given twice in other cases, as CSV refuses a column named twice', () => {
    const [row] = readRows('{"title":"A","Title":"B","site":"1"}', 'jsonl', 'register');
    expect(row!.problems).toEqual(['title given twice']);
    expect(row!.values).toEqual({ title: 'A', site: '1' });
  });

  it('refuses a key given twice alike, in JSON Lines and in a JSON array: JSON.parse kept the last value silently', () => {
    const [line] = readRows('{"title":"A","site":"1","title":"B","nested":{"x":1,"x":2}}', 'jsonl', 'register');
    expect(line!.problems).toContain('title given twice');
    expect(line!.problems.filter((problem) => problem.endsWith('given twice'))).toEqual(['title given twice']);
    const rows = readRows(
      '[{"title":"A \\" \\\\","title":"B"}, 7, {"title":"C","description":"x","site":"1"}, {"tag":["t","t"],"tag":[]}]',
      'json',
      'register',
    );
    expect(rows.map((row) => row.problems.filter((problem) => problem.endsWith('given twice')))).toEqual([['title given twice'], [], [], ['tag given twice']]);
  });

  it('takes an empty list as a column left out, with the same hash as a row without it', () => {
    const [withEmpty, without] = readRows('{"title":"A","tag":[]}\n{"title":"A"}', 'jsonl', 'register');
    expect(withEmpty!.values).toEqual({ title: 'A' });
    expect(withEmpty!.hash).toBe(without!.hash);
  });

  it('makes unknown and foreign columns problems of the row, not of the file', () => {
    const rows = readRows('{"title":"A","colour":"red"}\n{"title":"B","email":"b@example.com"}\n{"title":"C","tag":"1"}\n', 'jsonl', 'register');
    expect(rows.map((row) => row.problems)).toEqual([['unknown column "colour"'], ['column "email" cannot be used without --integration'], []]);
    expect(rows.map((row) => row.values)).toEqual([{ title: 'A' }, { title: 'B' }, { title: 'C', tag: ['1'] }]);
    const [integration] = readRows('{"title":"A","tag":"1","email":"a@example.com"}', 'jsonl', 'new');
    expect(integration!.problems).toEqual(['column "tag" cannot be used with --integration']);
    expect(integration!.values).toEqual({ title: 'A', email: 'a@example.com' });
  });

  it('says what a line that is not an object holds, and keeps numbering after it', () => {
    const rows = readRows('[{"title":"A"}]\n"text"\nnull\n{"title":\n{"title":"E"}\n', 'jsonl', 'register');
    expect(rows.map((row) => [row.row, row.line])).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    expect(rows.slice(0, 3).map((row) => row.problems)).toEqual(Array(3).fill(['expected an object like {"title": "...", ...}']));
    expect(rows[3]!.problems).toEqual([expect.stringMatching(/^not valid JSON: /)]);
    expect(rows[4]!.problems).toEqual([]);
  });
});

describe('readRows: JSON pretty-printed over lines, read as JSON Lines', () => {
  const pretty = (value: unknown) => JSON.stringify(value, null, 2);

  it('refuses a document spread over lines in one error, not an error per line', () => {
    const error = usageErrorOf(() => readRows(`${pretty({ title: 'A', description: 'd' })}\n`, 'jsonl', 'register'));
    expect(error.message).toBe('the input is JSON pretty-printed over 4 lines, not JSON Lines (one object per line)');
    expect(error.hint).toBe("put each object on a line of its own: jq -c '.'");
    expect(error.details).toEqual([]);
  });

  it('says so of documents one after another too (a loop of show --json), CRLF and blank lines around', () => {
    const text = `\r\n${pretty({ title: 'A' })}\r\n${pretty({ title: 'B' })}\r\n\r\n`.replace(/\n(?!\r)/g, '\r\n');
    expect(usageErrorOf(() => readRows(text, 'jsonl', 'register')).message).toMatch(/^the input is JSON pretty-printed over \d+ lines, not JSON Lines/);
  });

  it('tells an array in a .jsonl file how it is read as rows', () => {
    const error = usageErrorOf(() => readRows(pretty([{ title: 'A' }]), 'jsonl', 'register'));
    expect(error.hint).toBe("a JSON array is read as rows from stdin or a file not named .jsonl or .ndjson; or make it JSON Lines: jq -c '.[]'");
  });

  it('points a ticket as show --json prints it at the recipe that makes rows of it', () => {
    const ticket = { id: 1031, title: 'A', siteId: 1, creator: { userName: 'jmuller' }, site: { id: 1, title: 'Head Office' } };
    expect(usageErrorOf(() => readRows(pretty(ticket), 'jsonl', 'register')).hint).toBe(
      'it looks like a ticket as "tkt show --json" prints it, which is not a row of create columns either: see "Copying tickets between profiles" in the README',
    );
  });

  it('leaves JSON Lines alone, even a row that is a lone brace among them', () => {
    const rows = readRows('{"title":"A"}\n{\n{"title":"B"}\n}\n', 'jsonl', 'register');
    expect(rows.map((row) => [row.row, row.line, row.problems.length])).toEqual([
      [1, 1, 0],
      [2, 2, 1],
      [3, 3, 0],
      [4, 4, 1],
    ]);
  });
});

describe('readRows: a ticket as tkt prints it', () => {
  const SHOWN =
    'looks like a ticket as "tkt show --json" prints it, not a row of create columns (title, description, requester, site, ...): see "Copying tickets between profiles" in the README';

  it('tells a show --json ticket in one problem, in JSON Lines or an array, any case', () => {
    const ticket = {
      id: 1031,
      title: 'A',
      description: 'd',
      siteId: 1,
      ticketStatusId: 1,
      site: { id: 1, title: 'Head Office' },
      status: { id: 1, status: 'Open' },
    };
    const [line] = readRows(`${JSON.stringify(ticket)}\n`, 'jsonl', 'register');
    expect(line).toMatchObject({ row: 1, line: 1, values: {}, problems: [SHOWN], unreadable: true });
    const pascal = { Id: 7, Title: 'A', Creator: { UserName: 'jmuller' } };
    const rows = readRows(JSON.stringify([{ title: 'fine' }, pascal]), 'json', 'register');
    expect(shape(rows)).toEqual([
      { row: 1, line: undefined, values: { title: 'fine' }, problems: [] },
      { row: 2, line: undefined, values: {}, problems: [SHOWN] },
    ]);
  });

  it('tells a list --json item alike', () => {
    const [row] = readRows(JSON.stringify([{ ticketId: 1032, subject: 'A', status: 'Escalated', requester: 'Ada Admin' }]), 'json', 'register');
    expect(row!.problems).toEqual([SHOWN.replace('show', 'list')]);
  });

  it('still names a value of the wrong type in a row of create columns', () => {
    const [row] = readRows('{"title":"A","tag":{"id":1}}', 'jsonl', 'register');
    expect(row!.problems).toEqual(['tag: expected text or a list, got object']);
  });
});

describe('readRows: a JSON array', () => {
  it('numbers the elements from 1, with no line, each checked as a JSON Lines row is', () => {
    const rows = readRows('[{"title":"A","tag":[1,2]}, 7, {"title":"C","colour":"red"}]', 'json', 'register');
    expect(shape(rows)).toEqual([
      { row: 1, line: undefined, values: { title: 'A', tag: ['1', '2'] }, problems: [] },
      { row: 2, line: undefined, values: {}, problems: ['expected an object like {"title": "...", ...}'] },
      { row: 3, line: undefined, values: { title: 'C' }, problems: ['unknown column "colour"'] },
    ]);
  });

  it('refuses the whole file when it is not valid JSON or not an array', () => {
    const broken = usageErrorOf(() => readRows('[{"title":"A"},', 'json', 'register'));
    expect(broken.message).toMatch(/^not valid JSON: /);
    expect(broken.hint).toBe('use JSON Lines (one object per line) or a JSON array of objects');
    expect(usageErrorOf(() => readRows('{"title":"A"}', 'json', 'register')).message).toBe('expected a JSON array of objects, or JSON Lines');
  });

  it('reads an empty array as no rows', () => {
    expect(readRows('[]', 'json', 'register')).toEqual([]);
  });
});

describe('readRows: CSV', () => {
  it('has no rows for an empty file or a header alone', () => {
    expect(readRows('', 'csv', 'register')).toEqual([]);
    expect(readRows('title,site\r\n', 'csv', 'register')).toEqual([]);
  });

  it('numbers rows among the records and gives the line where each starts, past quoted line breaks and blank lines', () => {
    const rows = readRows('title,description\n"A","two\nlines"\n\nB,one line\n', 'csv', 'register');
    expect(shape(rows)).toEqual([
      { row: 1, line: 2, values: { title: 'A', description: 'two\nlines' }, problems: [] },
      { row: 2, line: 5, values: { title: 'B', description: 'one line' }, problems: [] },
    ]);
  });

  it('turns a CRLF inside a quoted cell into LF, as a text body read from a file is; a lone CR stays', () => {
    const rows = readRows('title,description\r\n"A","two\r\nlines\r\n\rand a CR"\r\n', 'csv', 'register');
    expect(shape(rows)).toEqual([{ row: 1, line: 2, values: { title: 'A', description: 'two\nlines\n\rand a CR' }, problems: [] }]);
  });

  it('matches header names trimmed and in any case, and leaves blank cells out', () => {
    const [row] = readRows(' Title , SITE ,tag\nA,   ,1;2\n', 'csv', 'register');
    expect(row!.values).toEqual({ title: 'A', tag: ['1', '2'] });
  });

  it('refuses a header naming a column twice, in any case', () => {
    const once = usageErrorOf(() => readRows('title,Title,site\nA,B,C\n', 'csv', 'register'));
    expect(once.message).toBe('the CSV header (line 1) is not usable');
    expect(once.details).toEqual(['column named twice: title']);
    const twice = usageErrorOf(() => readRows('title,site,TITLE,Site\nA,B,C,D\n', 'csv', 'register'));
    expect(twice.details).toEqual(['columns named twice: title, site']);
  });

  it('gives the header line and the columns the endpoint takes in the refusal', () => {
    const error = usageErrorOf(() => readRows('\n\ntitle,tag\nA,1\n', 'csv', 'new'));
    expect(error.message).toBe('the CSV header (line 3) is not usable');
    expect(error.details).toEqual(['column "tag" cannot be used with --integration']);
    expect(error.hint).toMatch(/^columns are named like the create options: title, description, requester, email, /);
    expect(error.hint).not.toMatch(/\btag\b/);
  });

  // What a spreadsheet leaves in a CSV it saves: rows of commas, a nameless last column.
  it('skips a row whose every cell is empty or blank, as a blank line, and numbers rows without it', () => {
    const rows = readRows('title,description,site\n,,\nA,one,HQ\n , ,\t\n"",,\nB,two,HQ\n,,\n', 'csv', 'register');
    expect(shape(rows)).toEqual([
      { row: 1, line: 3, values: { title: 'A', description: 'one', site: 'HQ' }, problems: [] },
      { row: 2, line: 6, values: { title: 'B', description: 'two', site: 'HQ' }, problems: [] },
    ]);
    expect(readRows('title,site\n,\n,,,\n', 'csv', 'register')).toEqual([]);
  });

  it('ignores a header cell left empty when no row has a value under it, with or without the trailing comma', () => {
    const rows = readRows('title,"site",\nA,HQ,\nB,Remote\n', 'csv', 'register');
    expect(shape(rows)).toEqual([
      { row: 1, line: 2, values: { title: 'A', site: 'HQ' }, problems: [] },
      { row: 2, line: 3, values: { title: 'B', site: 'Remote' }, problems: [] },
    ]);
    expect(readRows('title,,site\nA,,HQ\n', 'csv', 'register')[0]!.values).toEqual({ title: 'A', site: 'HQ' });
  });

  it('refuses a nameless column that holds a value, naming the column and the first row with one', () => {
    const error = usageErrorOf(() => readRows('title,site,\nA,HQ,\nB,HQ,note\n', 'csv', 'register'));
    expect(error.message).toBe('the CSV header (line 1) is not usable');
    expect(error.details).toEqual(['column 3 has no name, but row 2 (line 3) has a value under it: "note"']);
  });

  it('reads a file delimited by semicolons or tabs (a spreadsheet in another locale), told by its header', () => {
    for (const delimiter of [';', '\t']) {
      const text = ['title', 'description', 'tag', ''].join(delimiter) + '\n' + ['"A; b"', 'one, two', '"1;2"', ''].join(delimiter) + '\n';
      expect(shape(readRows(text, 'csv', 'register'))).toEqual([
        { row: 1, line: 2, values: { title: 'A; b', description: 'one, two', tag: ['1', '2'] }, problems: [] },
      ]);
    }
  });

  it('says which delimiter a header seems to use when its names are not columns either way', () => {
    const error = usageErrorOf(() => readRows('title;colour\nA;red\n', 'csv', 'register'));
    expect(error.details).toEqual(['unknown column "colour" (the file is read as delimited by ";", as its header is)']);
  });

  it('tells how to go on past a column that is not a field: remove it, or fix the name of a mistyped one', () => {
    const error = usageErrorOf(() => readRows('title,Notes,sight\nA,for Bob,HQ\n', 'csv', 'register'));
    expect(error.details).toEqual(['unknown column "notes"', 'unknown column "sight"']);
    expect(error.hint).toMatch(
      /^remove the columns that are not ticket fields \(or keep them in another file\), and correct a misspelt name; columns are named like the create options: title, /,
    );
  });

  it("flags a record with more fields than the header, keeping the header's columns", () => {
    const [row] = readRows('title,site\nA,HQ,extra\n', 'csv', 'register');
    expect(row!.values).toEqual({ title: 'A', site: 'HQ' });
    expect(row!.problems).toEqual(['has 3 fields, the header has 2']);
  });
});

describe('rowHash', () => {
  it('is 16 hex digits that change with any value', () => {
    const hash = rowHash({ title: 'A', tag: ['1', '2'] });
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(rowHash({ title: 'A', tag: ['2', '1'] })).not.toBe(hash);
    expect(rowHash({ title: 'A ', tag: ['1', '2'] })).not.toBe(hash);
    expect(rowHash({ title: 'A', tag: ['1', '2'], site: 'HQ' })).not.toBe(hash);
  });

  it('ignores the order of the columns and values that are undefined', () => {
    expect(rowHash({ site: 'HQ', title: 'A', priority: undefined })).toBe(rowHash({ title: 'A', site: 'HQ' }));
  });

  it('gives a row the same hash whether a value was typed as a number or as text, in any format', () => {
    const [numbers] = readRows('{"title":"A","site":1,"tag":[3,4]}', 'jsonl', 'register');
    const [texts] = readRows('{"TAG":"3;4","site":"1","title":"A"}', 'jsonl', 'register');
    const [array] = readRows('[{"tag":["3","4"],"title":"A","site":"1"}]', 'json', 'register');
    const [csv] = readRows('site,tag,title\n1,3;4,A\n', 'csv', 'register');
    expect(new Set([numbers!.hash, texts!.hash, array!.hash, csv!.hash])).toEqual(new Set([rowHash({ title: 'A', site: '1', tag: ['3', '4'] })]));
  });

  it("is of a row's text as the file holds it, CRLF and all: a report written before CRLF was sent as LF still resumes", () => {
    const [row] = readRows('title,description\r\nA,"two\r\nlines"\r\n', 'csv', 'register');
    expect(row!.values.description).toBe('two\nlines');
    expect(row!.hash).toBe(rowHash({ title: 'A', description: 'two\r\nlines' }));
  });

  it('depends on the content only, not on where the row is', () => {
    const rows = readRows('{"title":"A"}\n{"title":"B"}\n{"title":"A"}\n', 'jsonl', 'register');
    expect(rows[0]!.hash).toBe(rows[2]!.hash);
    expect(rows[0]!.hash).not.toBe(rows[1]!.hash);
  });
});
