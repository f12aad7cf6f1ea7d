// tkt config set under an exported TKT_PROFILE (README, Choices): saved for every profile, as
// documented, with a note naming the line that saves for that profile alone.
import { beforeAll, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { loginAs, type Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
beforeAll(() => loginAs(h.sandbox, h.configDir, 'tech', 'prod'));

const URL_TEMPLATE = 'https://desk.example.com/t/{id}';

describe('tkt config set with TKT_PROFILE exported', () => {
  it('saves for every profile and says, on stderr, how to save for that profile only', async () => {
    const set = await h.cli(['config', 'set', 'web-url', URL_TEMPLATE], { env: { TKT_PROFILE: 'prod' } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toBe(`Set web-url to ${URL_TEMPLATE} for every profile\n`);
    expect(set.stderr).toBe(
      `note: TKT_PROFILE chooses the profile read, not where a setting is saved; for profile prod only: tkt --profile prod config set web-url '${URL_TEMPLATE}'\n`,
    );
    const config = createConfigStore(h.configDir);
    expect(config.getSettings().webUrl).toBe(URL_TEMPLATE);
    expect(config.getSettings('prod').webUrl).toBeUndefined();

    const unset = await h.cli(['config', 'unset', 'web-url'], { env: { TKT_PROFILE: 'prod' } });
    expect(unset.stderr).toBe(
      'note: TKT_PROFILE chooses the profile read, not where a setting is saved; for profile prod only: tkt --profile prod config unset web-url\n',
    );
  });

  it('says nothing more with -q, with --profile, or without TKT_PROFILE', async () => {
    for (const [argv, env] of [
      [['-q', 'config', 'set', 'default-concurrency', '4'], { TKT_PROFILE: 'prod' }],
      [['--profile', 'prod', 'config', 'set', 'default-concurrency', '4'], { TKT_PROFILE: 'prod' }],
      [['config', 'set', 'default-concurrency', '4'], {}],
    ] as const) {
      const result = await h.cli([...argv], { env });
      expect({ code: result.code, stderr: result.stderr }, argv.join(' ')).toEqual({ code: 0, stderr: '' });
    }
  });
});
