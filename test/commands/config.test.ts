// tkt config set under an exported TKT_PROFILE: the same as --profile (docs/cli.md, the
// environment table), so the value is saved for that profile; an empty TKT_PROFILE is none.
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
