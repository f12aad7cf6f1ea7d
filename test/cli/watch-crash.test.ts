// One --state file and several real processes, through the built CLI (README, Watching): a watch
// killed outright (SIGKILL, no chance to clean up) between polls, after which the next run with
// the same --state tells exactly what changed after the kill, nothing of what the killed run told
// and nothing less; runs started at once, which take turns so that each event is told once; the
// lock a dead run left. The polls come every 50 ms (the test-only TKT_TEST_WATCH_INTERVAL_MS);
// every step waits on output or on the state file, bounded, never on time.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { WatchEvent } from '../../src/watch/events.js';
import type { Harness } from '../helpers/harness.js';
import { ticketById, unusedTicket, unusedTickets, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { onData, onFolderChange, until } from '../helpers/until.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-crash-', (path) => (dir = path));

function startCli(args: string[]): { child: ChildProcessWithoutNullStreams; stdout: () => string; stderr: () => string } {
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const env = { ...inherited, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: dir, TKT_TEST_WATCH_INTERVAL_MS: '50' };
  const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return { child, stdout: () => stdout, stderr: () => stderr };
}

const jsonLines = (text: string): WatchEvent[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as WatchEvent);

/** The status kept for ticket `id` in the state file, or undefined while there is none. */
function keptStatus(file: string, id: number): string | null | undefined {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as { tickets: { id: number; status: string | null }[] };
    return state.tickets.find((ticket) => ticket.id === id)?.status;
  } catch {
    return undefined; // not written yet
  }
}

const isOpen = (ticket: SandboxTicket) => ticket.ticketStatusId === 1;

describe('tkt watch --state killed between polls', () => {
  it('the next run tells exactly what changed after the kill: nothing lost, nothing repeated', async () => {
    const state = join(dir, 'state.json');
    const [first, second] = [unusedTicket(h, isOpen), unusedTicket(h, isOpen)];
    const watching = startCli(['--json', 'watch', '--view', 'all-tickets', '--interval', '10', '--state', state]);
    const exited = new Promise((resolve) => watching.child.once('close', resolve));
    try {
      // The baseline is kept; then a change through the service's API is told and kept.
      await until('baseline state file', () => keptStatus(state, first.id) === 'Open', onFolderChange(dir));
      expect((await h.cli(['update', String(first.id), '--status', 'on hold'])).code).toBe(0);
      const onStdout = onData(watching.child.stdout);
      await until('event line for the first change', () => watching.stdout().includes('\n'), onStdout);
      await until('state file keeping the first change', () => keptStatus(state, first.id) === 'On Hold', onFolderChange(dir));
      expect(jsonLines(watching.stdout()).map((event) => [event.event, event.id, event.changes.status])).toEqual([['changed', first.id, ['Open', 'On Hold']]]);
    } finally {
      // A poll takes milliseconds and the state is kept: the watch waits for the next poll.
      watching.child.kill('SIGKILL');
      await exited;
    }
    expect(watching.child.signalCode).toBe('SIGKILL');

    expect((await h.cli(['update', String(second.id), '--status', 'on hold'])).code).toBe(0);
    const next = startCli(['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state]);
    const code = await new Promise((resolve) => next.child.once('close', resolve));
    expect(next.stderr()).toBe('');
    expect(code).toBe(0);
    expect(jsonLines(next.stdout()).map((event) => [event.event, event.id, event.changes.status])).toEqual([['changed', second.id, ['Open', 'On Hold']]]);
  }, 60_000);
});

/** The events of a run, as [event, id, changes]. */
const told = (stdout: string) => jsonLines(stdout).map((event) => [event.event, event.id, event.changes]);

async function ended(run: ReturnType<typeof startCli>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [code] = (await once(run.child, 'close')) as [number | null];
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

describe('tkt watch --once runs on one --state file at once', () => {
  it('take turns: every run exits 0, and each event is told by exactly one of them', async () => {
    const folder = join(dir, 'together');
    mkdirSync(folder);
    const state = join(folder, 'state.json');
    const args = ['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state];
    expect((await ended(startCli(args))).code).toBe(0);
    const changed = unusedTickets(h, 3).map((ticket) => {
      const before = ticket.title;
      ticketById(h, ticket.id).title = `Changed while ten runs start`;
      return ['changed', ticket.id, { title: [before, 'Changed while ten runs start'] }];
    });

    const runs = await Promise.all(Array.from({ length: 10 }, () => ended(startCli(args))));

    expect(runs.map((run) => [run.code, run.stderr])).toEqual(runs.map(() => [0, '']));
    const byId = (a: unknown[], b: unknown[]) => Number(a[1]) - Number(b[1]);
    expect(runs.flatMap((run) => told(run.stdout)).sort(byId)).toEqual(changed.sort(byId));
    // No lock and no temporary file is left.
    expect(readdirSync(folder)).toEqual(['state.json']);
  }, 60_000);

  it('takes over the lock that a run which died left, and removes it', async () => {
    const folder = join(dir, 'dead-holder');
    mkdirSync(folder);
    const state = join(folder, 'state.json');
    const args = ['--json', 'watch', '--once', '--view', 'all-tickets', '--state', state];
    expect((await ended(startCli(args))).code).toBe(0);
    const gone = spawn(process.execPath, ['-e', '']);
    await once(gone, 'close');
    writeFileSync(`${state}.lock`, String(gone.pid));
    const ticket = unusedTicket(h);
    const before = ticket.title;
    ticketById(h, ticket.id).title = 'Changed after a run died';

    const run = await ended(startCli(args));

    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(told(run.stdout)).toEqual([['changed', ticket.id, { title: [before, 'Changed after a run died'] }]]);
    expect(readdirSync(folder)).toEqual(['state.json']);
  }, 60_000);
});
