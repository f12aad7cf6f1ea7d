import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { createHarness, type Harness } from '../helpers/harness.js';

describe('tkt whoami', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ login: 'tech' });
  });
  afterEach(() => h.close());

  const tech = () => h.sandbox.demoLogins.find((l) => l.username === 'tech')!;

  it('shows user, user ID, URL, profile, expiry and token source without any request', async () => {
    const result = await h.cli(['whoami']);

    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/User:\s+tech/);
    expect(result.stdout).toMatch(new RegExp(`User ID:\\s+${tech().userId}`));
    expect(result.stdout).toContain(h.sandbox.url);
    expect(result.stdout).toMatch(/Profile:\s+default/);
    expect(result.stdout).toMatch(/Expires:\s+\d{4}-\d\d-\d\d \d\d:\d\d \(in 7d\)/);
    expect(result.stdout).toMatch(/Token:\s+token cache/);
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('prints one JSON object with --json and the user name alone with -q', async () => {
    const json = await h.cli(['whoami', '--json']);
    const quiet = await h.cli(['whoami', '-q']);

    expect(JSON.parse(json.stdout)).toMatchObject({ username: 'tech', userId: tech().userId, url: h.sandbox.url, profile: 'default', tokenSource: 'cache' });
    expect(quiet.stdout).toBe('tech\n');
  });

  it('reports TKT_TOKEN as the source and reads the user from its claims', async () => {
    const result = await h.cli(['whoami', '--json'], { env: { TKT_TOKEN: h.sandbox.issueToken('admin') } });

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ username: 'admin', tokenSource: 'env' });
  });

  it('exits 4 with the login hint when the cached token has expired, before any request', async () => {
    const config = createConfigStore(h.configDir);
    await config.writeToken('default', {
      ...config.readToken('default')!,
      token: h.sandbox.issueToken('tech', { expiresInSeconds: -60 }),
      expiresAt: new Date(Date.now() - 60_000).toISOString(),
    });

    const result = await h.cli(['whoami']);

    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: token expired/m);
    expect(result.stderr).toContain('hint: run "tkt login"');
    expect(result.stdout).toBe('');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('prints no escape codes into a pipe, even with FORCE_COLOR (colour is decided per stream)', async () => {
    const result = await h.cli(['whoami'], { env: { FORCE_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('User');
    expect(result.stdout).not.toContain('\u001b');
  });

  it('warns that a token naming no user and no expiry is unchecked, still exit 0 with no request', async () => {
    // It said "User: unknown", exit 0, and nothing of why (a service may issue opaque tokens: no exit 4).
    const before = h.sandbox.stats.requests;
    const result = await h.cli(['whoami'], { env: { TKT_URL: h.sandbox.url, TKT_TOKEN: 'not-a-token' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('User:     unknown\n');
    expect(result.stderr).toBe(
      'warning: the token names no user and no expiry (tkt cannot read it): whoami sends no request, so the service may still refuse it; tkt whoami --check asks it\n',
    );
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('--check asks the service whether it takes the token: one request, and a line saying so', async () => {
    const result = await h.cli(['whoami', '--check']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/Service:\s+takes the token \(asked now\)\n$/);
    expect(h.sandbox.stats.requests).toBe(1);
    expect(JSON.parse((await h.cli(['whoami', '--check', '--json'])).stdout)).toMatchObject({ username: 'tech', accepted: true });
  });

  it('--check is exit 4 with the login hint for a saved token the service no longer takes (a whoami said "in 7d")', async () => {
    const other = await createHarness();
    try {
      const config = createConfigStore(h.configDir);
      // A token of another service: well formed, unexpired, and unknown here.
      await config.writeToken('default', { ...config.readToken('default')!, token: other.sandbox.issueToken('tech') });
      expect((await h.cli(['whoami'])).code).toBe(0);
      const result = await h.cli(['whoami', '--check']);
      expect(result.code).toBe(4);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('hint: run "tkt login"');
    } finally {
      await other.close();
    }
  });

  it('says the token in TKT_TOKEN was refused, not to log in, when the service refuses it', async () => {
    for (const argv of [
      ['show', '1001'],
      ['read', '1001'],
    ]) {
      const result = await h.cli(argv, { env: { TKT_URL: h.sandbox.url, TKT_TOKEN: 'not-a-token' } });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('hint: the token in TKT_TOKEN was refused');
      expect(result.stderr).not.toContain('tkt login');
    }
  });
});
