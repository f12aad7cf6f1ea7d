// tkt login --domain at CLI level. The sandbox has local accounts only: it accepts an
// empty Domain and answers 401 'Unknown domain "X"' to any other, so its answer proves
// the Domain field went out with the value given.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { createHarness, type Harness } from '../helpers/harness.js';

describe('tkt login --domain', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await createHarness({ login: false });
  });
  afterEach(() => h.close());

  const login = (...flags: string[]) => h.cli(['login', '-u', 'tech', ...flags], { env: { TKT_PASSWORD: 'tech' } });
  const savedToken = () => createConfigStore(h.configDir).readToken('default');

  it('logs in a local account with an empty domain', async () => {
    const result = await login('--domain', '');

    expect(result.code).toBe(0);
    expect(savedToken()?.username).toBe('tech');
  });

  it('refuses an unknown domain with exit 4, the server message and a hint, saving no token', async () => {
    const result = await login('--domain', 'CORP');

    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^error: login to .* failed for tech/m);
    expect(result.stderr).toContain('Unknown domain "CORP"');
    expect(result.stderr).toMatch(/^hint: .*--domain/m);
    expect(savedToken()).toBeUndefined();
  });

  it('sends the domain as given, without trimming or changing case', async () => {
    const result = await login('--domain', 'corp.example');

    expect(result.code).toBe(4);
    expect(result.stderr).toContain('Unknown domain "corp.example"');
  });
});
