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
  // The races still running, each told when the deadline passes. Not Promise.race against one
  // promise that expires: that promise kept a reaction for every race, holding what each race
  // settled with (an exchange's whole answer) for as long as the deadline was reachable: in a
  // 500-ticket close, V8 promoted 3.5 MB to its old space (1.2 MB without), 60 ms more CPU.
  let passed: DeadlineExceeded | undefined;
  const racers = new Set<(reason: DeadlineExceeded) => void>();
  const timer = setTimeout(() => {
    passed = new DeadlineExceeded(`deadline of ${ms}ms passed`);
    abort(passed);
    for (const reject of racers) reject(passed);
    racers.clear();
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
      return new Promise<T>((resolve, reject) => {
        // Once passed, the deadline wins, whatever the work did.
        if (passed !== undefined) reject(passed);
        else racers.add(reject);
        // The work's failure is heard even after the deadline won: a promise settles once.
        work.then(
          (value) => {
            racers.delete(reject);
            resolve(value);
          },
          (error: unknown) => {
            racers.delete(reject);
            reject(error);
          },
        );
      });
    },
  };
}
