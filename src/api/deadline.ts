// --timeout as a deadline for one whole exchange with the service. node:http has no
// such limit, undici's own time-outs (behind a proxy) are idle limits, and a request
// undici still queues for a connection does not see its abort signal until it
// connects: a proxy that keeps dropping the CONNECT tunnel (nodejs/undici#3897, fixed
// only in undici 8, which needs Node 22) would hold the run forever. Racing the
// exchange against this clock always ends it.

import type { AbortLike } from '../util/abort-like.js';

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
  return new RequestDeadline(timerMs(requestedMs));
}

/**
 * A deadline is its own signal, a plain object of AbortSignal's shape with its methods on the
 * class: an AbortController, its EventTarget and a listener on it cost a bulk run about a
 * twentieth of its CPU time, and a deadline of closures made a dozen objects per request.
 */
class RequestDeadline implements Deadline, AbortLike {
  #aborted = false;
  #reason: unknown;
  #listeners: (() => void)[] = [];
  // The races still running, each told when the deadline passes. Not Promise.race against one
  // promise that expires: that promise kept a reaction for every race, holding what each race
  // settled with (an exchange's whole answer) for as long as the deadline was reachable: in a
  // 500-ticket close, V8 promoted 3.5 MB to its old space (1.2 MB without), 60 ms more CPU.
  readonly #racers = new Set<(reason: DeadlineExceeded) => void>();
  #passed: DeadlineExceeded | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(ms: number) {
    this.#timer = setTimeout(() => {
      const passed = new DeadlineExceeded(`deadline of ${ms}ms passed`);
      this.#passed = passed;
      this.abort(passed);
      for (const reject of this.#racers) reject(passed);
      this.#racers.clear();
    }, ms);
  }

  get signal(): AbortLike {
    return this;
  }

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index !== -1) this.#listeners.splice(index, 1);
  }

  // An upload calls this for every chunk: refresh() re-arms the same timer, no new one each time.
  restart(): void {
    if (!this.#aborted) this.#timer.refresh();
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const told = this.#listeners;
    this.#listeners = [];
    for (const listener of told) listener();
  }

  race<T>(work: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Once passed, the deadline wins, whatever the work did.
      if (this.#passed !== undefined) reject(this.#passed);
      else this.#racers.add(reject);
      // The work's failure is heard even after the deadline won: a promise settles once.
      work.then(
        (value) => {
          this.#racers.delete(reject);
          resolve(value);
        },
        (error: unknown) => {
          this.#racers.delete(reject);
          reject(error);
        },
      );
    });
  }
}
