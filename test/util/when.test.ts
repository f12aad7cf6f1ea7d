import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { parseBound, parseWhen } from '../../src/util/when.js';
import { useTimeZone } from '../helpers/time-zone.js';

// Local time fields, so the assertions hold whatever the machine's time zone.
function local(date: Date): number[] {
  return [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds()];
}

const now = new Date(2026, 2, 10, 9, 15, 0); // 10 March 2026, 09:15 local

describe('parseWhen', () => {
  it('reads a bare date as the end of that day, local time', () => {
    expect(local(parseWhen('2026-12-01', now))).toEqual([2026, 12, 1, 23, 59, 59, 0]);
    expect(local(parseWhen('2028-02-29', now))).toEqual([2028, 2, 29, 23, 59, 59, 0]);
  });

  it('reads a date-time without a zone as local time', () => {
    expect(local(parseWhen('2026-12-01T14:00', now))).toEqual([2026, 12, 1, 14, 0, 0, 0]);
    expect(local(parseWhen('2026-12-01 14:05:30', now))).toEqual([2026, 12, 1, 14, 5, 30, 0]);
    expect(local(parseWhen('2026-12-01T14:05:30.25', now))).toEqual([2026, 12, 1, 14, 5, 30, 250]);
  });

  it('honours Z and numeric offsets', () => {
    expect(parseWhen('2026-12-01T14:00Z', now).toISOString()).toBe('2026-12-01T14:00:00.000Z');
    expect(parseWhen('2026-12-01T14:00:00+02:00', now).toISOString()).toBe('2026-12-01T12:00:00.000Z');
    expect(parseWhen('2026-12-01T14:00-0530', now).toISOString()).toBe('2026-12-01T19:30:00.000Z');
    expect(parseWhen('2026-12-01T01:00+03', now).toISOString()).toBe('2026-11-30T22:00:00.000Z');
    expect(parseWhen('2026-12-01T14:00:00.123456Z', now).toISOString()).toBe('2026-12-01T14:00:00.123Z');
  });

  it('adds exact minutes and hours', () => {
    expect(parseWhen('+30m', now).getTime() - now.getTime()).toBe(30 * 60_000);
    expect(parseWhen('+4h', now).getTime() - now.getTime()).toBe(4 * 3_600_000);
  });

  it('adds calendar days and weeks keeping the wall-clock time', () => {
    expect(local(parseWhen('+3d', now))).toEqual([2026, 3, 13, 9, 15, 0, 0]);
    expect(local(parseWhen('+1w', now))).toEqual([2026, 3, 17, 9, 15, 0, 0]);
    expect(local(parseWhen('+30d', now))).toEqual([2026, 4, 9, 9, 15, 0, 0]);
    expect(local(parseWhen('+2D', now))).toEqual([2026, 3, 12, 9, 15, 0, 0]);
    // Across the US and EU spring-forward dates of 2026 (8 and 29 March).
    expect(local(parseWhen('+1d', new Date(2026, 2, 7, 9, 15)))).toEqual([2026, 3, 8, 9, 15, 0, 0]);
    expect(local(parseWhen('+1d', new Date(2026, 2, 28, 9, 15)))).toEqual([2026, 3, 29, 9, 15, 0, 0]);
  });

  it('counts back from now with a minus sign (list --created-after -7d)', () => {
    expect(local(parseWhen('-3d', now))).toEqual([2026, 3, 7, 9, 15, 0, 0]);
    expect(parseWhen('-90m', now).getTime()).toBe(now.getTime() - 90 * 60_000);
  });

  it('takes D, H and W for d, h and w: no other unit is spelt so', () => {
    expect(local(parseWhen('-1W', now))).toEqual([2026, 3, 3, 9, 15, 0, 0]);
    expect(parseWhen('-2H', now).getTime()).toBe(now.getTime() - 2 * 3_600_000);
  });

  it('refuses an upper-case M, which reads as months, rather than take it as minutes', () => {
    for (const [text, hint] of [
      ['-1M', 'm is minutes; for months use days, e.g. -30d'],
      ['+2M', 'm is minutes; for months use days, e.g. +30d'],
    ] as const) {
      const error = (() => {
        try {
          parseWhen(text, now);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error, text).toBeInstanceOf(UsageError);
      expect((error as UsageError).message).toBe(`invalid date "${text}": M is not a unit`);
      expect((error as UsageError).hint).toBe(hint);
    }
    expect(parseWhen('-1m', now).getTime()).toBe(now.getTime() - 60_000);
  });

  it('advises counting back for an option that looks back (list --created-after)', () => {
    expect(() => parseWhen('7d', now, { past: true })).toThrow('invalid date "7d": use ISO 8601 (2026-12-01, 2026-12-01T14:00) or -7d/-4h/-30m');
    expect(() => parseBound('7d', now, { past: true })).toThrow('or -7d/-4h/-30m');
    expect(() => parseBound('2026-02-30', now, { past: true })).toThrow('or -7d/-4h/-30m');
  });

  it.each([
    '2026-02-30',
    '2026-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-12-01T24:00',
    '2026-12-01T14:60',
    '2026-12-01T14:00:60',
    '2026-12-01T14:00+25:00',
    '2026-12-1',
    '26-12-01',
    '12/01/2026',
    'tomorrow',
    '3d',
    '-3',
    '+3',
    '+3y',
    '+d',
    '',
    'next week',
  ])('refuses %j with the usage message', (text) => {
    expect(() => parseWhen(text, now)).toThrow(UsageError);
    expect(() => parseWhen(text, now)).toThrow(`invalid date ${JSON.stringify(text)}: use ISO 8601 (2026-12-01, 2026-12-01T14:00) or +3d/+4h/+30m`);
  });
});

describe('parseWhen across a change of the clocks', () => {
  useTimeZone('America/St_Johns');

  it('refuses a local time the clocks skip, saying what to type instead', () => {
    // 14 March 2027: St. John's goes from 02:00 NST (-03:30) to 03:00 NDT (-02:30).
    for (const text of ['2027-03-14T02:30', '2027-03-14T02:00', '2027-03-14 02:59:59']) expect(() => parseWhen(text, now), text).toThrow(UsageError);
    expect(() => parseWhen('2027-03-14T02:30', now)).toThrow(
      '"2027-03-14T02:30" does not exist in America/St_Johns: the clocks go forward from 02:00 to 03:00 that night; ' +
        'use 2027-03-14T03:00 (the first time after the gap) or give the offset (2027-03-14T02:30-03:30 is 03:30 after the change)',
    );
  });

  it('takes the times either side of the gap, and the gap with an offset', () => {
    expect(parseWhen('2027-03-14T01:59:59', now).toISOString()).toBe('2027-03-14T05:29:59.000Z');
    expect(parseWhen('2027-03-14T03:00', now).toISOString()).toBe('2027-03-14T05:30:00.000Z');
    expect(parseWhen('2027-03-14T02:30-03:30', now).toISOString()).toBe('2027-03-14T06:00:00.000Z');
    expect(parseWhen('2027-03-14', now).toISOString()).toBe('2027-03-15T02:29:59.000Z');
  });

  it('reads an hour the clocks repeat (fall back) as its first time, still in summer time', () => {
    // 1 November 2026: 02:00 NDT (-02:30) goes back to 01:00 NST (-03:30); 01:30 comes twice.
    expect(parseWhen('2026-11-01T01:30', now).toISOString()).toBe('2026-11-01T04:00:00.000Z');
  });
});

describe('parseBound', () => {
  useTimeZone('Europe/Berlin');

  it('reads a date alone as the instant its day ends: the next local midnight', () => {
    expect(parseBound('2026-11-22', now)).toEqual({ at: new Date('2026-11-22T23:00:00.000Z'), dayEnd: true });
    expect(parseBound(' 2026-12-31 ', now)).toEqual({ at: new Date('2026-12-31T23:00:00.000Z'), dayEnd: true });
  });

  it('ends a day of 23 or 25 hours at its next midnight, not 24 hours after the last', () => {
    // 29 March 2026 the clocks go forward (23 hours), 25 October back (25 hours).
    expect(parseBound('2026-03-28', now).at.toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(parseBound('2026-03-29', now).at.toISOString()).toBe('2026-03-29T22:00:00.000Z');
    expect(parseBound('2026-10-24', now).at.toISOString()).toBe('2026-10-24T22:00:00.000Z');
    expect(parseBound('2026-10-25', now).at.toISOString()).toBe('2026-10-25T23:00:00.000Z');
  });

  it('keeps every other WHEN as parseWhen reads it, a strict bound', () => {
    expect(parseBound('2026-11-22T23:59:59', now)).toEqual({ at: new Date('2026-11-22T22:59:59.000Z'), dayEnd: false });
    expect(parseBound('-7d', now)).toEqual({ at: parseWhen('-7d', now), dayEnd: false });
    expect(() => parseBound('2026-02-29', now)).toThrow(UsageError);
  });
});

describe('parseBound where the clocks skip midnight', () => {
  useTimeZone('America/Santiago');

  it('ends the day at the first time after the gap', () => {
    // 6 September 2026: midnight does not exist in Santiago, 5 September's 23:59:59.999 (-04:00) is followed by 01:00 (-03:00).
    expect(parseBound('2026-09-05', now).at.toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
