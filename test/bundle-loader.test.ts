// The bin's loader of the commands' own bundles (src/bundle-loader.ts, dist/bundles.cjs): each
// command line that starts with such a command runs from its bundle, compiled with the code V8
// kept from an earlier run in the config folder (cache/code/). Through the built CLI against a
// sandbox; `npm test` builds dist/ first.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  lutimesSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from './helpers/sandbox-state.js';
import type { Harness } from './helpers/harness.js';
import { startForwardProxy } from './helpers/forward-proxy.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const bin = path.join(root, 'bin/tkt.js');

/** Runs the built CLI as a user would, with `env` over this process's environment; `from` another copy's bin. */
function tkt(args: string[], env: Record<string, string>, from = bin): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { NODE_EXTRA_CA_CERTS: _ca, NODE_DISABLE_COMPILE_CACHE: _off, ...inherited } = process.env;
  const child = spawn(process.execPath, [from, ...args], { env: { ...inherited, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The bundles' cached code files in `configDir`, by name (not Node's own folder, node/). */
/** Whether `entry` is a symbolic link (existsSync follows it). */
function isLink(entry: string): boolean {
  try {
    return lstatSync(entry).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Node's compile cache folders of three other Node versions in `nodeFolder`, oldest first (an hour apart). */
function plantOtherNodesCaches(nodeFolder: string): string[] {
  const now = Date.now() / 1000;
  return ['v18.20.8', 'v19.9.0', 'v21.7.3'].map((version, age) => {
    const folder = path.join(nodeFolder, `${version}-${process.arch}-9ac5647c-0`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'e4ed95a5'), 'compiled');
    utimesSync(folder, now - 3600 * (3 - age), now - 3600 * (3 - age));
    return folder;
  });
}

const cacheFiles = (configDir: string) => {
  const dir = path.join(configDir, 'cache', 'code');
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((name) => name !== 'node')
        .sort()
    : [];
};
/** Every file under `dir`, as paths relative to it. */
const filesUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    : [];
// Node's own compile cache, which the bin enables for the full CLI where Node has it.
const nodeHasCompileCache = 'enableCompileCache' in (await import('node:module'));
const showCache = /^commands-show\.[0-9a-f]{16}\.v\d+\.\d+\.\d+-\w+\.v8$/;

describe('the commands’ bundles and their code cache', () => {
  let h: Harness;
  useHarness({}, (harness) => (h = harness));
  let configDir = '';
  // A config folder of each test's own (login's token copied), so that each starts without a cache.
  beforeEach(() => {
    configDir = mkdtempSync(path.join(os.tmpdir(), 'tkt-bundle-cache-'));
  });
  afterEach(() => rmSync(configDir, { recursive: true, force: true }));
  const env = () => {
    // Private as login makes them: a token others may read is warned about on stderr.
    mkdirSync(path.join(configDir, 'tokens'), { recursive: true, mode: 0o700 });
    for (const file of ['config.json', 'tokens/default.json'])
      writeFileSync(path.join(configDir, file), readFileSync(path.join(h.configDir, file)), { mode: 0o600 });
    return { TKT_CONFIG_DIR: configDir };
  };

  it('writes the code of a run that ended well, and the next run takes it instead of compiling', async () => {
    const first = await tkt(['show', '1013', '--json'], env());
    expect(first.code).toBe(0);
    const [file] = cacheFiles(configDir);
    expect(cacheFiles(configDir)).toEqual([expect.stringMatching(showCache)]);
    const written = statSync(path.join(configDir, 'cache', 'code', file!));

    const second = await tkt(['show', '1013', '--json'], env());

    expect(second).toEqual(first);
    expect(JSON.parse(second.stdout)).toMatchObject({ id: 1013 });
    // Taken as it was: a cache V8 refused would have been written anew (renamed into place).
    expect(statSync(path.join(configDir, 'cache', 'code', file!)).ino).toBe(written.ino);
    expect(statSync(path.join(configDir, 'cache', 'code')).mode & 0o777).toBe(0o700);
    expect(written.mode & 0o777).toBe(0o600);
  });

  it('replaces a damaged cache file, and the run is unharmed', async () => {
    await tkt(['show', '1013', '--json'], env());
    const [file] = cacheFiles(configDir);
    const damaged = path.join(configDir, 'cache', 'code', file!);
    writeFileSync(damaged, 'not V8 code');

    const run = await tkt(['show', '1013', '--json'], env());

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 1013 });
    expect(readFileSync(damaged).length).toBeGreaterThan(1000);
  });

  it('keeps a file per bundle: the rest of the command (--query is cold) and a dependency loaded on demand (the query language) get their own', async () => {
    const run = await tkt(['show', '1013', '--query', 'title', '--raw'], env());

    expect(run).toMatchObject({ code: 0, stdout: `${h.sandbox.state.tickets.find((ticket) => ticket.id === 1013)!.title}\n` });
    expect(cacheFiles(configDir).map((file) => file.replace(/\.[0-9a-f]{16}\..*$/, ''))).toEqual([
      'commands-show',
      'commands-show.rest',
      'vendor-jmespath-community',
    ]);
  });

  // The rest takes the first file's modules from its registry: one instance of each, so that an
  // error class thrown there is the one the CLI's exit codes know (a usage error: exit 2).
  it("runs what is cold from the rest with the first file's modules: its usage error exits 2, its dry run prints the plan", async () => {
    const statusBefore = h.sandbox.state.tickets.find((ticket) => ticket.id === 1013)!.ticketStatusId;
    const badQuery = await tkt(['show', '1013', '--query', '['], env());
    const dryRun = await tkt(['close', '1013', '--dry-run'], env());

    expect(badQuery).toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^error: invalid --query "\[": .*\nhint: JMESPath syntax/) });
    expect(dryRun).toMatchObject({ code: 0, stdout: expect.stringMatching(/^dry run: would send POST \/api\/TicketsApi\/close\/1013 \(nothing was sent\)\n/) });
    expect(h.sandbox.state.tickets.find((ticket) => ticket.id === 1013)!.ticketStatusId).toBe(statusBefore);
    expect(cacheFiles(configDir).map((file) => file.replace(/\.[0-9a-f]{16}\..*$/, ''))).toEqual(['commands-close', 'commands-close.rest']);
  });

  it('loads the rest of a command only for what is cold (scripts/build-commands.mjs): show --json takes its first file alone', async () => {
    expect((await tkt(['show', '1013', '--json'], env())).code).toBe(0);

    expect(cacheFiles(configDir).map((file) => file.replace(/\.[0-9a-f]{16}\..*$/, ''))).toEqual(['commands-show']);
  });

  // A user who upgrades Node or tkt would otherwise keep the old files forever: no run reads them.
  // But two builds or two Nodes used in turn with one config folder (a global install and a
  // project's, nvm) keep each other's newest: if each removed the other's on every write, neither
  // would ever run from its cache (found by a bench comparing two builds).
  it('removes, when it writes a file, the files this build and this Node cannot read but the two newest of each bundle, and keeps those they can', async () => {
    expect((await tkt(['show', '1013', '--json'], env())).code).toBe(0);
    const [current] = cacheFiles(configDir);
    const showHash = current!.split('.')[1]!;
    const dir = path.join(configDir, 'cache', 'code');
    const thisNode = `${process.version}-${process.arch}`;
    // Oldest first.
    const otherShows = [
      `commands-show.0123456789abcdef.${thisNode}.v8`, // an older build
      `commands-show.${showHash}.v18.20.8-${process.arch}.v8`, // another Node
      `commands-show.fedcba9876543210.${thisNode}-liftoff.v8`, // another build, behind a proxy
    ];
    const gone = ['0123456789abcdef', '1111111111111111', '2222222222222222'].map((hash) => `commands-gone.${hash}.${thisNode}.v8`); // a bundle this build does not have
    const behindProxy = `commands-show.${showHash}.${thisNode}-liftoff.v8`;
    const now = Date.now() / 1000;
    for (const [age, name] of [...otherShows.entries(), ...gone.entries()]) {
      writeFileSync(path.join(dir, name), 'old');
      utimesSync(path.join(dir, name), now - 3600 * (3 - age), now - 3600 * (3 - age));
    }
    writeFileSync(path.join(dir, behindProxy), 'old');

    // A run that takes its cache writes nothing, and so removes nothing.
    expect((await tkt(['show', '1013', '--json'], env())).code).toBe(0);
    expect(cacheFiles(configDir)).toEqual([...otherShows, ...gone, behindProxy, current].sort());

    expect((await tkt(['list'], env())).code).toBe(0);

    const after = cacheFiles(configDir);
    expect(after.filter((name) => !name.startsWith('commands-list.'))).toEqual([...gone.slice(1), ...otherShows.slice(1), behindProxy, current].sort());
    expect(after).toContainEqual(expect.stringMatching(/^commands-list\./));
  });

  it('writes nothing for a run that failed, nor one the bundle left to the full CLI, nor with NODE_DISABLE_COMPILE_CACHE set, nor without a config folder', async () => {
    expect((await tkt(['show', '999999'], env())).code).toBe(3);
    expect(cacheFiles(configDir)).toEqual([]);

    // Help, exit 0: what the bundle compiled to leave it to the full CLI is no cache for a run of show.
    expect((await tkt(['show', '1013', '--help'], env())).code).toBe(0);
    expect(cacheFiles(configDir)).toEqual([]);

    expect((await tkt(['show', '1013'], { ...env(), NODE_DISABLE_COMPILE_CACHE: '1' })).code).toBe(0);
    expect(cacheFiles(configDir)).toEqual([]);

    // A CI job that never logged in: tkt does not make a config folder to keep its cache in.
    const nowhere = path.join(configDir, 'never-made');
    const run = await tkt(['show', '1013', '--json'], { TKT_CONFIG_DIR: nowhere, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin') });
    expect(run.code).toBe(0);
    expect(existsSync(nowhere)).toBe(false);
  });

  // Node would keep it in the shared temporary folder, even for a run without a config folder, and
  // take files that another user put there first (a packager's review).
  it("keeps Node's own compile cache of the full CLI beside the bundles' (Node 22.1+), never in the temporary folder, and none without a config folder", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'tkt-tmpdir-'));
    try {
      expect((await tkt(['completion', 'bash'], { ...env(), TMPDIR: tmp })).code).toBe(0);
      const nodeFolder = path.join(configDir, 'cache', 'code', 'node');
      if (nodeHasCompileCache) {
        expect(filesUnder(nodeFolder)).toContainEqual(expect.stringMatching(new RegExp(`^${process.version.replace(/\./g, '\\.')}-${process.arch}-[^/]+/`)));
        expect(statSync(nodeFolder).mode & 0o777).toBe(0o700);
      } else {
        expect(existsSync(nodeFolder)).toBe(false);
      }

      const nowhere = path.join(configDir, 'never-made');
      expect((await tkt(['completion', 'bash'], { TKT_CONFIG_DIR: nowhere, TMPDIR: tmp })).code).toBe(0);
      expect(existsSync(nowhere)).toBe(false);
      expect(filesUnder(tmp)).toEqual([]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("removes Node's compile cache of other Node versions when it writes a bundle's but the two newest, and keeps this Node's", async () => {
    const nodeFolder = path.join(configDir, 'cache', 'code', 'node');
    const others = plantOtherNodesCaches(nodeFolder);
    const current = path.join(nodeFolder, `${process.version}-${process.arch}-0123abcd-0`);
    mkdirSync(current, { recursive: true });
    writeFileSync(path.join(current, 'e4ed95a5'), 'compiled');

    expect((await tkt(['show', '1013', '--json'], env())).code).toBe(0);

    expect(others.map((folder) => existsSync(folder))).toEqual([false, true, true]);
    expect(readdirSync(current)).toEqual(['e4ed95a5']);
  });

  // A broken link among them (a folder moved away) once stopped the pruning, and on Node 22+ cost
  // the full CLI Node's compile cache on every run (a code review).
  it('removes them past a broken link, which it dates by itself', async () => {
    const nodeFolder = path.join(configDir, 'cache', 'code', 'node');
    const others = plantOtherNodesCaches(nodeFolder);
    const broken = path.join(nodeFolder, `v16.20.2-${process.arch}-9ac5647c-0`);
    symlinkSync(path.join(configDir, 'moved-away'), broken);
    const longAgo = Date.now() / 1000 - 86_400;
    lutimesSync(broken, longAgo, longAgo);

    expect((await tkt(['show', '1013', '--json'], env())).code).toBe(0);

    expect([broken, ...others].map((entry) => existsSync(entry) || isLink(entry))).toEqual([false, false, true, true]);
  });

  // A user whose runs all go through the full CLI (aliases, watch) kept every Node's (an upgrade review).
  it("removes Node's compile cache of other Node versions on a run of the full CLI too, where this Node has that cache", async () => {
    const others = plantOtherNodesCaches(path.join(configDir, 'cache', 'code', 'node'));

    expect((await tkt(['completion', 'bash'], env())).code).toBe(0);

    // Node 20 has no compile cache: the bin leaves its folder alone.
    expect(others.map((folder) => existsSync(folder))).toEqual([!nodeHasCompileCache, true, true]);
  });

  it('neither reads nor writes a cache folder that others may write to (cached code runs as the user)', async () => {
    const dir = path.join(configDir, 'cache', 'code');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    const planted = `commands-show.0123456789abcdef.${process.version}-${process.arch}.v8`;
    writeFileSync(path.join(dir, planted), 'planted');

    const run = await tkt(['show', '1013', '--json'], env());

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 1013 });
    // Not even the cleaning of older builds' files: the folder is left alone.
    expect(cacheFiles(configDir)).toEqual([planted]);
  });

  // Whoever may write the config folder or cache/ could put another cache/code/ in the place of
  // the one checked (a code review's finding): neither a folder above it open to others.
  it.each([
    ['the config folder', (dir: string) => dir],
    ['cache/', (dir: string) => path.join(dir, 'cache')],
  ])('neither reads nor writes the cache when %s is open to writes by others', async (_name, folderOf) => {
    const dir = path.join(configDir, 'cache', 'code');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const planted = `commands-show.0123456789abcdef.${process.version}-${process.arch}.v8`;
    writeFileSync(path.join(dir, planted), 'planted');
    const runEnv = env();
    chmodSync(folderOf(configDir), 0o777);

    const run = await tkt(['show', '1013', '--json'], runEnv);

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 1013 });
    expect(cacheFiles(configDir)).toEqual([planted]);
  });

  it('runs when the cache cannot be written (a file where its folder would be)', async () => {
    mkdirSync(path.join(configDir, 'cache'), { recursive: true });
    writeFileSync(path.join(configDir, 'cache', 'code'), 'in the way');

    const run = await tkt(['show', '1013', '--json'], env());

    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toMatchObject({ id: 1013 });
  });

  // Behind a proxy the HTTP client (src/api/undici-core.ts) sets a V8 flag, and V8 refuses cached
  // code made under other flags: the loader sets it first, so that the cache is taken on the next
  // run behind the same proxy, not refused and written anew on every run (a review's finding).
  it('takes the cache on the next run behind a proxy, as without one, and keeps the two apart', async () => {
    const proxy = await startForwardProxy();
    const proxied = { ...env(), HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '' };
    try {
      expect((await tkt(['show', '1013', '--json'], proxied)).code).toBe(0);
      const inodes = () => cacheFiles(configDir).map((file) => statSync(path.join(configDir, 'cache', 'code', file)).ino);
      const written = inodes();
      // The proxy's client is cold: it is in the rest of the command.
      expect(cacheFiles(configDir)).toEqual([
        expect.stringMatching(/^commands-show\.[0-9a-f]{16}\..*-liftoff\.v8$/),
        expect.stringMatching(/^commands-show\.rest\..*-liftoff\.v8$/),
        expect.stringMatching(/^vendor-undici\..*-liftoff\.v8$/),
      ]);

      expect((await tkt(['show', '1013', '--json'], proxied)).code).toBe(0);

      expect(inodes()).toEqual(written);
      // Without the proxy, a file of its own; the proxied ones stay.
      expect((await tkt(['show', '1013', '--json'], env())).code).toBe(0);
      expect(cacheFiles(configDir)).toEqual([
        expect.stringMatching(/^commands-show\.[0-9a-f]{16}\..*-liftoff\.v8$/),
        expect.stringMatching(showCache),
        expect.stringMatching(/^commands-show\.rest\..*-liftoff\.v8$/),
        expect.stringMatching(/^vendor-undici\..*-liftoff\.v8$/),
      ]);
      expect(inodes().filter((inode) => written.includes(inode))).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  // A script that puts the global options first (`tkt --profile work list`) runs from the bundle
  // too: only a run of the bundle writes its cache.
  it.each([
    [['--profile', 'default', '--json', 'show', '1013'], 'show'],
    [['--timeout=20', '-q', 'list'], 'list'],
    [['--query', 'list', 'view', '1013'], 'show'],
  ])('runs %j from its command’s bundle', async (argv, bundle) => {
    const run = await tkt(argv, env());

    expect(run.code).toBe(0);
    expect(run.stdout).not.toBe('');
    expect(cacheFiles(configDir)).toContainEqual(expect.stringMatching(new RegExp(`^commands-${bundle}\\.`)));
  });

  it('hands a command line it cannot read to the full CLI before sending anything', async () => {
    const before = h.sandbox.stats.requests;

    const missing = await tkt(['show'], env());
    const unknown = await tkt(['show', '1013', '--no-such-option'], env());

    expect(missing).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining("error: missing required argument 'id'") });
    expect(unknown).toMatchObject({ code: 2, stdout: '', stderr: expect.stringContaining("error: unknown option '--no-such-option'") });
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('every bundle loads and hands an unknown option to the full CLI (none breaks at its start)', async () => {
    // A command's first file (its rest is loaded from it, never first).
    const bundles = readdirSync(path.join(root, 'dist', 'commands'))
      .filter((file) => !file.endsWith('.rest.cjs'))
      .map((file) => file.replace(/\.cjs$/, ''));
    expect(bundles).toEqual(expect.arrayContaining(['show', 'list', 'close', 'pickup', 'attach', 'create']));

    for (const name of bundles) {
      const run = await tkt([name, '--no-such-option-anywhere'], env());
      expect(run, name).toMatchObject({ code: 2, stderr: expect.stringContaining("unknown option '--no-such-option-anywhere'") });
    }
  });
});

// npm replaces an installed tkt in place: a run under way through an upgrade (a person at a prompt,
// whose questions are a dependency's file loaded then) found the next build's files under the same
// names, and took their modules for its own (a code review's finding: a crash at the first prompt).
describe('a run under way through an upgrade', () => {
  let h: Harness;
  useHarness({}, (harness) => (h = harness));
  let copy = '';
  beforeEach(() => {
    copy = mkdtempSync(path.join(os.tmpdir(), 'tkt-upgraded-'));
    for (const part of ['bin', 'dist', 'package.json']) cpSync(path.join(root, part), path.join(copy, part), { recursive: true });
  });
  afterEach(() => rmSync(copy, { recursive: true, force: true }));
  const run = (args: string[]) =>
    tkt(
      args,
      { TKT_CONFIG_DIR: path.join(copy, 'never-made'), TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin') },
      path.join(copy, 'bin', 'tkt.js'),
    );
  /** Makes dist/`file` another build's: the same text under another hash, as the next build writes it. */
  const fromAnotherBuild = (file: string) => {
    const target = path.join(copy, 'dist', file);
    writeFileSync(target, readFileSync(target, 'latin1').replace(/^\/\*tkt [0-9a-f]{16}\*\//, '/*tkt 0123456789abcdef*/'), 'latin1');
  };

  it.each([
    ['the rest of the command (--query is cold)', 'commands/show.rest.cjs'],
    ['a dependency loaded on demand (the query language)', 'vendor/jmespath-community.cjs'],
    ['the command’s first file', 'commands/show.cjs'],
  ])('stops with a line saying so at %s of another build', async (_what, file) => {
    fromAnotherBuild(file);

    const result = await run(['show', '1013', '--query', 'id']);

    expect(result).toMatchObject({
      code: 1,
      stderr: `error: tkt's files changed while it ran (an upgrade?): ${path.join(copy, 'dist', file)} is of another build\nhint: run the command again (if it says this again, reinstall tkt)\n`,
    });
  });

  it('says so for a file that is gone', async () => {
    rmSync(path.join(copy, 'dist', 'commands', 'show.rest.cjs'));

    const result = await run(['show', '1013', '--query', 'id']);

    expect(result).toMatchObject({
      code: 1,
      stderr: `error: tkt's files changed while it ran (an upgrade?): ${path.join(copy, 'dist', 'commands', 'show.rest.cjs')} is gone\nhint: run the command again (if it says this again, reinstall tkt)\n`,
    });
  });

  // The full CLI (a command line no bundle runs) imports its first chunks as it loads.
  it('says so for a file of the full CLI that is gone', async () => {
    const chunk = /from "\.\/(chunks\/[^"]+\.js)"/.exec(readFileSync(path.join(copy, 'dist', 'main.js'), 'utf8'))![1]!;
    rmSync(path.join(copy, 'dist', chunk));

    const result = await run(['alias', 'list']);

    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^error: tkt's files changed while it ran \(an upgrade\?\): Cannot find module '[^']+'.*\nhint: run the command again \(if it says this again, reinstall tkt\)\n$/,
    );
    expect(result.stderr).toContain(path.join(copy, 'dist', chunk));
  });

  it('runs as ever from files of its own build', async () => {
    const result = await run(['show', '1013', '--query', 'id']);

    expect(result).toEqual({ code: 0, stdout: '1013\n', stderr: '' });
  });
});
