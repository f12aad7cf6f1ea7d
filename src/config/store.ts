// Profiles, tokens and lookup caches on disk, with plain node:fs. Writes take a lock file,
// then write a temporary file and rename it into place (writeObject).
//
// conf did the writing until it was found to install SIGINT/SIGTERM handlers through
// atomically/when-exit and to send the signal back to its own process after a write: one
// Ctrl-C then acted as two. It also had no lock for the read-modify-write of a shared file
// (concurrent logins lost profiles). What was left for it was a JSON.stringify and a rename,
// so it was replaced instead of worked around. Read again in conf 16.0.0 (its latest release):
// atomically 2.1.1 still loads when-exit 2.1.5, which hooks SIGHUP, SIGINT, SIGTERM and more on
// load and re-raises the signal with process.kill(process.pid, signal); conf still takes no lock.
import { chmodSync, mkdirSync, promises as fsPromises, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { OperationError } from '../errors.js';
import { isObject, type JsonObject } from '../util/json-object.js';
import { nonFolderOnPath } from '../util/non-folder.js';
import { acquireLock } from '../util/lock-file.js';
import { replaceFile } from '../util/replace-file.js';
import { inFolder } from '../util/folder-path.js';
import { assertProfileName, settingsFileIn } from './paths.js';
import type { ConfigStore, Profile, SavedSettings, StoredToken } from './types.js';

interface CacheEntry {
  value: unknown;
  /** ISO 8601. */
  expiresAt: string;
}

// Tokens are secrets and lookups name people: only the owner may read either.
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

export function createConfigStore(dir: string): ConfigStore {
  const settingsFile = settingsFileIn(dir);
  const tokenFile = (profile: string) => inFolder(dir, 'tokens', `${assertProfileName(profile)}.json`);
  const cacheFile = (profile: string) => inFolder(dir, 'cache', `${assertProfileName(profile)}.json`);

  // A hand-edited or damaged settings or token file is reported, never silently emptied;
  // a cache may always be thrown away, so a damaged or unreadable one reads as empty.
  const readSettings = () => readObject(settingsFile, 'report');
  const readCacheEntries = (file: string) => readObject(file, 'empty');

  return {
    dir,

    assertWritable() {
      const notFolder = nonFolderOnPath(dir);
      if (notFolder !== undefined) throw notAFolder(settingsFile, notFolder);
    },

    getProfile(name) {
      assertProfileName(name);
      const all = profilesIn(readSettings());
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
    },

    async saveProfile(name, changes) {
      assertProfileName(name);
      await writeObject(dir, settingsFile, () => {
        const settings = readSettings();
        const all = profilesIn(settings);
        all[name] = { ...(Object.hasOwn(all, name) ? all[name] : {}), ...changes };
        return { ...settings, profiles: all };
      });
    },

    profileNames() {
      const tokenNames = listFolder(inFolder(dir, 'tokens'))
        .filter((file) => file.endsWith('.json'))
        .map((file) => file.slice(0, -'.json'.length));
      return [...new Set([...Object.keys(profilesIn(readSettings())), ...tokenNames])].sort();
    },

    getSettings(profile) {
      const settings = readSettings();
      if (profile === undefined) return { ...(settings.settings as SavedSettings | undefined) };
      assertProfileName(profile);
      const all = profilesIn(settings);
      return { ...(Object.hasOwn(all, profile) ? all[profile]!.settings : undefined) };
    },

    async saveSettings(changes, profile) {
      if (profile !== undefined) assertProfileName(profile);
      await writeObject(dir, settingsFile, () => {
        const settings = readSettings();
        const changed = (saved: unknown) => mergeDefined(saved, typeof changes === 'function' ? changes({ ...(saved as SavedSettings | undefined) }) : changes);
        if (profile === undefined) return { ...settings, settings: changed(settings.settings) };
        const all = profilesIn(settings);
        const current = Object.hasOwn(all, profile) ? all[profile]! : {};
        all[profile] = { ...current, settings: changed(current.settings) };
        return { ...settings, profiles: all };
      });
    },

    readToken(profile) {
      const stored = readObject(tokenFile(profile), 'report');
      return isStoredToken(stored) ? stored : undefined;
    },

    async writeToken(profile, token) {
      await writeObject(dir, tokenFile(profile), () => ({ ...token }));
    },

    async deleteToken(profile) {
      const file = tokenFile(profile);
      await fsPromises.rm(file, { force: true }).catch((error: unknown) => {
        // A folder on its path is a file: there is no token to delete (readObject).
        if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return;
        throw fileError('delete', file, error);
      });
    },

    readCache<T>(profile: string, key: string): T | undefined {
      const entries = readCacheEntries(cacheFile(profile));
      const entry = (Object.hasOwn(entries, key) ? entries[key] : undefined) as Partial<CacheEntry> | null | undefined;
      // A missing or unparsable expiry counts as expired.
      if (!(Date.parse(entry?.expiresAt ?? '') > Date.now())) return undefined;
      return entry?.value as T;
    },

    async writeCache(profile, key, value, ttlMs) {
      const file = cacheFile(profile);
      const entry: CacheEntry = { value, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      await writeObject(dir, file, () => ({ ...readCacheEntries(file), [key]: entry }));
    },
  };
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

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function profilesIn(settings: JsonObject): Record<string, Profile> {
  return { ...(settings.profiles as Record<string, Profile> | undefined) };
}

/**
 * The JSON object in `file`; {} when there is no such file, also when a folder on its path is a
 * file (TKT_CONFIG_DIR naming a file): a run with TKT_URL and TKT_TOKEN needs no config folder,
 * and a write says which path is not a folder (writeObject).
 */
function readObject(file: string, ifUnreadable: 'report' | 'empty'): JsonObject {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (!isObject(parsed)) throw new TypeError('not a JSON object');
    return parsed;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (ifUnreadable === 'empty' || code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw fileError('read', file, error);
  }
}

/**
 * Replaces `file` with what `contents()` returns: under the file's lock, so that two tkt
 * processes changing settings at once never lose each other's changes, and through a
 * temporary file renamed into place, so that a reader never sees half a file.
 * Everything after taking the lock is synchronous: no signal handler, no other write of
 * this process can run between reading the old contents and renaming the new ones in.
 */
async function writeObject(configDir: string, file: string, contents: () => JsonObject): Promise<void> {
  let release: () => void;
  try {
    makeFolders(configDir, path.dirname(file));
    release = await acquireLock(`${file}.lock`, { waitMs: LOCK_WAIT_MS, staleAfterMs: STALE_LOCK_MS });
  } catch (error) {
    // TKT_CONFIG_DIR naming a file, or a file where tkt keeps a folder: named as such, not as ENOTDIR.
    const notFolder = nonFolderOnPath(path.dirname(file));
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

/** A lock this old was left by a writer that died holding it (a write takes milliseconds). */
const STALE_LOCK_MS = 10_000;
/** Long enough for dozens of writers queued on one file; then the lock is reported. */
const LOCK_WAIT_MS = 30_000;

/**
 * The config folder, and `folder` inside it (tokens, cache), created 0700. The subfolders are
 * made 0700 even when they already existed; an existing config folder keeps its mode, as
 * TKT_CONFIG_DIR may name a folder that is not tkt's alone.
 */
function makeFolders(configDir: string, folder: string): void {
  mkdirSync(path.dirname(configDir), { recursive: true });
  makePrivateFolder(configDir);
  if (folder === configDir) return;
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

function fileError(action: 'read' | 'write' | 'delete', file: string, error: unknown): OperationError {
  return new OperationError(`cannot ${action} ${file}: ${error instanceof Error ? error.message : String(error)}`, {
    hint: action === 'read' ? 'fix or delete the file' : 'check that you may write to the folder',
    cause: error,
  });
}

function isStoredToken(value: JsonObject): value is JsonObject & StoredToken {
  return typeof value.token === 'string' && typeof value.url === 'string' && typeof value.expiresAt === 'string' && !Number.isNaN(Date.parse(value.expiresAt));
}
