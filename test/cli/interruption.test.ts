// Interruption through the built CLI with real signals (docs/cli.md section 8): whatever moment
// SIGINT (twice) or SIGTERM arrives, every ticket the service holds is in the report, a resume
// creates none twice, and a bulk close reports every ID exactly once.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReport, type ReportEntry } from '../../src/bulk/report-file.js';
import { useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { sendJson, startServer } from '../api/server.js';
import type { Harness } from '../helpers/harness.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const ROWS = 2000;
// The issue's 20 rounds in CI; fewer in a developer's `npm test`.
const ROUNDS = process.env.CI ? 20 : 5;

interface Child {
  /** The exit code; a signal that lands while Node is already exiting shows as its 128+N. */
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the built tkt, sending `signals` at the given delays: the first counted from its first
 * output (the run under way, not Node still starting), each next one after the one before.
 */
function runKilled(args: string[], env: Record<string, string>, signals: [NodeJS.Signals, number][], stdin = ''): Promise<Child> {
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  void (async () => {
    if (signals.length > 0) await new Promise((resolve) => child.stdout.once('data', resolve));
    for (const [signal, wait] of signals) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      child.kill(signal);
    }
  })();
  const SIGNAL_NUMBERS: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 2, SIGTERM: 15 };
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code ?? 128 + (SIGNAL_NUMBERS[signal!] ?? 0), stdout, stderr })));
}

const between = (low: number, high: number) => low + Math.floor(Math.random() * (high - low));

function cliEnv(h: Harness, dir: string): Record<string, string> {
  return { TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: dir };
}

describe('create --from interrupted at random moments', () => {
  let h: Harness;
  let dir = '';
  useHarness({}, (harness) => (h = harness));
  useTempDir('tkt-interrupt-', (path) => (dir = path));

  const titled = (prefix: string) => h.sandbox.state.tickets.filter((ticket) => ticket.title.startsWith(prefix));

  async function roundTrip(name: string, signals: () => [NodeJS.Signals, number][], exitCode: number): Promise<void> {
    const file = join(dir, `${name}.jsonl`);
    writeFileSync(
      file,
      Array.from({ length: ROWS }, (_, i) => JSON.stringify({ title: `${name}-${i + 1}.`, description: 'd', requester: 'aberg' })).join('\n'),
    );
    const env = cliEnv(h, dir);
    const killed = await runKilled(['create', '--from', file, '--integration', '--concurrency', '8', '-q'], env, signals());
    expect(killed.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
    // A run that finished before the signal is fine too; otherwise it says it was stopped.
    expect([0, exitCode]).toContain(killed.code);

    const report = await readReport(`${file}.report.jsonl`);
    const rowOf = (title: string) => Number(title.slice(name.length + 1, -1));
    const created = new Set(report.filter((line): line is ReportEntry => 'ok' in line && line.ok).map((line) => line.row));
    const sent = new Set(report.map((line) => line.row));
    for (const ticket of titled(`${name}-`)) {
      // Every ticket the service holds was recorded: created, or at least sent (in doubt).
      expect(sent.has(rowOf(ticket.title)), `row ${rowOf(ticket.title)} missing from the report`).toBe(true);
    }
    const createdIds = report.filter((line): line is ReportEntry => 'ok' in line && line.ok).map((line) => line.id);
    expect(new Set(createdIds).size).toBe(createdIds.length);
    for (const row of created) expect(titled(`${name}-${row}.`)).toHaveLength(1);

    // What a resume would send (its dry run: the same choice of rows, nothing created): no row
    // the service holds, and no row in doubt; the rows it leaves out are marked skipped.
    const plan = await runKilled(['create', '--from', file, '--integration', '--resume', `${file}.report.jsonl`, '--dry-run', '--json'], env, []);
    const elements = JSON.parse(plan.stdout) as { row: number; skippedRow?: boolean }[];
    const planned = new Set(elements.filter((item) => item.skippedRow !== true).map((item) => item.row));
    for (const ticket of titled(`${name}-`)) expect(planned.has(rowOf(ticket.title)), `row ${rowOf(ticket.title)} would be created twice`).toBe(false);
    // Held back: rows created, and rows whose last word is "sending" or "in doubt". Rows that
    // failed before leaving (refused once the second signal came) are sent again.
    const last = new Map(report.map((line) => [line.row, line]));
    const inDoubt = [...last.values()].filter((line) => 'sending' in line || line.inDoubt === true).map((line) => line.row);
    const held = new Set([...created, ...inDoubt]);
    for (const row of held) expect(planned.has(row)).toBe(false);
    expect(planned.size).toBe(ROWS - held.size);
    expect(elements).toHaveLength(ROWS);
    // As the resume itself would end: exit 1 while rows are in doubt.
    expect(plan.code).toBe(inDoubt.length > 0 ? 1 : 0);
  }

  it(`SIGINT twice, ${ROUNDS} times: nothing created is missing from the report, nothing created twice`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await roundTrip(
        `int${round}`,
        () => [
          ['SIGINT', between(0, 500)],
          // Past the 50 ms in which a repeat is the same signal sent twice (src/cli-run.ts).
          ['SIGINT', between(60, 100)],
        ],
        130,
      );
    }
  }, 240_000);

  it(`SIGTERM, ${ROUNDS} times: the same, exit 143`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      await roundTrip(`term${round}`, () => [['SIGTERM', between(0, 500)]], 143);
    }
  }, 240_000);
});

