// A Clock (src/api/clock.ts) that moves only when the test moves it: no test waits for real time.
import type { Clock } from '../../src/api/clock.js';

export interface ManualClock extends Clock {
  /** The length of the next wait asked for, once something asks (at once if it already has). */
  nextSleep(): Promise<number>;
  /** Moves time on by `ms`, waking every sleeper whose wait is over. */
  advance(ms: number): void;
}

export function manualClock(startMs = 0): ManualClock {
  let now = startMs;
  const sleepers: Array<{ until: number; wake: () => void }> = [];
  const unseen: number[] = [];
  const watchers: Array<(ms: number) => void> = [];
  return {
    now: () => now,
    sleep(ms, signal) {
      const watcher = watchers.shift();
      if (watcher === undefined) unseen.push(ms);
      else watcher(ms);
      return new Promise<void>((wake) => {
        // As the system's: an abort ends the wait, time moved or not.
        if (signal?.aborted === true) return wake();
        const sleeper = { until: now + ms, wake };
        sleepers.push(sleeper);
        signal?.addEventListener('abort', () => (sleepers.includes(sleeper) && sleepers.splice(sleepers.indexOf(sleeper), 1), wake()), { once: true });
      });
    },
    nextSleep() {
      const ms = unseen.shift();
      return ms === undefined ? new Promise<number>((resolve) => watchers.push(resolve)) : Promise.resolve(ms);
    },
    advance(ms) {
      now += ms;
      for (const sleeper of sleepers.filter(({ until }) => until <= now)) {
        sleepers.splice(sleepers.indexOf(sleeper), 1);
        sleeper.wake();
      }
    },
  };
}

/** A StartTimer (src/output/waiting.ts) whose callbacks run only when the test moves it. */
export interface ManualTimer {
  start(callback: () => void, ms: number): () => void;
  /** Moves time on by `ms`, running every callback whose time has come. */
  advance(ms: number): void;
  /** Callbacks started and neither run nor cancelled. */
  pending(): number;
}

export function manualTimer(): ManualTimer {
  let now = 0;
  const timers = new Set<{ at: number; callback: () => void }>();
  return {
    start(callback, ms) {
      const timer = { at: now + ms, callback };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms) {
      now += ms;
      for (const timer of [...timers].filter(({ at }) => at <= now)) {
        timers.delete(timer);
        timer.callback();
      }
    },
    pending: () => timers.size,
  };
}
