// The date filters' checks before any request (src/listing/filter.ts): each date bounded from
// either side, a range that no time is inside refused. What the bounds match is checked against
// the sandbox in test/commands/list-filters.test.ts.
import { describe, expect, it } from 'vitest';
import { checkFilterOptions, hasFilters, type ListFilterOptions } from '../../src/listing/filter.js';
import { UsageError } from '../../src/errors.js';
import { useTimeZone } from '../helpers/time-zone.js';

useTimeZone('Europe/Berlin');
const now = new Date('2026-11-24T10:00:00Z');

function refusal(options: ListFilterOptions): UsageError {
  try {
    checkFilterOptions(options, now);
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error(`not refused: ${JSON.stringify(options)}`);
}

describe('date filters', () => {
  it('each of the four is a filter', () => {
    expect(hasFilters({})).toBe(false);
    for (const name of ['dueAfter', 'dueBefore', 'createdAfter', 'createdBefore'] as const) expect(hasFilters({ [name]: '-7d' }), name).toBe(true);
  });

  it('takes a range whose end is after its start, on either date, in any spelling of WHEN', () => {
    expect(() => checkFilterOptions({ createdAfter: '2026-11-20', createdBefore: '2026-11-27' }, now)).not.toThrow();
    expect(() => checkFilterOptions({ dueAfter: '-7d', dueBefore: '+1h' }, now)).not.toThrow();
    // A date alone is the instant its day ends, local time: in Berlin the 20th ends at 23:00 UTC, after 22:59:59.999 UTC.
    expect(() => checkFilterOptions({ createdAfter: '2026-11-20T22:59:59.999Z', createdBefore: '2026-11-20' }, now)).not.toThrow();
    // At or after that instant, to before one millisecond later: the instant itself is in the range.
    expect(() => checkFilterOptions({ createdAfter: '2026-11-20', createdBefore: '2026-11-20T23:00:00.001Z' }, now)).not.toThrow();
    // One side alone is no range to check; the two dates are not compared with each other.
    expect(() => checkFilterOptions({ dueBefore: '2020-01-01', createdAfter: '2030-01-01' }, now)).not.toThrow();
  });

  it('refuses a range whose end is before or at its start, naming both', () => {
    const reversed = refusal({ createdAfter: '2026-11-27', createdBefore: '2026-11-20' });
    expect(reversed.message).toBe('--created-before 2026-11-20 is not after --created-after 2026-11-27: the range is empty');
    expect(reversed.hint).toBeUndefined();
    expect(refusal({ dueAfter: '+1d', dueBefore: '-1d' }).message).toBe('--due-before -1d is not after --due-after +1d: the range is empty');
    // The same instant, spelt two ways: the end of the 27th in Berlin is 23:00 UTC; nothing is at or after it and before it.
    expect(refusal({ dueAfter: '2026-11-27', dueBefore: '2026-11-27T23:00Z' }).message).toContain('the range is empty');
    expect(refusal({ dueAfter: '2026-11-27T23:00Z', dueBefore: '2026-11-27' }).message).toContain('the range is empty');
  });

  it('says, for the same date alone on both sides, that it is the end of that day', () => {
    const sameDay = refusal({ createdAfter: '2026-11-27', createdBefore: ' 2026-11-27' });
    expect(sameDay.hint).toBe('a date alone is the end of that day: for the tickets created on 2026-11-27, give --created-after the day before');
    expect(refusal({ dueAfter: '2026-11-27', dueBefore: '2026-11-27' }).hint).toBe(
      'a date alone is the end of that day: for the tickets due on 2026-11-27, give --due-after the day before',
    );
  });

  it('names the option of a bad date, before comparing', () => {
    expect(refusal({ dueAfter: 'soon', dueBefore: '-1d' }).message).toMatch(/^--due-after: invalid date "soon"/);
    expect(refusal({ createdBefore: '2026-02-30' }).message).toMatch(/^--created-before: invalid date "2026-02-30"/);
  });

  it('advises the creation date a time back from now, the due date one ahead, and keeps the hint for -1M', () => {
    expect(refusal({ createdAfter: '7d' }).message).toBe('--created-after: invalid date "7d": use ISO 8601 (2026-12-01, 2026-12-01T14:00) or -7d/-4h/-30m');
    expect(refusal({ createdBefore: 'soon' }).message).toContain('or -7d/-4h/-30m');
    expect(refusal({ dueAfter: '7d' }).message).toContain('or +3d/+4h/+30m');
    const month = refusal({ createdAfter: '-1M' });
    expect([month.message, month.hint]).toEqual(['--created-after: invalid date "-1M": M is not a unit', 'm is minutes; for months use days, e.g. -30d']);
  });
});
