// A lock file beside a file that several tkt processes write: created exclusively, holding the
// holder's PID. Config files take it for the milliseconds of a write (config/store.ts); a watch's
// --state file for the whole watch (watch/state-file.ts). A lock whose holder is gone is taken over.
import { closeSync, lstatSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
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
  /** Called once, when a live holder has made it wait `noticeAfterMs` (default: at once). */
  onWait?: (holder: number | undefined) => Promise<void> | void;
  noticeAfterMs?: number;
  /** Called when a lock older than `staleAfterMs` is taken over while its PID still runs (reused, or a hung holder). */
  onTakeOver?: (holder: number) => void;
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

/** The lock's path is a folder, a link or another non-file: no tkt made it, and no wait will clear it. */
export class LockNotFileError extends Error {
  constructor(readonly lock: string) {
    super(`${lock} is not a file`);
    this.name = 'LockNotFileError';
  }
}

const systemClock = { now: () => Date.now(), sleep: (ms: number) => delay(ms) };

/**
 * Takes the lock file `lock`, waiting while another live process holds it. A lock whose holder
 * is gone (or, with `staleAfterMs`, that is older than any holder keeps it) is taken over; a lock
 * path that is not a file is LockNotFileError at once. Returns the function that releases it.
 */
export async function acquireLock(
  lock: string,
  { waitMs, staleAfterMs, maxRetryMs = FIRST_RETRY_MS, clock = systemClock, onWait, noticeAfterMs = 0, onTakeOver }: LockWait,
): Promise<() => void> {
  const started = clock.now();
  let retryMs = FIRST_RETRY_MS;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx', LOCK_FILE_MODE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lock, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = inspect(lock, clock.now(), staleAfterMs);
    if (held.state === 'not a file') throw new LockNotFileError(lock);
    if (held.state === 'released') continue;
    if (held.state === 'stale') {
      rmSync(lock, { force: true });
      if (held.liveHolder !== undefined) onTakeOver?.(held.liveHolder);
      continue;
    }
    const holder = held.holder;
    const waited = clock.now() - started;
    if (waited > waitMs) throw new LockBusyError(lock, holder);
    if (!told && waited >= noticeAfterMs) {
      told = true;
      await onWait?.(holder);
    }
    // Jitter, so that waiters do not all retry together.
    await clock.sleep(retryMs + Math.random() * retryMs);
    retryMs = Math.min(retryMs * 2, maxRetryMs);
  }
}

type Held =
  { state: 'held'; holder: number | undefined } | { state: 'stale'; liveHolder: number | undefined } | { state: 'released' } | { state: 'not a file' };

/** The lock as found: held (by a live PID, or not known yet), stale, released meanwhile, or no file at all. */
function inspect(lock: string, now: number, staleAfterMs: number | undefined): Held {
  let age = 0;
  let text = '';
  try {
    const info = lstatSync(lock);
    if (!info.isFile()) return { state: 'not a file' };
    age = now - info.mtimeMs;
    text = readFileSync(lock, 'utf8');
  } catch (error) {
    // Released meanwhile: not stale, just try again. Another user's lock we may not read: its age tells.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'released' };
  }
  const pid = Number(text);
  const known = text !== '' && Number.isSafeInteger(pid) && pid > 0;
  const alive = known && processIsAlive(pid);
  if (staleAfterMs !== undefined && age > staleAfterMs) return { state: 'stale', liveHolder: alive ? pid : undefined };
  if (!known) return age > NO_PID_STALE_MS ? { state: 'stale', liveHolder: undefined } : { state: 'held', holder: undefined };
  return alive ? { state: 'held', holder: pid } : { state: 'stale', liveHolder: undefined };
}
