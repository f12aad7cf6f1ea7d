// The rows of a `tkt create --from` file: JSON Lines, a JSON array or CSV with a header row,
// columns named like the create options, each row with a hash of its content for --resume.
// A ticket as tkt prints it (show --json, list --json) is no row: copying tickets picks their
// columns with --query (README: Copying tickets between profiles).
import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { UsageError } from '../errors.js';
import { TICKET_FIELDS, fieldsFor, type TicketEndpoint } from '../model/fields.js';
import { isRepeatable, type RawFieldValues } from '../fields/options.js';
import { lineFeeds } from '../util/text-read.js';
import { parseCsv, type CsvDelimiter, type CsvRecord } from './csv.js';

export type RowFormat = 'jsonl' | 'json' | 'csv';

export interface InputRow {
  /** 1-based among the data rows (header and blank lines not counted). */
  row: number;
  /** Line of the file where the row starts; absent for a JSON array. */
  line: number | undefined;
  values: RawFieldValues;
  /** Identifies the row's content for --resume. */
  hash: string;
  /** Problems found while reading the row (shape, unknown columns). */
  problems: string[];
  /** Not read at all (not JSON, not an object): its problems are all there is to say of it. */
  unreadable?: true;
}

/** Columns whose option repeats (`tag`, `attach`, `cc`): a JSON list gives several values. */
const LIST_KEYS: ReadonlySet<string> = new Set(TICKET_FIELDS.filter((spec) => isRepeatable(spec.value)).map((spec) => spec.key));
/**
 * Of those, the ones whose text holds several values separated by `;`. An address list (`cc`)
 * stays one text, which its value splits on commas and semicolons as `--cc "a@x, b@y"` is: so
 * the hash of a row with a cc text is the one that reports written before cc took lists hold.
 */
const LIST_SEPARATOR = ';';
const SPLIT_KEYS: ReadonlySet<string> = new Set(TICKET_FIELDS.filter((spec) => isRepeatable(spec.value) && spec.value.type !== 'text').map((spec) => spec.key));
const KNOWN_KEYS: ReadonlySet<string> = new Set(TICKET_FIELDS.map((spec) => spec.key));
const HASH_LENGTH = 16;

/** By extension; otherwise (and for .json, which may hold one array) by the first character. */
export function detectFormat(path: string, text: string): RowFormat {
  const extension = extname(path).toLowerCase();
  if (extension === '.csv') return 'csv';
  if (extension === '.jsonl' || extension === '.ndjson') return 'jsonl';
  const first = text.trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{' || extension === '.json') return 'jsonl';
  return 'csv';
}

/** The same content gives the same hash whatever the format or the column order. */
export function rowHash(values: RawFieldValues): string {
  const entries = Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, HASH_LENGTH);
}

function columnKey(name: string): string {
  return name.trim().toLowerCase();
}

/** Why a column cannot be used here, or undefined when it can. */
function columnProblem(key: string, endpoint: TicketEndpoint): string | undefined {
  if (!KNOWN_KEYS.has(key)) return `unknown column ${JSON.stringify(key)}`;
  if (!fieldsFor(endpoint).some((spec) => spec.key === key)) {
    return `column ${JSON.stringify(key)} cannot be used ${endpoint === 'new' ? 'with' : 'without'} --integration`;
  }
  return undefined;
}

function splitList(text: string): string[] {
  return text
    .split(LIST_SEPARATOR)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** One cell as text; empty means "not given", as an option that was left out. */
function cellValue(key: string, text: string): string | string[] | undefined {
  if (text.trim() === '') return undefined;
  return SPLIT_KEYS.has(key) ? splitList(text) : text;
}

function jsonValue(key: string, value: unknown): { value?: string | string[]; problem?: string } {
  if (value === null || value === undefined) return {};
  if (typeof value === 'string') return { value: cellValue(key, value) };
  if (typeof value === 'number') return { value: LIST_KEYS.has(key) ? [String(value)] : String(value) };
  if (Array.isArray(value) && LIST_KEYS.has(key)) {
    // An empty list is a column left out, as an empty cell is.
    if (value.length === 0) return {};
    if (value.every((v) => typeof v === 'string' || typeof v === 'number')) return { value: value.map(String) };
    return { problem: `${key}: expected a list of texts or numbers` };
  }
  return { problem: `${key}: expected ${LIST_KEYS.has(key) ? 'text or a list' : 'text or a number'}, got ${Array.isArray(value) ? 'a list' : typeof value}` };
}

/**
 * The values with their CRLF as LF, as a text body read from a file has them (README: Text
 * values); the hash is of the text as the file holds it, so a report written before still resumes.
 */
function makeRow(row: number, line: number | undefined, values: RawFieldValues, problems: string[]): InputRow {
  const sent = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'string' ? lineFeeds(value) : value?.map(lineFeeds)]));
  return { row, line, values: sent, hash: rowHash(values), problems };
}

/**
 * The keys given twice in each object at `depth` (1: the text is one object; 2: objects in an
 * array) of a text JSON.parse accepted, which keeps the last value of a key silently.
 */
