// A date as ISO 8601 text in UTC, for output that never shows local time (piped and CSV tables).

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * What `date.toISOString()` returns, built from the date's UTC fields: toISOString makes V8 set up
 * the local time zone from ICU's data, about 1 MB of memory on Node 20 and 24 that a piped
 * `tkt list`, which prints UTC only, needed for nothing else (README, Performance). Years outside
 * 0-9999 and invalid dates are left to toISOString (a sign and six digits; a RangeError).
 */
export function isoUtc(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) return date.toISOString();
  const day = `${pad(year, 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
  return `${day}T${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}Z`;
}
