// A long-running command (tkt mcp, triage, watch, sandbox) keeps working when a newer tkt is
// installed under it: npm replaces dist/, whose chunks have other names (a hash of their content),
// so what the old process had not imported yet is gone. Such a command loads at its start every
// file it may import later (Context.loadAhead, dist/load-ahead.json; docs/architecture.md,
// "Long-running commands"). Here the install is a copy of the built package, and the newer build
// the same dist/ with every chunk renamed, swapped in after the command started.
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { ensureBuilt, ROOT, useTerminal } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';
import { onData, onFolderChange, until } from '../helpers/until.js';
import { childEnv, connectMcp, textOf } from '../mcp/mcp-process.js';

/** A copy of the package as npm installs it: bin/, dist/, package.json. */
async function install(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const part of ['bin', 'dist', 'package.json']) await cp(join(ROOT, part), join(dir, part), { recursive: true });
}

/** Makes `dir`/next-dist: dist/ as a build with other chunk names would be, every reference to them renamed too. */
async function newerDist(dir: string): Promise<string> {
  const next = join(dir, 'next-dist');
  await cp(join(ROOT, 'dist'), next, { recursive: true });
  const chunks = (await readdir(join(next, 'chunks'))).filter((name) => name.endsWith('.js'));
  const renamed = (name: string) => name.replace(/\.js$/, '-NEXT.js');
  const names = new RegExp(chunks.map((name) => name.replace(/[.$-]/g, '\\$&')).join('|'), 'g');
  const rewrite = async (file: string) => writeFile(file, (await readFile(file, 'utf8')).replace(names, renamed));
  // main.js and the lists beside it (dist/load-ahead.json).
  const besides = (await readdir(next)).filter((name) => /\.(js|json)$/.test(name));
  await Promise.all(besides.map((name) => rewrite(join(next, name))));
  for (const name of chunks) {
    await rewrite(join(next, 'chunks', name));
    await rename(join(next, 'chunks', name), join(next, 'chunks', renamed(name)));
  }
  return next;
}

/** What `npm i -g` does to a running install: its dist/ replaced by the newer one. */
async function upgrade(installed: string, next: string): Promise<void> {
  await rm(join(installed, 'dist'), { recursive: true });
  await rename(next, join(installed, 'dist'));
}

