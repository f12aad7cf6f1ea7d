// Reading the config folder: profiles, global settings, tokens and the lookup cache, with plain
// node:fs. What only reads (a Tab press, src/completion/entry.ts) loads this file alone; the
// writes, their lock and temporary files are src/config/store.ts, which builds on it.
import { lstatSync, readFileSync, readdirSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { OperationError } from '../errors.js';
import { isObject, type JsonObject } from '../util/json-object.js';
import { parseJsonText } from '../util/json-text.js';
import { notTextHint, textOfFile } from '../util/text-decode.js';
import { shellWord } from '../util/shell-word.js';
import { inFolder } from '../util/folder-path.js';
import { assertProfileName, noConfigFolderError, settingsFileIn } from './paths.js';
import type { LockWait } from '../util/lock-file.js';
import type { ConfigReader, Profile, SavedSettings, StoredToken } from './types.js';

export interface CacheEntry {
  value: unknown;
  /** ISO 8601. */
  expiresAt: string;
}

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
  /** The home folder the folder is under (ConfigFolder.home). */
  home?: string;
}

/** What the store's reads and writes share of a run: its warnings, each said once. */
export interface StoreRun {
  warnOnce(text: string): void;
}

export function storeRun(options: ConfigStoreOptions): StoreRun {
  const said = new Set<string>();
  return {
    warnOnce(text) {
      if (said.has(text)) return;
      said.add(text);
      options.warn?.(text);
    },
  };
}

/** The files of the config folder `dir`. */
export const tokenFileIn = (dir: string, profile: string) => inFolder(dir, 'tokens', `${assertProfileName(profile)}.json`);
export const cacheFileIn = (dir: string, profile: string) => inFolder(dir, 'cache', `${assertProfileName(profile)}.json`);

// A hand-edited or damaged settings or token file is reported, never silently emptied;
// a cache may always be thrown away, so a damaged or unreadable one reads as empty.
export const readSettingsIn = (dir: string) => checkedSettings(settingsFileIn(dir), readObject(settingsFileIn(dir), 'report'));
export const readCacheEntries = (file: string) => readObject(file, 'empty');

