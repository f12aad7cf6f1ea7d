import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactDuration, formatDate, formatDue, relativeTime } from '../../src/output/time.js';

// Local time is part of the behaviour; pin the zone so results do not depend on the machine.
const savedTZ = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (savedTZ === undefined) delete process.env.TZ;
  else process.env.TZ = savedTZ;
});

const now = new Date('2026-11-22T13:05:00Z'); // 14:05 in Berlin
const later = (ms: number) => new Date(now.getTime() + ms);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('compactDuration', () => {
  it('uses the largest unit, rounded to the nearest: "4h" for a due date set 4 hours ahead a few seconds ago', () => {
    expect(compactDuration(30_000)).toBe('<1m');
    expect(compactDuration(59_999)).toBe('<1m');
    expect(compactDuration(MIN + 29_000)).toBe('1m');
    expect(compactDuration(MIN + 30_000)).toBe('2m');
    expect(compactDuration(5 * MIN)).toBe('5m');
    expect(compactDuration(4 * HOUR - 1000)).toBe('4h');
    expect(compactDuration(3 * HOUR + 29 * MIN)).toBe('3h');
    expect(compactDuration(3 * HOUR + 30 * MIN)).toBe('4h');
    expect(compactDuration(2 * DAY + 5 * HOUR)).toBe('2d');
    expect(compactDuration(2 * DAY + 12 * HOUR)).toBe('3d');
    expect(compactDuration(400 * DAY)).toBe('1y');
    expect(compactDuration(-5 * MIN)).toBe('5m');
  });

  it('moves up a unit when the rounding reaches it: never "60m", "24h" or "365d"', () => {
    expect(compactDuration(59 * MIN + 29_000)).toBe('59m');
    expect(compactDuration(59 * MIN + 30_000)).toBe('1h');
    expect(compactDuration(23 * HOUR + 29 * MIN)).toBe('23h');
    expect(compactDuration(23 * HOUR + 30 * MIN)).toBe('1d');
    expect(compactDuration(364 * DAY + 11 * HOUR)).toBe('364d');
    expect(compactDuration(364 * DAY + 12 * HOUR)).toBe('1y');
  });
});

describe('relativeTime', () => {
  it('says "in" for the future and "ago" for the past', () => {
    expect(relativeTime(later(3 * HOUR), now)).toBe('in 3h');
    expect(relativeTime(later(-2 * DAY), now)).toBe('2d ago');
  });

  it('rounds to the nearest unit on both sides of now', () => {
    expect(relativeTime(later(3 * HOUR + 59 * MIN + 59_000), now)).toBe('in 4h');
    expect(relativeTime(later(3 * HOUR + 29 * MIN), now)).toBe('in 3h');
    expect(relativeTime(later(-(3 * HOUR + 59 * MIN + 59_000)), now)).toBe('4h ago');
    expect(relativeTime(later(-(3 * HOUR + 29 * MIN)), now)).toBe('3h ago');
  });
});

describe('formatDue', () => {
  it('counts down to a due time, and up once it is overdue', () => {
    expect(formatDue(later(3 * HOUR + 10 * MIN), now)).toEqual({ text: 'in 3h', overdue: false });
    expect(formatDue(later(2 * DAY + HOUR), now)).toEqual({ text: 'in 2d', overdue: false });
    expect(formatDue(later(-5 * MIN), now)).toEqual({ text: '5m overdue', overdue: true });
    expect(formatDue(later(-2 * DAY - HOUR), now)).toEqual({ text: '2d overdue', overdue: true });
    // A resolved or closed ticket's past due date is only a date; the service's flag wins.
    expect(formatDue(later(-2 * DAY - HOUR), now, { overdue: false })).toEqual({ text: '2d ago', overdue: false });
    expect(formatDue(later(3 * HOUR), now, { overdue: true })).toEqual({ text: 'in 3h', overdue: true });
  });

  it('rounds to the nearest unit: a due date set 4 hours ahead reads "in 4h" seconds later, and "4h overdue" as long after it', () => {
    expect(formatDue(later(4 * HOUR - 5000), now)).toEqual({ text: 'in 4h', overdue: false });
    expect(formatDue(later(3 * HOUR + 29 * MIN), now)).toEqual({ text: 'in 3h', overdue: false });
    expect(formatDue(later(-(3 * HOUR + 59 * MIN + 59_000)), now)).toEqual({ text: '4h overdue', overdue: true });
    expect(formatDue(later(-(3 * HOUR + 29 * MIN)), now, { overdue: false })).toEqual({ text: '3h ago', overdue: false });
  });

  it("gives a resolved or closed ticket's due as its date alone: how far it is from now means nothing once done", () => {
    expect(formatDue(later(23 * HOUR), now, { settled: true })).toEqual({ text: '2026-11-23', overdue: false });
    expect(formatDue(later(-2 * DAY), now, { settled: true, overdue: true })).toEqual({ text: '2026-11-20', overdue: false });
  });

  it('reads a day-only due date (local midnight) still ahead by calendar day', () => {
    expect(formatDue(new Date(2026, 10, 23), now)).toEqual({ text: 'in 1d', overdue: false });
    expect(formatDue(new Date(2026, 10, 25), now)).toEqual({ text: 'in 3d', overdue: false });
  });

  it('reads a passed due date at local midnight as overdue, as the service counts it, never "today"', () => {
    // Today's midnight, 14:05 ago: the service says isOverdue, and so does the table.
    expect(formatDue(new Date(2026, 10, 22), now)).toEqual({ text: '14h overdue', overdue: true });
    expect(formatDue(new Date(2026, 10, 22), now, { overdue: true })).toEqual({ text: '14h overdue', overdue: true });
    expect(formatDue(new Date(2026, 10, 22), now, { overdue: false })).toEqual({ text: '14h ago', overdue: false });
    // As every past due date: 2d14h is nearer 3d.
    expect(formatDue(new Date(2026, 10, 20), now)).toEqual({ text: '3d overdue', overdue: true });
    // At the very instant, it is not yet past.
    expect(formatDue(new Date(2026, 10, 22), new Date(2026, 10, 22))).toEqual({ text: 'in <1m', overdue: false });
  });

  it('is empty without a due date', () => {
    expect(formatDue(undefined, now)).toEqual({ text: '', overdue: false });
    expect(formatDue(new Date('not a date'), now)).toEqual({ text: '', overdue: false });
  });
});

describe('formatDate', () => {
  it('prints local time as YYYY-MM-DD HH:mm', () => {
    expect(formatDate(now)).toBe('2026-11-22 14:05');
    expect(formatDate(new Date('2026-01-05T23:30:00Z'))).toBe('2026-01-06 00:30');
  });

  it('is empty for an invalid date', () => {
    expect(formatDate(new Date('nope'))).toBe('');
  });
});
