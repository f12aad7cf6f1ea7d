import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveBaseUrl, resolveProfileName, resolveSession, type SessionInput } from '../../src/config/session.js';
import { createConfigStore } from '../../src/config/store.js';
import type { ConfigStore, StoredToken } from '../../src/config/types.js';
import { AuthError, ExitCode, TktError, UsageError } from '../../src/errors.js';
import { fakeJwt } from './jwt-fixture.js';
import { useTempDirs } from './temp-dir.js';

const tempDir = useTempDirs();
const NOW = new Date('2026-03-01T12:00:00.000Z');
const SERVICE = 'https://helpdesk.example.com';

function input(overrides: { url?: string; profile?: string; env?: Record<string, string> } = {}): SessionInput & { dir: string; config: ConfigStore } {
  const dir = tempDir();
  return {
    dir,
    globals: { url: overrides.url, profile: overrides.profile },
    env: { TKT_CONFIG_DIR: dir, ...overrides.env },
    config: createConfigStore(dir),
    now: NOW,
  };
}

function stored(changes: Partial<StoredToken> = {}): StoredToken {
  return { token: fakeJwt({ sub: '99', unique_name: 'from-claims' }), expiresAt: '2026-03-08T12:00:00.000Z', url: SERVICE, ...changes };
}

function errorOf(action: () => unknown): TktError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(TktError);
    return error as TktError;
  }
  throw new Error('expected a TktError');
}

describe('resolveProfileName', () => {
  it('takes the flag, then TKT_PROFILE, then "default"', () => {
    expect(resolveProfileName({ globals: { profile: 'flag' }, env: { TKT_PROFILE: 'env' } })).toBe('flag');
    expect(resolveProfileName({ globals: {}, env: { TKT_PROFILE: 'env' } })).toBe('env');
    expect(resolveProfileName({ globals: {}, env: { TKT_PROFILE: '' } })).toBe('default');
    expect(resolveProfileName({ globals: {}, env: { TKT_PROFILE: ' \t' } })).toBe('default');
    expect(resolveProfileName({ globals: {}, env: {} })).toBe('default');
  });

  it('refuses a name that is not a safe file name', () => {
    expect(errorOf(() => resolveProfileName({ globals: { profile: '../x' }, env: {} })).exitCode).toBe(ExitCode.usage);
    expect(errorOf(() => resolveProfileName({ globals: {}, env: { TKT_PROFILE: 'a/b' } }))).toBeInstanceOf(UsageError);
  });
});

describe('resolveBaseUrl', () => {
  it('takes the flag, then TKT_URL, then the profile, normalised', async () => {
    const base = input();
    await base.config.saveProfile('default', { url: 'https://profile.example/' });
    const env = { ...base.env, TKT_URL: 'https://env.example/' };

    expect(resolveBaseUrl({ ...base, env, globals: { url: 'https://flag.example/' } })).toBe('https://flag.example');
    expect(resolveBaseUrl({ ...base, env })).toBe('https://env.example');
    expect(resolveBaseUrl(base)).toBe('https://profile.example');
    // An empty or blank TKT_URL is unset: the profile's URL.
    for (const blank of ['', ' ']) expect(resolveBaseUrl({ ...base, env: { ...base.env, TKT_URL: blank } })).toBe('https://profile.example');
  });

  it("reads the chosen profile's URL", async () => {
    const base = input();
    await base.config.saveProfile('default', { url: 'https://default.example' });
    await base.config.saveProfile('staging', { url: 'https://staging.example' });
    expect(resolveBaseUrl({ ...base, env: { ...base.env, TKT_PROFILE: 'staging' } })).toBe('https://staging.example');
    expect(resolveBaseUrl({ ...base, globals: { profile: 'default' }, env: { ...base.env, TKT_PROFILE: 'staging' } })).toBe('https://default.example');
  });

  it('gives undefined when nothing names a service, and exit 2 for a malformed one', () => {
    expect(resolveBaseUrl(input())).toBeUndefined();
    expect(errorOf(() => resolveBaseUrl(input({ env: { TKT_URL: 'helpdesk.example.com' } }))).exitCode).toBe(ExitCode.usage);
  });
});

