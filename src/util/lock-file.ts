// A lock file beside a file that several tkt processes write: created exclusively, holding the
// holder's PID. Config files take it for the milliseconds of a write (config/store.ts); a watch's
// --state file for the whole watch (watch/state-file.ts). A lock whose holder is gone is taken over.
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { processIsAlive } from './process-alive.js';

const LOCK_FILE_MODE = 0o600;
const FIRST_RETRY_MS = 10;
/** A lock without a PID is a holder between creating and writing it, or one that died there. */
const NO_PID_STALE_MS = 10_000;

export interface LockWait {
  /** How long to wait for the holder to release it; then LockBusyError. */
  waitMs: number;
  /** A lock this old is stale whatever its PID says (for locks held only for a write). */
  staleAfterMs?: number;
  /** Retries double from 10 ms up to this (default: no doubling). */
  maxRetryMs?: number;
  /** The clock of the wait (a test's moves when the test says). */
  clock?: { now(): number; sleep(ms: number): Promise<void> };
  /** Called once, when a live holder first makes it wait. */
  onWait?: (holder: number | undefined) => Promise<void>;
}

/** Another live process held the lock for all of the wait. */
export class LockBusyError extends Error {
  constructor(
    readonly lock: string,
    /** The holder's PID, when its lock says. */
    readonly holder: number | undefined,
  ) {
    super(`another tkt process holds ${lock}`);
    this.name = 'LockBusyError';
  }
}

const systemClock = { now: () => Date.now(), sleep: (ms: number) => delay(ms) };

/**
 * Takes the lock file `lock`, waiting while another live process holds it. A lock whose holder
 * is gone (or, with `staleAfterMs`, that is older than any holder keeps it) is taken over.
 * Returns the function that releases it.
 */
export async function acquireLock(
  lock: string,
  { waitMs, staleAfterMs, maxRetryMs = FIRST_RETRY_MS, clock = systemClock, onWait }: LockWait,
): Promise<() => void> {
  const deadline = clock.now() + waitMs;
  let retryMs = FIRST_RETRY_MS;
  let waiting = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', LOCK_FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lock, staleAfterMs);
    if (holder === 'stale') {
      rmSync(lock, { force: true });
      continue;
    }
    if (clock.now() > deadline) throw new LockBusyError(lock, holder);
    if (!waiting) await onWait?.(holder);
    waiting = true;
    // Jitter, so that waiters do not all retry together.
    await clock.sleep(retryMs + Math.random() * retryMs);
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }
}

/** The live holder's PID (undefined: not known yet, or released meanwhile), or 'stale'. */
function holderOf(lock: string, staleAfterMs: number | undefined): number | undefined | 'stale' {
  try {
    const age = Date.now() - statSync(lock).mtimeMs;
    const text = readFileSync(lock, 'utf8');
    const pid = Number(text);
    if (staleAfterMs !== undefined && age > staleAfterMs) return 'stale';
    if (text === '' || !Number.isSafeInteger(pid) || pid <= 0) return age > NO_PID_STALE_MS ? 'stale' : undefined;
    return processIsAlive(pid) ? pid : 'stale';
  } catch {
    // Released meanwhile: not stale, just try again.
    return undefined;
  }
}
