// Hints and errors name what the user actually used (README: Choices where docs/cli.md is
// silent): the profile and --url of the run, an unknown profile, an empty TKT_TOKEN.
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { createHarness, loginAs, type Harness } from '../helpers/harness.js';

let h: Harness;
beforeEach(async () => {
  h = await createHarness();
  await loginAs(h.sandbox, h.configDir, 'tech', 'p2');
});
afterEach(() => h.close());

const hintOf = (stderr: string) => /^hint: (.*)$/m.exec(stderr)?.[1];

describe('the login hint', () => {
  it('names the profile after a logout in it, given by --profile or by TKT_PROFILE', async () => {
    await h.cli(['logout', '--profile', 'p2']);

    const byFlag = await h.cli(['list', '--profile', 'p2']);
    const byEnv = await h.cli(['list'], { env: { TKT_PROFILE: 'p2' } });

    for (const result of [byFlag, byEnv]) {
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('not logged in (profile p2)');
      expect(hintOf(result.stderr)).toBe('run "tkt login --profile p2"');
    }
  });

  it('keeps the --url the command was given, and --allow-http', async () => {
    await h.cli(['logout', '--profile', 'p2']);

    const result = await h.cli(['list', '--profile', 'p2', '--url', h.sandbox.url]);
    const insecure = await h.cli(['list', '--profile', 'p2', '--url', h.sandbox.url, '--allow-http']);

    expect(hintOf(result.stderr)).toBe(`run "tkt login --profile p2 --url ${h.sandbox.url}"`);
    expect(hintOf(insecure.stderr)).toBe(`run "tkt login --profile p2 --url ${h.sandbox.url} --allow-http"`);
  });

  it('stays "tkt login" for the default profile', async () => {
    await h.cli(['logout']);

    const result = await h.cli(['list']);

    expect(result.code).toBe(4);
    // With no profile named, the profiles logged in to are offered too (p2 is).
    expect(hintOf(result.stderr)).toBe('run "tkt login", or use a profile you are logged in to: --profile p2');
  });

  it("adds --url URL for a profile that has no URL (one an older tkt's config set made)", async () => {
    await createConfigStore(h.configDir).saveSettings({ editor: 'vim' }, 'nourl');

    const result = await h.cli(['list', '--profile', 'nourl']);
    const withEnvUrl = await h.cli(['list', '--profile', 'nourl'], { env: { TKT_URL: h.sandbox.url } });

    expect(result.code).toBe(4);
    expect(hintOf(result.stderr)).toBe('run "tkt login --profile nourl --url URL"');
    expect(hintOf(withEnvUrl.stderr)).toBe('run "tkt login --profile nourl"');
  });

  it('without a terminal, shows the piped login with the profile and its saved URL', async () => {
    const result = await h.cli(['login', '--profile', 'p2'], { env: { TKT_PASSWORD: 'admin' } });
    const named = await h.cli(['login', '--profile', 'p2', '-u', 'jo doe']);

    expect(result.code).toBe(2);
    expect(hintOf(result.stderr)).toBe(`e.g. printf %s "$PASSWORD" | tkt login -u USER --password-stdin --profile p2 --url ${h.sandbox.url}`);
    expect(hintOf(named.stderr)).toBe(`e.g. printf %s "$PASSWORD" | tkt login -u 'jo doe' --password-stdin --profile p2 --url ${h.sandbox.url}`);
  });

  it('names the profile when the service refuses its token (401) or the token has expired', async () => {
    const config = createConfigStore(h.configDir);
    await config.writeToken('p2', { ...config.readToken('p2')!, token: 'refused-by-the-service' });
    const refused = await h.cli(['show', '1001', '--profile', 'p2']);
    await config.writeToken('p2', { ...config.readToken('p2')!, expiresAt: new Date(Date.now() - 1000).toISOString() });
    const expired = await h.cli(['show', '1001', '--profile', 'p2']);

    expect(refused.code).toBe(4);
    expect(hintOf(refused.stderr)).toBe('run "tkt login --profile p2"');
    expect(expired.code).toBe(4);
    expect(hintOf(expired.stderr)).toBe('run "tkt login --profile p2"');
  });
});

