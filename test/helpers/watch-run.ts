// A tkt watch run in process with a clock the test moves (test/commands/watch*.test.ts).
import { run, type WatchOptions } from '../../src/commands/watch.js';
import type { WatchEvent } from '../../src/watch/events.js';
import type { WatchTimer } from '../../src/watch/watch.js';
import type { CommandRun, Harness } from './harness.js';
import { ticketById } from './sandbox-state.js';

/** A clock the test moves: the watch's waits end when the test says, never by time passing. */
export function steppedTimer() {
  const waits: number[] = [];
  let wake: (() => void) | undefined;
  let sleeping: (() => void) | undefined;
  let asleep = new Promise<void>((resolve) => (sleeping = resolve));
  const timer: WatchTimer = {
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        waits.push(ms);
        wake = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
        sleeping?.();
      }),
  };
  return {
    timer,
    waits,
    /** Resolves once the watch waits (its poll done and told). */
    asleep: () => asleep,
    /** Ends the current wait; the next poll runs. */
    async next(): Promise<void> {
      asleep = new Promise<void>((resolve) => (sleeping = resolve));
      wake?.();
      await asleep;
    },
  };
}

export async function startWatch(h: Harness, options: WatchOptions, runOptions: Parameters<Harness['context']>[0] = { globals: { json: true } }) {
  const r: CommandRun = await h.context(runOptions);
  const clock = steppedTimer();
  const done = run(options, r.ctx, clock.timer);
  done.catch(() => {});
  await Promise.race([clock.asleep(), done]);
  return { r, clock, done };
}

/** Ends the current wait without waiting for another (the watch is expected to end). */
export function wakeOnly(clock: ReturnType<typeof steppedTimer>): void {
  void clock.next();
}

// The CLI cannot change a title (update has no --title): the sandbox's state can.
export const retitle = (h: Harness, id: number, title: string) => {
  ticketById(h, id).title = title;
};

/** The events of a --json run's stdout. */
export const jsonLines = (text: string): WatchEvent[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as WatchEvent);
