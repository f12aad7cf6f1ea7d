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
import { chmodSync, lstatSync, mkdirSync, promises as fsPromises, readFileSync, readdirSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { OperationError } from '../errors.js';
import { isObject, type JsonObject } from '../util/json-object.js';
import { nonFolderOnPath } from '../util/non-folder.js';
import { acquireLock, LockBusyError, LockNotFileError, type LockWait } from '../util/lock-file.js';
import { replaceFile } from '../util/replace-file.js';
import { shellWord } from '../util/shell-word.js';
import { inFolder } from '../util/folder-path.js';
import { assertProfileName, noConfigFolderError, settingsFileIn } from './paths.js';
import type { ConfigStore, Profile, SavedSettings, StoredToken } from './types.js';

interface CacheEntry {
  value: unknown;
  /** ISO 8601. */
  expiresAt: string;
}

// Tokens are secrets and lookups name people: only the owner may read either.
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

/** Time as the lock's waits read it. */
type LockClock = NonNullable<LockWait['clock']>;

export interface ConfigStoreOptions {
  /** Says a warning's text on stderr (a loose token file, a lock waited for); by default nothing is said. */
  warn?: (text: string) => void;
  /** Tests move it instead of waiting. */
  clock?: LockClock;
  /**
   * The run needs nothing from the settings file (sparesSettingsFile): one it may not read (a
   * folder left by `sudo tkt`) is a warning and reads as empty, as docker does with an unreadable
   * config.json. A write still reads it, and fails.
   */
  unreadableSettings?: 'report' | 'warn';
}

/** What the store's writes and reads need from the run: its clock, and its warnings, each said once. */
interface StoreRun {
  clock: LockClock;
  warnOnce(text: string): void;
}

export function createConfigStore(dir: string | undefined, options: ConfigStoreOptions = {}): ConfigStore {
  if (dir === undefined) return folderlessStore();
  const said = new Set<string>();
  const run: StoreRun = {
    clock: options.clock ?? { now: () => Date.now(), sleep: (ms) => delay(ms) },
    warnOnce(text) {
      if (said.has(text)) return;
      said.add(text);
      options.warn?.(text);
    },
  };
  const settingsFile = settingsFileIn(dir);
  const tokenFile = (profile: string) => inFolder(dir, 'tokens', `${assertProfileName(profile)}.json`);
  const cacheFile = (profile: string) => inFolder(dir, 'cache', `${assertProfileName(profile)}.json`);

  // A hand-edited or damaged settings or token file is reported, never silently emptied;
  // a cache may always be thrown away, so a damaged or unreadable one reads as empty.
  const readSettings = () => readObject(settingsFile, 'report');
  const readCacheEntries = (file: string) => readObject(file, 'empty');
  // What is read to run, not to write (unreadableSettings).
  const settingsForRun = (): JsonObject => {
    try {
      return readSettings();
    } catch (error) {
      const code = ((error as OperationError).cause as NodeJS.ErrnoException | undefined)?.code;
      if (options.unreadableSettings !== 'warn' || !PERMISSION_CODES.has(code ?? '')) throw error;
      run.warnOnce(`${(error as Error).message}; going on without it (TKT_URL and TKT_TOKEN are all this run needs)`);
      return {};
    }
  };

  return {
    dir,

    assertWritable() {
      const notFolder = nonFolderOnPath(dir);
      if (notFolder !== undefined) throw notAFolder(settingsFile, notFolder);
      // Before login sends a password: the token could not be kept there.
      const tokens = inFolder(dir, 'tokens');
      ownEntry(tokens, 'folder', tokens, 'write');
      // The profile is saved into the settings file, read first; a folder of another owner or a
      // read-only one would take the token the service issued and throw it away.
      readSettings();
      assertWritableFolders(dir, tokens);
    },

    getProfile(name) {
      assertProfileName(name);
      const all = profilesIn(settingsForRun());
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
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

    profileNames() {
      const tokenNames = listFolder(inFolder(dir, 'tokens'))
        .filter((file) => file.endsWith('.json'))
        .map((file) => file.slice(0, -'.json'.length));
      return [...new Set([...Object.keys(profilesIn(settingsForRun())), ...tokenNames])].sort();
    },

    getSettings(profile) {
      const settings = settingsForRun();
      if (profile === undefined) return { ...(settings.settings as SavedSettings | undefined) };
      assertProfileName(profile);
      const all = profilesIn(settings);
      return { ...(Object.hasOwn(all, profile) ? all[profile]!.settings : undefined) };
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

    readToken(profile) {
      const file = tokenFile(profile);
      const folder = path.dirname(file);
      const folderInfo = ownEntry(folder, 'folder', file, 'read');
      const fileInfo = folderInfo === undefined ? undefined : ownEntry(file, 'token file', file, 'read');
      const stored = readObject(file, 'report');
      if (!isStoredToken(stored)) return undefined;
      // Windows has no such modes: its files are private by their ACLs.
      if (folderInfo !== undefined && fileInfo !== undefined && process.platform !== 'win32') warnLooseModes(run, dir, folderInfo, file, fileInfo);
      return stored;
    },

    async writeToken(profile, token) {
      await writeObject(run, dir, tokenFile(profile), () => ({ ...token }));
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
      const file = cacheFile(profile);
      // Names become the IDs it holds: a cache another owner chose is not read.
      if (ownEntry(path.dirname(file), 'folder', file, 'read') !== undefined) ownEntry(file, 'cache file', file, 'read');
      const entries = readCacheEntries(file);
      const entry = (Object.hasOwn(entries, key) ? entries[key] : undefined) as Partial<CacheEntry> | null | undefined;
      // A missing or unparsable expiry counts as expired.
      if (!(Date.parse(entry?.expiresAt ?? '') > Date.now())) return undefined;
      return entry?.value as T;
    },

    async writeCache(profile, key, value, ttlMs) {
      // A config folder that does not exist reads as empty and is made only by what must keep
      // something there (login, config set...): a cache is not worth making it (README: Environment and files).
      if (missing(dir)) return;
      const file = cacheFile(profile);
      const entry: CacheEntry = { value, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      await writeObject(run, dir, file, () => ({ ...readCacheEntries(file), [key]: entry }));
    },
  };
}

/**
 * The store of a user with no config folder (defaultConfigDir): it reads as empty, as a folder not
 * made yet, so that a run with TKT_URL and TKT_TOKEN works; keeps no cache; and what must be kept
 * there, or the folder's name, is exit 1 naming TKT_CONFIG_DIR.
 */
function folderlessStore(): ConfigStore {
  const none = (): never => {
    throw noConfigFolderError();
  };
  const store: ConfigStore = {
    get dir() {
      return none();
    },
    assertWritable: none,
    getProfile: (name) => (assertProfileName(name), {}),
    saveProfile: async () => none(),
    profileNames: () => [],
    getSettings: () => ({}),
    saveSettings: async () => none(),
    readToken: () => undefined,
    writeToken: async () => none(),
    deleteToken: async () => {},
    readCache: () => undefined,
    writeCache: async () => {},
  };
  FOLDERLESS.add(store);
  return store;
}

const FOLDERLESS = new WeakSet<Pick<ConfigStore, 'dir'>>();

/** The config folder, or undefined where the user has none (a store whose `dir` is exit 1). */
export function folderIfAny(config: Pick<ConfigStore, 'dir'>): string | undefined {
  return FOLDERLESS.has(config) ? undefined : config.dir;
}

/**
 * Makes the config folder and `folder` in it (as a write does), and writes and removes a file in
 * each: what access(2) answers is not what a write meets (root, ACLs, a read-only mount).
 */
function assertWritableFolders(configDir: string, folder: string): void {
  try {
    makeFolders(configDir, inFolder(folder, 'probe'));
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
async function writeObject(run: StoreRun, configDir: string, file: string, contents: () => JsonObject): Promise<void> {
  let release: () => void;
  try {
    makeFolders(configDir, file);
    release = await lockFor(run, file);
  } catch (error) {
    // Said in full where it was found: a link, a lock that is not a file or is held too long.
    if (error instanceof OperationError) throw error;
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

/** A lock this old was left by a writer that died holding it (a write takes milliseconds), or its PID is another process's now. */
const STALE_LOCK_MS = 10_000;
/** Long enough for dozens of writers queued on one file; then the lock is reported. */
const LOCK_WAIT_MS = 30_000;
/** A wait this long is said on stderr: a write takes milliseconds, so something holds the lock. */
const LOCK_NOTICE_MS = 1000;

/** Takes the lock of `file`, saying a long wait and a take-over on stderr; its failures as OperationErrors. */
async function lockFor(run: StoreRun, file: string): Promise<() => void> {
  const lock = `${file}.lock`;
  try {
    return await acquireLock(lock, {
      waitMs: LOCK_WAIT_MS,
      staleAfterMs: STALE_LOCK_MS,
      clock: run.clock,
      noticeAfterMs: LOCK_NOTICE_MS,
      onWait: (holder) => run.warnOnce(`waiting for ${lock}${holder === undefined ? '' : `, held by process ${holder}`}`),
      onTakeOver: (holder) => run.warnOnce(`took over ${lock}: process ${holder} has held it for more than ${STALE_LOCK_MS / 1000} s`),
    });
  } catch (error) {
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
 * alone, and may be a link (to a dotfiles folder).
 */
function makeFolders(configDir: string, file: string): void {
  mkdirSync(path.dirname(configDir), { recursive: true });
  makePrivateFolder(configDir);
  const folder = path.dirname(file);
  if (folder === configDir) return;
  ownEntry(folder, 'folder', file, 'write');
  makePrivateFolder(folder);
  // mkdir's mode is narrowed by the umask, and leaves an existing folder's mode alone.
  chmodSync(folder, PRIVATE_FOLDER_MODE);
}

/**
 * `entry` (a folder of tkt's, a token or cache file) as lstat sees it, undefined when there is none; a
 * symbolic link there is refused (exit 1) naming it, as ssh refuses an odd key file: tkt would
 * read a token or a cache, or change the mode of a folder, that another owner chose. `file`: the file that
 * was to be read or written (`entry` itself, or a file in it).
 */
function ownEntry(entry: string, kind: 'folder' | 'token file' | 'cache file', file: string, action: 'read' | 'write'): Stats | undefined {
  let info: Stats;
  try {
    info = lstatSync(entry);
  } catch {
    return undefined;
  }
  if (!info.isSymbolicLink()) return info;
  throw new OperationError(`cannot ${action} ${file}: ${entry === file ? 'it' : entry} is a symbolic link`, {
    hint:
      kind === 'token file'
        ? `tkt keeps each token in a file of its own: remove the link (rm ${shellWord(entry)}) and log in again`
        : kind === 'cache file'
          ? `tkt keeps its lookup cache in a file of its own: remove the link (rm ${shellWord(entry)}); the cache is fetched again`
          : `tkt keeps its files in folders of its own, 0700: replace the link with a folder (rm ${shellWord(entry)} && mkdir -m 700 ${shellWord(entry)}), or set TKT_CONFIG_DIR`,
  });
}

/** Group and others may neither read nor write a token file. */
const LOOSE_FILE_BITS = 0o066;
/**
 * Others may not write the folders (they could put another token or URL there); a group may, as
 * where each user has a group of their own and a umask of 002 (Debian, Fedora).
 */
const LOOSE_FOLDER_BITS = 0o002;

/** Warns, once a run, of the config folder, tokens/ and the token file when others may read or change them (README: Environment and files). */
function warnLooseModes(run: StoreRun, configDir: string, folderInfo: Stats, file: string, fileInfo: Stats): void {
  let configInfo: Stats | undefined;
  try {
    configInfo = statSync(configDir);
  } catch {
    // Gone meanwhile: nothing to say.
  }
  const looseFolders: [string, Stats | undefined][] = [
    [configDir, configInfo],
    [path.dirname(file), folderInfo],
  ];
  for (const [folder, info] of looseFolders) {
    const words = info === undefined ? undefined : looseWords(info.mode, LOOSE_FOLDER_BITS);
    if (words !== undefined) run.warnOnce(`${folder} is ${words}: chmod o-w ${shellWord(folder)}`);
  }
  const words = looseWords(fileInfo.mode, LOOSE_FILE_BITS);
  if (words !== undefined) run.warnOnce(`${file} is ${words}: chmod 600 ${shellWord(file)}`);
}

/** "readable by others (0644)", "writable by its group (0620)"; undefined when no bit of `loose` is set. */
function looseWords(mode: number, loose: number): string | undefined {
  const bits = mode & loose;
  if (bits === 0) return undefined;
  const access = [bits & 0o044 ? 'readable' : '', bits & 0o022 ? 'writable' : ''].filter((word) => word !== '').join(' and ');
  return `${access} by ${bits & 0o007 ? 'others' : 'its group'} (0${(mode & 0o777).toString(8).padStart(3, '0')})`;
}

function makePrivateFolder(folder: string): void {
  try {
    mkdirSync(folder, { mode: PRIVATE_FOLDER_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** What a file of another owner (`sudo tkt login` made ~/.config/tkt root's) or a read-only one answers. */
const PERMISSION_CODES = new Set(['EACCES', 'EPERM']);

function fileError(action: 'read' | 'write' | 'delete', file: string, error: unknown): OperationError {
  const denied = PERMISSION_CODES.has((error as NodeJS.ErrnoException).code ?? '') || (error as NodeJS.ErrnoException).code === 'EROFS';
  // The user may change neither the file nor the folder of another owner: not "fix or delete".
  const hint = denied
    ? action === 'read'
      ? 'the file or a folder above it belongs to another user (sudo?) or is not readable: chown it, or set TKT_CONFIG_DIR'
      : 'the folder belongs to another user (sudo?) or is read-only: chown it, or set TKT_CONFIG_DIR to a folder you may write (in CI, TKT_URL and TKT_TOKEN need no login)'
    : action === 'read'
      ? 'fix or delete the file'
      : 'check that you may write to the folder';
  return new OperationError(`cannot ${action} ${file}: ${error instanceof Error ? error.message : String(error)}`, { hint, cause: error });
}

function isStoredToken(value: JsonObject): value is JsonObject & StoredToken {
  return typeof value.token === 'string' && typeof value.url === 'string' && typeof value.expiresAt === 'string' && !Number.isNaN(Date.parse(value.expiresAt));
}