describe('resolveSession with the token cache', () => {
  it('names the user from the first and last name saved at login', async () => {
    const base = input();
    await base.config.saveProfile('default', { url: SERVICE });
    await base.config.writeToken('default', stored({ firstName: 'Tom', lastName: 'Tech' }));
    expect(resolveSession(base).fullName).toBe('Tom Tech');
    await base.config.writeToken('default', stored({ firstName: 'Tom', lastName: '' }));
    expect(resolveSession(base).fullName).toBe('Tom');
    await base.config.writeToken('default', stored());
    expect(resolveSession(base).fullName).toBeUndefined();
  });

  it('uses the cached token with its saved user', async () => {
    const base = input();
    await base.config.saveProfile('default', { url: SERVICE });
    await base.config.writeToken('default', stored({ userId: '7', username: 'jdoe' }));

    expect(resolveSession(base)).toEqual({
      profile: 'default',
      baseUrl: SERVICE,
      token: stored().token,
      tokenSource: 'cache',
      userId: '7',
      username: 'jdoe',
      expiresAt: new Date('2026-03-08T12:00:00.000Z'),
    });
  });

  it("falls back to the token's claims for the user, and to its URL when none is set", async () => {
    const base = input();
    await base.config.writeToken('default', stored());
    const session = resolveSession(base);
    expect(session.baseUrl).toBe(SERVICE);
    expect(session.userId).toBe('99');
    expect(session.username).toBe('from-claims');
  });

  it('uses the profile chosen by flag or TKT_PROFILE', async () => {
    const base = input({ env: { TKT_PROFILE: 'staging' } });
    await base.config.writeToken('staging', stored({ token: 'staging-token' }));
    expect(resolveSession(base)).toMatchObject({ profile: 'staging', token: 'staging-token' });
    expect(errorOf(() => resolveSession({ ...base, globals: { profile: 'default' } })).message).toBe('not logged in (profile default)');
  });

  it('offers the profiles logged in to (up to 3) when the run names no profile and its own is not', async () => {
    const base = input();
    expect(errorOf(() => resolveSession(base)).hint).toBe('run "tkt login --url URL"');
    await base.config.writeToken('customer-support-emea-night', stored());
    // An expired login is none to offer.
    await base.config.writeToken('old', stored({ expiresAt: '2020-01-01T00:00:00.000Z' }));
    expect(errorOf(() => resolveSession(base)).hint).toBe(
      'run "tkt login --url URL", or use a profile you are logged in to: --profile customer-support-emea-night',
    );
    for (const name of ['a', 'b', 'c']) await base.config.writeToken(name, stored());
    expect(errorOf(() => resolveSession(base)).hint).toBe(
      'run "tkt login --url URL", or use a profile you are logged in to: --profile a, --profile b, --profile c (and 1 more: "tkt profiles")',
    );
  });

  it('says "not logged in" with exit 4 and a login hint when there is no token', async () => {
    const base = input({ url: SERVICE, profile: 'prod' });
    await base.config.saveProfile('prod', { url: SERVICE });
    const error = errorOf(() => resolveSession(base));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(ExitCode.notAuthenticated);
    expect(error.message).toBe('not logged in (profile prod)');
    expect(error.hint).toBe(`run "tkt login --profile prod --url ${SERVICE}"`);
  });

  it('hints a login with --url URL for a profile that has no URL', async () => {
    const base = input({ profile: 'prod' });
    await base.config.saveSettings({ editor: 'vim' }, 'prod');
    expect(errorOf(() => resolveSession(base)).hint).toBe('run "tkt login --profile prod --url URL"');
  });

  it('refuses an expired token with exit 4, naming the date', async () => {
    const base = input();
    await base.config.writeToken('default', stored({ expiresAt: '2026-02-27T08:00:00.000Z' }));
    const error = errorOf(() => resolveSession(base));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(ExitCode.notAuthenticated);
    expect(error.message).toContain('token expired on 2026-02-27T08:00:00.000Z');
  });

  it('counts a token expiring this very moment as expired', async () => {
    const base = input();
    await base.config.writeToken('default', stored({ expiresAt: NOW.toISOString() }));
    expect(errorOf(() => resolveSession(base)).exitCode).toBe(ExitCode.notAuthenticated);
    expect(resolveSession({ ...base, now: new Date(NOW.getTime() - 1) }).token).toBe(stored().token);
  });

  it('never sends a cached token to another URL', async () => {
    const base = input({ url: 'https://other.example' });
    await base.config.saveProfile('default', { url: SERVICE });
    await base.config.writeToken('default', stored());
    const error = errorOf(() => resolveSession(base));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.exitCode).toBe(ExitCode.notAuthenticated);
    expect(error.message).toContain(`belongs to ${SERVICE}`);
    expect(error.message).toContain('https://other.example');

    const viaEnv = errorOf(() => resolveSession({ ...base, globals: {}, env: { ...base.env, TKT_URL: 'https://other.example' } }));
    expect(viaEnv.message).toContain(`belongs to ${SERVICE}`);
  });

  it("says to drop /api when the URL is the profile's with /api added, not to log in there (login refuses it)", async () => {
    const base = input({ url: `${SERVICE}/api` });
    await base.config.saveProfile('default', { url: SERVICE });
    await base.config.writeToken('default', stored());
    const error = errorOf(() => resolveSession(base));
    expect(error.exitCode).toBe(ExitCode.notAuthenticated);
    expect(error.hint).toBe(`drop the /api: the service's base URL is ${SERVICE} (tkt adds /api to every request)`);
  });

  it('accepts the same URL spelled differently', async () => {
    const base = input({ url: 'https://HELPDESK.example.com:443/' });
    await base.config.writeToken('default', stored());
    expect(resolveSession(base).baseUrl).toBe(SERVICE);
  });

  it('refuses plain http to another host unless the profile allows it', async () => {
    const base = input();
    const insecure = 'http://helpdesk.internal:8080';
    await base.config.saveProfile('default', { url: insecure });
    await base.config.writeToken('default', stored({ url: insecure }));

    const error = errorOf(() => resolveSession(base));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toMatch(/unencrypted/);
    expect((error as UsageError).hint).toBe('use https, or pass --allow-http once for this profile');

    await base.config.saveProfile('default', { allowHttp: true });
    expect(resolveSession(base).baseUrl).toBe(insecure);
  });

  it('accepts plain http to loopback without --allow-http', async () => {
    const base = input();
    await base.config.writeToken('default', stored({ url: 'http://127.0.0.1:5099' }));
    expect(resolveSession(base).baseUrl).toBe('http://127.0.0.1:5099');
  });
});

