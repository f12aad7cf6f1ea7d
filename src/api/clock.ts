// Time as the HTTP layer reads it, handed in so that tests move it instead of waiting.
import { sleep } from '../util/sleep.js';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (the caller looks at it). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep,
};
