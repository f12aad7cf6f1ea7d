// Profiles, tokens and lookup caches on disk, with plain node:fs: the reads of
// src/config/store-read.ts, and the writes, which take a lock file, then write a temporary file
// and rename it into place (writeObject).
//
// conf did the writing until it was found to install SIGINT/SIGTERM handlers through
// atomically/when-exit and to send the signal back to its own process after a write: one
// Ctrl-C then acted as two. It also had no lock for the read-modify-write of a shared file
// (concurrent logins lost profiles). What was left for it was a JSON.stringify and a rename,
// so it was replaced instead of worked around. Read again in conf 16.0.0 (its latest release):
// atomically 2.1.1 still loads when-exit 2.1.5, which hooks SIGHUP, SIGINT, SIGTERM and more on
// load and re-raises the signal with process.kill(process.pid, signal); conf still takes no lock.
import { chmodSync, lstatSync, mkdirSync, promises as fsPromises, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { OperationError } from '../errors.js';
import type { JsonObject } from '../util/json-object.js';
import { nonFolderOnPath } from '../util/non-folder.js';
import { acquireLock, LockBusyError, LockNotFileError } from '../util/lock-file.js';
import { replaceFile } from '../util/replace-file.js';
import { sleep } from '../util/sleep.js';
import { inFolder } from '../util/folder-path.js';
import { assertHomeFolder, assertProfileName, noConfigFolderError, settingsFileIn } from './paths.js';
import {
  cacheFileIn,
  createConfigReader,
  fileError,
  markedFolderless,
  ownEntry,
  profilesIn,
  readCacheEntries,
  readSettingsIn,
  storeRun,
  tokenFileIn,
  type CacheEntry,
  type ConfigStoreOptions,
  type StoreRun,
} from './store-read.js';
import type { ConfigReader, ConfigStore, SavedSettings } from './types.js';

// Tokens are secrets and lookups name people: only the owner may read either.
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

/** What a write needs of the run: its warnings (shared with the reads), the lock's clock, the home folder it must not make. */
interface WriteRun extends StoreRun {
  clock: NonNullable<ConfigStoreOptions['clock']>;
  home: string | undefined;
}

export function createConfigStore(dir: string | undefined, options: ConfigStoreOptions = {}): ConfigStore {
  if (dir === undefined) return folderlessStore();
  const run: WriteRun = { ...storeRun(options), clock: options.clock ?? { now: () => Date.now(), sleep }, home: options.home };
  const settingsFile = settingsFileIn(dir);
  const readSettings = () => readSettingsIn(dir);

  return {
    ...createConfigReader(dir, options, run),

    assertWritable() {
      assertHomeFolder(run.home, settingsFile);
      const notFolder = nonFolderOnPath(dir);
      if (notFolder !== undefined) throw notAFolder(settingsFile, notFolder);
      // Before login sends a password: the token could not be kept there.
      const tokens = inFolder(dir, 'tokens');
      ownEntry(tokens, 'folder', tokens, 'write');
      // The profile is saved into the settings file, read first; a folder of another owner or a
      // read-only one would take the token the service issued and throw it away.
      readSettings();
      const made = [dir, tokens].filter(missing);
      assertWritableFolders(run, dir, tokens);
      return () => {
        for (const folder of made.reverse()) {
          try {
            // Not recursive: a folder something was written to since stays.
            rmdirSync(folder);
          } catch {
            // Kept: it is not empty, or no longer there.
          }
        }
      };
    },

    async saveProfile(name, changes) {
      assertProfileName(name);
      await writeObject(run, dir, settingsFile, () => {
        const settings = readSettings();
        const all = profilesIn(settings);
        all[name] = { ...(Object.hasOwn(all, name) ? all[name] : {}), ...changes };
        return { ...settings, profiles: all };
      });
    },

    async saveSettings(changes, profile) {
      if (profile !== undefined) assertProfileName(profile);
      await writeObject(run, dir, settingsFile, () => {
        const settings = readSettings();
        const changed = (saved: unknown) => mergeDefined(saved, typeof changes === 'function' ? changes({ ...(saved as SavedSettings | undefined) }) : changes);
        if (profile === undefined) return { ...settings, settings: changed(settings.settings) };
        const all = profilesIn(settings);
        const current = Object.hasOwn(all, profile) ? all[profile]! : {};
        all[profile] = { ...current, settings: changed(current.settings) };
        return { ...settings, profiles: all };
      });
    },

    async writeToken(profile, token) {
      await writeObject(run, dir, tokenFileIn(dir, profile), () => ({ ...token }));
    },

    async deleteToken(profile) {
      const file = tokenFileIn(dir, profile);
      await fsPromises.rm(file, { force: true }).catch((error: unknown) => {
        // A folder on its path is a file: there is no token to delete (readObject).
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
        throw fileError('delete', file, error);
      });
    },

    async writeCache(profile, key, value, ttlMs) {
      // A config folder that does not exist reads as empty and is made only by what must keep
      // something there (login, config set...): a cache is not worth making it (README: Environment and files).
      if (missing(dir)) return;
      const file = cacheFileIn(dir, profile);
      const entry: CacheEntry = { value, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      // Only a request is saved: another run writing the cache is not waited for long, nor said.
      await writeObject(run, dir, file, () => ({ ...readCacheEntries(file), [key]: entry }), CACHE_LOCK_WAIT).catch((error: unknown) => {
        if (!(error instanceof LockBusyError)) throw error;
      });
    },
  };
}

/**
 * The store of a user with no config folder (defaultConfigDir): its reads are the folderless
 * reader's (empty, so that a run with TKT_URL and TKT_TOKEN works; its `dir` is exit 1); it keeps
 * no cache; and what must be kept there is exit 1 naming TKT_CONFIG_DIR.
 */
function folderlessStore(): ConfigStore {
  const none = (): never => {
    throw noConfigFolderError();
  };
  const writes: Omit<ConfigStore, keyof ConfigReader> = {
    assertWritable: none,
    saveProfile: async () => none(),
    saveSettings: async () => none(),
    writeToken: async () => none(),
    deleteToken: async () => {},
    writeCache: async () => {},
  };
  // The reader is the prototype: its `dir` is a getter, which a copy would call.
  return markedFolderless(Object.assign(Object.create(createConfigReader(undefined)) as ConfigReader, writes));
}

/**
 * Makes the config folder and `folder` in it (as a write does), and writes and removes a file in
 * each: what access(2) answers is not what a write meets (root, ACLs, a read-only mount).
 */
function assertWritableFolders(run: WriteRun, configDir: string, folder: string): void {
  try {
    makeFolders(run, configDir, inFolder(folder, 'probe'));
  } catch (error) {
    throw error instanceof OperationError ? error : fileError('write', folder, error);
  }
  for (const place of [configDir, folder]) {
    const probe = inFolder(place, `.write-check-${process.pid}`);
    try {
      writeFileSync(probe, '', { flag: 'wx', mode: PRIVATE_FILE_MODE });
      rmSync(probe, { force: true });
    } catch (error) {
      throw fileError('write', place, error);
    }
  }
}

/** `base` with `changes` applied; a change to undefined removes the key. */
function mergeDefined(base: unknown, changes: Record<string, unknown>): JsonObject {
  const merged: JsonObject = { ...(base as JsonObject | undefined) };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/** Nothing at `entry` (a path through a file is something else: ENOTDIR, said by the write). */
function missing(entry: string): boolean {
  try {
    lstatSync(entry);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/**
 * Replaces `file` with what `contents()` returns: under the file's lock, so that two tkt
 * processes changing settings at once never lose each other's changes, and through a
 * temporary file renamed into place, so that a reader never sees half a file.
 * Everything after taking the lock is synchronous: no signal handler, no other write of
 * this process can run between reading the old contents and renaming the new ones in.
 */
async function writeObject(run: WriteRun, configDir: string, file: string, contents: () => JsonObject, wait: LockWaitOf = SETTINGS_LOCK_WAIT): Promise<void> {
  let release: () => void;
  try {
    makeFolders(run, configDir, file);
    release = await lockFor(run, file, wait);
  } catch (error) {
    // Said in full where it was found: a link, a lock that is not a file or is held too long.
    if (error instanceof OperationError || error instanceof LockBusyError) throw error;
    // TKT_CONFIG_DIR naming a file, or a file where tkt keeps a folder: named as such, not as ENOTDIR.
    const notFolder = nonFolderOnPath(dirname(file));
    if (notFolder !== undefined) throw notAFolder(file, notFolder, error);
    throw fileError('write', file, error);
  }
  try {
    // Only the lock holder writes this name.
    replaceFile(file, `${JSON.stringify(contents(), null, '\t')}\n`, PRIVATE_FILE_MODE);
  } catch (error) {
    throw error instanceof OperationError ? error : fileError('write', file, error);
  } finally {
    release();
  }
}

function notAFolder(file: string, notFolder: string, cause?: unknown): OperationError {
  return new OperationError(`cannot write ${file}: ${notFolder} is not a folder`, { hint: 'move it away, or set TKT_CONFIG_DIR to a folder', cause });
}

/** A lock this old was left by a writer that died holding it (a write takes milliseconds), or its PID is another process's now. */
const STALE_LOCK_MS = 10_000;
/** Long enough for dozens of writers queued on one file; then the lock is reported. */
const LOCK_WAIT_MS = 30_000;
/** A wait this long is said on stderr: a write takes milliseconds, so something holds the lock. */
const LOCK_NOTICE_MS = 1000;

/** How a write waits for its file's lock: the settings and tokens as long as it takes, saying so; the cache a little, then not at all. */
interface LockWaitOf {
  waitMs: number;
  /** Whether a long wait and a take-over are said on stderr and a wait given up is an error; else nothing is written, quietly. */
  said: boolean;
}
const SETTINGS_LOCK_WAIT: LockWaitOf = { waitMs: LOCK_WAIT_MS, said: true };
const CACHE_LOCK_WAIT: LockWaitOf = { waitMs: LOCK_NOTICE_MS, said: false };

/**
 * Takes the lock of `file`, saying a long wait and a take-over on stderr; its failures as
 * OperationErrors, but for a wait given up quietly (LockBusyError, `wait.said` false).
 */
async function lockFor(run: WriteRun, file: string, wait: LockWaitOf): Promise<() => void> {
  const lock = `${file}.lock`;
  try {
    return await acquireLock(lock, {
      waitMs: wait.waitMs,
      staleAfterMs: STALE_LOCK_MS,
      clock: run.clock,
      ...(wait.said
        ? {
            noticeAfterMs: LOCK_NOTICE_MS,
            onWait: (holder) => run.warnOnce(`waiting for ${lock}${holder === undefined ? '' : `, held by process ${holder}`}`),
            onTakeOver: (holder) => run.warnOnce(`took over ${lock}: process ${holder} has held it for more than ${STALE_LOCK_MS / 1000} s`),
          }
        : {}),
    });
  } catch (error) {
    if (error instanceof LockBusyError && !wait.said) throw error;
    if (error instanceof LockNotFileError) {
      throw new OperationError(`cannot write ${file}: its lock ${lock} is not a file`, {
        hint: `tkt makes that file while it writes, and removes it: move ${lock} away`,
      });
    }
    if (error instanceof LockBusyError) {
      throw new OperationError(`cannot write ${file}: another tkt process holds ${lock}`, {
        hint: `several tkt were writing it at once: try again, or remove ${lock} if no tkt is running`,
      });
    }
    throw error;
  }
}

/**
 * The config folder, and the folder of `file` inside it (tokens, cache), created 0700. The
 * subfolders are made 0700 even when they already existed, and must be folders of tkt's own: a
 * link is refused, as its target is not tkt's to change (README: Environment and files). An
 * existing config folder keeps its mode, as TKT_CONFIG_DIR may name a folder that is not tkt's
 * alone, and may be a link (to a dotfiles folder). The folders above it are made too, but never
 * the home folder (assertHomeFolder).
 */
function makeFolders(run: WriteRun, configDir: string, file: string): void {
  assertHomeFolder(run.home, file);
  mkdirSync(dirname(configDir), { recursive: true });
  makePrivateFolder(configDir);
  const folder = dirname(file);
  if (folder === configDir) return;
  ownEntry(folder, 'folder', file, 'write');
  makePrivateFolder(folder);
  // mkdir's mode is narrowed by the umask, and leaves an existing folder's mode alone.
  chmodSync(folder, PRIVATE_FOLDER_MODE);
}

function makePrivateFolder(folder: string): void {
  try {
    mkdirSync(folder, { mode: PRIVATE_FOLDER_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}
