// Short human times for tables: "in 3h", "2d overdue", "5m ago". Dates are shown in the
// machine's local time, as a technician reads a wall clock, without seconds.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;

const UNITS = [
  { ms: MINUTE, suffix: 'm', next: HOUR },
  { ms: HOUR, suffix: 'h', next: DAY },
  { ms: DAY, suffix: 'd', next: YEAR },
] as const;

/**
 * A duration in its largest unit, rounded to the nearest as a person says it ("about 4 hours",
 * as gh does): a due date set 4 hours ahead still reads "4h" seconds later, and 3h29m reads
 * "3h". A rounding that reaches the next unit takes it: "1h", never "60m". "<1m" under a minute.
 */
export function compactDuration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < MINUTE) return '<1m';
  for (const unit of UNITS) {
    const count = Math.round(abs / unit.ms);
    if (count * unit.ms < unit.next) return `${count}${unit.suffix}`;
  }
  return `${Math.round(abs / YEAR)}y`;
}

/** "in 3h" for the future, "3h ago" for the past. */
export function relativeTime(date: Date, now: Date): string {
  const diff = date.getTime() - now.getTime();
  return diff >= 0 ? `in ${compactDuration(diff)}` : `${compactDuration(diff)} ago`;
}

function isLocalMidnight(date: Date): boolean {
  return date.getHours() === 0 && date.getMinutes() === 0 && date.getSeconds() === 0 && date.getMilliseconds() === 0;
}

function localDayNumber(date: Date): number {
  return Math.round(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / DAY);
}

/** Whether both fall on the same calendar day, local time (tkt status's "due today"). */
export function sameLocalDay(a: Date, b: Date): boolean {
  return localDayNumber(a) === localDayNumber(b);
}

export interface DueText {
  /** "" when there is no due date. */
  text: string;
  overdue: boolean;
}

/** What the ticket says of its due date. */
export interface DueState {
  /** Whether a past due date counts: undefined to judge by the date alone (the service's flag when it sends one). */
  overdue?: boolean | undefined;
  /** The ticket is resolved or closed: its due date is history, shown as a date. */
  settled?: boolean | undefined;
}

/**
 * A due date relative to now: "in 3h", "2d overdue". A due date at local midnight still ahead
 * is a date without a time (the service's day-only dues): it reads "in 1d" by calendar day.
 * Once it has passed it reads as every past due date, "11h overdue", never "today": the service
 * counts it overdue from that instant (isOverdue), and so do `tkt status` and `--overdue`. A past
 * due date that does not count (`overdue` false) reads "2d ago". A resolved or closed ticket's
 * reads as its day, "2026-11-23": how far it is from now means nothing once the work is done.
 */
export function formatDue(due: Date | undefined, now: Date, { overdue, settled }: DueState = {}): DueText {
  if (due === undefined || Number.isNaN(due.getTime())) return { text: '', overdue: false };
  if (settled === true) return { text: formatDay(due), overdue: false };
  const diff = due.getTime() - now.getTime();
  if (diff < 0) {
    const ago = compactDuration(diff);
    return overdue === false ? { text: `${ago} ago`, overdue: false } : { text: `${ago} overdue`, overdue: true };
  }
  const ahead = isLocalMidnight(due) && diff > 0 ? `${localDayNumber(due) - localDayNumber(now)}d` : compactDuration(diff);
  return { text: `in ${ahead}`, overdue: overdue === true };
}

const two = (n: number) => String(n).padStart(2, '0');

/** "2026-11-22", the local day. */
export function formatDay(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** "2026-11-22 14:05" in local time; "" for an invalid date. */
export function formatDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  return `${formatDay(date)} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