describe('an unknown profile', () => {
  it('is exit 2 before any request, listing the profiles, from --profile or TKT_PROFILE', async () => {
    const before = h.sandbox.stats.requests;
    const byFlag = await h.cli(['list', '--profile', 'nosuch']);
    const byEnv = await h.cli(['whoami'], { env: { TKT_PROFILE: 'nosuch' } });

    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toMatch(/^error: no profile named "nosuch" \(--profile\)$/m);
    expect(byFlag.stderr).toContain('profiles: default, p2');
    expect(hintOf(byFlag.stderr)).toBe('"tkt login --profile nosuch --url URL" creates it');
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/^error: no profile named "nosuch" \(TKT_PROFILE\)$/m);
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('is exit 2 for the commands that read a profile, and for those that write settings: nothing is created', async () => {
    const reads = [['logout'], ['profiles'], ['auth', 'token'], ['config', 'get', 'editor'], ['config', 'list']];
    const writes = [
      ['config', 'set', 'default-concurrency', '4'],
      ['config', 'unset', 'editor'],
      ['alias', 'set', 'mine', 'list'],
      ['alias', 'delete', 'mine'],
    ];
    const saved = readFileSync(join(h.configDir, 'config.json'), 'utf8');
    for (const argv of [...reads, ...writes]) {
      const after = await h.cli([...argv, '--profile', 'nosuch']);
      const before = await h.cli(['--profile', 'nosuch', ...argv]);
      for (const result of [after, before]) expect(result.code, argv.join(' ')).toBe(2);
      // After the value a `set` saves, --profile is refused: the hint moves it before the command, or quotes it in.
      const afterSaid =
        argv[1] === 'set'
          ? "hint: put tkt's own options before the command: tkt --profile nosuch "
          : 'error: no profile named "nosuch" (--profile)\n  profiles: default, p2\n';
      expect(after.stderr, argv.join(' ')).toContain(afterSaid);
      expect(before.stderr, argv.join(' ')).toContain('error: no profile named "nosuch" (--profile)\n  profiles: default, p2\n');
      const byEnv = await h.cli(argv, { env: { TKT_PROFILE: 'nosuch' } });
      expect(byEnv.stderr, argv.join(' ')).toContain('error: no profile named "nosuch" (TKT_PROFILE)');
    }
    expect(readFileSync(join(h.configDir, 'config.json'), 'utf8')).toBe(saved);
    // Still exit 2, not "not logged in", afterwards.
    const show = await h.cli(['show', '1013', '--profile', 'nosuch']);
    expect(show.code).toBe(2);
  });

  it('offers the profile meant: one differing only in case (which login would refuse), or a near typo', async () => {
    await loginAs(h.sandbox, h.configDir, 'tech', 'staging');
    const saved = readFileSync(join(h.configDir, 'config.json'), 'utf8');
    const cases: { argv: string[]; env: Record<string, string>; name: string; hint: string }[] = [
      { argv: ['--profile', 'Staging', 'whoami'], env: {}, name: 'Staging (--profile)', hint: 'did you mean --profile staging?' },
      { argv: ['whoami'], env: { TKT_PROFILE: 'Staging' }, name: 'Staging (TKT_PROFILE)', hint: 'did you mean TKT_PROFILE=staging?' },
      { argv: ['--profile', 'Default', 'config', 'set', 'editor', 'nano'], env: {}, name: 'Default (--profile)', hint: 'did you mean --profile default?' },
      { argv: ['--profile', 'stagin', 'whoami'], env: {}, name: 'stagin (--profile)', hint: 'did you mean --profile staging?' },
      { argv: ['whoami'], env: { TKT_PROFILE: 'stagin' }, name: 'stagin (TKT_PROFILE)', hint: 'did you mean TKT_PROFILE=staging?' },
    ];
    for (const { argv, env, name, hint } of cases) {
      const result = await h.cli(argv, { env });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toContain(`error: no profile named "${name.replace(' ', '" ')}\n  profiles: default, p2, staging\n`);
      expect(hintOf(result.stderr), argv.join(' ')).toBe(hint);
    }
    expect(readFileSync(join(h.configDir, 'config.json'), 'utf8')).toBe(saved);
  });

  it('says where an invalid name came from, as for an unknown one', async () => {
    const byEnv = await h.cli(['whoami'], { env: { TKT_PROFILE: 'p2 ' } });
    const byFlag = await h.cli(['--profile', 'p2 ', 'whoami']);
    const reserved = await h.cli(['whoami'], { env: { TKT_PROFILE: 'nul' } });

    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/^error: invalid profile name "p2 " \(TKT_PROFILE\)$/m);
    expect(byFlag.stderr).toMatch(/^error: invalid profile name "p2 " \(--profile\)$/m);
    expect(reserved.stderr).toMatch(/^error: invalid profile name "nul" \(TKT_PROFILE\): Windows reserves it for a device$/m);
  });

  it('is created by tkt login only; its settings are set after it', async () => {
    const login = await h.cli(['login', '--profile', 'fresh', '--url', h.sandbox.url, '-u', 'tech'], { env: { TKT_PASSWORD: 'tech' } });
    const set = await h.cli(['--profile', 'fresh', 'config', 'set', 'editor', 'nano']);

    expect(login.code).toBe(0);
    expect(set).toMatchObject({ code: 0, stdout: 'Set editor to nano for profile fresh\n' });
    expect(createConfigStore(h.configDir).profileNames()).toEqual(['default', 'fresh', 'p2']);
    expect((await h.cli(['whoami', '--profile', 'fresh'])).code).toBe(0);
    expect((await h.cli(['config', 'get', 'editor', '--profile', 'fresh'], { env: { VISUAL: '', EDITOR: '' } })).stdout).toBe('nano\n');
  });

  it('leaves the default profile usable on a machine where nothing was saved yet', async () => {
    const empty = await createHarness({ login: false });
    try {
      const result = await empty.cli(['whoami'], { env: { TKT_CONFIG_DIR: `${empty.configDir}/never-written` } });
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('not logged in (profile default)');
    } finally {
      await empty.close();
    }
  });
});

