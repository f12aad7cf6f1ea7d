// TKT_CONFIG_DIR naming something that is not a folder (README: Environment and files): with
// TKT_URL and TKT_TOKEN a command needs no config folder, and one that must write there says
// which path is not a folder.
import { chmodSync, existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { validCreateArgs } from '../helpers/create-args.js';
import { routeCount, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

/** A regular file where the config folder should be, and the variables of a CI job that never logged in. */
function fileAsConfigDir(): Record<string, string> {
  const file = join(h.configDir, 'not-a-folder');
  writeFileSync(file, 'a file\n');
  return { TKT_CONFIG_DIR: file, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('tech') };
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('TKT_CONFIG_DIR that is a file', () => {
  it('does not stop a command that has TKT_URL and TKT_TOKEN', async () => {
    const env = fileAsConfigDir();
    const listed = await h.cli(['list', '-q', '--limit', '2'], { env });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n')).toHaveLength(2);

    const shown = await h.cli(['show', listed.stdout.split('\n')[0]!, '--json'], { env });
    expect(shown.code).toBe(0);
    expect(shown.stderr).toBe('');
    for (const argv of [['whoami'], ['logout'], ['config', 'list']]) {
      const read = await h.cli(argv, { env });
      expect(read.code, argv.join(' ')).toBe(0);
      expect(read.stderr, argv.join(' ')).not.toMatch(/error|ENOTDIR/);
    }

    // A filter by a lookup name: the lookups are fetched, and only their cache is given up, saying why.
    const filtered = await h.cli(['list', '--status', 'Open', '--limit', '1', '--query', '[].ticketId'], { env });
    expect(filtered.code).toBe(0);
    // Once, though both sources of lookups (metadata, appmetadata) were fetched.
    expect(filtered.stderr).toBe(`warning: lookups not cached: cannot write ${env.TKT_CONFIG_DIR}/cache/default.json: ${env.TKT_CONFIG_DIR} is not a folder\n`);
    expect(JSON.parse(filtered.stdout)).toEqual(expect.any(Array));
  });

  it('says, with -q too, that lookups it cannot cache there are not cached: one line, for a file and for a path under one', async () => {
    const env = fileAsConfigDir();
    for (const dir of [env.TKT_CONFIG_DIR!, join(env.TKT_CONFIG_DIR!, 'tkt')]) {
      const created = await h.cli(['-q', 'create', ...validCreateArgs(), '--priority', 'high'], { env: { ...env, TKT_CONFIG_DIR: dir } });
      expect(created.code).toBe(0);
      expect(created.stdout).toMatch(/^\d+\n$/);
      expect(created.stderr).toBe(`warning: lookups not cached: cannot write ${dir}/cache/default.json: ${env.TKT_CONFIG_DIR} is not a folder\n`);
    }
  });

  it('is named as not a folder where the folder is needed: login, settings, aliases', async () => {
    const env = fileAsConfigDir();
    const file = env.TKT_CONFIG_DIR!;
    for (const argv of [
      ['login', '-u', 'tech'],
      ['config', 'set', 'pager', 'less'],
      ['alias', 'set', 'mine', 'list --view my-open-tickets'],
    ]) {
      const result = await h.cli(argv, { env: { ...env, TKT_TOKEN: '', TKT_PASSWORD: 'tech' } });
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.stderr, argv.join(' ')).toMatch(new RegExp(`^error: cannot write ${escaped(file)}/\\S+: ${escaped(file)} is not a folder\\n`));
      expect(result.stderr, argv.join(' ')).not.toContain('ENOTDIR');
    }
  });

  it('without TKT_TOKEN, says why there is no login rather than offering a login that cannot be kept', async () => {
    const env = fileAsConfigDir();
    const file = env.TKT_CONFIG_DIR!;
    const result = await h.cli(['list'], { env: { TKT_CONFIG_DIR: file, TKT_URL: env.TKT_URL! } });
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      `error: not logged in (profile default)\nhint: the config folder ${file} is not a folder, so no login is kept there: set TKT_CONFIG_DIR to a folder, or set TKT_TOKEN\n`,
    );
  });

  it('stops login before the password is sent: the session could not be kept', async () => {
    const env = fileAsConfigDir();
    const logins = routeCount(h, 'POST /api/Users/authenticate');
    const result = await h.cli(['login', '-u', 'tech'], { env: { ...env, TKT_TOKEN: '', TKT_PASSWORD: 'tech' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: cannot write \S+: \S+ is not a folder\n/);
    expect(routeCount(h, 'POST /api/Users/authenticate')).toBe(logins);
  });
});

describe('a TKT_CONFIG_DIR that does not exist', () => {
  it('is not made by a command that has TKT_URL and TKT_TOKEN: its lookups stay in memory, nothing is said', async () => {
    const dir = join(h.configDir, 'never-made');
    const env = { TKT_CONFIG_DIR: dir, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('tech') };
    for (const argv of [
      ['create', ...validCreateArgs(), '--priority', 'high'],
      ['list', '--status', 'Open', '--limit', '1'],
    ]) {
      const result = await h.cli(argv, { env });
      expect(result.code, argv.join(' ')).toBe(0);
      expect(result.stderr, argv.join(' ')).toBe('');
    }
    expect(existsSync(dir)).toBe(false);
  });
});

describe('what the config folder holds (README: Environment and files)', () => {
  it('a token file others may read: a warning once per run, with the command that fixes it; the command runs', async () => {
    const file = join(h.configDir, 'tokens', 'default.json');
    chmodSync(file, 0o644);
    try {
      const result = await h.cli(['whoami']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe(`warning: ${file} is readable by others (0644): chmod 600 ${file}\n`);
    } finally {
      chmodSync(file, 0o600);
    }
    expect((await h.cli(['whoami'])).stderr).toBe('');
  });

  it('a tokens folder that links elsewhere: login stops before the password is sent, and the linked folder keeps its mode', async () => {
    const dir = join(h.configDir, 'linked');
    const shared = join(h.configDir, 'shared');
    mkdirSync(dir);
    mkdirSync(shared);
    chmodSync(shared, 0o755);
    symlinkSync(shared, join(dir, 'tokens'));
    const logins = routeCount(h, 'POST /api/Users/authenticate');
    const result = await h.cli(['login', '--url', h.sandbox.url, '-u', 'tech'], { env: { TKT_CONFIG_DIR: dir, TKT_PASSWORD: 'tech' } });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(`error: cannot write ${join(dir, 'tokens')}: it is a symbolic link`);
    expect(routeCount(h, 'POST /api/Users/authenticate')).toBe(logins);
    expect(statSync(shared).mode & 0o777).toBe(0o755);
  });
});
