// Which profile, which service and which token a command uses (docs/cli.md sections 1 and 4).
// Every setting is read in the order flag, environment, the profile's saved settings.
import { AuthError, UsageError, type TktError } from '../errors.js';
import { shellWord } from '../util/shell-word.js';
import { decodeJwtClaims, expiryFromClaims, userIdFromClaims, usernameFromClaims } from './jwt.js';
import { envValue, setButEmpty } from '../util/env.js';
import { nonFolderOnPath } from '../util/non-folder.js';
import { isCI } from '../util/ci.js';
import { closestWord } from '../util/closest.js';
import { assertProfileName } from './paths.js';
import type { ConfigReader, Profile, Session } from './types.js';
import { folderIfAny } from './store-read.js';
import { assertTransportAllowed, normalizeBaseUrl, withoutApi } from './url.js';

export interface SessionInput {
  globals: { url?: string | undefined; profile?: string | undefined; allowHttp?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  config: ConfigReader;
  now: Date;
}

type SettingsInput = Omit<SessionInput, 'now'>;

/** Where a run looked: what a hint's command line repeats (tktCommand). */
export type RunPlace = Pick<SessionInput, 'globals' | 'env'>;

export const DEFAULT_PROFILE = 'default';

/** Every profile that exists: those with saved settings or a token, and the default one, which always does. */
export function allProfileNames(config: ConfigReader): string[] {
  return [...new Set([DEFAULT_PROFILE, ...config.profileNames()])].sort();
}

/** The profile the run names, --profile or TKT_PROFILE (the same, docs/cli.md), unchecked; undefined when neither does. */
export function chosenProfile(input: RunPlace): string | undefined {
  return input.globals.profile || envValue(input.env, 'TKT_PROFILE');
}

/** The profile's name, whether or not it exists: `tkt login` and `tkt config set` create it. */
export function resolveProfileName(input: RunPlace): string {
  return assertProfileName(chosenProfile(input) || DEFAULT_PROFILE, profileSource(input));
}

/** Where the run's profile name came from, for an error about it; undefined for the default. */
function profileSource(input: RunPlace): '--profile' | 'TKT_PROFILE' | undefined {
  if (input.globals.profile) return '--profile';
  return envValue(input.env, 'TKT_PROFILE') === undefined ? undefined : 'TKT_PROFILE';
}

/**
 * The profile a screen names where the user acts (tkt triage's title line): none when it goes
 * without saying, the default profile with no other one.
 */
export function profileToName(input: SettingsInput): string | undefined {
  const name = resolveProfileName(input);
  return name === DEFAULT_PROFILE && allProfileNames(input.config).length === 1 ? undefined : name;
}

/**
 * " on profile prod", for a question before what cannot be undone on the wrong service (tkt
 * delete's, triage's close): the profile profileToName gives, unless it is the default, which goes
 * without saying; else nothing.
 */
export const onProfile = (profile: string | undefined): string => (profile === undefined || profile === DEFAULT_PROFILE ? '' : ` on profile ${profile}`);

const OTHER_LOGINS_SHOWN = 3;

/**
 * ", or use a profile you are logged in to: --profile night", for a run that named no profile
 * when others hold a token that has not expired (a login made with --profile, then a run without
 * it); else nothing: a profile named is the one meant.
 */
function otherLogins(input: SessionInput, profile: string): string {
  if (chosenProfile(input) !== undefined) return '';
  const loggedIn = input.config.profileNames().filter((name) => {
    if (name === profile) return false;
    try {
      const token = input.config.readToken(name);
      return token !== undefined && new Date(token.expiresAt) > input.now;
    } catch {
      // A token file tkt refuses to read (a symbolic link) is no login to offer, and not this run's error.
      return false;
    }
  });
  if (loggedIn.length === 0) return '';
  const shown = loggedIn.slice(0, OTHER_LOGINS_SHOWN).map((name) => `--profile ${shellWord(name)}`);
  const more = loggedIn.length > OTHER_LOGINS_SHOWN ? ` (and ${loggedIn.length - OTHER_LOGINS_SHOWN} more: "tkt profiles")` : '';
  return `, or use a profile you are logged in to: ${shown.join(', ')}${more}`;
}

/**
 * The profile a command reads: a name nothing has created (a typo in --profile or TKT_PROFILE)
 * is exit 2 listing the profiles, not "not logged in". The default profile always exists. The
 * hint offers the profile meant, one differing only in case first (login would refuse that name,
 * profileNameToSave), else the login that creates it.
 */
export function existingProfileName(input: SettingsInput): string {
  const name = resolveProfileName(input);
  const names = allProfileNames(input.config);
  if (names.includes(name)) return name;
  // The default profile always exists: this name was given.
  const source = profileSource(input)!;
  const meant = names.find((existing) => existing.toLowerCase() === name.toLowerCase()) ?? closestWord(name, names);
  throw new UsageError(`no profile named "${name}" (${source})`, {
    details: [`profiles: ${names.join(', ')}`],
    hint:
      meant === undefined ? `"${loginCommand(input)}" creates it` : `did you mean ${source === '--profile' ? `--profile ${meant}` : `TKT_PROFILE=${meant}`}?`,
  });
}

/**
 * The profile `tkt login` saves to, new or not: exit 2 for a new one whose name differs from an
 * existing profile's only in case, as Windows' reserved names are refused (assertProfileName):
 * on macOS and Windows tokens/Default.json and tokens/default.json are one file.
 */
export function profileNameToSave(input: SettingsInput): string {
  const name = resolveProfileName(input);
  const names = allProfileNames(input.config);
  const twin = names.includes(name) ? undefined : names.find((existing) => existing.toLowerCase() === name.toLowerCase());
  if (twin === undefined) return name;
  throw new UsageError(`profile "${name}" differs from the existing profile "${twin}" only in case`, {
    details: ['profiles are kept in files named after them, and macOS and Windows see no case in file names'],
    hint: `log in to "${twin}" with --profile ${twin}, or choose another name`,
  });
}

/**
 * `nameProfile`: the line names the profile even when it is the default, for a reader whose shell
 * may choose another (an assistant that tells its user what to run, tkt mcp).
 */
export interface NamingProfile {
  nameProfile?: boolean;
}

/**
 * A tkt command line for a hint, that does what it says where this run looked (docs/cli.md
 * section 11): `words` (already quoted, see shellWord) followed by the run's profile (from
 * --profile or TKT_PROFILE, named even when it came from the environment, so the line works in
 * any shell), its --url and --allow-http when given as flags (TKT_URL is read by every command).
 * `url` stands in for the run's --url when the line needs one the run was not given.
 */
export function tktCommand(input: RunPlace & NamingProfile, words: string, url: string | undefined = input.globals.url): string {
  const line = ['tkt', words];
  const profile = chosenProfile(input) || (input.nameProfile ? DEFAULT_PROFILE : undefined);
  if (profile && (profile !== DEFAULT_PROFILE || input.nameProfile)) line.push('--profile', profile);
  if (url) line.push('--url', shellWord(url));
  if (input.globals.allowHttp === true) line.push('--allow-http');
  return line.join(' ');
}

/**
 * The `tkt login` that logs in where this run looked (tktCommand). With `config`, a profile that
 * has no URL (and none from --url or TKT_URL) gets `--url URL`: a login without one could not
 * run without a terminal, and at one it would ask for what the hint could have said.
 */
export function loginCommand(input: RunPlace & NamingProfile & { config?: ConfigReader }, words = 'login'): string {
  const knowsUrl =
    input.config === undefined || Boolean(input.globals.url || envValue(input.env, 'TKT_URL') || input.config.getProfile(resolveProfileName(input)).url);
  return tktCommand(input, words, knowsUrl ? input.globals.url : 'URL');
}

/**
 * The run needs nothing from the settings file (README, Environment and files): its token from
 * TKT_TOKEN, its URL from --url or TKT_URL, and no profile named (--profile, TKT_PROFILE), whose
 * settings would be in it. Commands that read or write the file itself say so (ActionOptions.keepsSettings).
 */
export function sparesSettingsFile(input: RunPlace): boolean {
  const { globals, env } = input;
  return (
    envValue(env, 'TKT_TOKEN') !== undefined &&
    (globals.url !== undefined || envValue(env, 'TKT_URL') !== undefined) &&
    !globals.profile &&
    envValue(env, 'TKT_PROFILE') === undefined
  );
}

/** `saved`: the profile's settings, when the caller has read them already. */
export function resolveBaseUrl(input: SettingsInput, saved: Profile = input.config.getProfile(resolveProfileName(input))): string | undefined {
  const url = input.globals.url || envValue(input.env, 'TKT_URL') || saved.url;
  return url ? normalizeBaseUrl(url) : undefined;
}

/**
 * The origin a profile's saved --allow-http holds for: that of the URL it was saved with at
 * login, and no other (README, Environment and files); undefined when it has none.
 */
export function httpAllowedOrigin(saved: Profile): string | undefined {
  if (saved.allowHttp !== true || saved.url === undefined) return undefined;
  try {
    return new URL(saved.url).origin;
  } catch {
    return undefined;
  }
}

/** Whether plain http to `baseUrl` is allowed: --allow-http on the command, or the profile's for that origin. */
export function allowsHttp(globals: SessionInput['globals'], saved: Profile, baseUrl: string): boolean {
  return globals.allowHttp === true || httpAllowedOrigin(saved) === new URL(baseUrl).origin;
}

/** Where a CI job's token comes from, and why it may have none. */
const CI_SECRETS = "in CI, from the pipeline's secrets; a pull request from a fork gets none";

/**
 * The error of a run that must know who `what` ("closes this ticket", "\"@me\" is") and whose
 * token names no user; `hint` says how to name who acts. A token that names nothing at all, no
 * user, no expiry, is likely not the token meant (masked in a CI log, cut short): exit 4, as the
 * service's 401 makes any other command's run, never after a request of its own (a review: a
 * probe waited out --timeout where exit 2 came at once). One that names no user only: exit 2.
 */
export function noUserError(session: Pick<Session, 'username' | 'expiresAt' | 'tokenSource'>, what: string, hint: string): TktError {
  if (!tokenUnreadable(session)) return new UsageError(`cannot tell who ${what}: the token carries no user ID`, { hint });
  const where = session.tokenSource === 'env' ? 'set a valid TKT_TOKEN' : 'run "tkt login" again';
  return new AuthError(`cannot tell who ${what}: tkt cannot read the token (not a JWT: cut short, masked, or another kind of token?)`, {
    hint: `${where}; or, if the service takes this token, ${hint}`,
  });
}

/** The session's token names nothing tkt can read, no user, no expiry: a masked or cut-short secret, no login. */
export function tokenUnreadable(session: Pick<Session, 'username' | 'expiresAt'>): boolean {
  return session.username === undefined && session.expiresAt === undefined;
}

export function resolveSession(input: SessionInput): Session {
  const profile = existingProfileName(input);
  const saved = input.config.getProfile(profile);
  // An empty TKT_TOKEN (a CI secret that is not set) counts as unset, as gh does with GH_TOKEN,
  // and is named when the run then has no token.
  const envToken = envValue(input.env, 'TKT_TOKEN')?.trim();

  // TKT_TOKEN is used as-is: the token cache is neither read nor written.
  if (envToken) {
    const baseUrl = requireBaseUrl(resolveBaseUrl(input, saved), input.env);
    assertTransportAllowed(baseUrl, allowsHttp(input.globals, saved, baseUrl), 'env');
    const claims = decodeJwtClaims(envToken);
    const expiresAt = expiryFromClaims(claims);
    if (expiresAt !== undefined && expiresAt.getTime() <= input.now.getTime()) {
      throw new AuthError(`TKT_TOKEN expired on ${expiresAt.toISOString()}`, {
        hint: `set TKT_TOKEN to a fresh token, or unset it and run "${loginCommand(input)}"`,
      });
    }
    return {
      profile,
      baseUrl,
      token: envToken,
      tokenSource: 'env',
      userId: userIdFromClaims(claims),
      username: usernameFromClaims(claims),
      fullName: undefined,
      expiresAt,
    };
  }

  const stored = input.config.readToken(profile);
  if (stored === undefined) {
    // In CI the usual cause is a secret the job did not get, not a login never made.
    const secrets = isCI(input.env) ? ` (${CI_SECRETS})` : '';
    if (setButEmpty(input.env, 'TKT_TOKEN')) {
      throw new AuthError(`not logged in (profile ${profile}), and TKT_TOKEN is set but empty`, {
        hint: `set TKT_TOKEN to a token${secrets}, or unset it and run "${loginCommand(input)}"`,
      });
    }
    // A login could not be kept in a config folder that is a file: the way out is another folder or a token.
    const dir = folderIfAny(input.config);
    const notFolder = dir === undefined ? undefined : nonFolderOnPath(dir);
    const hint =
      dir === undefined
        ? `HOME is unset or not absolute, and this user has no home folder, so no login is kept: set TKT_TOKEN${secrets}, or TKT_CONFIG_DIR and run "${loginCommand(input)}"`
        : notFolder === undefined
          ? secrets === ''
            ? `run "${loginCommand(input)}"${otherLogins(input, profile)}`
            : `set TKT_TOKEN${secrets}, or run "${loginCommand(input)}"`
          : `the config folder ${notFolder} is not a folder, so no login is kept there: set TKT_CONFIG_DIR to a folder, or set TKT_TOKEN`;
    throw new AuthError(`not logged in (profile ${profile})`, { hint });
  }
  // The token remembers where it was issued, which also serves as the URL when none is set.
  const baseUrl = resolveBaseUrl(input, saved) ?? normalizeBaseUrl(stored.url);
  if (normalizeBaseUrl(stored.url) !== baseUrl) {
    // Sending it to another service would hand that service our credentials.
    // The profile's URL with /api added (the mistake login refuses) is that URL meant.
    const meant = withoutApi(baseUrl) === normalizeBaseUrl(stored.url);
    throw new AuthError(`the token of profile ${profile} belongs to ${stored.url}, not ${baseUrl}`, {
      hint: meant
        ? `drop the /api: the service's base URL is ${stored.url} (tkt adds /api to every request)`
        : `run "tkt login --url ${baseUrl}" with another --profile, or drop --url / TKT_URL`,
    });
  }
  const expiresAt = new Date(stored.expiresAt);
  if (expiresAt <= input.now) {
    throw new AuthError(`token expired on ${expiresAt.toISOString()} (profile ${profile})`);
  }
  assertTransportAllowed(baseUrl, allowsHttp(input.globals, saved, baseUrl), 'login', httpAllowedOrigin(saved));
  const claims = decodeJwtClaims(stored.token);
  return {
    profile,
    baseUrl,
    token: stored.token,
    tokenSource: 'cache',
    userId: stored.userId ?? userIdFromClaims(claims),
    username: stored.username ?? usernameFromClaims(claims),
    fullName: [stored.firstName, stored.lastName].filter((part) => part !== undefined && part !== '').join(' ') || undefined,
    expiresAt,
  };
}

function requireBaseUrl(baseUrl: string | undefined, env: SessionInput['env']): string {
  if (baseUrl === undefined) {
    const empty = setButEmpty(env, 'TKT_URL') ? ' (TKT_URL is set but empty)' : '';
    throw new UsageError(`no service URL${empty}: pass --url, set TKT_URL, or run tkt login --url URL`);
  }
  return baseUrl;
}
