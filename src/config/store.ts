// Profiles, tokens and lookup caches on disk. Reads are plain node:fs (readFileSync +
// JSON.parse), so reading settings and a token costs no more than the files; writes go
// through conf (atomic temp-file + rename).
import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { OperationError } from '../errors.js';
import { assertProfileName } from './paths.js';
import type { ConfigStore, Profile, StoredToken } from './types.js';

type JsonObject = Record<string, unknown>;

interface CacheEntry {
  value: unknown;
  /** ISO 8601. */
  expiresAt: string;
}

// Tokens are secrets and lookups name people: only the owner may read either.
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

export function createConfigStore(dir: string): ConfigStore {
  const settingsFile = path.join(dir, 'config.json');
  const tokenFile = (profile: string) => path.join(dir, 'tokens', `${assertProfileName(profile)}.json`);
  const cacheFile = (profile: string) => path.join(dir, 'cache', `${assertProfileName(profile)}.json`);

  // A hand-edited or damaged settings or token file is reported, never silently emptied;
  // a cache may always be thrown away, so a damaged one reads as empty.
  const readSettings = () => readObject(settingsFile, 'report');
  const readCacheEntries = (file: string) => readObject(file, 'empty');

  return {
    dir,

    getProfile(name) {
      assertProfileName(name);
      const all = profilesIn(readSettings());
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
    },

    saveProfile(name, changes) {
      assertProfileName(name);
      const settings = readSettings();
      const all = profilesIn(settings);
      all[name] = { ...(Object.hasOwn(all, name) ? all[name] : {}), ...changes };
      writeObject(settingsFile, { ...settings, profiles: all });
    },

    readToken(profile) {
      const stored = readObject(tokenFile(profile), 'report');
      return isStoredToken(stored) ? stored : undefined;
    },

    writeToken(profile, token) {
      const file = tokenFile(profile);
      makePrivateFolder(path.dirname(file));
      writeObject(file, { ...token });
    },

    deleteToken(profile) {
      fs.rmSync(tokenFile(profile), { force: true });
    },

    readCache<T>(profile: string, key: string): T | undefined {
      const entries = readCacheEntries(cacheFile(profile));
      const entry = (Object.hasOwn(entries, key) ? entries[key] : undefined) as Partial<CacheEntry> | null | undefined;
      // A missing or unparsable expiry counts as expired.
      if (!(Date.parse(entry?.expiresAt ?? '') > Date.now())) return undefined;
      return entry?.value as T;
    },

    writeCache(profile, key, value, ttlMs) {
      const file = cacheFile(profile);
      const entry: CacheEntry = { value, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      makePrivateFolder(path.dirname(file));
      writeObject(file, { ...readCacheEntries(file), [key]: entry });
    },
  };
}

function profilesIn(settings: JsonObject): Record<string, Profile> {
  return { ...(settings.profiles as Record<string, Profile> | undefined) };
}

/** The JSON object in `file`; {} when there is no such file. */
function readObject(file: string, ifDamaged: 'report' | 'empty'): JsonObject {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw fileError('read', file, error);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('not a JSON object');
    return parsed as JsonObject;
  } catch (error) {
    if (ifDamaged === 'empty') return {};
    throw fileError('read', file, error);
  }
}

/** Replaces `file` with `contents`, atomically and readable by the owner only. */
function writeObject(file: string, contents: JsonObject): void {
  try {
    new Conf<JsonObject>({
      cwd: path.dirname(file),
      configName: path.basename(file, '.json'),
      configFileMode: PRIVATE_FILE_MODE,
      // Keys are profile names and lookup names, which may contain dots.
      accessPropertiesByDotNotation: false,
      // The file was read (and a damaged one reported) by readObject, or is being replaced whole.
      clearInvalidConfig: true,
    }).store = contents;
  } catch (error) {
    throw fileError('write', file, error);
  }
}

function makePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // mkdir leaves an existing folder's mode alone.
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

function fileError(action: 'read' | 'write', file: string, error: unknown): OperationError {
  return new OperationError(`cannot ${action} ${file}: ${error instanceof Error ? error.message : String(error)}`, {
    hint: action === 'read' ? 'fix or delete the file' : 'check that the folder exists and is writable',
    cause: error,
  });
}

function isStoredToken(value: JsonObject): value is JsonObject & StoredToken {
  return (
    typeof value.token === 'string' &&
    typeof value.url === 'string' &&
    typeof value.expiresAt === 'string' &&
    !Number.isNaN(Date.parse(value.expiresAt))
  );
}
