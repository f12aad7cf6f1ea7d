// Time as the HTTP layer reads it, handed in so that tests move it instead of waiting.
import { sleep } from '../util/sleep.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (the caller looks at it). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Milliseconds of a monotonic clock, for limits on what is under way (a deadline, an idle
 * connection): a change of the system's time neither passes nor stretches them.
 */
export function monotonicMs(): number {
  const [seconds, nanoseconds] = process.hrtime();
  return seconds * 1000 + nanoseconds / 1e6;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep,
};
