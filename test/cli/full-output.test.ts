// A stdout that cannot be written (a full disk: /dev/full gives ENOSPC on every write) is not a
// reader that left: the run exits 1 saying so in words, and after a change says on stderr what
// was done, so that nobody runs it again to find out (and makes a second ticket). Through the
// built CLI, its stdout the real /dev/full.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readReport, type ReportEntry } from '../../src/bulk/report-file.js';
import { routeCount, unusedTickets, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import type { Harness } from '../helpers/harness.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const FULL = '/dev/full';
const NO_SPACE = 'error: cannot write the output: no space left on device (ENOSPC)';
const CLOSE = 'POST /api/TicketsApi/close/{id}';

/** Runs the CLI with its stdout /dev/full (or `file` under `limit`); what it said on stderr and its exit code. */
async function intoFullDisk(
  args: string[],
  env: Record<string, string>,
  input = '',
  { file = FULL, limit }: { file?: string; limit?: number } = {},
): Promise<{ code: number | null; stderr: string }> {
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const full = openSync(file, 'w');
  try {
    // A disk that fills as the run writes: the shell's limit on the size of files it writes (EFBIG).
    const command =
      limit === undefined ? [process.execPath, bin, ...args] : ['sh', '-c', `ulimit -f ${limit} && exec "$0" "$@"`, process.execPath, bin, ...args];
    const child = spawn(command[0]!, command.slice(1), { env: { ...inherited, ...env }, stdio: ['pipe', full, 'pipe'] });
    child.stdin!.end(input);
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    return await new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  } finally {
    closeSync(full);
  }
}

// Linux has /dev/full (CI runs there); elsewhere the suite says it skipped these.
describe.skipIf(!existsSync(FULL))('a stdout that cannot be written (a full disk)', () => {
  let h: Harness;
  let dir = '';
  useHarness({ sandbox: { seedTickets: 200 } }, (harness) => (h = harness));
  useTempDir('tkt-full-', (path) => (dir = path));
  const env = () => ({ TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: h.configDir, NO_COLOR: '1' });
  const titled = (title: string) => h.sandbox.state.tickets.filter((ticket) => ticket.title === title);

  it.each([
    ['a read', ['list']],
    // The bin's own answers, written to the file descriptor (src/util/stdout-sync.ts).
    ['help', ['--help']],
    ['the version', ['--version']],
    // Commander's, as its help of a command called alone (src/commander-program.ts).
    ["a parent command's help", ['config']],
  ])('%s: exit 1, the failure in words, no --debug hint', async (_name, args) => {
    const run = await intoFullDisk(args, env());
    expect(run.stderr).toBe(`${NO_SPACE}\n`);
    expect(run.code).toBe(1);
  });

  it.each([
    ['-q', ['-q']],
    ['text', []],
    ['--json', ['--json']],
  ])('create %s: the new ticket is told on stderr, exit 1, and not to run it again', async (name, flags) => {
    const title = `full disk create ${name}`;
    const run = await intoFullDisk(
      ['create', '--title', title, '--description', 'd', '--requester', 'aberg', '--site', 'Head Office', '--department', 'IT', '--status', 'Open', ...flags],
      env(),
    );
    const [ticket, ...more] = titled(title);
    expect(more).toEqual([]);
    expect(run.stderr).toBe(
      `Created ticket #${ticket!.id}\n${NO_SPACE}\nhint: the change was made; only its output failed: do not run the command again for it\n`,
    );
    expect(run.code).toBe(1);
  });

  it('create --dedup-key -q: the ticket created, then the one updated, is told on stderr, exit 1, and not to run it again', async () => {
    const title = 'full disk dedup -q [full-disk-dedup]';
    const job = ['-q', 'create', '--title', title, '--description', 'd', '--requester', 'aberg', '--site', 'Head Office', '--department', 'IT'];
    const told = (action: string, id: number) =>
      `${action} #${id}\n${NO_SPACE}\nhint: the change was made; only its output failed: do not run the command again for it\n`;
    // -q's ID is news both times: the ticket created, then the one the occurrence went to.
    const occurrence = () => intoFullDisk([...job, '--status', 'Open', '--dedup-key', 'full-disk-dedup'], env());
    const created = await occurrence();
    const [ticket, ...more] = titled(title);
    expect(more).toEqual([]);
    expect(created).toEqual({ code: 1, stderr: told('created', ticket!.id) });
    const updated = await occurrence();
    expect(titled(title)).toHaveLength(1);
    expect(updated).toEqual({ code: 1, stderr: told('updated', ticket!.id) });
  });

  it.each([
    ['text', []],
    ['--json', ['--json']],
  ])('close ID %s: the ticket closed is told on stderr, exit 1, and not to run it again', async (_name, flags) => {
    const [ticket] = unusedTickets(h, 1, (candidate) => candidate.ticketStatusId === 1 && !candidate.locked);

    const run = await intoFullDisk([...flags, 'close', String(ticket!.id)], env());

    expect(ticket!.ticketStatusId).toBe(7);
    expect(run.stderr).toBe(
      `${NO_SPACE}: 1 of 1 closed\n  closed: #${ticket!.id}\nhint: the change was made; only its output failed: do not run the command again for it\n`,
    );
    expect(run.code).toBe(1);
  });

  it('close ID --attach: the file the service did not keep is named with the ticket closed', async () => {
    const [ticket] = unusedTickets(h, 1, (candidate) => candidate.ticketStatusId === 1 && !candidate.locked);
    const exe = join(dir, 'tool.exe');
    writeFileSync(exe, 'MZ');

    const run = await intoFullDisk(['close', String(ticket!.id), '--attach', exe], env());

    expect(ticket!.ticketStatusId).toBe(7);
    expect(run.stderr).toBe(
      `${NO_SPACE}: 1 of 1 closed\n  closed: #${ticket!.id}\n  files not kept on: #${ticket!.id}\nhint: the change was made; only its output failed: do not run the command again for it\n`,
    );
    expect(run.code).toBe(1);
  });

  it('close - --json: no ID starts after the output failed; the summary on stderr says what was closed and what was not started', async () => {
    const ids = unusedTickets(h, 30, (ticket) => ticket.ticketStatusId === 1 && !ticket.locked).map((ticket) => ticket.id);
    const before = routeCount(h, CLOSE);

    const run = await intoFullDisk(['--json', 'close', '-', '--concurrency', '2'], env(), `${ids.join('\n')}\n`);

    const closed = ids.filter((id) => h.sandbox.state.tickets.find((ticket) => ticket.id === id)!.ticketStatusId === 7);
    expect(routeCount(h, CLOSE) - before).toBe(closed.length);
    expect(closed.length).toBeGreaterThan(0);
    expect(closed.length).toBeLessThanOrEqual(4);
    expect(run.stderr).toContain(`${NO_SPACE}: ${closed.length} of 30 closed, ${30 - closed.length} not started\n`);
    expect(run.stderr).toMatch(/\n {2}closed: #\d+/);
    expect(run.stderr).toMatch(/\n {2}not started: #\d+/);
    expect(run.stderr).toContain(
      'hint: only the output failed: do not run the command again for the tickets closed; to finish, run it for those not started\n',
    );
    expect(run.code).toBe(1);
  });

  it('tkt api POST: the request was sent, and the hint says so', async () => {
    const [ticket] = unusedTickets(h, 1, (candidate) => !candidate.isRead);

    const run = await intoFullDisk(['api', 'POST', `/api/TicketsApi/read/${ticket!.id}`], env());

    expect(ticket!.isRead).toBe(true);
    expect(run.stderr).toBe(`${NO_SPACE}\nhint: the change was made; only its output failed: do not run the command again for it\n`);
    expect(run.code).toBe(1);
  });

  // Lines let go in batches (held corked, src/output/held-writes.ts) fail when let go: the run
  // hears it at its next line, not as a write that seemed to succeed.
  it('close - --json into a file that stops growing part way: the run fails and says what it did', async () => {
    const ids = unusedTickets(h, 40, (ticket) => ticket.ticketStatusId !== 7 && !ticket.locked).map((ticket) => ticket.id);
    const out = join(dir, 'closed.jsonl');

    const run = await intoFullDisk(['--json', 'close', '-', '--concurrency', '1'], env(), `${ids.join('\n')}\n`, { file: out, limit: 2 });

    // How many close before the failed batch is heard depends on the clock (a batch is held up to
    // 50 ms): what is said must be what the service holds.
    const closed = ids.filter((id) => h.sandbox.state.tickets.find((ticket) => ticket.id === id)!.ticketStatusId === 7);
    const notStarted = closed.length < 40 ? `, ${40 - closed.length} not started` : '';
    expect(run.stderr).toContain(`error: cannot write the output: file too large (EFBIG): ${closed.length} of 40 closed${notStarted}\n`);
    expect(run.stderr).toMatch(/\nhint: only the output failed: do not run the command again for the tickets closed/);
    expect(run.code).toBe(1);
  });

  it('create --from: stops, says how many rows were created and that the report has them, and how to finish', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => `full from ${i + 1},desc,aberg,Head Office,IT,Open`);
    const file = join(dir, 'rows.csv');
    writeFileSync(file, ['title,description,requester,site,department,status', ...rows, ''].join('\n'));

    const run = await intoFullDisk(['create', '--from', file, '-q', '--concurrency', '2'], env());

    const report = await readReport(`${file}.report.jsonl`);
    const created = report.filter((line): line is ReportEntry => 'ok' in line && line.ok);
    const made = h.sandbox.state.tickets.filter((ticket) => ticket.title.startsWith('full from '));
    expect(created.map((line) => line.id).sort()).toEqual(made.map((ticket) => ticket.id).sort());
    expect(made.length).toBeGreaterThan(0);
    expect(made.length).toBeLessThan(20);
    expect(run.stderr).toContain(
      `error: stopped: cannot write the output: no space left on device (ENOSPC)\n  created ${made.length}; every row sent is recorded in ${file}.report.jsonl\n`,
    );
    expect(run.stderr).toMatch(/hint: only the output failed: do not run the command again; to send the rows not started: tkt create --from .* --resume /);
    expect(run.code).toBe(1);
  });
});
