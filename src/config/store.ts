// Profiles, tokens and lookup caches on disk. Reads are plain node:fs (readFileSync +
// JSON.parse); writes go through conf (atomic temp-file + rename), imported on the first
// write: conf and its helpers (atomically, when-exit, dot-prop...) cost milliseconds to load,
// which commands that only read settings and a token (show, list...) now skip.
import fs from 'node:fs';
import path from 'node:path';
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
  // a cache may always be thrown away, so a damaged or unreadable one reads as empty.
  const readSettings = () => readObject(settingsFile, 'report');
  const readCacheEntries = (file: string) => readObject(file, 'empty');

  return {
    dir,

    getProfile(name) {
      assertProfileName(name);
      const all = profilesIn(readSettings());
      return Object.hasOwn(all, name) ? { ...all[name] } : {};
    },

    async saveProfile(name, changes) {
      assertProfileName(name);
      await writeObject(settingsFile, () => {
        const settings = readSettings();
        const all = profilesIn(settings);
        all[name] = { ...(Object.hasOwn(all, name) ? all[name] : {}), ...changes };
        return { ...settings, profiles: all };
      });
    },

    readToken(profile) {
      const stored = readObject(tokenFile(profile), 'report');
      return isStoredToken(stored) ? stored : undefined;
    },

    async writeToken(profile, token) {
      await writeObject(tokenFile(profile), () => ({ ...token }), { privateFolder: true });
    },

    async deleteToken(profile) {
      const file = tokenFile(profile);
      await fs.promises.rm(file, { force: true }).catch((error: unknown) => {
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
      await writeObject(file, () => ({ ...readCacheEntries(file), [key]: entry }), { privateFolder: true });
    },
  };
}

function profilesIn(settings: JsonObject): Record<string, Profile> {
  return { ...(settings.profiles as Record<string, Profile> | undefined) };
}

/** The JSON object in `file`; {} when there is no such file. */
function readObject(file: string, ifUnreadable: 'report' | 'empty'): JsonObject {
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('not a JSON object');
    return parsed as JsonObject;
  } catch (error) {
    if (ifUnreadable === 'empty' || (error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw fileError('read', file, error);
  }
}

/**
 * Replaces `file` with what `contents()` returns, atomically and readable by the owner only.
 * Everything after loading conf is synchronous, so two writes in one process cannot
 * interleave their read-modify-write.
 */
async function writeObject(file: string, contents: () => JsonObject, options: { privateFolder?: boolean } = {}): Promise<void> {
  const { default: Conf } = await import('conf');
  const replacement = contents();
  try {
    if (options.privateFolder === true) makePrivateFolder(path.dirname(file));
    new Conf<JsonObject>({
      cwd: path.dirname(file),
      configName: path.basename(file, '.json'),
      configFileMode: PRIVATE_FILE_MODE,
      // Keys are profile names and lookup names, which may contain dots.
      accessPropertiesByDotNotation: false,
      // The file was read (and a damaged one reported) by readObject, or is being replaced whole.
      clearInvalidConfig: true,
    }).store = replacement;
  } catch (error) {
    throw fileError('write', file, error);
  }
}

function makePrivateFolder(folder: string): void {
  fs.mkdirSync(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  // mkdir leaves an existing folder's mode alone.
  fs.chmodSync(folder, PRIVATE_FOLDER_MODE);
}

function fileError(action: 'read' | 'write' | 'delete', file: string, error: unknown): OperationError {
  return new OperationError(`cannot ${action} ${file}: ${error instanceof Error ? error.message : String(error)}`, {
    hint: action === 'read' ? 'fix or delete the file' : 'check that you may write to the folder',
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