function keysGivenTwice(text: string, depth: number): string[][] {
  const objects: string[][] = [];
  // A container's keys so far; null for an array.
  const open: (Set<string> | null)[] = [];
  let keyNext = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      if (keyNext && keys) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (keys.has(key) && open.length === depth) objects.at(-1)!.push(key);
        keys.add(key);
      }
      keyNext = false;
      at = end;
    } else if (char === '{') {
      open.push(new Set());
      if (open.length === depth) objects.push([]);
      keyNext = true;
    } else if (char === '[') open.push(null);
    else if (char === '}' || char === ']') open.pop();
    else if (char === ',') keyNext = Boolean(open.at(-1));
  }
  return objects;
}

/** Where README.md shows how to turn tickets tkt printed into rows. */
const COPY_RECIPE = 'see "Copying tickets between profiles" in the README';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The command that printed a ticket in this shape, when the object is one: `show --json`'s
 * detail holds its requester and lookups as objects (`"site": {"id": 1, "title": "HQ"}`), a
 * `list --json` item has a `ticketId`. Neither is a row of create columns.
 */
function printedBy(object: Record<string, unknown>): string | undefined {
  const keys = new Map(Object.entries(object).map(([name, value]) => [columnKey(name), value]));
  if (['creator', 'site', 'department', 'status', 'priority'].some((key) => isObject(keys.get(key)))) return 'tkt show --json';
  if (keys.has('ticketid')) return 'tkt list --json';
  return undefined;
}

function objectRow(row: number, line: number | undefined, parsed: unknown, endpoint: TicketEndpoint, givenTwice: readonly string[] = []): InputRow {
  if (!isObject(parsed)) {
    return { ...makeRow(row, line, {}, ['expected an object like {"title": "...", ...}']), unreadable: true };
  }
  // One line instead of a problem per member it has, or lacks.
  const command = printedBy(parsed);
  if (command !== undefined) {
    const problem = `looks like a ticket as "${command}" prints it, not a row of create columns (title, description, requester, site, ...): ${COPY_RECIPE}`;
    return { ...makeRow(row, line, {}, [problem]), unreadable: true };
  }
  const values: RawFieldValues = {};
  // The same key twice: JSON.parse kept the last value, which may not be the one meant.
  const problems = [...new Set(givenTwice.map((name) => `${columnKey(name)} given twice`))];
  const seen = new Set<string>();
  for (const [name, raw] of Object.entries(parsed)) {
    const key = columnKey(name);
    // "title" and "Title" are one column: which value was meant cannot be guessed (as in CSV).
    if (seen.has(key)) {
      problems.push(`${key} given twice`);
      continue;
    }
    seen.add(key);
    const columnIssue = columnProblem(key, endpoint);
    if (columnIssue !== undefined) {
      problems.push(columnIssue);
      continue;
    }
    const { value, problem } = jsonValue(key, raw);
    if (problem !== undefined) problems.push(problem);
    else if (value !== undefined) values[key] = value;
  }
  return makeRow(row, line, values, problems);
}

const filled = (content: string) => content.trim() !== '';

/**
 * The number of lines of text read as JSON Lines that is JSON pretty-printed over them instead
 * (`tkt show --json`, `jq .`): its first line opens a document, its last one closes one, and
 * neither is a row. Undefined for anything else.
 */
function spreadOverLines(lines: readonly string[]): number | undefined {
  const first = lines.find(filled)?.trim() ?? '';
  const last = lines.findLastIndex(filled);
  return /^[[{]$/.test(first) && /^[\]}]$/.test(lines[last]!.trim()) ? last + 1 : undefined;
}

/** The refusal of JSON spread over lines, with the form that works for what it holds. */
function spreadError(text: string, lineCount: number): UsageError {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    // Several documents one after another (a loop of `tkt show --json`), or a broken one.
  }
  const command = isObject(document) ? printedBy(document) : undefined;
  const hint = Array.isArray(document)
    ? "a JSON array is read as rows from stdin or a file not named .jsonl or .ndjson; or make it JSON Lines: jq -c '.[]'"
    : command !== undefined
      ? `it looks like a ticket as "${command}" prints it, which is not a row of create columns either: ${COPY_RECIPE}`
      : "put each object on a line of its own: jq -c '.'";
  return new UsageError(`the input is JSON pretty-printed over ${lineCount} lines, not JSON Lines (one object per line)`, { hint });
}

function jsonLinesRows(text: string, endpoint: TicketEndpoint): InputRow[] {
  const rows: InputRow[] = [];
  const lines = text.split(/\r?\n/);
  const spread = spreadOverLines(lines);
  if (spread !== undefined) throw spreadError(text, spread);
  lines.forEach((content, index) => {
    if (content.trim() === '') return;
    const row = rows.length + 1;
    try {
      rows.push(objectRow(row, index + 1, JSON.parse(content), endpoint, keysGivenTwice(content, 1)[0]));
    } catch (error) {
      rows.push({ ...makeRow(row, index + 1, {}, [`not valid JSON: ${(error as Error).message}`]), unreadable: true });
    }
  });
  return rows;
}

