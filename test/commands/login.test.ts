import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/login.js';
import { createConfigStore } from '../../src/config/store.js';
import { runCli } from '../../src/program.js';
import { fakeProcess } from '../cli/fake-process.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { sendsNothing } from '../helpers/sandbox-state.js';
import { startServer } from '../api/server.js';

const AUTH_ROUTE = 'POST /api/Users/authenticate';

describe('tkt login', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ login: false, sandbox: { lockoutThreshold: 2 } });
  });
  afterEach(() => h.close());

  const saved = () => createConfigStore(h.configDir).readToken('default');

  it('logs in with TKT_PASSWORD, writes a 0600 token file and never shows the password or token (even with --debug)', async () => {
    const result = await h.cli(['login', '-u', 'admin', '--debug'], { env: { TKT_PASSWORD: 'admin' } });

    expect(result.code).toBe(0);
    const token = saved();
    expect(token).toBeDefined();
    expect(token!.username).toBe('admin');
    expect(token!.url).toBe(h.sandbox.url);
    expect(token!.userId).toBe(h.sandbox.demoLogins.find((l) => l.username === 'admin')!.userId);
    expect(Date.parse(token!.expiresAt)).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    expect(statSync(join(h.configDir, 'tokens', 'default.json')).mode & 0o777).toBe(0o600);
    expect(result.stderr).toContain(`Logged in to ${h.sandbox.url} as admin (profile default)`);
    expect(result.stderr).toContain('debug:');
    const everything = result.stdout + result.stderr;
    expect(everything).not.toContain(token!.token);
    expect(everything).not.toMatch(/"Password"\s*:\s*"admin"/);
    expect(everything).not.toContain('eyJ');
    expect(h.sandbox.stats.byRoute[AUTH_ROUTE]).toBe(1);
  });

  it('refuses a new profile whose name differs from an existing one only in case (one token file on macOS and Windows)', async () => {
    const env = { TKT_PASSWORD: 'admin' };
    for (const argv of [
      ['login', '-u', 'admin'],
      ['login', '--profile', 'Work', '-u', 'admin'],
    ]) {
      const result = await h.cli([...argv, '--url', h.sandbox.url], { env });
      expect(result.code, result.stderr).toBe(0);
    }
    const before = h.sandbox.stats.byRoute[AUTH_ROUTE];
    const refused: [string[], Record<string, string>, string, string][] = [
      [['login', '--profile', 'Default', '-u', 'admin'], {}, 'Default', 'default'],
      [['login', '-u', 'admin'], { TKT_PROFILE: 'DEFAULT' }, 'DEFAULT', 'default'],
      [['login', '--profile', 'work', '-u', 'admin'], {}, 'work', 'Work'],
    ];
    for (const [argv, more, name, twin] of refused) {
      const result = await h.cli(argv, { env: { ...env, ...more } });
      expect({ code: result.code, first: result.stderr.split('\n')[0] }, argv.join(' ')).toEqual({
        code: 2,
        first: `error: profile "${name}" differs from the existing profile "${twin}" only in case`,
      });
      expect(result.stderr).toContain(`hint: log in to "${twin}" with --profile ${twin}, or choose another name`);
    }
    expect(h.sandbox.stats.byRoute[AUTH_ROUTE]).toBe(before);
    expect(createConfigStore(h.configDir).profileNames()).toEqual(['Work', 'default']);
    // The profiles themselves log in again as ever.
    expect((await h.cli(['login', '--profile', 'Work', '-u', 'admin'], { env })).code).toBe(0);
  });

  it('prints the user object without its token with --json', async () => {
    const result = await h.cli(['login', '-u', 'tech', '--json'], { env: { TKT_PASSWORD: 'tech' } });

    expect(result.code).toBe(0);
    const user = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(user.Username).toBe('tech');
    expect(Object.keys(user).map((k) => k.toLowerCase())).not.toContain('token');
    expect(result.stdout).not.toContain(saved()!.token);
  });

  it('reads the password from stdin with --password-stdin, dropping one trailing newline', async () => {
    const result = await h.cli(['login', '-u', 'admin', '--password-stdin'], { stdin: 'admin\n' });

    expect(result.code).toBe(0);
    expect(saved()?.username).toBe('admin');
  });

  it('asks for the user name and password at a terminal', async () => {
    const run1 = await h.context({
      tty: true,
      answers: [
        { kind: 'input', value: 'tech' },
        { kind: 'password', value: 'tech' },
      ],
    });

    await run({ username: undefined, domain: undefined, passwordStdin: false, passwordFlag: false }, run1.ctx);

    run1.prompter.assertDone();
    expect(run1.prompter.asked.map((p) => p.kind)).toEqual(['input', 'password']);
    expect(saved()?.username).toBe('tech');
    expect(run1.stderr()).toContain('as tech');
  });

  it('does not take an empty password at the prompt: nothing is sent for it', async () => {
    const run1 = await h.context({ tty: true, answers: [{ kind: 'password', value: '' }] });

    const refused = await sendsNothing(h, () =>
      run({ username: 'tech', domain: undefined, passwordStdin: false, passwordFlag: false }, run1.ctx).catch((error: unknown) => error),
    );

    expect((refused as Error).message).toBe('scripted password for "Password" was rejected: the password is empty: type it, or Ctrl-C to stop');
  });

  // The process's own prompter (not the harness's scripted one), which reads the profile's settings.
  it.each([
    { source: '--profile', profile: 'p2', flags: ['--profile', 'p2'], env: {} as Record<string, string> },
    { source: 'TKT_PROFILE', profile: 'p3', flags: [], env: { TKT_PROFILE: 'p3' } },
  ])('creates the profile named by $source at a terminal, asking for the password', async ({ profile, flags, env }) => {
    const keyboard = Object.assign(new PassThrough(), { isTTY: true });
    const proc = { ...fakeProcess({ stdout: true, stderr: true }, { ...h.env, ...env }), stdin: keyboard };
    let drawn = '';
    proc.stderr.on('data', (chunk: Buffer) => (drawn += chunk.toString('utf8')));
    const asked = new Promise<void>((resolve) => proc.stderr.on('data', () => drawn.includes('Password') && resolve()));
    const login = runCli(['login', ...flags, '--url', h.sandbox.url, '-u', 'tech'], proc);
    // The password is typed once asked for; a run that asks nothing ends by itself.
    void asked.then(() => keyboard.write('tech\r'));

    expect(await login, drawn).toBe(0);
    expect(drawn).toContain('Password');
    const config = createConfigStore(h.configDir);
    expect(config.profileNames()).toContain(profile);
    expect(config.getProfile(profile).url).toBe(h.sandbox.url);
    expect(config.readToken(profile)?.username).toBe('tech');
  });

  it('exits 4 with the server message on a wrong password', async () => {
    const result = await h.cli(['login', '-u', 'admin'], { env: { TKT_PASSWORD: 'wrong' } });

    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: login to .* failed for admin/m);
    expect(result.stderr.split('\n').length).toBeGreaterThan(2);
    expect(result.stderr).not.toContain('wrong');
    expect(saved()).toBeUndefined();
  });

  it('exits 4 for a locked-out account, even with the right password', async () => {
    for (let i = 0; i < 2; i++) await h.cli(['login', '-u', 'tech'], { env: { TKT_PASSWORD: 'nope' } });

    const result = await h.cli(['login', '-u', 'tech'], { env: { TKT_PASSWORD: 'tech' } });

    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: the account is locked out: try again after the lock-out ends');
    expect(result.stderr).not.toContain('check the user name and password');
    expect(saved()).toBeUndefined();
  });

  // A gateway or a service in front may refuse the login with its own error page: its words are the reason.
  it('shows what an HTML error page refusing the login says (exit 4)', async () => {
    const page =
      '<!DOCTYPE html><html><head><title>Error 401</title><style>h1 { color: red }</style></head>' +
      '<body><h1>Unauthorized</h1><p>Username or password is incorrect.</p></body></html>';
    const server = await startServer((_req, res) => res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' }).end(page));
    try {
      const result = await h.cli(['login', '-u', 'admin', '--url', server.url], { env: { TKT_PASSWORD: 'wrong' } });
      expect(result.code).toBe(4);
      expect(result.stderr).toBe(
        `error: login to ${server.url} failed for admin\n` +
          '  Error 401\n' +
          '  Unauthorized\n' +
          '  Username or password is incorrect.\n' +
          'hint: check the user name and password (directory accounts need --domain)\n',
      );
    } finally {
      await server.close();
    }
  });

  it('exits 2 without a request when there is no password and no terminal', async () => {
    const result = await h.cli(['login', '-u', 'admin']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--password-stdin');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  // A fresh user's review: a failed login left ~/.config/tkt and tokens/ behind, empty, and a CI
  // job's later runs with TKT_URL and TKT_TOKEN then kept their code cache there.
  it('leaves no config folder behind when it fails, and keeps one that was there', async () => {
    const fresh = join(h.configDir, 'fresh', 'tkt');
    const failures: [string[], Record<string, string>, number][] = [
      [['login', '--url', h.sandbox.url, '-u', 'admin'], {}, 2],
      [['login', '--url', h.sandbox.url, '-u', 'admin'], { TKT_PASSWORD: 'wrong' }, 4],
    ];
    for (const [argv, env, code] of failures) {
      const result = await h.cli(argv, { env: { ...env, TKT_CONFIG_DIR: fresh } });
      expect(result.code, result.stderr).toBe(code);
      expect(existsSync(fresh), argv.join(' ')).toBe(false);
    }

    // What stands for ~/.config is made as for any write, and stays.
    rmSync(join(h.configDir, 'fresh'), { recursive: true });
    const kept = await h.cli(['login', '-u', 'admin'], { env: { TKT_PASSWORD: 'wrong' } });

    // The config folder was there (its config.json); tokens/, made by this login, is taken back.
    expect(kept.code).toBe(4);
    expect(readdirSync(h.configDir)).toEqual(['config.json']);
  });

  it('exits 2 without a request when there is no user name and no terminal', async () => {
    const result = await h.cli(['login'], { env: { TKT_PASSWORD: 'admin' } });

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--username');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('names every missing value at once without a terminal: URL, user name and password', async () => {
    const result = await h.cli(['--profile', 'fresh', 'login']);

    expect(result.code).toBe(2);
    const errorLines = result.stderr.split('\n').filter((line) => line.startsWith('error:'));
    expect(errorLines).toHaveLength(1);
    expect(result.stderr).toMatch(/--url.*TKT_URL/);
    expect(result.stderr).toContain('-u/--username');
    expect(result.stderr).toMatch(/--password-stdin.*TKT_PASSWORD/);
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('names both the user name and the password when only the URL is known', async () => {
    const result = await h.cli(['login']);

    expect(result.code).toBe(2);
    expect(result.stderr).toContain('-u/--username');
    expect(result.stderr).toContain('--password-stdin');
    expect(result.stderr).not.toContain('TKT_URL');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('refuses a --password flag and says why', async () => {
    const result = await h.cli(['login', '-u', 'admin', '--password', 'admin']);

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no --password option.*other users/);
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('refuses plain http to a non-local host before any network request', async () => {
    const result = await h.cli(['login', '--url', 'http://example.invalid', '--profile', 'remote', '-u', 'admin'], { env: { TKT_PASSWORD: 'admin' } });

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unencrypted/);
    expect(result.stderr).toContain('--allow-http');
    // A request would have failed with a DNS error (exit 1), not this refusal.
    expect(result.stderr).not.toMatch(/resolve/);
    expect(createConfigStore(h.configDir).getProfile('remote')).toEqual({});
  });

  it('refuses a base URL ending in /api before anything is asked or sent, naming the URL meant (exit 2)', async () => {
    for (const [args, env, source] of [
      [['--url', `${h.sandbox.url}/api`], { TKT_PASSWORD: 'admin' }, '--url'],
      [[], { TKT_PASSWORD: 'admin', TKT_URL: `${h.sandbox.url}/API/` }, 'TKT_URL'],
      // No password to send, no terminal to ask on: the URL is still what is said first.
      [['--url', `${h.sandbox.url}/api`, '--profile', 'other'], {}, '--url'],
    ] as const) {
      const result = await h.cli(['login', '-u', 'admin', ...args], { env });
      expect(result.code, source).toBe(2);
      expect(result.stderr).toMatch(
        /^error: the service URL http:\/\/\S+\/api ends in \/api, which tkt adds to every request \(POST \/api\/Users\/authenticate\)\n/i,
      );
      expect(result.stderr).toContain(`hint: is ${source} the service's base URL? (without /api: ${h.sandbox.url})\n`);
    }
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('reads a 404 of the authenticate endpoint as a wrong URL, not as "not found" (exit 1, not 3)', async () => {
    const result = await h.cli(['login', '-u', 'admin', '--url', `${h.sandbox.url}/helpdesk`], { env: { TKT_PASSWORD: 'admin' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: no such endpoint, wrong service URL? (HTTP 404): POST ${h.sandbox.url}/helpdesk/api/Users/authenticate\n`);
    expect(result.stderr).toContain("hint: is --url the service's base URL?\n");
    expect(result.stderr).not.toContain('not found');
  });

  it('a service not reached says to check the URL, and on this machine whether the service or the sandbox runs', async () => {
    const result = await h.cli(['login', '-u', 'admin', '--url', 'http://127.0.0.1:9'], { env: { TKT_PASSWORD: 'admin' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'error: connection refused: POST http://127.0.0.1:9/api/Users/authenticate\n' +
        'hint: nothing answers at 127.0.0.1:9: check the URL, and that the service (or "tkt sandbox") is running there\n',
    );
  });

  it('saves --allow-http with the profile', async () => {
    const result = await h.cli(['login', '-u', 'admin', '--allow-http'], { env: { TKT_PASSWORD: 'admin' } });

    expect(result.code).toBe(0);
    expect(createConfigStore(h.configDir).getProfile('default')).toEqual({ url: h.sandbox.url, allowHttp: true });
  });

  it('keeps --allow-http for the URL it was given with: another host needs it again, for a login or with TKT_TOKEN', async () => {
    // Every "remote" host is the sandbox, through a proxy on loopback: nothing leaves the machine.
    const proxy = await startForwardProxy({ connectTo: new URL(h.sandbox.url).host });
    try {
      const env = { TKT_PASSWORD: 'admin', HTTP_PROXY: proxy.url };
      const first = await h.cli(['login', '--profile', 'lan', '--url', 'http://helpdesk.example.test', '-u', 'admin', '--allow-http'], { env });
      expect(first.code).toBe(0);
      const again = await h.cli(['login', '--profile', 'lan', '-u', 'admin'], { env });
      expect(again.code).toBe(0);

      const other = await h.cli(['login', '--profile', 'lan', '--url', 'http://other-host.example.test', '-u', 'admin'], { env });
      expect(other.code).toBe(2);
      expect(other.stderr).toMatch(/refusing plain http to other-host\.example\.test/);
      expect(other.stderr).toContain('hint: use https, or pass --allow-http (this profile has it for http://helpdesk.example.test only)');

      const token = await h.cli(['--profile', 'lan', 'show', '1013'], {
        env: { HTTP_PROXY: proxy.url, TKT_URL: 'http://third-host.example.test', TKT_TOKEN: h.sandbox.issueToken('admin') },
      });
      expect(token.code).toBe(2);
      expect(token.stderr).toContain('hint: use https, or pass --allow-http on the command (with TKT_TOKEN, on every run: no login saves it)');

      expect(proxy.seen).toEqual(['CONNECT helpdesk.example.test:80', 'CONNECT helpdesk.example.test:80']);
    } finally {
      await proxy.close();
    }
  });

  it('warns that TKT_TOKEN overrides the saved token', async () => {
    const result = await h.cli(['login', '-u', 'admin'], { env: { TKT_PASSWORD: 'admin', TKT_TOKEN: h.sandbox.issueToken('tech') } });

    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/warning: TKT_TOKEN .*overrides/);
    expect(saved()?.username).toBe('admin');
  });
});
