// tkt watch --exec stopped by real signals through the built CLI (README, Watching; docs/cli.md
// sections 8 and 13): a command that hangs is warned about after --timeout, the first signal is
// said at once, the second ends the command with every process it started, and the run exits
// 143 with its event printed, its --state saved as told and its lock released. Every step waits on output or on files, never on time.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { ticketById, unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { onData, onFolderChange, until } from '../helpers/until.js';
import { processEnds } from '../helpers/process-runs.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-exec-signal-', (path) => (dir = path));

describe('tkt watch --exec and signals, in real processes', () => {
  it('warns of a command that hangs, says the first signal at once, and the second ends the command, its children and the run', async () => {
    const folder = join(dir, 'hang');
    mkdirSync(folder);
    const state = join(folder, 'state.json');
    const pidFile = join(folder, 'hook.pid');
    // A hook whose shell waits on a child of its own (a hung webhook call).
    const hook = `cat > /dev/null; sleep 300 & echo $! > ${pidFile}; wait`;
    const ticket = unusedTicket(h);
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const env = { ...inherited, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: dir, TKT_TEST_WATCH_INTERVAL_MS: '50' };
    const args = ['--json', '--timeout', '1', 'watch', String(ticket.id), '--state', state, '--exec', hook];
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdin.end();
    let [stdout, stderr] = ['', ''];
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const closed = once(child, 'close') as Promise<[number | null]>;
    try {
      await until('the baseline state file', () => existsSync(state), onFolderChange(folder));
      ticketById(h, ticket.id).title = 'A hook that hangs';
      const pid = () => /^(\d+)\n$/.exec(existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '')?.[1];
      await until('the --exec command', () => pid() !== undefined, onFolderChange(folder));
      await until('the warning of a command still running', () => stderr.includes('still running'), onData(child.stderr));
      expect(stderr).toBe(`warning: --exec for changed #${ticket.id} still running after 1s; the watch waits for it\n`);
      child.kill('SIGTERM');
      await until('the line of the first signal', () => stderr.includes('stopping after'), onData(child.stderr));
      expect(stderr).toMatch(/stopped by SIGTERM: stopping after the --exec command for changed #\d+; another SIGTERM gives up\n$/);
      // Another signal than the first: a SIGTERM repeated within 50 ms is the same one (README, Interruption).
      child.kill('SIGINT');
      const [code] = await closed;
      expect(code).toBe(143);
      expect(stderr).toMatch(
        /\nwarning: --exec stopped \(killed by SIGTERM\) for changed #\d+\nwarning: --exec not run for 1 event \(stopped\): changed #\d+\nerror: stopped by SIGTERM\n$/,
      );
      expect(await processEnds(Number(pid()))).toBe(true);
      // The event was printed, so the state saves it as told (nothing twice), and the lock is released.
      expect(stdout).toContain('"title":"A hook that hangs"');
      expect(readdirSync(folder).sort()).toEqual(['hook.pid', 'state.json']);
      const kept = JSON.parse(readFileSync(state, 'utf8')) as { tickets: { id: number; title: string }[] };
      expect(kept.tickets.find((t) => t.id === ticket.id)?.title).toBe('A hook that hangs');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('a third signal within the kill window ends the run at once, and the command that ignores SIGTERM with it', async () => {
    const folder = join(dir, 'third');
    mkdirSync(folder);
    const pidFile = join(folder, 'hook.pid');
    // A child that ignores SIGTERM (only the SIGKILL ends it), and a shell that says when its group got it.
    const hook = `cat > /dev/null; (trap '' TERM; exec sleep 300) & echo $! > ${pidFile}; trap 'echo hook got SIGTERM >&2' TERM; wait`;
    const ticket = unusedTicket(h);
    const state = join(folder, 'state.json');
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const env = { ...inherited, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: dir, TKT_TEST_WATCH_INTERVAL_MS: '50' };
    const child = spawn(process.execPath, [bin, '--json', 'watch', String(ticket.id), '--state', state, '--exec', hook], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const closed = once(child, 'close') as Promise<[number | null]>;
    const pid = () => /^(\d+)\n$/.exec(existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '')?.[1];
    try {
      await until('the baseline state file', () => existsSync(state), onFolderChange(folder));
      ticketById(h, ticket.id).title = 'A hook that ignores SIGTERM';
      await until('the --exec command', () => pid() !== undefined, onFolderChange(folder));
      child.kill('SIGTERM');
      await until('the line of the first signal', () => stderr.includes('stopping after'), onData(child.stderr));
      // The second sends SIGTERM to the command's group; the third comes before the SIGKILL that follows.
      child.kill('SIGINT');
      await until("the group's SIGTERM", () => stderr.includes('hook got SIGTERM'), onData(child.stderr));
      child.kill('SIGTERM');
      const [code] = await closed;
      expect(code).toBe(143);
      expect(await processEnds(Number(pid()))).toBe(true);
    } finally {
      child.kill('SIGKILL');
      if (pid() !== undefined) {
        try {
          process.kill(Number(pid()), 'SIGKILL');
        } catch {
          // Ended already.
        }
      }
    }
  }, 60_000);
});
