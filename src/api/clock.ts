// Time as the HTTP layer reads it, handed in so that tests move it instead of waiting.
import { setTimeout as delay } from 'node:timers/promises';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => delay(ms),
};
