// A lock file beside a file that several tkt processes write: created exclusively, holding the
// holder's PID. Config files take it for the milliseconds of a write (config/store.ts); a watch's
// --state file for the whole watch (watch/state-file.ts). A lock whose holder is gone is taken over,
// by one process only: removing it is claimed by a file named after that very lock (its inode and
// time), so a process that found the same stale lock late cannot remove the new holder's.
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { sleep } from './sleep.js';
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

const systemClock = { now: () => Date.now(), sleep };

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
      let ino: number;
      try {
        writeSync(fd, String(process.pid));
        ino = fstatSync(fd).ino;
      } finally {
        closeSync(fd);
      }
      return () => releaseOwn(lock, ino);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const held = inspect(lock, clock.now(), staleAfterMs);
    if (held.state === 'not a file') throw new LockNotFileError(lock);
    if (held.state === 'released') continue;
    let holder: number | undefined;
    if (held.state === 'stale') {
      const taken = takeOver(lock, held.found, clock.now());
      if (taken === 'removed' && held.liveHolder !== undefined) onTakeOver?.(held.liveHolder);
      if (taken !== 'claimed by another') continue;
      // Another process is taking it over: wait for it as for a holder.
    } else {
      holder = held.holder;
    }
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

/** A lock file as found: which file (inode and change time, to the nanosecond) and what it says. */
interface FoundLock {
  id: string;
  text: string;
}

type Held =
  | { state: 'held'; holder: number | undefined }
  | { state: 'stale'; liveHolder: number | undefined; found: FoundLock }
  | { state: 'released' }
  | { state: 'not a file' };

/** The lock as found: held (by a live PID, or not known yet), stale, released meanwhile, or no file at all. */
function inspect(lock: string, now: number, staleAfterMs: number | undefined): Held {
  let age = 0;
  let text = '';
  let id = '';
  try {
    const info = lstatSync(lock, { bigint: true });
    if (!info.isFile()) return { state: 'not a file' };
    age = now - Number(info.mtimeMs);
    id = fileId(info);
    text = readFileSync(lock, 'utf8');
  } catch (error) {
    // Released meanwhile: not stale, just try again. Another user's lock we may not read: its age tells.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'released' };
  }
  const found = { id, text };
  const pid = Number(text);
  const known = text !== '' && Number.isSafeInteger(pid) && pid > 0;
  const alive = known && processIsAlive(pid);
  if (staleAfterMs !== undefined && age > staleAfterMs) return { state: 'stale', liveHolder: alive ? pid : undefined, found };
  if (!known) return age > NO_PID_STALE_MS ? { state: 'stale', liveHolder: undefined, found } : { state: 'held', holder: undefined };
  return alive ? { state: 'held', holder: pid } : { state: 'stale', liveHolder: undefined, found };
}

const fileId = (info: { ino: bigint; mtimeNs: bigint }) => `${info.ino}-${info.mtimeNs}`;

/** The lock at `lock` now, or undefined when there is none (or it cannot be read). */
function foundNow(lock: string): FoundLock | undefined {
  try {
    const id = fileId(lstatSync(lock, { bigint: true }));
    return { id, text: readFileSync(lock, 'utf8') };
  } catch {
    return undefined;
  }
}

/**
 * Removes the stale lock `found`, if it is still the file at `lock`. Two processes that found the
 * same stale lock both try: the claim file (named after that lock's inode and time, created
 * exclusively) lets one remove it; a late one finds the file changed (the new holder's) and
 * leaves it. A claim left by a process that died taking over is removed when it is old.
 */
function takeOver(lock: string, found: FoundLock, now: number): 'removed' | 'changed' | 'claimed by another' {
  const claim = `${lock}.${found.id}.takeover`;
  try {
    closeSync(openSync(claim, 'wx', LOCK_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (now - lstatSync(claim).mtimeMs > NO_PID_STALE_MS) rmSync(claim, { force: true });
    } catch {
      // Removed meanwhile by its taker.
    }
    return 'claimed by another';
  }
  try {
    const current = foundNow(lock);
    if (current?.id !== found.id || current.text !== found.text) return 'changed';
    rmSync(lock, { force: true });
    return 'removed';
  } finally {
    rmSync(claim, { force: true });
  }
}

/** Releases the lock only if it is still ours: after a take-over (a holder hung past staleAfterMs) it is another's. */
function releaseOwn(lock: string, ino: number): void {
  try {
    if (lstatSync(lock).ino === ino && readFileSync(lock, 'utf8') === String(process.pid)) rmSync(lock, { force: true });
  } catch {
    // Already gone.
  }
}