describe('a bulk close interrupted', () => {
  let h: Harness;
  let dir = '';
  useHarness({ sandbox: { seedTickets: 600 } }, (harness) => (h = harness));
  useTempDir('tkt-interrupt-', (path) => (dir = path));

  it('reports every ID exactly once, SIGTERM or SIGINT twice', async () => {
    const open = h.sandbox.state.tickets.filter((ticket) => ticket.id > 1000).map((ticket) => ticket.id);
    const batches = [open.slice(0, 300), open.slice(300, 600)];
    for (const [index, signals] of [
      [['SIGTERM', between(0, 200)]],
      [
        ['SIGINT', between(0, 200)],
        ['SIGINT', between(60, 90)],
      ],
    ].entries()) {
      const ids = batches[index]!;
      const run = await runKilled(['close', '-', '--json'], cliEnv(h, dir), signals as [NodeJS.Signals, number][], ids.join('\n'));
      expect([0, index === 0 ? 143 : 130]).toContain(run.code);
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number; ok: boolean; status?: number; inDoubt?: boolean; notStarted?: boolean });
      expect(lines.map((line) => line.id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
      // A failure without an answer is data a script can tell apart: given up (in doubt) or never sent.
      for (const line of lines.filter((each) => !each.ok && each.status === undefined)) {
        expect(line.inDoubt === true || line.notStarted === true, JSON.stringify(line)).toBe(true);
      }
    }
  }, 60_000);
});

describe('a signal while tkt waits on a stdin that stays open', () => {
  let h: Harness;
  let dir = '';
  useHarness({}, (harness) => (h = harness));
  useTempDir('tkt-interrupt-', (path) => (dir = path));

  // The IDs read before the signal are reported as not started (README: Scripting).
  const closeStopped =
    'error: interrupted: 0 of 1 done, 1 not started\n  not started: #1001\nhint: to finish, run again for the IDs not started, listed above\n';
  it.each([
    ['SIGINT', 130, ['create', '--integration', '--title', 'never sent', '--requester', 'aberg', '--description', '-'], 'error: interrupted\n'],
    ['SIGTERM', 143, ['create', '--integration', '--title', 'never sent', '--requester', 'aberg', '--description', '-'], 'error: stopped by SIGTERM\n'],
    ['SIGINT', 130, ['close', '-'], closeStopped],
  ] as const)('%s ends it at once (exit %i), nothing sent', async (signal, code, args, said) => {
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...cliEnv(h, dir) }, stdio: ['pipe', 'pipe', 'pipe'] });
    // A first line (an ID, or the description's first line), then nothing for a long time.
    child.stdin.write('1001\n');
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    // Started and waiting (a second is plenty for Node to start; stdin is never closed).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = h.sandbox.stats.requests;
    child.kill(signal);
    expect(await exited).toBe(code);
    // Its own line, with no blank line before it: a piped stderr has no "^C" to move away from.
    expect(stderr).toBe(said);
    expect(h.sandbox.stats.requests).toBe(before);
    expect(h.sandbox.state.tickets.filter((ticket) => ticket.title === 'never sent')).toEqual([]);
    child.stdin.destroy();
  });
});

// A newcomer's review: after Ctrl-C in `tkt list -q --all | tkt read -`, tkt said `not started:
// #1033-5537` and "run again for the IDs not started, listed above"; `tkt read 1033-5537` was
// refused as no ticket ID. The list goes back in as it is printed.
describe('the IDs an interrupted run lists as not started', () => {
  let h: Harness;
  let dir = '';
  useHarness({}, (harness) => (h = harness));
  useTempDir('tkt-interrupt-', (path) => (dir = path));

  it('are taken back as printed: one quoted argument, its words, or stdin', async () => {
    const live = new Set(h.sandbox.state.tickets.filter((ticket) => !ticket.isDeleted).map((ticket) => ticket.id));
    const first = [...live].find((id) => live.has(id + 1) && live.has(id + 2) && live.has(id + 4))!;
    const ids = [first, first + 1, first + 2, first + 4];
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const child = spawn(process.execPath, [bin, 'read', '-'], { env: { ...inherited, ...cliEnv(h, dir) }, stdio: ['pipe', 'pipe', 'pipe'] });
    // The IDs, then a stdin that stays open: stopped while it is read, none is started.
    child.stdin.write(ids.map((id) => `${id}\n`).join(''));
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    child.stdin.destroy();
    const list = `#${first}-${first + 2}, #${first + 4}`;
    expect(stderr).toBe(
      `error: interrupted: 0 of 4 done, 4 not started\n  not started: ${list}\nhint: to finish, run again for the IDs not started, listed above\n`,
    );

    const notStarted = /^ {2}not started: (.*)$/m.exec(stderr)![1]!;
    const readIds = async (args: string[], stdin?: string) => {
      const run = await h.cli(['read', ...args, '--json'], stdin === undefined ? {} : { stdin });
      expect(run.code, run.stderr).toBe(0);
      return run.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: number }).id);
    };
    // Copied as one quoted argument, word by word as the shell splits it, or piped.
    expect(await readIds([notStarted])).toEqual(ids);
    expect(await readIds(notStarted.split(' '))).toEqual(ids);
    expect(await readIds(['-'], `${notStarted}\n`)).toEqual(ids);
  });
});

