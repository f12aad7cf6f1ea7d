// --timeout as a deadline for one whole exchange with the service. node:http has no
// such limit, undici's own time-outs (behind a proxy) are idle limits, and a request
// undici still queues for a connection does not see its abort signal until it
// connects: a proxy that keeps dropping the CONNECT tunnel (nodejs/undici#3897, fixed
// only in undici 8, which needs Node 22) would hold the run forever. Racing the
// exchange against this clock always ends it.

import type { AbortLike } from '../util/abort-like.js';
import { monotonicMs } from './clock.js';

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

/**
 * Starts deadlines of one length (a client's --timeout), all on one timer: each request of a bulk
 * run setting and clearing a timer of its own cost 2.5% of a 4,000-ticket close (README,
 * Performance). Running deadlines pass in the order they started (or restarted); the timer is
 * armed for the first only, and cleared once none runs, so that it holds no finished run open.
 */
export function deadlineClock(requestedMs: number): () => Deadline {
  const clock = new SharedClock(timerMs(requestedMs));
  return () => new RequestDeadline(clock);
}

/** The running deadlines of one length, first to pass first, and the one timer for them. */
class SharedClock {
  first: RequestDeadline | undefined;
  last: RequestDeadline | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(readonly ms: number) {}

  add(deadline: RequestDeadline): void {
    deadline.passesAt = monotonicMs() + this.ms;
    deadline.previous = this.last;
    deadline.next = undefined;
    if (this.last === undefined) this.first = deadline;
    else this.last.next = deadline;
    this.last = deadline;
    deadline.running = true;
    this.#timer ??= setTimeout(this.#tick, this.ms);
  }

  remove(deadline: RequestDeadline): void {
    if (!deadline.running) return;
    this.#unlink(deadline);
    if (this.first === undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #unlink(deadline: RequestDeadline): void {
    deadline.running = false;
    if (deadline.previous === undefined) this.first = deadline.next;
    else deadline.previous.next = deadline.next;
    if (deadline.next === undefined) this.last = deadline.previous;
    else deadline.next.previous = deadline.previous;
    deadline.previous = undefined;
    deadline.next = undefined;
  }

  // Armed for the first deadline that was running then: those stopped since are gone from the list.
  readonly #tick = (): void => {
    this.#timer = undefined;
    const now = monotonicMs();
    for (let due = this.first; due !== undefined && due.passesAt <= now; due = this.first) {
      this.#unlink(due);
      due.pass();
    }
    // A timer may fire a fraction of a millisecond before the clock says its time came: armed again
    // for the rest (unless a deadline told it passed started another, which armed it).
    if (this.first !== undefined) this.#timer ??= setTimeout(this.#tick, Math.max(1, Math.ceil(this.first.passesAt - now)));
  };
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
  readonly #clock: SharedClock;
  // The clock's: when this deadline passes, and its place among the running ones.
  passesAt = 0;
  running = false;
  previous: RequestDeadline | undefined;
  next: RequestDeadline | undefined;

  constructor(clock: SharedClock) {
    this.#clock = clock;
    clock.add(this);
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

  // An upload calls this for every chunk: the deadline goes to the end of the clock's list.
  restart(): void {
    if (this.#aborted || !this.running) return;
    this.#clock.remove(this);
    this.#clock.add(this);
  }

  stop(): void {
    this.#clock.remove(this);
  }

  /** The clock's: the time is up. */
  pass(): void {
    const passed = new DeadlineExceeded(`deadline of ${this.#clock.ms}ms passed`);
    this.#passed = passed;
    this.abort(passed);
    for (const reject of this.#racers) reject(passed);
    this.#racers.clear();
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
