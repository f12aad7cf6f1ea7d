import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/harness.js';

describe('tkt logout', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const tokenFile = () => join(h.configDir, 'tokens', 'default.json');

  it('forgets the token, after which whoami exits 4', async () => {
    expect(existsSync(tokenFile())).toBe(true);

    const logout = await h.cli(['logout']);
    const whoami = await h.cli(['whoami']);

    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain(`Logged out of ${h.sandbox.url} (profile default)`);
    expect(existsSync(tokenFile())).toBe(false);
    expect(whoami.code).toBe(4);
    expect(whoami.stderr).toContain('not logged in (profile default)');
  });

  it('exits 0 with a note when not logged in', async () => {
    await h.cli(['logout']);

    const again = await h.cli(['logout', '--json']);

    expect(again.code).toBe(0);
    expect(again.stderr).toContain('Not logged in (profile default)');
    expect(JSON.parse(again.stdout)).toEqual({ profile: 'default', loggedOut: false, url: null });
  });

  it('says that TKT_TOKEN stays in effect', async () => {
    const result = await h.cli(['logout'], { env: { TKT_TOKEN: 'abc' } });

    expect(result.code).toBe(0);
    expect(result.stderr).toContain('TKT_TOKEN is still set');
  });
});
