import { UsageError } from '../errors.js';

/**
 * A whole number as typed by the user: digits only (surrounding blanks allowed), from `min`
 * to `max` (default Number.MAX_SAFE_INTEGER, so it survives the trip through a JS number).
 * Undefined for anything else ("12a", "1e3", "-4", "0x10", out of range): callers throw
 * their own message.
 */
export function parseWholeNumber(text: string, range: { min: number; max?: number }): number | undefined {
  const digits = text.trim();
  const value = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
  return Number.isSafeInteger(value) && value >= range.min && value <= (range.max ?? Number.MAX_SAFE_INTEGER) ? value : undefined;
}

/** A whole-number option as typed (`--port 0`, `--limit 5`): its value, or exit 2 naming the option and the range. */
export function wholeNumberOption(option: string, text: string, range: { min: number; max?: number }): number {
  const value = parseWholeNumber(text, range);
  if (value === undefined) {
    const to = range.max === undefined ? '' : ` to ${range.max}`;
    throw new UsageError(`invalid ${option} ${JSON.stringify(text)}: expected a whole number from ${range.min}${to}`);
  }
  return value;
}

/**
 * Why parseWholeNumber refused `text` as an ID (from 1): digits past Number.MAX_SAFE_INTEGER
 * are a whole number all the same, so they are said to be out of range.
 */
