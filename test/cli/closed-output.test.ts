// A closed stdout (`tkt list --all | head -1`) ends tkt quietly: exit 0, nothing on stderr, no
// further requests (docs/cli.md section 8). Through the built CLI, with the reader gone after the
// first chunk as `head` leaves.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readReport, type ReportEntry } from '../../src/bulk/report-file.js';
import { routeCount, unusedTickets, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import type { Harness } from '../helpers/harness.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

function readFirstChunk(args: string[], env: Record<string, string>, input?: string): Promise<{ code: number | null; stderr: string; got: string }> {
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(input ?? '');
  let stderr = '';
  let got = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout.once('data', (chunk: Buffer) => {
    got = chunk.toString('utf8');
    child.stdout.destroy();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr, got })));
}

/** Runs tkt with its stdout a pipe whose reader is gone before tkt writes anything. */
function runIntoClosedPipe(args: string[], env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const child = spawn(process.execPath, [bin, ...args], { env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

describe('a closed stdout', () => {
  let h: Harness;
  useHarness({ sandbox: { seedTickets: 6000 } }, (harness) => (h = harness));
  const env = () => ({ TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: h.configDir, NO_COLOR: '1' });

  it.each([
    ['list --all --json', ['list', '--all', '--json']],
    ['list --all', ['list', '--all']],
    ['show', ['show', '1001']],
    ['--help', ['--help']],
    ['list --help', ['list', '--help']],
    ['completion bash', ['completion', 'bash']],
  ])('%s | head -1: exit 0, nothing on stderr', async (_name, args) => {
    const run = await readFirstChunk(args, env());
    expect(run.got).not.toBe('');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it.each([
    ['--help', ['--help']],
    ['__complete status', ['__complete', 'status']],
  ])('%s into a pipe closed before it writes: exit 0, nothing on stderr', async (_name, args) => {
    // The bin's own answers write to file descriptor 1 directly (src/util/stdout-sync.ts): the
    // write itself meets EPIPE, with no stream to report it.
    const run = await runIntoClosedPipe(args, env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  it('tkt api into a pipe closed before it writes: an error answer keeps its error line and exit code (it came before the close)', async () => {
    const run = await runIntoClosedPipe(['api', 'GET', '/api/TicketsApi/987654321'], env());
    expect(run.stderr).toMatch(/^error: not found \(HTTP 404\): GET \S+\n  Ticket 987654321 was not found\.\n$/);
    expect(run.code).toBe(3);
  });

  it('closes no more tickets once the reader is gone (`tkt close - | head -1`), though lines go out in batches', async () => {
    // Open (status 1) and not locked: each close succeeds.
    const ids = unusedTickets(h, 30, (ticket) => ticket.ticketStatusId === 1 && !ticket.locked).map((ticket) => ticket.id);
    const before = routeCount(h, 'POST /api/TicketsApi/close/{id}');

    const run = await readFirstChunk(['close', '-', '--concurrency', '1'], env(), `${ids.join('\n')}\n`);

    expect(run.got).toMatch(/^✓ #\d+ closed\n/);
    expect(run.code).toBe(0);
    // The first line goes out at once: the reader's going is seen a request or two later, not
    // after a batch's 50 ms (in which every one of the 30 was closed).
    expect(routeCount(h, 'POST /api/TicketsApi/close/{id}') - before).toBeLessThan(10);
  });

  it('sends no more page requests once the reader is gone', async () => {
    const before = routeCount(h, 'POST /api/TicketsApi');
    const pages = Math.ceil(h.sandbox.state.tickets.length / 100);
    await readFirstChunk(['list', '--all', '--json'], env());
    expect(routeCount(h, 'POST /api/TicketsApi') - before).toBeLessThan(pages / 2);
  });
});

describe('create --from into a closed stdout', () => {
  let h: Harness;
  let dir = '';
  useHarness({}, (harness) => (h = harness));
  useTempDir('tkt-closed-', (path) => (dir = path));
  const env = () => ({ TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: h.configDir, NO_COLOR: '1' });
  const ROWS = 40;
  const CONCURRENCY = 4;

  /** A CSV of ROWS rows titled `<prefix><row>.`: its path. */
  function writeRows(prefix: string): string {
    const file = join(dir, `${prefix.trim()}.csv`);
    const rows = Array.from({ length: ROWS }, (_, i) => `${prefix}${i + 1}.,desc,aberg,Head Office,IT,Open`);
    writeFileSync(file, ['title,description,requester,site,department,status', ...rows, ''].join('\n'));
    return file;
  }

  const titled = (prefix: string) => h.sandbox.state.tickets.filter((ticket) => ticket.title.startsWith(prefix));

  /**
   * What the report says: the rows sent, and the ID each created. Every ticket the service
   * created is in it with its ID, and every row sent has its outcome, so that a resume holds
   * none of them in doubt.
   */
  async function checkReport(file: string, prefix: string): Promise<Set<number>> {
    const report = await readReport(`${file}.report.jsonl`);
    const sent = new Set(report.filter((line) => 'sending' in line).map((line) => line.row));
    const outcomes = report.filter((line): line is ReportEntry => 'ok' in line);
    expect(outcomes.every((line) => line.ok)).toBe(true);
    expect(outcomes.map((line) => line.row).sort((a, b) => a - b)).toEqual([...sent].sort((a, b) => a - b));
    expect(outcomes.map((line) => line.id).sort()).toEqual(
      titled(prefix)
        .map((ticket) => ticket.id)
        .sort(),
    );
    return sent;
  }

  /** Each way create --from prints its rows: its name in the test's title, and its flags. */
  const OUTPUT_MODES: [string, string[]][] = [
    ['-q', ['-q']],
    ['text', []],
    ['--json', ['--json']],
  ];

  /** `--resume` creates exactly the rows never sent, holds none in doubt, and ends with each row's ticket once. */
  async function checkResume(file: string, prefix: string, sent: ReadonlySet<number>): Promise<void> {
    const resumed = await h.cli(['create', '--from', file, '--resume', `${file}.report.jsonl`, '-q']);
    expect(resumed.stderr).not.toMatch(/in doubt/);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout.split('\n').filter(Boolean)).toHaveLength(ROWS - sent.size);
    const titles = titled(prefix).map((ticket) => ticket.title);
    expect(titles.sort()).toEqual(Array.from({ length: ROWS }, (_, i) => `${prefix}${i + 1}.`).sort());
  }

  it.each(OUTPUT_MODES)(
    '%s | head -1: exit 0, nothing on stderr, every ticket created in the report with its ID; --resume creates the rest',
    async (name, flags) => {
      const prefix = `head ${name} `;
      const file = writeRows(prefix);
      const run = await readFirstChunk(['create', '--from', file, ...flags], env());
      expect(run.got).not.toBe('');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      await checkResume(file, prefix, await checkReport(file, prefix));
    },
  );

  it.each(OUTPUT_MODES)('%s into a pipe closed before it writes: only the rows already in flight are sent, each recorded', async (name, flags) => {
    const prefix = `closed ${name} `;
    const file = writeRows(prefix);
    const run = await runIntoClosedPipe(['create', '--from', file, ...flags, '--concurrency', String(CONCURRENCY)], env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const sent = await checkReport(file, prefix);
    // The first answer's line finds the reader gone: no row starts after it.
    expect(sent.size).toBeGreaterThan(0);
    expect(sent.size).toBeLessThanOrEqual(CONCURRENCY);
    await checkResume(file, prefix, sent);
  });
});

describe('signal handlers in the bundle', () => {
  // signal-exit (through @inquirer/core) lists every catchable signal and re-raises them; tkt
  // handles SIGINT and SIGTERM in src/cli-run.ts only. Every output: the full CLI's, and the
  // commands' bundles with their vendor files (inquirer's are in dist/vendor/).
  it('has no dependency that catches or re-raises signals', () => {
    const inFolder = (folder: string, extension: string) =>
      readdirSync(`${dist}${folder}`)
        .filter((name) => name.endsWith(extension))
        .map((name) => `${folder}${name}`);
    const files = [
      ...inFolder('', '.js'),
      ...inFolder('', '.cjs'),
      ...inFolder('chunks/', '.js'),
      ...inFolder('commands/', '.cjs'),
      ...inFolder('vendor/', '.cjs'),
    ];
    expect(files).toEqual(expect.arrayContaining(['main.js', 'commands/create.cjs', 'vendor/inquirer.cjs']));
    const bundled = files.map((name) => readFileSync(`${dist}${name}`, 'utf8')).join('\n');
    expect(bundled).not.toMatch(/SIGVTALRM|SIGXCPU/);
    expect(bundled).not.toMatch(/process\d*\.kill\(process\d*\.pid/);
  });
});
