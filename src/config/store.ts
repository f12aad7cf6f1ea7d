// Profiles, tokens and lookup caches on disk, through conf (atomic temp-file + rename writes).
// conf is imported statically: ConfigStore is synchronous and conf is ESM-only, so it cannot
// be loaded lazily without making every store call async.
import fs from 'node:fs';
import path from 'node:path';
import Conf from 'conf';
import { OperationError } from '../errors.js';
import { assertProfileName } from './paths.js';
import type { ConfigStore, Profile, StoredToken } from './types.js';

interface Settings {
  profiles?: Record<string, Profile>;
}

interface CacheEntry {
  value: unknown;
  /** ISO 8601. */
  expiresAt: string;
}

// Tokens are secrets and lookups name people: only the owner may read either.
const PRIVATE_FILE_MODE = 0o600;
const PRIVATE_FOLDER_MODE = 0o700;

export function createConfigStore(dir: string): ConfigStore {
  const files = new Map<string, Conf<Record<string, unknown>>>();

  // One conf instance per file, created on first use; conf re-reads the file on every access,
  // so another tkt process's writes are seen.
  function file(folder: string | undefined, name: string, clearInvalid = false): Conf<Record<string, unknown>> {
    const cwd = folder === undefined ? dir : path.join(dir, folder);
    const key = path.join(cwd, `${name}.json`);
    let conf = files.get(key);
    if (conf === undefined) {
      if (folder !== undefined) makePrivateFolder(cwd);
      conf = readable(key, () => new Conf<Record<string, unknown>>({
        cwd,
        configName: name,
        configFileMode: PRIVATE_FILE_MODE,
        // Keys are profile names and lookup names, which may contain dots.
        accessPropertiesByDotNotation: false,
        clearInvalidConfig: clearInvalid,
      }));
      files.set(key, conf);
    }
    return conf;
  }

  const settings = () => file(undefined, 'config');
  const tokens = (profile: string) => file('tokens', assertProfileName(profile));
  // A cache may always be thrown away, so a damaged one reads as empty.
  const cache = (profile: string) => file('cache', assertProfileName(profile), true);

  function profiles(): Record<string, Profile> {
    const conf = settings();
    return { ...readable(conf.path, () => (conf.store as Settings).profiles) };
  }

  return {
    dir,

    getProfile(name) {
      assertProfileName(name);
      const all = profiles();
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
    },

    saveProfile(name, changes) {
      assertProfileName(name);
      const all = profiles();
      all[name] = { ...(Object.hasOwn(all, name) ? all[name] : {}), ...changes };
      settings().set('profiles', all);
    },

    readToken(profile) {
      const conf = tokens(profile);
      const stored = readable(conf.path, () => conf.store);
      return isStoredToken(stored) ? stored : undefined;
    },

    writeToken(profile, token) {
      tokens(profile).store = { ...token };
    },

    deleteToken(profile) {
      fs.rmSync(tokens(profile).path, { force: true });
    },

    readCache<T>(profile: string, key: string): T | undefined {
      const entry = cache(profile).get(key) as Partial<CacheEntry> | null | undefined;
      // A missing or unparsable expiry counts as expired.
      if (!(Date.parse(entry?.expiresAt ?? '') > Date.now())) return undefined;
      return entry?.value as T;
    },

    writeCache(profile, key, value, ttlMs) {
      const entry: CacheEntry = { value, expiresAt: new Date(Date.now() + ttlMs).toISOString() };
      cache(profile).set(key, entry);
    },
  };
}

function makePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // mkdir leaves an existing folder's mode alone.
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

// A hand-edited or damaged settings or token file is reported, never silently emptied.
function readable<T>(filePath: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new OperationError(`cannot read ${filePath}: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'fix or delete the file',
      cause: error,
    });
  }
}

function isStoredToken(value: Record<string, unknown>): value is Record<string, unknown> & StoredToken {
  return (
    typeof value.token === 'string' &&
    typeof value.url === 'string' &&
    typeof value.expiresAt === 'string' &&
    !Number.isNaN(Date.parse(value.expiresAt))
  );
}
