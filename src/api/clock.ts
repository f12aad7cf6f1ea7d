// Time as the HTTP layer reads it, handed in so that tests move it instead of waiting.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  /** Resolves after `ms`, or as soon as `signal` aborts (the caller looks at it). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // delay rejects only for the abort, which ends the wait as its time would.
  sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => {}),
};
