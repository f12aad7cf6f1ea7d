import { UsageError } from '../errors.js';

/** A date alone, which WHEN reads as the end of that day. */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// Date-time; the seconds, fraction and zone are optional. A space may stand for the "T".
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;
// `+3d` ahead; `-7d` back (list --created-after -7d). D, H and W mean d, h and w (no other unit
// is spelt so); upper-case M is read only to be refused (relativeOf), as it reads as months.
const RELATIVE = /^([+-])(\d{1,6})([mhdw])$/i;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface WhenOptions {
  /** The option looks back (list --created-after): its advice counts back from now, -7d rather than +3d. */
  past?: boolean | undefined;
}

function invalid(text: string, { past }: WhenOptions): UsageError {
  const relative = past === true ? '-7d/-4h/-30m' : '+3d/+4h/+30m';
  return new UsageError(`invalid date ${JSON.stringify(text)}: use ISO 8601 (2026-12-01, 2026-12-01T14:00) or ${relative}`);
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

/** The fields read as UTC: a wall-clock time as a number, to count with. */
function utcOf(f: Fields): number {
  // setUTCFullYear, not Date.UTC, which maps years 0..99 to 1900..1999.
  const utc = new Date(0);
  utc.setUTCFullYear(f.year, f.month - 1, f.day);
  utc.setUTCHours(f.hour, f.minute, f.second, f.millisecond);
  return utc.getTime();
}

function localFields(date: Date): Fields {
  return {
    year: date.getFullYear(),
    month: date.getMonth() + 1,
    day: date.getDate(),
    hour: date.getHours(),
    minute: date.getMinutes(),
    second: date.getSeconds(),
    millisecond: date.getMilliseconds(),
  };
}

const two = (n: number) => String(n).padStart(2, '0');

/** A wall-clock time (utcOf's number) as WHEN takes it: 2027-03-14T03:00, seconds when there are some. */
function wallText(wall: number): string {
  const d = new Date(wall);
  const seconds = d.getUTCSeconds() === 0 ? '' : `:${two(d.getUTCSeconds())}`;
  return `${String(d.getUTCFullYear()).padStart(4, '0')}-${two(d.getUTCMonth() + 1)}-${two(d.getUTCDate())}T${two(d.getUTCHours())}:${two(d.getUTCMinutes())}${seconds}`;
}

/** "+05:30", "-03:30" for minutes east of UTC. */
function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/**
 * Exit 2 for a local time the clocks skip (the spring-forward gap), as GNU date refuses it:
 * Date would move it on by the gap's length, and a ticket would be due at a time nobody typed.
 * `resolved` is where Date put it: read with the offset from before the change, so the change
 * lies in (resolved - gap, resolved].
 */
function skippedTime(text: string, asked: Fields, resolved: Date): UsageError {
  const resolvedWall = utcOf(localFields(resolved));
  const gap = resolvedWall - utcOf(asked);
  const offsetAt = (ms: number) => -new Date(ms).getTimezoneOffset();
  const after = offsetAt(resolved.getTime());
  let [before, change] = [resolved.getTime() - gap, resolved.getTime()];
  while (change - before > 1) {
    const middle = Math.floor((before + change) / 2);
    if (offsetAt(middle) === after) change = middle;
    else before = middle;
  }
  const firstAfter = utcOf(localFields(new Date(change)));
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const withOffset = `${text.trim()}${offsetText(after - gap / MINUTE_MS)}`;
  const [from, to] = [wallText(firstAfter - gap), wallText(firstAfter)];
  // The times alone, unless the gap is a whole day (Pacific/Apia, 30 December 2011).
  const sameDay = from.slice(0, 10) === to.slice(0, 10);
  return new UsageError(
    `${JSON.stringify(text)} does not exist in ${zone}: the clocks go forward from ${sameDay ? from.slice(11) : from} to ${sameDay ? to.slice(11) : to} that night; ` +
      `use ${to} (the first time after the gap) or give the offset (${withOffset} is ${wallText(resolvedWall).slice(11)} after the change)`,
  );
}

function localDate(f: Fields, text: string): Date {
  // setFullYear, not the Date constructor, which maps years 0..99 to 1900..1999.
  const date = new Date(0);
  date.setFullYear(f.year, f.month - 1, f.day);
  date.setHours(f.hour, f.minute, f.second, f.millisecond);
  // An ambiguous time (the fall-back hour) is the first of the two, as Date reads it (README, Dates).
  if (utcOf(localFields(date)) !== utcOf(f)) throw skippedTime(text, f, date);
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

/** `+3d`, `-90m` from now; exit 2 for `-1M`, which a user may mean as a month and would get a minute. */
function relativeOf(match: RegExpExecArray, text: string, now: Date, options: WhenOptions): Date {
  const [, sign, amount, unit] = match;
  if (unit === 'M') {
    throw new UsageError(`invalid date ${JSON.stringify(text)}: M is not a unit`, { hint: `m is minutes; for months use days, e.g. ${sign}30d` });
  }
  const date = addRelative(now, Number(amount) * (sign === '-' ? -1 : 1), unit!);
  if (Number.isNaN(date.getTime())) throw invalid(text, options);
  return date;
}

/** The date of `2026-12-01` at midnight; exit 2 for an impossible one (2026-02-30). */
function dayFields(match: RegExpExecArray, text: string, options: WhenOptions): Fields {
  const fields: Fields = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]), hour: 0, minute: 0, second: 0, millisecond: 0 };
  if (!isPossible(fields)) throw invalid(text, options);
  return fields;
}