describe('a long-running command with a newer tkt installed under it', () => {
  let h: Harness;
  let temp: string;
  useHarness({}, (harness) => (h = harness));
  useTempDir('tkt-upgrade-', (dir) => (temp = dir));
  beforeAll(ensureBuilt, 120_000);
  let installed: string;
  let next: string;
  beforeEach(async () => {
    installed = join(temp, 'install');
    await install(installed);
    next = await newerDist(temp);
  });

  it('tkt mcp --write serves every tool after the upgrade as before it', async () => {
    const mcp = await connectMcp(['--write'], { TKT_CONFIG_DIR: h.configDir }, join(installed, 'bin/tkt.js'));
    try {
      await upgrade(installed, next);
      // Neither resolved nor closed: resolve_ticket refuses a closed ticket.
      const settled = new Set(h.sandbox.state.lookups.status.filter((s) => /resolved|closed/i.test(s.status)).map((s) => s.id));
      const ticket = unusedTicket(h, (t) => !settled.has(t.ticketStatusId));
      const calls: Array<[string, Record<string, unknown>]> = [
        ['list_tickets', { assignee: '@me', limit: 2 }],
        ['list_tickets', { status: 'Open', priority: 'High', limit: 2 }],
        ['get_ticket', { id: ticket.id, comments: 1 }],
        ['my_queue', {}],
        ['lookups', { kind: 'status' }],
        ['update_ticket', { id: ticket.id, priority: 'Low', dry_run: true }],
        ['reply_to_ticket', { id: ticket.id, message: 'On it.', dry_run: true }],
        ['resolve_ticket', { id: ticket.id, details: 'Fixed.', dry_run: true }],
        ['pickup_ticket', { id: ticket.id }],
      ];
      for (const [name, args] of calls) {
        const result = await mcp.call(name, args);
        expect(`${name}: ${textOf(result)}`).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
        expect(result.isError, `${name}: ${textOf(result)}`).not.toBe(true);
      }
      expect(mcp.stderr()).toBe('');
    } finally {
      await mcp.close();
    }
  });

  // Behind a proxy the client goes through undici, which a run without one never loads
  // (dist/load-ahead.json lists it apart): loaded ahead where the environment names a proxy.
  it('tkt mcp behind a proxy answers through it after the upgrade', async () => {
    const proxy = await startForwardProxy();
    const mcp = await connectMcp(
      [],
      { TKT_CONFIG_DIR: h.configDir, HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: '', no_proxy: '' },
      join(installed, 'bin/tkt.js'),
    );
    try {
      await upgrade(installed, next);

      const result = await mcp.call('get_ticket', { id: 1013 });

      expect(textOf(result)).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/);
      expect(result.isError, textOf(result)).not.toBe(true);
      expect(proxy.seen).toEqual([expect.stringMatching(/^CONNECT 127\.0\.0\.1:\d+$/)]);
      expect(mcp.stderr()).toBe('');
    } finally {
      await mcp.close();
      await proxy.close();
    }
  });

  it('tkt watch through the full CLI (a global option first) tells a change after the upgrade', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === 1);
    const state = join(temp, 'watch-state.json');
    const env = childEnv({ TKT_CONFIG_DIR: h.configDir, TKT_TEST_WATCH_INTERVAL_MS: '50' });
    const child = spawn(process.execPath, [join(installed, 'bin/tkt.js'), '--profile', 'default', 'watch', String(ticket.id), '--state', state], { env });
    child.stdin.end();
    let stdout = '';
    let stderr = '';
    const output = new EventEmitter();
    child.stdout.setEncoding('utf8').on('data', (text: string) => output.emit('data', (stdout += text)));
    child.stderr.setEncoding('utf8').on('data', (text: string) => output.emit('data', (stderr += text)));
    const exited = new Promise((resolve) => child.once('close', resolve));
    try {
      // The first poll is done once its baseline is kept.
      await until('baseline state file', () => existsSync(state), onFolderChange(temp));
      await upgrade(installed, next);
      expect((await h.cli(['update', String(ticket.id), '--status', 'on hold'])).code).toBe(0);
      await until('an event line or an error', () => stdout.includes('On Hold') || stderr !== '', onData(output));
      expect(stderr).toBe('');
      expect(stdout).toContain('On Hold');
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});

describe.skipIf(skipWithout(['tmux'], 'test/startup/upgrade-under-run.test.ts'))('tkt triage with a newer tkt installed under it', () => {
  let dir: string;
  let next: string;
  const terminal = useTerminal('upgrade', 'tech', async (fixture) => {
    dir = fixture.dir;
    await install(join(dir, 'install'));
    next = await newerDist(dir);
    const editor = join(dir, 'editor.sh');
    await writeFile(editor, `#!/bin/sh\nprintf "Written by the scripted editor\\n" > "$1"\n`);
    await chmod(editor, 0o755);
    const bin = join(dir, 'install/bin/tkt.js');
    const command = `env -u CI -u VISUAL NO_COLOR=1 EDITOR='${editor}' TKT_CONFIG_DIR='${dir}' node '${bin}' triage; echo "[exit $?]"; sleep 60`;
    await terminal.start('triage', { width: 120, height: 36 }, command);
  });
  const waitFor = (test: RegExp) => terminal.waitFor('triage', test);

  it('replies, resolves and shows its help after the upgrade, as before it', async () => {
    await waitFor(/Title: +\S/);
    await upgrade(join(dir, 'install'), next);
    const failed = /Cannot find module|✗|\[exit/;
    await terminal.keys('triage', 'r');
    expect(await waitFor(/✓ replied to #|Cannot find module|✗|\[exit/)).not.toMatch(failed);
    await terminal.keys('triage', 's');
    expect(await waitFor(/Resolution notes for #|Cannot find module|✗|\[exit/)).not.toMatch(failed);
    await terminal.type('triage', 'Toner replaced');
    await terminal.keys('triage', 'Enter');
    expect(await waitFor(/✓ resolved #|Cannot find module|✗|\[exit/)).not.toMatch(failed);
    await terminal.keys('triage', '?');
    expect(await waitFor(/Keys|Cannot find module|\[exit/)).not.toMatch(failed);
  });
});