describe('an empty TKT_TOKEN', () => {
  it('is named as empty when it leaves the run without a token', async () => {
    await h.cli(['logout']);

    for (const value of ['', '  ']) {
      const result = await h.cli(['list'], { env: { TKT_TOKEN: value } });
      expect(result.code).toBe(4);
      expect(result.stderr).toMatch(/^error: not logged in \(profile default\), and TKT_TOKEN is set but empty$/m);
      expect(hintOf(result.stderr)).toBe('set TKT_TOKEN to a token, or unset it and run "tkt login"');
    }
  });

  it('does not hide the saved login, as an unset one would not (gh treats an empty GH_TOKEN alike)', async () => {
    const result = await h.cli(['whoami'], { env: { TKT_TOKEN: '' } });

    expect(result.code).toBe(0);
  });
});

describe('no token in CI', () => {
  const SECRETS = "in CI, from the pipeline's secrets; a pull request from a fork gets none";

  it('names TKT_TOKEN first: in CI the usual cause is a secret the job did not get', async () => {
    await h.cli(['logout']);
    for (const ci of ['true', '1']) {
      const result = await h.cli(['list'], { env: { CI: ci } });
      expect(result.code).toBe(4);
      expect(result.stderr).toBe(`error: not logged in (profile default)\nhint: set TKT_TOKEN (${SECRETS}), or run "tkt login"\n`);
    }
    const empty = await h.cli(['list'], { env: { CI: 'true', TKT_TOKEN: '' } });
    expect(empty.code).toBe(4);
    expect(hintOf(empty.stderr)).toBe(`set TKT_TOKEN to a token (${SECRETS}), or unset it and run "tkt login"`);
    // Not in CI: the login, as before.
    expect(hintOf((await h.cli(['list'], { env: { CI: 'false' } })).stderr)).toBe('run "tkt login", or use a profile you are logged in to: --profile p2');
  });
});

