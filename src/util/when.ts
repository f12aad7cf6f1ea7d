import { UsageError } from '../errors.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// Date-time; the seconds, fraction and zone are optional. A space may stand for the "T".
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
// `+3d` ahead; `-7d` back (list --created-after -7d).
const RELATIVE = /^([+-])(\d{1,6})([mhdw])$/i;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

function invalid(text: string): UsageError {
  return new UsageError(`invalid date ${JSON.stringify(text)}: use ISO 8601 (2026-12-01, 2026-12-01T14:00) or +3d/+4h/+30m`);
}

function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; UTC so no zone shifts it.
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

function isPossible(f: Fields): boolean {
  return f.month >= 1 && f.month <= 12 && f.day >= 1 && f.day <= daysInMonth(f.year, f.month) && f.hour <= 23 && f.minute <= 59 && f.second <= 59;
}

function localDate(f: Fields): Date {
  // setFullYear, not the Date constructor, which maps years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setFullYear(f.year, f.month - 1, f.day);
  date.setHours(f.hour, f.minute, f.second, f.millisecond);
  return date;
}

/** Minutes east of UTC for "Z", "+02", "+0200" or "+02:00"; undefined when out of range. */
function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone === 'Z' || zone === 'z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}

function addRelative(now: Date, amount: number, unit: string): Date {
  const lower = unit.toLowerCase();
  if (lower === 'm') return new Date(now.getTime() + amount * MINUTE_MS);
  if (lower === 'h') return new Date(now.getTime() + amount * HOUR_MS);
  // Calendar days, so "+1d" keeps the wall-clock time across a DST change.
  const result = new Date(now.getTime());
  result.setDate(result.getDate() + (lower === 'w' ? amount * 7 : amount));
  return result;
}

/**
 * Parses a WHEN value (docs/cli.md section 7) relative to `now`:
 * - `2026-12-01`: the END of that day in local time (23:59:59), because WHEN is mostly a due
 *   date and "due 1 December" means "by the end of 1 December", not its first second;
 * - `2026-12-01T14:00`, `2026-12-01 14:00:30`: local time; with `Z` or `+02:00`: that zone;
 * - `+30m`, `+4h` (exact durations), `+3d`, `+1w` (calendar days, same wall-clock time);
 *   `-7d` and the like count back from now.
 * Impossible dates such as 2026-02-30 or 25:00 are refused rather than rolled over.
 */
export function parseWhen(text: string, now: Date): Date {
  const value = text.trim();

  const relative = RELATIVE.exec(value);
  if (relative) {
    const date = addRelative(now, Number(relative[2]) * (relative[1] === '-' ? -1 : 1), relative[3]!);
    if (Number.isNaN(date.getTime())) throw invalid(text);
    return date;
  }

  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) {
    const fields: Fields = {
      year: Number(dateOnly[1]),
      month: Number(dateOnly[2]),
      day: Number(dateOnly[3]),
      hour: 23,
      minute: 59,
      second: 59,
      millisecond: 0,
    };
    if (!isPossible(fields)) throw invalid(text);
    return localDate(fields);
  }

  const dateTime = DATE_TIME.exec(value);
  if (dateTime) {
    const [, year, month, day, hour, minute, second, fraction, zone] = dateTime;
    const fields: Fields = {
      year: Number(year),
      month: Number(month),
      day: Number(day),
      hour: Number(hour),
      minute: Number(minute),
      second: Number(second ?? 0),
      // Milliseconds only; finer digits are dropped, not rounded, so 59.9999 stays in its second.
      millisecond: Number((fraction ?? '').padEnd(3, '0').slice(0, 3)),
    };
    if (!isPossible(fields)) throw invalid(text);
    if (zone === undefined) return localDate(fields);
    const offset = zoneOffsetMinutes(zone);
    if (offset === undefined) throw invalid(text);
    const utc = new Date(0);
    utc.setUTCFullYear(fields.year, fields.month - 1, fields.day);
    utc.setUTCHours(fields.hour, fields.minute, fields.second, fields.millisecond);
    return new Date(utc.getTime() - offset * MINUTE_MS);
  }

  throw invalid(text);
}
