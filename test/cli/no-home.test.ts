// A user with no home folder: HOME unset and a UID with no entry in /etc/passwd, as under
// `docker run --user 54321`, OpenShift or Kubernetes runAsUser, where os.homedir() throws. Run
// as such a user (setpriv, as root: CI runs as root in its container), the bin as installed.
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { asOtherUser, skipWithoutSetpriv } from '../helpers/other-user.js';
import { ensureBuilt } from '../helpers/terminal.js';

const skip = skipWithoutSetpriv('test/cli/no-home.test.ts');
/** The bin as a user with no passwd entry, HOME unset. */
const asHomeless = asOtherUser;

let sandbox: RunningSandbox;
let dir: string;
beforeAll(async () => {
  if (skip) return;
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'tkt-no-home-'));
  // The homeless user may write there (a TKT_CONFIG_DIR of its own).
  await chmod(dir, 0o777);
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when skipped or beforeAll failed
  await sandbox?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when skipped or beforeAll failed
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(skip)('a user with no home folder (HOME unset, no passwd entry)', () => {
  it('runs with TKT_URL and TKT_TOKEN, with or without TKT_CONFIG_DIR or XDG_CONFIG_HOME', async () => {
    const service = { TKT_URL: sandbox.url, TKT_TOKEN: sandbox.issueToken('tech') };
    for (const place of [{}, { TKT_CONFIG_DIR: join(dir, 'tkt') }, { XDG_CONFIG_HOME: dir }] as Record<string, string>[]) {
      // A bundled command, one the full CLI runs, and a lookup (a cache it may or may not keep).
      for (const args of [['list', '-q', '--limit', '1'], ['whoami'], ['list', '--status', 'Open', '--limit', '1', '-q'], ['config', 'list']]) {
        const ran = await asHomeless(args, { ...service, ...place });
        expect(ran.stderr, `${args.join(' ')} ${JSON.stringify(place)}`).toBe('');
        expect(ran.code).toBe(0);
      }
    }
    // A Tab press: nothing to suggest, and nothing said.
    for (const kind of ['profile', 'alias', 'template']) expect(await asHomeless(['__complete', kind], service)).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('reads no templates where there is no folder to keep them: none to list, a named one unknown (exit 2)', async () => {
    const service = { TKT_URL: sandbox.url, TKT_TOKEN: sandbox.issueToken('tech') };
    expect(await asHomeless(['templates', 'list'], service)).toEqual({
      code: 0,
      stdout: '',
      stderr: 'no templates yet: create one with "tkt templates edit NAME"\n',
    });
    const named = await asHomeless(['reply', '1013', '--template', 'printer-fixed', '--dry-run'], service);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(
      /^error: no template "printer-fixed": templates are kept in the config folder, and this user has none\nhint: [^\n]*TKT_CONFIG_DIR/,
    );
  });

  it('takes an empty or relative HOME as unset: no config folder, never one in the current folder', async () => {
    // os.homedir() answers HOME as it is: "" put .config/tkt, and a live token, in the workspace.
    const workspace = await mkdtemp(join(dir, 'workspace-'));
    await chmod(workspace, 0o777);
    const service = { TKT_URL: sandbox.url, TKT_TOKEN: sandbox.issueToken('tech') };
    for (const home of ['', 'home', '.']) {
      for (const args of [
        ['login', '-u', 'tech'],
        ['config', 'set', 'pager', 'less'],
      ]) {
        const ran = await asHomeless(args, { ...service, HOME: home, TKT_PASSWORD: 'tech' }, '', workspace);
        expect(ran.code, `${args.join(' ')} HOME=${home}`).toBe(1);
        expect(ran.stderr).toMatch(/^error: no config folder: HOME is unset or not absolute, [^\n]*\nhint: [^\n]*TKT_CONFIG_DIR[^\n]*\n$/);
      }
      expect(await asHomeless(['list', '-q', '--limit', '1'], { ...service, HOME: home }, '', workspace)).toMatchObject({ code: 0, stderr: '' });
    }
    expect(await readdir(workspace)).toEqual([]);
  });

  it('logs in and runs with TKT_CONFIG_DIR set', async () => {
    const place = { TKT_CONFIG_DIR: join(dir, 'login'), TKT_URL: sandbox.url };
    const login = await asHomeless(['login', '-u', 'tech'], { ...place, TKT_PASSWORD: 'tech' });
    expect(login.stderr).not.toMatch(/error|homedir/);
    expect(login.code).toBe(0);
    expect(await asHomeless(['list', '-q', '--limit', '1'], place)).toMatchObject({ code: 0, stderr: '' });
  });

  it('says, in one error line and a hint naming TKT_CONFIG_DIR, that what must be kept has no folder', async () => {
    const service = { TKT_URL: sandbox.url, TKT_TOKEN: sandbox.issueToken('tech') };
    for (const args of [
      ['login', '-u', 'tech'],
      ['config', 'set', 'pager', 'less'],
      ['alias', 'set', 'mine', 'list --view my-open-tickets'],
    ]) {
      const ran = await asHomeless(args, { ...service, TKT_PASSWORD: 'tech' });
      expect(ran.code, args.join(' ')).toBe(1);
      expect(ran.stderr, args.join(' ')).toMatch(/^error: no config folder: [^\n]*\nhint: [^\n]*TKT_CONFIG_DIR[^\n]*\n$/);
    }
    // No token anywhere: not logged in, saying that no login can be kept.
    const none = await asHomeless(['list'], { TKT_URL: sandbox.url });
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/^error: not logged in \(profile default\)\nhint: [^\n]*TKT_TOKEN[^\n]*TKT_CONFIG_DIR/);
    expect(none.stderr).not.toContain('homedir');
  });
});
