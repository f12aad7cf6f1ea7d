// --timeout as a deadline for one whole exchange with the service. node:http has no
// such limit, undici's own time-outs (behind a proxy) are idle limits, and a request
// undici still queues for a connection does not see its abort signal until it
// connects: a proxy that keeps dropping the CONNECT tunnel (nodejs/undici#3897, fixed
// only in undici 8, which needs Node 22) would hold the run forever. Racing the
// exchange against this clock always ends it.

import type { AbortLike } from './pool.js';

/** The abort reason: named like AbortSignal.timeout()'s, so it is classified as a time-out. */
export class DeadlineExceeded extends Error {
  override readonly name = 'TimeoutError';
}

export interface Deadline {
  /** Aborted when the deadline passes; give it to the request too. */
  readonly signal: AbortLike;
  /** Settles like `work`, or rejects with DeadlineExceeded when the deadline passes first. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Starts the full time again from now: an upload calls it for every chunk it sends. */
  restart(): void;
  /** Stops the clock for good. */
  stop(): void;
  /** Aborts the signal now with `reason` (the run was halted); race still follows the work. */
  abort(reason: unknown): void;
}

/**
 * The longest time a Node timer holds (2^31-1 ms, about 24.8 days); a longer one fires after
 * 1 ms, with a TimeoutOverflowWarning. A longer --timeout means "practically forever": this long.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** `ms`, or the longest time a timer holds when it is longer. */
export function timerMs(ms: number): number {
  return Math.min(ms, LONGEST_TIMER_MS);
}

export function startDeadline(requestedMs: number): Deadline {
  const ms = timerMs(requestedMs);
  // The signal is a plain object of AbortSignal's shape: an AbortController, its EventTarget and
  // a listener on it cost a bulk run about a twentieth of its CPU time.
  let aborted = false;
  let reason: unknown;
  let listeners: (() => void)[] = [];
  const signal: AbortLike = {
    get aborted() {
      return aborted;
    },
    get reason() {
      return reason;
    },
    addEventListener: (_type, listener) => void listeners.push(listener),
    removeEventListener(_type, listener) {
      const index = listeners.indexOf(listener);
      if (index !== -1) listeners.splice(index, 1);
    },
  };
  const abort = (why: unknown): void => {
    if (aborted) return;
    aborted = true;
    reason = why;
    const told = listeners;
    listeners = [];
    for (const listener of told) listener();
  };
  // What race() waits on besides the work: one promise for the whole exchange, made on the
  // first race (no listener on the signal, added and removed for each race, as a bulk run
  // pays that per request).
  let passed: DeadlineExceeded | undefined;
  let expired: Promise<never> | undefined;
  let rejectExpired: ((reason: DeadlineExceeded) => void) | undefined;
  const timer = setTimeout(() => {
    passed = new DeadlineExceeded(`deadline of ${ms}ms passed`);
    abort(passed);
    rejectExpired?.(passed);
  }, ms);
  return {
    signal,
    // An upload calls this for every chunk: refresh() re-arms the same timer, no new one each time.
    restart() {
      if (!aborted) timer.refresh();
    },
    stop: () => clearTimeout(timer),
    abort,
    race<T>(work: Promise<T>): Promise<T> {
      // Promise.race handles both, so neither rejects unheard; the deadline first, so once passed it wins.
      expired ??= passed === undefined ? new Promise<never>((_, reject) => (rejectExpired = reject)) : Promise.reject(passed);
      return Promise.race([expired, work]);
    },
  };
}
