// tkt profiles at a desk with profiles "staging" and "prod" and no login to the default one
// (docs/cli.md section 10); settings.test.ts has the listing of a default that is logged in.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/profiles.js';
import { createConfigStore } from '../../src/config/store.js';
import { loginAs, type Harness } from '../helpers/harness.js';
import { useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-profiles-', (path) => (dir = path));

let env: Record<string, string>;
beforeAll(async () => {
  env = { TKT_CONFIG_DIR: join(dir, 'desk') };
  await loginAs(h.sandbox, env.TKT_CONFIG_DIR!, 'tech', 'staging');
  await loginAs(h.sandbox, env.TKT_CONFIG_DIR!, 'admin', 'prod');
});

describe('tkt profiles', () => {
  it('lists the same profiles, default among them, whichever is active', async () => {
    const rows = (argv: string[], extra: Record<string, string> = {}) => h.cli([...argv, 'profiles'], { env: { ...env, ...extra } });
    const chosen = [await rows([]), await rows(['--profile', 'prod']), await rows([], { TKT_PROFILE: 'staging' })];
    for (const result of chosen) expect(result.code, result.stderr).toBe(0);
    expect(chosen.map((result) => result.stdout.split('\n').map((line) => line.split('\t')[1]))).toEqual([
      ['default', 'prod', 'staging', undefined],
      ['default', 'prod', 'staging', undefined],
      ['default', 'prod', 'staging', undefined],
    ]);
    // Never logged in: no URL, and not logged in, wherever it is listed.
    expect(chosen[1]!.stdout.split('\n')[0]).toBe('\tdefault\t\tnot logged in');
    // The names the error of an unknown profile lists.
    const unknown = await rows(['--profile', 'prd']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('profiles: default, prod, staging\n');
  });

  it('says a token expired, not "not logged in", as other commands do; --json tells expired from logged out', async () => {
    const config = createConfigStore(env.TKT_CONFIG_DIR!);
    const expiresAt = '2026-11-01T00:00:00.000Z';
    const saved = config.readToken('staging')!;
    await config.writeToken('staging', { ...saved, expiresAt });
    try {
      const list = await h.cli(['list'], { env: { ...env, TKT_PROFILE: 'staging' } });
      expect(list.stderr).toContain(`error: token expired on ${expiresAt} (profile staging)\n`);
      const piped = await h.cli(['profiles'], { env });
      expect(piped.stdout).toContain(`\tstaging\t${h.sandbox.url}\ttoken expired (tech)\n`);
      const json = JSON.parse((await h.cli(['profiles', '--json'], { env })).stdout) as Record<string, unknown>[];
      expect(json.find((p) => p.name === 'staging')).toEqual({
        name: 'staging',
        active: false,
        url: h.sandbox.url,
        loggedIn: false,
        expired: true,
        username: 'tech',
        expiresAt,
      });
      expect(json.find((p) => p.name === 'prod')).toMatchObject({ loggedIn: true, expired: false });
      expect(json.find((p) => p.name === 'default')).toMatchObject({ loggedIn: false, expired: false, username: null, url: null });
    } finally {
      await config.writeToken('staging', saved);
    }
  });

  it('a narrow terminal names the columns it left out and --columns, which profiles takes as list does (and --csv)', async () => {
    const forty = await h.context({ tty: true, size: { columns: 40 }, env });
    await run({}, forty.ctx);
    expect(forty.stdout()).not.toContain('URL');
    expect(forty.stderr()).toBe('(not shown at this width: url;\n--columns chooses)\n');
    // What the note offers works: the columns asked for, none given way, and no note.
    const chosen = await h.context({ tty: true, size: { columns: 40 }, env, globals: { columns: 'name,url' } });
    await run({}, chosen.ctx);
    expect(chosen.stdout().split('\n')[0]).toMatch(/^NAME +URL$/);
    expect(chosen.stderr()).toBe('');
    const piped = await h.cli(['profiles', '--columns', 'name,url'], { env });
    expect(piped, piped.stderr).toMatchObject({ code: 0, stdout: `default\t\nprod\t${h.sandbox.url}\nstaging\t${h.sandbox.url}\n` });
    const csv = await h.cli(['profiles', '--csv', '--columns', 'name,status'], { env });
    expect(csv, csv.stderr).toMatchObject({
      code: 0,
      stdout: 'name,status\r\ndefault,not logged in\r\nprod,logged in as admin\r\nstaging,logged in as tech\r\n',
    });
  });
});
