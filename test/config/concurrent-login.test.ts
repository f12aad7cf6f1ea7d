// Several tkt processes writing settings at once (several tkt at once lose no profile): eight `tkt login --profile pN`
// in parallel used to lose two to four profiles' settings (a read-modify-write of
// config.json without a lock), and the lost profiles were then refused. The built CLI in
// child processes, logins and `config set` interleaved, against a sandbox. `npm test`
// builds dist/ first.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigStore } from '../../src/config/store.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { useTempDirs } from './temp-dir.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const tempDir = useTempDirs();

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

function tkt(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  // The code cache on, whatever the test runner's environment says: its files are counted below.
  const { NODE_EXTRA_CA_CERTS: _unused, NODE_DISABLE_COMPILE_CACHE: _cacheOff, ...inherited } = process.env;
  const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return once(child, 'exit').then(([code]) => ({ code: code as number | null, stderr }));
}

describe('eight logins and eight settings changes at once', () => {
  it('keeps every profile with its URL, --allow-http and setting, and every token', async () => {
    const dir = tempDir();
    const profiles = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const env = { TKT_CONFIG_DIR: dir, TKT_PASSWORD: 'tech', TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1' };
    // config set refuses a profile nothing created: each exists (without a URL) before the writes race.
    for (const profile of profiles) await createConfigStore(dir).saveProfile(profile, {});

    const results = await Promise.all([
      ...profiles.map((profile) => tkt(['login', '--url', sandbox.url, '-u', 'tech', '--profile', profile, '--allow-http'], env)),
      ...profiles.map((profile, i) => tkt(['--profile', profile, 'config', 'set', 'default-concurrency', String(i + 1)], env)),
    ]);

    expect(results.filter((result) => result.code !== 0)).toEqual([]);
    const store = createConfigStore(dir);
    profiles.forEach((profile, i) => {
      expect(store.getProfile(profile), profile).toMatchObject({ url: sandbox.url, allowHttp: true });
      expect(store.getSettings(profile), profile).toEqual({ defaultConcurrency: i + 1 });
      expect(store.readToken(profile)?.url, profile).toBe(sandbox.url);
    });
    // Nothing else: no lock or temporary file left; cache/code holds the compiled code of the
    // command bundles these runs ran from (src/bundle-loader.ts) and, on Node 22.1+, node/: Node's
    // own compile cache of the full CLI (bin/tkt.js).
    expect(fs.readdirSync(dir).sort()).toEqual(['cache', 'config.json', 'tokens']);
    expect(fs.readdirSync(path.join(dir, 'cache'))).toEqual(['code']);
    expect(fs.readdirSync(path.join(dir, 'cache', 'code')).filter((file) => !file.endsWith('.v8') && file !== 'node')).toEqual([]);
    expect(fs.readdirSync(path.join(dir, 'tokens')).sort()).toEqual(profiles.map((profile) => `${profile}.json`));
  });
});
