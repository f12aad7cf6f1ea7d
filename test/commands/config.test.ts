// tkt config set under an exported TKT_PROFILE: the same as --profile (docs/cli.md, the
// environment table), so the value is saved for that profile; an empty TKT_PROFILE is none.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { loginAs, type Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
beforeAll(() => loginAs(h.sandbox, h.configDir, 'tech', 'prod'));

const URL_TEMPLATE = 'https://desk.example.com/t/{id}';

describe('tkt config set with TKT_PROFILE exported', () => {
  it('saves for that profile, as --profile does, and unsets there', async () => {
    const set = await h.cli(['config', 'set', 'web-url', URL_TEMPLATE], { env: { TKT_PROFILE: 'prod' } });
    expect({ code: set.code, stdout: set.stdout, stderr: set.stderr }).toEqual({
      code: 0,
      stdout: `Set web-url to ${URL_TEMPLATE} for profile prod\n`,
      stderr: '',
    });
    const config = createConfigStore(h.configDir);
    expect(config.getSettings('prod').webUrl).toBe(URL_TEMPLATE);
    expect(config.getSettings().webUrl).toBeUndefined();

    const unset = await h.cli(['config', 'unset', 'web-url'], { env: { TKT_PROFILE: 'prod' } });
    expect({ code: unset.code, stdout: unset.stdout }).toEqual({ code: 0, stdout: 'Unset web-url for profile prod\n' });
    expect(createConfigStore(h.configDir).getSettings('prod').webUrl).toBeUndefined();

    // Once more: nothing was set, and it says so rather than "Unset".
    const again = await h.cli(['config', 'unset', 'web-url'], { env: { TKT_PROFILE: 'prod' } });
    expect({ code: again.code, stdout: again.stdout }).toEqual({ code: 0, stdout: 'web-url was not set for profile prod: nothing changed\n' });
    const json = await h.cli(['--json', 'config', 'unset', 'web-url'], { env: { TKT_PROFILE: 'prod' } });
    expect(JSON.parse(json.stdout)).toEqual({ key: 'web-url', profile: 'prod', changed: false });
  });

  it('saves for every profile with TKT_PROFILE empty, and --profile wins over it', async () => {
    const global = await h.cli(['config', 'set', 'default-concurrency', '4'], { env: { TKT_PROFILE: '' } });
    expect(global.stdout).toBe('Set default-concurrency to 4 for every profile\n');
    const flag = await h.cli(['--profile', 'default', 'config', 'set', 'default-concurrency', '6'], { env: { TKT_PROFILE: 'prod' } });
    expect(flag.stdout).toBe('Set default-concurrency to 6 for profile default\n');
    const config = createConfigStore(h.configDir);
    expect([config.getSettings().defaultConcurrency, config.getSettings('default').defaultConcurrency, config.getSettings('prod').defaultConcurrency]).toEqual([
      4,
      6,
      undefined,
    ]);
  });
});

describe('a HOME naming a folder that does not exist', () => {
  it('is exit 1 naming it for what must be kept, making no folder; reads and TKT_TOKEN runs go on', async () => {
    const base = await mkdtemp(join(tmpdir(), 'tkt-missing-home-'));
    try {
      const home = join(base, 'does', 'not', 'exist');
      const env = { TKT_CONFIG_DIR: '', XDG_CONFIG_HOME: '', HOME: home, TKT_URL: h.sandbox.url };
      const settings = join(home, '.config', 'tkt', 'config.json');
      for (const [args, file] of [
        [['login', '-u', 'tech', '--password-stdin'], settings],
        [['config', 'set', 'editor', 'nano'], settings],
        [['alias', 'set', 'mine', 'list --view my-open-tickets'], settings],
      ] as const) {
        const ran = await h.cli([...args], { env, stdin: 'tech\n' });
        expect({ code: ran.code, stdout: ran.stdout, stderr: ran.stderr }, args.join(' ')).toEqual({
          code: 1,
          stdout: '',
          stderr: `error: cannot write ${file}: the home folder ${home} does not exist\nhint: set HOME to your home folder, or TKT_CONFIG_DIR to a folder you may write; a run with TKT_URL and TKT_TOKEN needs none\n`,
        });
      }
      expect(await readdir(base)).toEqual([]);
      const read = await h.cli(['config', 'get', 'editor'], { env });
      expect({ code: read.code, stderr: read.stderr }).toEqual({ code: 0, stderr: '' });
      const listed = await h.cli(['list', '--limit', '1', '-q'], { env: { ...env, TKT_TOKEN: h.sandbox.issueToken('tech') } });
      expect({ code: listed.code, stderr: listed.stderr }).toEqual({ code: 0, stderr: '' });
      expect(await readdir(base)).toEqual([]);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });

  it('still makes .config and the config folder under a home folder that exists', async () => {
    const home = await mkdtemp(join(tmpdir(), 'tkt-home-'));
    try {
      const ran = await h.cli(['config', 'set', 'editor', 'nano'], { env: { TKT_CONFIG_DIR: '', XDG_CONFIG_HOME: '', HOME: home } });
      expect({ code: ran.code, stderr: ran.stderr }).toEqual({ code: 0, stderr: '' });
      expect(createConfigStore(join(home, '.config', 'tkt')).getSettings().editor).toBe('nano');
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
