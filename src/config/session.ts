// Which profile, which service and which token a command uses (contract sections 1 and 4).
// Every setting is read in the order flag, environment, the profile's saved settings.
import { AuthError, UsageError } from '../errors.js';
import { decodeJwtClaims, expiryFromClaims, userIdFromClaims, usernameFromClaims } from './jwt.js';
import { assertProfileName } from './paths.js';
import type { ConfigStore, Profile, Session } from './types.js';
import { assertTransportAllowed, normalizeBaseUrl } from './url.js';

export interface SessionInput {
  globals: { url?: string | undefined; profile?: string | undefined; allowHttp?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  config: ConfigStore;
  now: Date;
}

type SettingsInput = Omit<SessionInput, 'now'>;

export function resolveProfileName(input: Pick<SessionInput, 'globals' | 'env'>): string {
  return assertProfileName(input.globals.profile || input.env.TKT_PROFILE || 'default');
}

/** `saved`: the profile's settings, when the caller has read them already. */
export function resolveBaseUrl(input: SettingsInput, saved: Profile = input.config.getProfile(resolveProfileName(input))): string | undefined {
  const url = input.globals.url || input.env.TKT_URL || saved.url;
  return url ? normalizeBaseUrl(url) : undefined;
}

export function resolveSession(input: SessionInput): Session {
  const profile = resolveProfileName(input);
  const saved = input.config.getProfile(profile);
  const allowHttp = input.globals.allowHttp === true || saved.allowHttp === true;
  const envToken = input.env.TKT_TOKEN;

  // TKT_TOKEN is used as-is: the token cache is neither read nor written.
  if (envToken) {
    const baseUrl = requireBaseUrl(resolveBaseUrl(input, saved));
    assertTransportAllowed(baseUrl, allowHttp);
    const claims = decodeJwtClaims(envToken);
    const expiresAt = expiryFromClaims(claims);
    if (expiresAt !== undefined && expiresAt.getTime() <= input.now.getTime()) {
      throw new AuthError(`TKT_TOKEN expired on ${expiresAt.toISOString()}`, { hint: 'set TKT_TOKEN to a fresh token, or unset it and run "tkt login"' });
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
  if (stored === undefined) throw new AuthError(`not logged in (profile ${profile})`);
  // The token remembers where it was issued, which also serves as the URL when none is set.
  const baseUrl = resolveBaseUrl(input, saved) ?? normalizeBaseUrl(stored.url);
  if (normalizeBaseUrl(stored.url) !== baseUrl) {
    // Sending it to another service would hand that service our credentials.
    throw new AuthError(`the token of profile ${profile} belongs to ${stored.url}, not ${baseUrl}`, {
      hint: `run "tkt login --url ${baseUrl}" with another --profile, or drop --url / TKT_URL`,
    });
  }
  const expiresAt = new Date(stored.expiresAt);
  if (expiresAt <= input.now) {
    throw new AuthError(`token expired on ${expiresAt.toISOString()} (profile ${profile})`);
  }
  assertTransportAllowed(baseUrl, allowHttp);
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

function requireBaseUrl(baseUrl: string | undefined): string {
  if (baseUrl === undefined) {
    throw new UsageError('no service URL: pass --url, set TKT_URL, or run tkt login --url URL');
  }
  return baseUrl;
}
