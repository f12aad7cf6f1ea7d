// A config folder the user may not read or write: one left by `sudo tkt login` (root's, 0700), a
// read-only one, one under a folder of mode 000. Run as another user than the folders' owner
// (setpriv, as root: CI runs as root in its container), the bin as installed.
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { asOtherUser, OTHER_UID, skipWithoutSetpriv } from '../helpers/other-user.js';
import { ensureBuilt } from '../helpers/terminal.js';

const skip = skipWithoutSetpriv('test/cli/foreign-config.test.ts');
const AUTH_ROUTE = 'POST /api/Users/authenticate';

let sandbox: RunningSandbox;
let dir: string;
/** A HOME whose ~/.config/tkt is root's, 0700, with settings and an alias. */
let home: string;
let settingsFile: string;
beforeAll(async () => {
  if (skip) return;
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'tkt-foreign-config-'));
  await chmod(dir, 0o755);
  home = join(dir, 'home');
  await mkdir(join(home, '.config', 'tkt'), { recursive: true });
  settingsFile = join(home, '.config', 'tkt', 'config.json');
  await writeFile(settingsFile, JSON.stringify({ settings: { pager: 'less', aliases: { mine: 'list --view my-open-tickets' } } }));
  await chmod(join(home, '.config', 'tkt'), 0o700);
  await chmod(join(home, '.config'), 0o755);
  await chown(home, Number(OTHER_UID), Number(OTHER_UID));
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when skipped or beforeAll failed
  await sandbox?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when skipped or beforeAll failed
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.skipIf(skip)('a settings file the user may not read (root-owned ~/.config/tkt)', () => {
  const service = () => ({ HOME: home, TKT_URL: sandbox.url, TKT_TOKEN: sandbox.issueToken('tech') });
  const warning = () =>
    new RegExp(`^warning: cannot read ${escaped(settingsFile)}: EACCES[^\\n]*; going on without it \\(TKT_URL and TKT_TOKEN are all this run needs\\)\\n$`);

  it('is one warning, and the run goes on, where TKT_URL and TKT_TOKEN are all it needs', async () => {
    for (const args of [['list', '-q', '--limit', '1'], ['watch', '--once'], ['whoami']]) {
      const ran = await asOtherUser(args, service());
      expect(ran.stderr, args.join(' ')).toMatch(warning());
      expect(ran.code, args.join(' ')).toBe(0);
    }
    // tkt mcp starts and answers, its input then closed.
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
    };
    const mcp = await asOtherUser(['mcp'], service(), `${JSON.stringify(initialize)}\n`);
    expect(mcp.stderr).toMatch(warning());
    expect(JSON.parse(mcp.stdout.split('\n')[0]!)).toMatchObject({ id: 1, result: { serverInfo: { name: 'tkt' } } });
  });

  it('stops what needs the file (its own commands, a profile, an alias) with a hint on ownership', async () => {
    for (const args of [
      ['config', 'set', 'pager', 'more'],
      ['config', 'list'],
      ['alias', 'set', 'x', 'list'],
      ['logout'],
      ['--profile', 'work', 'list'],
      ['mine'],
    ]) {
      const ran = await asOtherUser(args, { ...service(), TKT_PASSWORD: 'tech' });
      expect(ran.code, args.join(' ')).toBe(1);
      expect(ran.stderr, args.join(' ')).toMatch(
        new RegExp(`^error: cannot read ${escaped(settingsFile)}: EACCES[^\\n]*\\nhint: [^\\n]*another user \\(sudo\\?\\)[^\\n]*TKT_CONFIG_DIR\\n$`),
      );
    }
    const before = sandbox.stats.byRoute[AUTH_ROUTE] ?? 0;
    const login = await asOtherUser(['login', '-u', 'tech'], { HOME: home, TKT_URL: sandbox.url, TKT_PASSWORD: 'tech' });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain('another user (sudo?)');
    expect(sandbox.stats.byRoute[AUTH_ROUTE] ?? 0).toBe(before);
  });

  it('under a folder of mode 000 (TKT_CONFIG_DIR): the same warning or hint, never "fix or delete"', async () => {
    const locked = join(dir, 'locked');
    await mkdir(locked, { mode: 0o000 });
    await chmod(locked, 0o000);
    const place = { TKT_CONFIG_DIR: join(locked, 'tkt') };
    // Whether there is a file cannot be told: said, as for a file that cannot be read.
    const listed = await asOtherUser(['list', '-q', '--limit', '1'], { ...service(), ...place });
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^warning: cannot read [^\n]*\/locked\/tkt\/config\.json: EACCES[^\n]*; going on without it[^\n]*\n$/);
    for (const args of [
      ['config', 'list'],
      ['config', 'set', 'pager', 'more'],
    ]) {
      const ran = await asOtherUser(args, { ...service(), ...place });
      expect(ran.code, args.join(' ')).toBe(1);
      expect(ran.stderr, args.join(' ')).toMatch(
        /^error: cannot (read|write) [^\n]*EACCES[^\n]*\nhint: [^\n]*another user \(sudo\?\)[^\n]*TKT_CONFIG_DIR[^\n]*\n$/,
      );
      expect(ran.stderr).not.toContain('fix or delete');
    }
  });
});

describe.skipIf(skip)('tkt login where the token cannot be kept', () => {
  it('sends no password to a read-only TKT_CONFIG_DIR or HOME, naming TKT_CONFIG_DIR and TKT_TOKEN', async () => {
    const readOnly = join(dir, 'read-only');
    await mkdir(readOnly);
    await chown(readOnly, Number(OTHER_UID), Number(OTHER_UID));
    await chmod(readOnly, 0o500);
    for (const place of [{ TKT_CONFIG_DIR: readOnly }, { HOME: readOnly }] as Record<string, string>[]) {
      const before = sandbox.stats.byRoute[AUTH_ROUTE] ?? 0;
      const login = await asOtherUser(['login', '-u', 'tech', '--url', sandbox.url], { ...place, TKT_PASSWORD: 'tech' });
      expect(login.code, JSON.stringify(place)).toBe(1);
      expect(login.stderr).toMatch(/^error: cannot write [^\n]*EACCES[^\n]*\nhint: [^\n]*TKT_CONFIG_DIR[^\n]*TKT_TOKEN[^\n]*\n$/);
      expect(sandbox.stats.byRoute[AUTH_ROUTE] ?? 0, JSON.stringify(place)).toBe(before);
    }
  });
});
