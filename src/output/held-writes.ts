// Lines printed one write at a time cost a system call each and, on a pipe, wake the reader each
// time: about a tenth of a 500-ticket `tkt close -` went to it. A run that prints a line per item
// holds its lines in the stream (cork) and lets them go together, at most MAX_HOLD_MS after the
// first one: one write for many lines, and a reader that still sees each line within a blink.
// The first line goes out at once and the holds grow from 1 ms to MAX_HOLD_MS: a reader that
// leaves early (`tkt close - | head -1`) is seen at the next write, a request or two later in each lane, as a
// closed stdout stops a run (docs/cli.md section 8), not after a batch in which a fast run sends
// a hundred more requests.
import type { Writable } from 'node:stream';

const MAX_HOLD_MS = 50;

export interface HeldWrites {
  /** Call before a write: what is written from now on is held, until release() or MAX_HOLD_MS. */
  hold(): void;
  /** Writes out what is held, now: before a line goes to another stream, and at the end. */
  release(): void;
}

/** For a stream whose every line must show at once (a terminal, where a progress bar shares the screen). */
export const NOT_HELD: HeldWrites = { hold() {}, release() {} };

export function holdWrites(stream: Writable): HeldWrites {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let nextHoldMs = 0;
  const release = (): void => {
    if (timer === undefined) return;
    clearTimeout(timer);
    timer = undefined;
    stream.uncork();
  };
  return {
    hold() {
      if (timer !== undefined) return;
      const holdMs = nextHoldMs;
      nextHoldMs = Math.min(Math.max(1, holdMs * 2), MAX_HOLD_MS);
      if (holdMs === 0) return;
      stream.cork();
      // Not unref'd: held lines must go out before the process ends.
      timer = setTimeout(release, holdMs);
    },
    release,
  };
}
