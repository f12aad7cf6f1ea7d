// The package as a user gets it (README, Install): packed from a copy of the sources (so `prepack` must
// build), installed globally into a fresh prefix with an empty npm cache and --offline (so it
// must need no other package), then driven from DIR/bin/tkt against its own sandbox.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const version = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The environment of a user's shell: none of the npm_* variables `npm test` sets, no tkt settings. */
function userEnv(configDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(npm_|TKT_)/i.test(name)) env[name] = value;
  }
  return { ...env, TKT_CONFIG_DIR: configDir, NO_COLOR: '1' };
}

let work: string;
let prefix: string;
let tarball: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'tkt-package-'));
  env = userEnv(path.join(work, 'config'));
  // A clone's files (tracked and new, not ignored): no dist/, no build/.
  const source = path.join(work, 'source');
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => file !== '');
  for (const file of files) {
    try {
      cpSync(path.join(root, file), path.join(source, file), { recursive: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; // deleted but not yet committed
    }
  }
  symlinkSync(path.join(root, 'node_modules'), path.join(source, 'node_modules'));
  const packed = spawnSync(npm, ['pack', '--pack-destination', work], { cwd: source, env, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  tarball = path.join(
    work,
    readdirSync(work).find((name) => name.endsWith('.tgz'))!,
  );
  prefix = path.join(work, 'prefix');
  mkdirSync(prefix);
  const installed = spawnSync(
    npm,
    ['install', '-g', '--prefix', prefix, '--offline', '--cache', path.join(work, 'npm-cache'), '--no-audit', '--no-fund', tarball],
    { cwd: work, env, encoding: 'utf8' },
  );
  expect(installed.status, installed.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

function tkt(args: string[], input?: string) {
  return spawnSync(path.join(prefix, 'bin', 'tkt'), args, { env, encoding: 'utf8', input, timeout: 30_000 });
}

describe('the npm package', () => {
  it('ships what runs, the licences, and nothing for tests', () => {
    const listing = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(listing).toContain('package/bin/tkt.js');
    expect(listing).toContain('package/dist/main.js');
    // The commands' own bundles, their dependencies' files and the bin's loader of them.
    expect(listing).toContain('package/dist/bundles.cjs');
    expect(listing).toContain('package/dist/commands/show.cjs');
    expect(listing).toContain('package/dist/vendor/undici.cjs');
    expect(listing).toContain('package/LICENSE');
    expect(listing).toContain('package/dist/THIRD-PARTY-NOTICES.md');
    expect(listing.filter((file) => file.endsWith('meta.json'))).toEqual([]);
    expect(listing.filter((file) => /^package\/(src|test|scripts|bench)\//.test(file))).toEqual([]);
  });

  it('lists every bundled package with its licence text in the notices', () => {
    const notices = readFileSync(path.join(prefix, 'lib/node_modules/tkt-cli/dist/THIRD-PARTY-NOTICES.md'), 'utf8');
    for (const bundled of ['commander', 'undici', 'chalk', '@jmespath-community/jmespath', '@inquirer/prompts', 'busboy']) {
      expect(notices).toMatch(new RegExp(`^## ${bundled.replace('/', '\\/')}@\\d`, 'm'));
    }
    expect(notices).toContain('Permission is hereby granted');
  });

  it('installs no other package: everything it runs is bundled', () => {
    const installed = readdirSync(path.join(prefix, 'lib/node_modules'));
    expect(installed).toEqual(['tkt-cli']);
    expect(readdirSync(path.join(prefix, 'lib/node_modules/tkt-cli'))).not.toContain('node_modules');
  });

  it('runs from the prefix: --version, then sandbox, login, list and show', async () => {
    const shown = tkt(['--version']);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout.trim()).toContain(version);

    const sandbox = spawn(path.join(prefix, 'bin', 'tkt'), ['sandbox', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let banner = '';
      sandbox.stdout.setEncoding('utf8');
      while (!/listening on (http:\/\/\S+)/.test(banner)) {
        const [chunk] = (await Promise.race([once(sandbox.stdout, 'data'), once(sandbox, 'exit')])) as [string];
        if (sandbox.exitCode !== null) throw new Error(`tkt sandbox exited: ${banner}`);
        banner += chunk;
      }
      const url = /listening on (http:\/\/\S+)/.exec(banner)![1]!;
      const login = tkt(['login', '--url', url, '-u', 'tech', '--password-stdin'], 'tech\n');
      expect(login.status, login.stderr).toBe(0);
      const listed = tkt(['list', '-q']);
      expect(listed.status, listed.stderr).toBe(0);
      const ids = listed.stdout.trim().split('\n');
      expect(ids.length).toBeGreaterThan(0);
      const detail = tkt(['show', ids[0]!, '--json']);
      expect(detail.status, detail.stderr).toBe(0);
      expect((JSON.parse(detail.stdout) as { id: number }).id).toBe(Number(ids[0]));
    } finally {
      sandbox.kill();
    }
  }, 60_000);
});