describe('resolveSession with TKT_TOKEN', () => {
  const envToken = fakeJwt({ nameid: '42', unique_name: 'ci-bot', exp: 1_800_000_000 });

  it('uses the token as-is with its claims, and writes nothing', () => {
    const base = input({ env: { TKT_TOKEN: envToken, TKT_URL: SERVICE } });
    expect(resolveSession(base)).toEqual({
      profile: 'default',
      baseUrl: SERVICE,
      token: envToken,
      tokenSource: 'env',
      userId: '42',
      username: 'ci-bot',
      expiresAt: new Date(1_800_000_000_000),
    });
    expect(fs.readdirSync(base.dir)).toEqual([]);
  });

  it('ignores the cached token, leaving it untouched, even one for another URL or expired', async () => {
    const base = input({ env: { TKT_TOKEN: envToken } });
    await base.config.saveProfile('default', { url: SERVICE });
    const cached = stored({ url: 'https://elsewhere.example', expiresAt: '2020-01-01T00:00:00.000Z' });
    await base.config.writeToken('default', cached);
    const before = fs.readFileSync(path.join(base.dir, 'tokens', 'default.json'), 'utf8');

    expect(resolveSession(base)).toMatchObject({ token: envToken, tokenSource: 'env', baseUrl: SERVICE });
    expect(fs.readFileSync(path.join(base.dir, 'tokens', 'default.json'), 'utf8')).toBe(before);
  });

  it('refuses a TKT_TOKEN whose exp claim has passed: exit 4 before any request', () => {
    const expired = fakeJwt({ nameid: '42', exp: Math.floor(NOW.getTime() / 1000) - 60 });
    const error = errorOf(() => resolveSession(input({ url: SERVICE, env: { TKT_TOKEN: expired } })));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.message).toMatch(/^TKT_TOKEN expired on /);
    expect(error.hint).toMatch(/TKT_TOKEN/);
  });

  it('leaves the user unknown when the token carries no claims', () => {
    const base = input({ url: SERVICE, env: { TKT_TOKEN: 'opaque-token' } });
    expect(resolveSession(base)).toMatchObject({ token: 'opaque-token', userId: undefined, username: undefined, expiresAt: undefined });
  });

  it('needs a service URL: exit 2 naming the ways to give one', () => {
    const error = errorOf(() => resolveSession(input({ env: { TKT_TOKEN: envToken } })));
    expect(error).toBeInstanceOf(UsageError);
    expect(error.message).toBe('no service URL: pass --url, set TKT_URL, or run tkt login --url URL');
    // Named when it is set but empty, as an empty TKT_TOKEN is.
    const empty = errorOf(() => resolveSession(input({ env: { TKT_TOKEN: envToken, TKT_URL: '' } })));
    expect(empty.message).toBe('no service URL (TKT_URL is set but empty): pass --url, set TKT_URL, or run tkt login --url URL');
  });

  it('still refuses plain http to another host unless the profile allows it for that origin', async () => {
    const base = input({ url: 'http://helpdesk.internal', env: { TKT_TOKEN: envToken } });
    expect(errorOf(() => resolveSession(base)).exitCode).toBe(ExitCode.usage);
    await base.config.saveProfile('default', { url: 'http://helpdesk.internal/desk', allowHttp: true });
    expect(resolveSession(base).baseUrl).toBe('http://helpdesk.internal');

    // The saved permission is the login's URL's, not the profile's for any host or port.
    for (const elsewhere of ['http://third-host.internal', 'http://helpdesk.internal:8080']) {
      const error = errorOf(() => resolveSession({ ...base, globals: { url: elsewhere } }));
      expect(error.exitCode, elsewhere).toBe(ExitCode.usage);
      expect((error as UsageError).hint).toBe('use https, or pass --allow-http on the command (with TKT_TOKEN, on every run: no login saves it)');
      expect(resolveSession({ ...base, globals: { url: elsewhere, allowHttp: true } }).baseUrl).toBe(elsewhere);
    }
  });
});