export function idProblem(text: string): string {
  const digits = text.trim().replace(/^#(?=\d)/, '');
  const separated = separatedNumber(digits);
  if (separated?.text === digits) return separated.reason ?? separated.advice;
  return /^\d+$/.test(digits) && Number(digits) > Number.MAX_SAFE_INTEGER
    ? `out of range: IDs go up to ${Number.MAX_SAFE_INTEGER}`
    : 'expected a positive whole number';
}

// Digits run on by "," or "." and more digits: "1,031", "1031.5", "1.031.555", "1031,1032".
const SEPARATED_NUMBER = /^\d+(?:[.,]\d+)+/;

/** Why a number that `text` starts with, written with separators, is no ID, and how to write it when that is clear. */
export type SeparatedNumber = { text: string } & ({ reason: string; advice?: undefined } | { reason?: undefined; advice: string });

/**
 * The separated number `text` starts with, or undefined when it starts with none: a thousands
 * separator (`1,031`; `1.031.555`) is written without it, a single "." is a decimal number, anything
 * else (`1031,1032`) is taken for several IDs on one line. Its first digits alone are never the ID.
 */
export function separatedNumber(text: string): SeparatedNumber | undefined {
  const number = SEPARATED_NUMBER.exec(text)?.[0];
  if (number === undefined) return undefined;
  const separators = new Set(number.replace(/\d/g, ''));
  const groups = number.split(/[.,]/);
  const grouped = separators.size === 1 && groups[0]!.length <= 3 && groups.slice(1).every((group) => group.length === 3);
  // "1.031" is a decimal as often as a thousand: only two or more groups tell.
  if (grouped && (separators.has(',') || groups.length > 2)) return { text: number, advice: `write it as ${groups.join('')}` };
  if (separators.size === 1 && separators.has('.') && groups.length === 2) return { text: number, reason: 'a decimal number' };
  return { text: number, advice: 'write one ID per line' };
}

// A range of IDs as tkt's summaries print one (src/bulk/ranges.ts), "#1001-1010"; also typed
// "1001-1010" or "#1001-#1010".
const ID_RANGE = /^#?(\d+)-#?(\d+)$/;
// Between the ranges of a summary's list: a comma and blanks ("#1001-1010, #1013"). A comma and
// no blank is no such list: "1,031" has a thousands separator, "1031,1032" is refused as before.
const LIST_SEPARATOR = /,\s+/;

/**
 * A ticket ID as typed by the user: digits only, or "#" and digits as tkt prints IDs (surrounding
 * blanks allowed), 1 up to Number.MAX_SAFE_INTEGER so it survives the round trip through a JS
 * number unchanged. "12a", "1e3", "-4", "0x10", "0" and "# 12" are all refused before any
 * request is sent. `command`, one that takes a single ID, is named when `text` is several
 * (`show 1001-1010`: "show takes one ticket ID, not a range").
 */
export function parseTicketId(text: string, command?: string): number {
  const id = ticketIdOf(text);
  if (id !== undefined) return id;
  const several = ID_RANGE.test(text.trim()) ? 'a range' : LIST_SEPARATOR.test(text) ? 'a list' : undefined;
  const problem = command === undefined || several === undefined ? idProblem(text) : `${command} takes one ticket ID, not ${several}`;
  throw new UsageError(`invalid ticket ID ${JSON.stringify(text)}: ${problem}`);
}

/** The ticket ID `text` is, as parseTicketId reads it, or undefined for anything else. */
export function ticketIdOf(text: string): number | undefined {
  return parseWholeNumber(text.trim().replace(/^#(?=\d)/, ''), { min: 1 });
}

/**
 * The most IDs one run takes, however written: about four million, more than stdin's 16 MB hold
 * one a line, so that any list a run printed goes back in, and `1-9007199254740991` is refused
 * rather than filling the memory.
 */
export const MAX_RUN_IDS = 2 ** 22;

/** From `first` to `last`, both included: a lone ID, or a range of them. */
export interface IdSpan {
  first: number;
  last: number;
}

/** The count of IDs `spans` stand for. */
export const spanCount = (spans: readonly IdSpan[]): number => spans.reduce((sum, span) => sum + span.last - span.first + 1, 0);

/** The IDs of `spans`, in their order. */
export function spanIds(spans: readonly IdSpan[]): number[] {
  const ids: number[] = [];
  for (const { first, last } of spans) for (let id = first; id <= last; id++) ids.push(id);
  return ids;
}

/** `spans` as typed: "#1001-1010, #1013". */
export const idSpansText = (spans: readonly IdSpan[]): string =>
  spans.map(({ first, last }) => (first === last ? `#${first}` : `#${first}-${last}`)).join(', ');

/** The range `text` is ("1001-1010", "#1001-1010", "#1001-#1010"), undefined when it is none; exit 2 for a range that names no IDs. */
function idRangeOf(text: string): IdSpan | undefined {
  const match = ID_RANGE.exec(text.trim());
  if (match === null) return undefined;
  const said = `invalid ID range ${JSON.stringify(text.trim())}`;
  const [first, last] = [match[1]!, match[2]!].map((digits) => {
    const id = ticketIdOf(digits);
    if (id === undefined) throw new UsageError(`${said}: ${digits} is no ticket ID (${idProblem(digits)})`);
    return id;
  }) as [number, number];
  // tkt never prints these: a typing mistake, whichever ID was meant.
  if (first > last) throw new UsageError(`${said}: the first ID is the higher; write ${last}-${first}`);
  if (first === last) throw new UsageError(`${said}: from an ID to itself; write ${first}`);
  if (last - first + 1 > MAX_RUN_IDS) throw new UsageError(`${said}: ${last - first + 1} IDs, more than the ${MAX_RUN_IDS} one run takes`);
  return { first, last };
}

/**
 * The IDs an argument of an `ID...` command stands for, as tkt's summaries print them: an ID, a
 * range ("1001-1010", "#1001-1010"), or a list of them apart by a comma and blanks ("#1001-1010,
 * #1013"); one "," at its end is the list's, copied with it (`tkt read '#1001-1010,' '#1013'`).
 * Exit 2 for anything else, as parseTicketId says it ("1,031": write it as 1031).
 */
export function ticketSpans(text: string): IdSpan[] {
  const items = text.trim().replace(/,$/, '').split(LIST_SEPARATOR);
  return items.map((item) => {
    const range = idRangeOf(item);
    if (range !== undefined) return range;
    const id = ticketIdOf(item);
    // Named as typed when it is the whole argument: "1,031," is no ID (write it as 1031).
    if (id === undefined) throw new UsageError(`invalid ticket ID ${JSON.stringify(items.length === 1 ? text : item)}: ${idProblem(item)}`);
    return { first: id, last: id };
  });
}

/** The spans of `text` as ticketSpans reads them, or undefined for a word that is no IDs. */
export function ticketSpansOf(text: string): IdSpan[] | undefined {
  try {
    return ticketSpans(text);
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}
