import { describe, expect, it } from 'vitest';
import { isoUtc } from '../../src/util/iso-time.js';

describe('isoUtc', () => {
  it('writes what toISOString writes, for dates across the years 0 to 9999', () => {
    const dates = [
      0,
      1,
      -1,
      951_782_400_000,
      1_795_686_610_219,
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(0, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (let time = Date.UTC(1, 0, 1); time < Date.UTC(9999, 0, 1); time += 7_777_777_777_777 / 97) dates.push(Math.round(time));
    // Date.UTC maps the years 0-99 to 1900-1999: set the year itself.
    const yearZero = new Date(0);
    yearZero.setUTCFullYear(0);
    dates.push(yearZero.getTime(), yearZero.getTime() + 86_400_000 * 59);
    for (const time of dates) expect(isoUtc(new Date(time))).toBe(new Date(time).toISOString());
  });

  it('leaves years outside 0-9999 to toISOString, and an invalid date throws as it does', () => {
    const far = new Date(Date.UTC(10_000, 0, 1));
    const before = new Date(0);
    before.setUTCFullYear(-1);
    expect(isoUtc(far)).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoUtc(before)).toBe(before.toISOString());
    expect(() => isoUtc(new Date(Number.NaN))).toThrow(RangeError);
  });
});
