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

/**
 * A ticket ID as typed by the user: digits only, or "#" and digits as tkt prints IDs (surrounding
 * blanks allowed), 1 up to Number.MAX_SAFE_INTEGER so it survives the round trip through a JS
 * number unchanged. "12a", "1e3", "-4", "0x10", "0" and "# 12" are all refused before any
 * request is sent.
 */
export function parseTicketId(text: string): number {
  const id = ticketIdOf(text);
  if (id === undefined) throw new UsageError(`invalid ticket ID ${JSON.stringify(text)}: ${idProblem(text)}`);
  return id;
}

/** The ticket ID `text` is, as parseTicketId reads it, or undefined for anything else. */
export function ticketIdOf(text: string): number | undefined {
  return parseWholeNumber(text.trim().replace(/^#(?=\d)/, ''), { min: 1 });
}