describe('an empty or blank TKT_ variable', () => {
  it('is unset, as an empty TKT_TOKEN is: TKT_URL, TKT_PROFILE', async () => {
    for (const env of [{ TKT_URL: ' ' }, { TKT_PROFILE: ' ' }, { TKT_URL: '', TKT_PROFILE: '' }] as Record<string, string>[]) {
      const result = await h.cli(['whoami'], { env });
      expect(result.stderr, JSON.stringify(env)).toBe('');
      expect(result.code).toBe(0);
    }
  });

  it('TKT_PASSWORD: unset, so named as empty when nothing else gives the password', async () => {
    for (const value of ['', ' ']) {
      const result = await h.cli(['login', '-u', 'tech'], { env: { TKT_PASSWORD: value, CI: 'true' } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('  password: pipe it with --password-stdin or set TKT_PASSWORD (it is set but empty)\n');
    }
  });

  it('TKT_TOKEN: no warning that it overrides the login, or keeps a logged-out shell logged in', async () => {
    const login = await h.cli(['login', '-u', 'tech'], { env: { TKT_PASSWORD: 'tech', TKT_TOKEN: ' ' } });
    expect(login.code).toBe(0);
    expect(login.stderr).not.toContain('warning');
    const logout = await h.cli(['logout'], { env: { TKT_TOKEN: ' ' } });
    expect(logout.code).toBe(0);
    expect(logout.stderr).not.toContain('warning');
  });
});

describe('the command lines of other hints', () => {
  it('carry the profile: the resume line of a stopped create --from', async () => {
    await loginAs(h.sandbox, h.configDir, 'viewer', 'v');
    const dir = await mkdtemp(join(tmpdir(), 'tkt-hints-'));
    const file = join(dir, 'rows.csv');
    await writeFile(file, 'title,description,requester,site,department,status\nA,d,aberg,Head Office,IT,Open\nB,d,aberg,Head Office,IT,Open\n');

    const result = await h.cli(['--profile', 'v', 'create', '--from', file, '--concurrency', '1']);

    expect(result.code).toBe(5);
    expect(result.stderr).toContain(`to finish once that is fixed: tkt create --from ${file} --concurrency 1 --resume ${file}.report.jsonl --profile v\n`);
  });

  it('carry the profile and --url: the metadata a lookup hint points to', async () => {
    const result = await h.cli(['list', '--status', 'no-such-status', '--profile', 'p2', '--url', h.sandbox.url]);

    expect(result.code).toBe(2);
    expect(hintOf(result.stderr)).toBe(`see "tkt metadata --collection status --profile p2 --url ${h.sandbox.url}"`);
  });
});

describe('a base URL with /api at its end (every path of the service starts with /api)', () => {
  it('is a wrong URL with the one meant, exit 1, not a ticket not found (exit 3)', async () => {
    const env = { TKT_URL: `${h.sandbox.url}/api`, TKT_TOKEN: h.sandbox.issueToken('tech') };
    for (const [args, request] of [
      [['show', '1001'], `GET ${h.sandbox.url}/api/api/TicketsApi/1001`],
      [['list', '-q'], `POST ${h.sandbox.url}/api/api/TicketsApi`],
    ] as const) {
      const result = await h.cli([...args], { env });
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toContain(`error: no such endpoint, wrong service URL? (HTTP 404): ${request}\n`);
      expect(hintOf(result.stderr)).toBe(`is TKT_URL the service's base URL? (without /api: ${h.sandbox.url})`);
    }
    const byFlag = await h.cli(['--url', `${h.sandbox.url}/api/`, 'show', '1001'], { env: { TKT_TOKEN: env.TKT_TOKEN } });
    expect(hintOf(byFlag.stderr)).toBe(`is --url the service's base URL? (without /api: ${h.sandbox.url})`);
    // A ticket that does not exist under the right URL is still exit 3, with no such hint.
    const missing = await h.cli(['show', '999999'], { env: { ...env, TKT_URL: h.sandbox.url } });
    expect(missing.code).toBe(3);
    expect(missing.stderr).not.toContain('base URL');
  });

  /**
   * A close of three IDs under `env`'s wrong base URL: exit 1, the first ID's JSON Line saying the
   * URL is wrong and the others not started. How many requests it sent, and its stderr.
   */
  async function closesStoppedAtTheFirst(env: Record<string, string>) {
    const before = h.sandbox.stats.requests;
    const run = await h.cli(['close', '1029', '1028', '1027', '--json', '--concurrency', '1'], { env });
    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; error: string; notStarted?: boolean });
    expect(lines[0]).toMatchObject({ id: 1029, error: expect.stringMatching(/^no such endpoint, wrong service URL\? \(HTTP 404\)/) });
    expect(lines.slice(1).every((line) => line.notStarted === true)).toBe(true);
    return { sent: h.sandbox.stats.requests - before, stderr: run.stderr };
  }

  // A CI job's first request, under a base URL with a wrong path: the metadata every service has.
  it('is said so by create, whose first request reads the metadata every service has (exit 1, not 3)', async () => {
    const env = { TKT_URL: `${h.sandbox.url}/helpdesk`, TKT_TOKEN: h.sandbox.issueToken('tech') };
    const result = await h.cli(['create', '--integration', '-q', '--requester', 'aberg', '--title', 'Build failed', '--description', 'see the log'], { env });

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: no such endpoint, wrong service URL? (HTTP 404): GET ${h.sandbox.url}/helpdesk/api/TicketsApi/metadata\n`);
    expect(hintOf(result.stderr)).toBe("is TKT_URL the service's base URL?");
  });

  // A base URL with a wrong path answers 404 for every ticket, as for one that does not exist:
  // the first 404 asks the app metadata once, and its 404 says the URL is wrong.
  it('is told from a ticket not found by the app metadata, asked once at the first 404: exit 1, a bulk run stopped', async () => {
    const token = h.sandbox.issueToken('tech');
    const wrong = { TKT_URL: `${h.sandbox.url}/helpdesk`, TKT_TOKEN: token };
    const show = await h.cli(['show', '1001'], { env: wrong });
    expect(show.code).toBe(1);
    expect(show.stderr).toContain(`error: no such endpoint, wrong service URL? (HTTP 404): GET ${h.sandbox.url}/helpdesk/api/TicketsApi/1001\n`);
    expect(hintOf(show.stderr)).toBe("is TKT_URL the service's base URL?");

    // The close and the question of the metadata: nothing more was sent.
    expect((await closesStoppedAtTheFirst(wrong)).sent).toBe(2);

    // Under the right URL a ticket that does not exist is still exit 3 (the metadata found).
    const missing = await h.cli(['show', '999999'], { env: { ...wrong, TKT_URL: h.sandbox.url } });
    expect(missing.code).toBe(3);
    expect(missing.stderr).not.toContain('base URL');
  });

  it('is said so by the ID commands too, and stops a run of several IDs at the first (every one would meet it)', async () => {
    const env = { TKT_URL: `${h.sandbox.url}/api`, TKT_TOKEN: h.sandbox.issueToken('tech') };
    const one = await h.cli(['close', '1029'], { env });
    expect(one.code).toBe(1);
    expect(one.stderr).toContain('#1029 no such endpoint, wrong service URL? (HTTP 404)');
    expect(hintOf(one.stderr)).toBe(`is TKT_URL the service's base URL? (without /api: ${h.sandbox.url})`);

    const run = await closesStoppedAtTheFirst(env);
    expect(run.sent).toBe(1);
    expect(hintOf(run.stderr)).toBe(`is TKT_URL the service's base URL? (without /api: ${h.sandbox.url})`);
  });
});