function jsonArrayRows(text: string, endpoint: TicketEndpoint): InputRow[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`not valid JSON: ${(error as Error).message}`, { hint: 'use JSON Lines (one object per line) or a JSON array of objects' });
  }
  if (!Array.isArray(parsed)) throw new UsageError('expected a JSON array of objects, or JSON Lines');
  const givenTwice = keysGivenTwice(text, 2);
  // Objects and non-objects are numbered apart: a row that is no object is refused whole anyway.
  let object = 0;
  return parsed.map((item, index) => objectRow(index + 1, undefined, item, endpoint, isObject(item) ? givenTwice[object++] : []));
}

/**
 * The delimiter of a CSV file, told by its header: a comma, unless the header read with commas
 * is one cell holding `;` or a tab but not both (no column name holds either), as a spreadsheet
 * in some locales saves it (README: Many tickets).
 */
function csvDelimiter(text: string): CsvDelimiter {
  const [only, ...others] = parseCsv(text, { maxRecords: 1 })[0]?.cells ?? [];
  if (only === undefined || others.length > 0) return ',';
  const found = ([';', '\t'] as const).filter((delimiter) => only.includes(delimiter));
  return found.length === 1 ? found[0]! : ',';
}

const isBlank = (cell: string) => cell.trim() === '';

/** The problems of a CSV header: columns unknown, foreign, named twice, or nameless yet holding values. */
function headerProblems(keys: readonly string[], records: readonly CsvRecord[], delimiter: CsvDelimiter, endpoint: TicketEndpoint): string[] {
  const delimiterNote = delimiter === ',' ? '' : ` (the file is read as delimited by ${JSON.stringify(delimiter)}, as its header is)`;
  const problems = keys.flatMap((key, column) => {
    if (key === '') {
      // A spreadsheet adds a nameless column (a trailing delimiter): harmless while it is empty.
      const index = records.findIndex((record) => !isBlank(record.cells[column] ?? ''));
      const record = records[index];
      return record === undefined
        ? []
        : [`column ${column + 1} has no name, but row ${index + 1} (line ${record.line}) has a value under it: ${JSON.stringify(record.cells[column])}`];
    }
    const problem = columnProblem(key, endpoint);
    return problem === undefined ? [] : [problem.startsWith('unknown') ? `${problem}${delimiterNote}` : problem];
  });
  const duplicates = keys.filter((key, index) => key !== '' && keys.indexOf(key) !== index);
  if (duplicates.length > 0) problems.push(`column${duplicates.length === 1 ? '' : 's'} named twice: ${[...new Set(duplicates)].join(', ')}`);
  return problems;
}

function csvRows(text: string, endpoint: TicketEndpoint): InputRow[] {
  const delimiter = csvDelimiter(text);
  const [header, ...allRecords] = parseCsv(text, { delimiter });
  if (header === undefined) return [];
  // A row of empty cells (`,,,,` from a spreadsheet) is skipped as a blank line is.
  const records = allRecords.filter((record) => !record.cells.every(isBlank));
  const keys = header.cells.map(columnKey);
  const problems = headerProblems(keys, records, delimiter, endpoint);
  if (problems.length > 0) {
    // A column kept for people (Notes) is refused all the same: a misspelt one must not drop data silently.
    const unknown = keys.some((key) => key !== '' && !KNOWN_KEYS.has(key));
    throw new UsageError(`the CSV header (line ${header.line}) is not usable`, {
      details: problems,
      hint: `${unknown ? 'remove the columns that are not ticket fields (or keep them in another file), and correct a misspelt name; ' : ''}columns are named like the create options: ${fieldsFor(
        endpoint,
      )
        .map((spec) => spec.key)
        .filter((k, i, all) => all.indexOf(k) === i)
        .join(', ')}`,
    });
  }
  // A record may leave out the nameless columns at the end of the header, not a named one.
  const namedCount = keys.findLastIndex((key) => key !== '') + 1;
  return records.map((record, index) => {
    const values: RawFieldValues = {};
    keys.forEach((key, column) => {
      const value = key === '' ? undefined : cellValue(key, record.cells[column] ?? '');
      if (value !== undefined) values[key] = value;
    });
    const fits = record.cells.length >= namedCount && record.cells.length <= keys.length;
    const rowProblems = fits ? [] : [`has ${record.cells.length} fields, the header has ${keys.length}`];
    return makeRow(index + 1, record.line, values, rowProblems);
  });
}

/** The rows of an input file. A file-wide problem (bad CSV header or quoting) throws UsageError. */
export function readRows(text: string, format: RowFormat, endpoint: TicketEndpoint): InputRow[] {
  if (format === 'csv') return csvRows(text, endpoint);
  if (format === 'json') return jsonArrayRows(text, endpoint);
  return jsonLinesRows(text, endpoint);
}
