// Time as the HTTP layer reads it, handed in so that tests move it instead of waiting.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // Only an abort rejects the delay: it ends the wait early.
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
};