/**
 * Parses a WHEN value (docs/cli.md section 7) relative to `now`:
 * - `2026-12-01`: the END of that day in local time (23:59:59), because WHEN is mostly a due
 *   date and "due 1 December" means "by the end of 1 December", not its first second (a date
 *   filter's bound is the instant the day ends instead: parseBound);
 * - `2026-12-01T14:00`, `2026-12-01 14:00:30`: local time; with `Z` or `+02:00`: that zone;
 * - `+30m`, `+4h` (exact durations), `+3d`, `+1w` (calendar days, same wall-clock time);
 *   `-7d` and the like count back from now. `-1M` is refused: m is minutes, months no unit.
 * Impossible dates such as 2026-02-30 or 25:00 are refused rather than rolled over, and so is a
 * local time the clocks skip when they go forward (2027-03-14T02:30 in America/St_Johns).
 */
export function parseWhen(text: string, now: Date, options: WhenOptions = {}): Date {
  const value = text.trim();

  const relative = RELATIVE.exec(value);
  if (relative) return relativeOf(relative, text, now, options);

  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) return localDate({ ...dayFields(dateOnly, text, options), hour: 23, minute: 59, second: 59 }, text);

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
    if (!isPossible(fields)) throw invalid(text, options);
    if (zone === undefined) return localDate(fields, text);
    const offset = zoneOffsetMinutes(zone);
    if (offset === undefined) throw invalid(text, options);
    return new Date(utcOf(fields) - offset * MINUTE_MS);
  }

  throw invalid(text, options);
}

/** A date filter's bound (`list --created-after WHEN`): an instant, and which side of it is in. */
export interface Bound {
  at: Date;
  /** A date alone: `at` is the instant its day ends, and a time at it is after the day, not before it. */
  dayEnd: boolean;
}

/**
 * Reads a date filter's bound. A date alone is the instant its day ends, the next local midnight
 * (23 or 25 hours after the last on a day the clocks change), so that `--X-after D` (at or after
 * it) and `--X-before D` (before it) split time with no gap and no overlap, to the millisecond:
 * consecutive weeks take every ticket once. Every other WHEN is as parseWhen reads it.
 */
export function parseBound(text: string, now: Date, options: WhenOptions = {}): Bound {
  const dateOnly = DATE_ONLY.exec(text.trim());
  if (!dateOnly) return { at: parseWhen(text, now, options), dayEnd: false };
  const day = dayFields(dateOnly, text, options);
  const at = new Date(0);
  at.setFullYear(day.year, day.month - 1, day.day + 1);
  // Where the clocks skip midnight (America/Santiago in September), Date moves it on to the first
  // time after the gap: still the instant the day ends.
  at.setHours(0, 0, 0, 0);
  return { at, dayEnd: true };
}