/** Reads the config folder `dir`; with `run`, the warnings it says are the writer's too (each once). */
export function createConfigReader(dir: string | undefined, options: ConfigStoreOptions = {}, run: StoreRun = storeRun(options)): ConfigReader {
  if (dir === undefined) return folderlessReader();
  // What is read to run, not to write (unreadableSettings).
  const settingsForRun = (): JsonObject => {
    try {
      return readSettingsIn(dir);
    } catch (error) {
      const code = ((error as OperationError).cause as NodeJS.ErrnoException | undefined)?.code;
      if (options.unreadableSettings !== 'warn' || !PERMISSION_CODES.has(code ?? '')) throw error;
      run.warnOnce(`${(error as Error).message}; going on without it (TKT_URL and TKT_TOKEN are all this run needs)`);
      return {};
    }
  };

  return {
    dir,
    home: options.home,

    getProfile(name) {
      assertProfileName(name);
      const all = profilesIn(settingsForRun());
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
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

    readToken(profile) {
      const file = tokenFileIn(dir, profile);
      const folder = dirname(file);
      const folderInfo = ownEntry(folder, 'folder', file, 'read');
      const fileInfo = folderInfo === undefined ? undefined : ownEntry(file, 'token file', file, 'read');
      const stored = readObject(file, 'report');
      if (!isStoredToken(stored)) return undefined;
      // Windows has no such modes: its files are private by their ACLs.
      if (folderInfo !== undefined && fileInfo !== undefined && process.platform !== 'win32') warnLooseModes(run, dir, folderInfo, file, fileInfo);
      return stored;
    },

    readCache<T>(profile: string, key: string): T | undefined {
      const file = cacheFileIn(dir, profile);
      // Names become the IDs it holds: a cache another owner chose is not read.
      if (ownEntry(dirname(file), 'folder', file, 'read') !== undefined) ownEntry(file, 'cache file', file, 'read');
      const entries = readCacheEntries(file);
      const entry = (Object.hasOwn(entries, key) ? entries[key] : undefined) as Partial<CacheEntry> | null | undefined;
      // A missing or unparsable expiry counts as expired.
      if (!(Date.parse(entry?.expiresAt ?? '') > Date.now())) return undefined;
      return entry?.value as T;
    },
  };
}

/**
 * The reads of a user with no config folder (defaultConfigDir): empty, as a folder not made yet,
 * so that a run with TKT_URL and TKT_TOKEN works; the folder's name is exit 1 naming TKT_CONFIG_DIR.
 */
function folderlessReader(): ConfigReader {
  return markedFolderless({
    get dir(): string {
      throw noConfigFolderError();
    },
    getProfile: (name) => (assertProfileName(name), {}),
    profileNames: () => [],
    getSettings: () => ({}),
    readToken: () => undefined,
    readCache: () => undefined,
  });
}

const FOLDERLESS = new WeakSet<Pick<ConfigReader, 'dir'>>();

/** `reader`, known from now on as a user's with no config folder (folderIfAny). */
export function markedFolderless<T extends Pick<ConfigReader, 'dir'>>(reader: T): T {
  FOLDERLESS.add(reader);
  return reader;
}

/** The config folder, or undefined where the user has none (a store whose `dir` is exit 1). */
export function folderIfAny(config: Pick<ConfigReader, 'dir'>): string | undefined {
  return FOLDERLESS.has(config) ? undefined : config.dir;
}

function listFolder(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

export function profilesIn(settings: JsonObject): Record<string, Profile> {
  return { ...(settings.profiles as Record<string, Profile> | undefined) };
}

/**
 * `settings`, read from `file`, when each of its objects is one: "settings", "profiles", each
 * profile and its "settings". Else exit 1 naming the file and the key, for a read and for a write
 * alike, so that a write never turns a value written by hand (a list) into something else
 * (`{"0": "keep me", "aliases": ...}`), as readAliases does for "aliases".
 */
function checkedSettings(file: string, settings: JsonObject): JsonObject {
  const refuse = (key: string, value: unknown, example: string) => {
    const text = JSON.stringify(value);
    return new OperationError(`cannot read ${file}: ${key} is not an object: ${text.length > 60 ? `${text.slice(0, 59)}…` : text}`, {
      hint: `an object belongs there (${example}): write it so, or remove it; no command changes the file until then`,
    });
  };
  const optionalObject = (value: unknown, key: string, example: string) => {
    if (value !== undefined && !isObject(value)) throw refuse(key, value, example);
  };
  optionalObject(settings.settings, '"settings"', '"settings": {"pager": "less"}');
  optionalObject(settings.profiles, '"profiles"', '"profiles": {"default": {"url": "https://..."}}');
  for (const [name, profile] of Object.entries(settings.profiles ?? {})) {
    if (!isObject(profile)) throw refuse(`profile ${JSON.stringify(name)}`, profile, `"${name}": {"url": "https://..."}`);
    optionalObject(profile.settings, `the "settings" of profile ${JSON.stringify(name)}`, '"settings": {"pager": "less"}');
  }
  return settings;
}

/**
 * The JSON object in `file`; {} when there is no such file, or when it holds blanks only (emptied
 * by hand, or by a full disk), also when a folder on its path is a
 * file (TKT_CONFIG_DIR naming a file): a run with TKT_URL and TKT_TOKEN needs no config folder,
 * and a write says which path is not a folder (writeObject).
 */
function readObject(file: string, ifUnreadable: 'report' | 'empty'): JsonObject {
  try {
    // Read as text is (README: Text values): a BOM (Notepad's) left out, Notepad's "Unicode" named
    // UTF-16 with the iconv hint, not a syntax error at line 1; a syntax error names its line and
    // column (parseJsonText).
    const parsed = parseJsonText(textOfFile(readFileSync(file), file)) ?? {};
    if (!isObject(parsed)) throw new TypeError('not a JSON object');
    return parsed;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (ifUnreadable === 'empty' || code === 'ENOENT' || code === 'ENOTDIR') return {};
    throw fileError('read', file, error);
  }
}

/**
 * `entry` (a folder of tkt's, a token or cache file) as lstat sees it, undefined when there is none; a
 * symbolic link there is refused (exit 1) naming it, as ssh refuses an odd key file: tkt would
 * read a token or a cache, or change the mode of a folder, that another owner chose. `file`: the file that
 * was to be read or written (`entry` itself, or a file in it).
 */
export function ownEntry(entry: string, kind: 'folder' | 'token file' | 'cache file', file: string, action: 'read' | 'write'): Stats | undefined {
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
    [dirname(file), folderInfo],
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

/** What a file of another owner (`sudo tkt login` made ~/.config/tkt root's) or a read-only one answers. */
const PERMISSION_CODES = new Set(['EACCES', 'EPERM']);

export function fileError(action: 'read' | 'write' | 'delete', file: string, error: unknown): OperationError {
  const denied = PERMISSION_CODES.has((error as NodeJS.ErrnoException).code ?? '') || (error as NodeJS.ErrnoException).code === 'EROFS';
  // The user may change neither the file nor the folder of another owner: not "fix or delete".
  const hint = denied
    ? action === 'read'
      ? 'the file or a folder above it belongs to another user (sudo?) or is not readable: chown it, or set TKT_CONFIG_DIR'
      : 'the folder belongs to another user (sudo?) or is read-only: chown it, or set TKT_CONFIG_DIR to a folder you may write (in CI, TKT_URL and TKT_TOKEN need no login)'
    : action === 'read'
      ? (notTextHint(error) ?? 'fix or delete the file')
      : 'check that you may write to the folder';
  return new OperationError(`cannot ${action} ${file}: ${error instanceof Error ? error.message : String(error)}`, { hint, cause: error });
}

function isStoredToken(value: JsonObject): value is JsonObject & StoredToken {
  return typeof value.token === 'string' && typeof value.url === 'string' && typeof value.expiresAt === 'string' && !Number.isNaN(Date.parse(value.expiresAt));
}
