// Settings per profile and the token cache (docs/cli.md sections 1 and 4).

export interface Profile {
  url?: string;
  /** `--allow-http` given at the login that saved `url`: plain http to that origin (only) is accepted. */
  allowHttp?: boolean;
  /** `tkt --profile NAME config set`: this profile's own values, over the global ones. */
  settings?: SavedSettings;
}

/** What `tkt config set` saves (src/config/settings.ts reads them with env and defaults). */
export interface SavedSettings {
  editor?: string;
  pager?: string;
  defaultView?: string;
  defaultConcurrency?: number;
  /** The ticket's page in the service's web interface, `{id}` standing for its ID (tkt browse). */
  webUrl?: string;
  /**
   * `tkt alias set`: name -> expansion, for every profile (kept apart from the settings of `tkt
   * config`). Unknown: one written by hand may be no text (src/desk/aliases.ts readAliases).
   */
  aliases?: Record<string, unknown>;
}

export interface StoredToken {
  token: string;
  /** ISO 8601; the JWT `exp` when present, else 7 days after login. */
  expiresAt: string;
  /** The base URL the token was issued by; never sent elsewhere. */
  url: string;
  userId?: string;
  username?: string;
  firstName?: string;
  lastName?: string;
}

// Reads are synchronous and cheap; writes are async because they may wait for another tkt
// process's lock on the file. A write that fails rejects with an OperationError naming the file.
/** Settings to merge: a key set to undefined is removed. */
export type SettingsChanges = Partial<Record<keyof SavedSettings, SavedSettings[keyof SavedSettings] | undefined>>;

export interface ConfigReader {
  /** The folder holding settings, tokens and caches; exit 1 naming TKT_CONFIG_DIR when the user has none (defaultConfigDir). */
  readonly dir: string;
  /** The home folder `dir` is under when it was found from it (ConfigFolder): its writes make no home folder (assertHomeFolder). */
  readonly home?: string;
  getProfile(name: string): Profile;
  /** Every profile with saved settings or a token. */
  profileNames(): string[];
  /** The global settings, or a profile's own when `profile` is given. */
  getSettings(profile?: string): SavedSettings;
  readToken(profile: string): StoredToken | undefined;
  /** A small JSON cache (lookups) kept per profile; entries carry their own expiry. */
  readCache<T>(profile: string, key: string): T | undefined;
}

export interface ConfigStore extends ConfigReader {
  /**
   * Throws what a write of the settings and a token would meet (a file where the folder should be, a
   * settings file it cannot read, a folder it may not write), making the folders: login checks before sending a password.
   * Returns what removes the folders it made, while they are still empty: a login that then fails
   * leaves no config folder, whose being there would make later runs keep a cache in it.
   */
  assertWritable(): () => void;
  /** Merges `changes` into the saved profile. */
  saveProfile(name: string, changes: Profile): Promise<void>;
  /**
   * Merges `changes` (a key set to undefined is removed) into the global settings or a profile's.
   * A change that depends on what is saved (a map of aliases) is a function of the settings as
   * saved, worked out under the file's lock: a concurrent change is not lost.
   */
  saveSettings(changes: SettingsChanges | ((saved: SavedSettings) => SettingsChanges), profile?: string): Promise<void>;
  /** Token files are 0600 and written atomically. */
  writeToken(profile: string, token: StoredToken): Promise<void>;
  deleteToken(profile: string): Promise<void>;
  /** Keeps `value` under `key` in the profile's cache for `ttlMs`. */
  writeCache(profile: string, key: string, value: unknown, ttlMs: number): Promise<void>;
}

/** What a command needs to talk to the service, resolved from flag, env and profile. */
export interface Session {
  profile: string;
  baseUrl: string;
  token: string;
  tokenSource: 'env' | 'cache';
  /** The caller's user ID, from the token cache or the token's claims; undefined when unknown. */
  userId: string | undefined;
  username: string | undefined;
  /** First and last name saved at login; undefined with TKT_TOKEN. */
  fullName: string | undefined;
  expiresAt: Date | undefined;
}