/** Each stop signal, the exit code it ends a run with and the run's last line on stderr. */
const STOPS = [
  ['SIGINT', 130, 'error: interrupted\n'],
  ['SIGTERM', 143, 'error: stopped by SIGTERM\n'],
] as const;

describe('tkt list --all --json interrupted', () => {
  let dir = '';
  useTempDir('tkt-interrupt-', (path) => (dir = path));
  // Page 1 answered; every later page left unanswered, so the run is surely under way when stopped.
  const firstPage = Array.from({ length: 5 }, (_, i) => ({ ticketId: 1001 + i, subject: `ticket ${i + 1}` }));
  let url = '';
  let close = async () => {};
  beforeAll(async () => {
    const server = await startServer((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        if ((JSON.parse(body) as { page?: number }).page === 1) sendJson(res, 200, firstPage);
      });
    });
    url = server.url;
    close = server.close;
  });
  afterAll(() => close());

  it.each(STOPS)('by %s: exit %i, the items printed kept in a closed array, the page awaited given up', async (signal, code, line) => {
    const run = await runKilled(['list', '--all', '--page', '1', '--limit', '5', '--json'], { TKT_URL: url, TKT_TOKEN: 'token', TKT_CONFIG_DIR: dir }, [
      [signal, 0],
    ]);
    expect(JSON.parse(run.stdout)).toEqual(firstPage);
    expect(run.code).toBe(code);
    expect(run.stderr).toBe(line);
  });
});

describe('tkt show waiting on a service that never answers, stopped', () => {
  let dir = '';
  useTempDir('tkt-interrupt-', (path) => (dir = path));
  let url = '';
  let close = async () => {};
  let requested = (): void => undefined;
  beforeAll(async () => {
    // Takes the request and never answers.
    const server = await startServer(() => requested());
    url = server.url;
    close = server.close;
  });
  afterAll(() => close());

  it.each(STOPS)('by %s: exit %i, its error line alone on a piped stderr (no blank line: there is no "^C" to leave)', async (signal, code, line) => {
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const child = spawn(process.execPath, [bin, 'show', '1'], {
      env: { ...inherited, TKT_URL: url, TKT_TOKEN: 'token', TKT_CONFIG_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    // Sent and waiting: the server has the request.
    await new Promise<void>((resolve) => (requested = resolve));
    child.kill(signal);
    expect(await exited).toBe(code);
    expect(stderr).toBe(line);
  });
});

// A closed terminal or a dropped SSH session sends SIGHUP: the run ends as SIGTERM ends it, its
// temporary files removed (Node's default would end it at once, leaving them), exit 129.
describe('SIGHUP', () => {
  let h: Harness;
  let dir = '';
  useHarness({}, (harness) => (h = harness));
  useTempDir('tkt-hangup-', (path) => (dir = path));

  // SIGTERM too: the upload given up at the signal closed no pipe, and a quiet writer kept tkt alive.
  it.each([
    ['SIGHUP', 129],
    ['SIGTERM', 143],
  ] as const)('%s ends a run whose piped attachment is being sent: its line, exit %i, no private copy left', async (signal, code) => {
    const tmp = join(dir, `tmp-${signal}`);
    mkdirSync(tmp);
    const fifo = join(dir, `build-log-${signal}`);
    execFileSync('mkfifo', [fifo]);
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const args = [
      'create',
      '--integration',
      '--requester',
      'ci-bot',
      '--title',
      'hung up',
      '--description',
      'd',
      '--dedup-key',
      `k:${signal}`,
      '--attach',
      `${fifo}#build.log`,
    ];
    const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...cliEnv(h, dir), TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const exited = new Promise<number | null>((resolve) => child.on('close', (exitCode) => resolve(exitCode)));
    // A log that keeps coming: a line, then the writer stays open.
    const writer = spawn('sh', ['-c', 'exec 3>"$0"; echo line >&3; exec cat >&3', fifo], { stdio: ['pipe', 'ignore', 'inherit'] });
    try {
      await expect
        .poll(() => readdirSync(tmp).filter((name) => name.startsWith('tkt-upload-')), { timeout: 15_000, message: 'the copy being written' })
        .toHaveLength(1)
        .catch((error: unknown) => {
          throw new Error(`${String(error)}: ${stderr}`);
        });
      child.kill(signal);
      expect(await exited, stderr).toBe(code);
      expect(stderr).toMatch(
        new RegExp(`^error: stopped by ${signal} while sending POST \\S+/api/TicketsApi/new: not done, the service never received the whole request\\n$`),
      );
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      writer.kill();
    }
  });
});
