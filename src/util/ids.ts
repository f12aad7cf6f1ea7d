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
  return /^\d+$/.test(digits) && Number(digits) > Number.MAX_SAFE_INTEGER
    ? `out of range: IDs go up to ${Number.MAX_SAFE_INTEGER}`
    : 'expected a positive whole number';
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
