// The ID... commands over many IDs (docs/cli.md section 7, issue 6), driven through close,
// resolve and pickup against the sandbox.
import { Readable, Writable, type PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { run as runClose, type CloseOptions } from '../../src/commands/close.js';
import type { GlobalOptions } from '../../src/config/globals.js';
import { createConfigStore } from '../../src/config/store.js';
import { formatRanges } from '../../src/bulk/ranges.js';
import { InterruptedError, type StopSignal, type TktError } from '../../src/errors.js';
import { runCli } from '../../src/program.js';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/harness.js';
import { startServer, type Handler } from '../api/server.js';
import { fakeProcess, processSignals } from '../cli/fake-process.js';
import {
  changeInDoubtStderr,
  countInFlight,
  frontEnv,
  halvedAnswers,
  requestTo,
  sendsNothing,
  startFrontServer,
  unusedTickets,
  useHarness,
} from '../helpers/sandbox-state.js';

const CLOSE = 'POST /api/TicketsApi/close/{id}';
const IN_PROGRESS = 2;
const CLOSED = 7;
const RESOLVED = 6;

let h: Harness;
// Enough tickets that no two tests here share one (unusedTickets).
useHarness({ sandbox: { seedTickets: 140 }, profiles: ['viewer'] }, (harness) => (h = harness));

/** `count` live tickets that are not closed and that no other test here has used. */
const closable = (count: number) => unusedTickets(h, count, (t) => t.ticketStatusId !== CLOSED);

const ids = (tickets: readonly SandboxTicket[]) => tickets.map((t) => String(t.id));
const jsonLines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const closeOptions = (values: string[], extra: Partial<CloseOptions> = {}): CloseOptions => ({
  ids: values,
  acknowledge: false,
  attach: [],
  concurrency: '4',
  dryRun: false,
  ...extra,
});
/** What `promise` rejects with, or undefined when it resolves. */
const rejectionOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );

/**
 * Closes `tickets`, 2 at a time, through a front server that never answers a close, and gives
 * them up (the first signal, then the second) once `held` closes have reached it; with the
 * error, what the run printed and the server's URL.
 */
async function closesGivenUp(tickets: readonly SandboxTicket[], held: number, globals: Partial<GlobalOptions> = {}) {
  let arrived = 0;
  const server = await startFrontServer(h, (req) => {
    if (!req.url?.startsWith('/api/TicketsApi/close/')) return false;
    arrived += 1;
    return true;
  });
  try {
    const run = await h.context({ globals, env: frontEnv(h, server) });
    const pending = runClose(closeOptions(ids(tickets), { concurrency: '2' }), run.ctx);
    await vi.waitFor(() => expect(arrived).toBe(held));
    run.abort.abort();
    run.halt.abort();
    const error = await rejectionOf(pending);
    return { error, stdout: run.stdout(), stderr: run.stderr(), url: server.url };
  } finally {
    await server.close();
  }
}

describe('ID... commands over several IDs', () => {
  it('reports every ID, names the failures in the summary and exits 1; one failure never stops the rest', async () => {
    const [a, b] = closable(2);
    const result = await h.cli(['close', String(a!.id), '999998', String(b!.id), '999999']);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n').filter(Boolean).sort()).toEqual([`✓ #${a!.id} closed`, `✓ #${b!.id} closed`].sort());
    expect(result.stderr).toContain('✗ #999998 not found (HTTP 404)');
    expect(result.stderr).toContain('✗ #999999 not found (HTTP 404)');
    expect(result.stderr).toContain('error: 2 of 4 failed\n');
    expect(result.stderr).toContain(`  closed: ${formatRanges([a!.id, b!.id], '#')}\n`);
    expect(result.stderr).toContain('  not found (HTTP 404): #999998-999999\n');
    expect([a!.ticketStatusId, b!.ticketStatusId]).toEqual([CLOSED, CLOSED]);
  });

  it('prints one JSON Line per ID with --json, failures included', async () => {
    const [a, b] = closable(2);
    const result = await h.cli(['--json', 'close', String(a!.id), '999997', String(b!.id)]);
    expect(result.code).toBe(1);
    const lines = jsonLines(result.stdout).sort((x, y) => Number(x.id) - Number(y.id));
    expect(lines).toEqual(
      [
        { id: a!.id, ok: true, status: 204 },
        { id: b!.id, ok: true, status: 204 },
        expect.objectContaining({ id: 999997, ok: false, status: 404, error: expect.stringContaining('999997') }),
      ].sort((x, y) => Number(x.id) - Number(y.id)),
    );
  });

  it('keeps going after a server error in the middle of the run', async () => {
    const tickets = closable(3);
    h.sandbox.failNext(CLOSE, 500);
    const result = await h.cli(['--json', 'close', ...ids(tickets), '--concurrency', '1']);
    expect(result.code).toBe(1);
    const lines = jsonLines(result.stdout);
    expect(lines.map((line) => [line.id, line.ok, line.status])).toEqual([
      [tickets[0]!.id, false, 500],
      [tickets[1]!.id, true, 204],
      [tickets[2]!.id, true, 204],
    ]);
    expect(tickets.map((t) => t.ticketStatusId === CLOSED)).toEqual([false, true, true]);
  });

  it('reads IDs from stdin with -, skipping comments and blank lines and dropping duplicates', async () => {
    const [a, b] = closable(2);
    const stdin = `# from tkt list\n  ${a!.id}  Printer on fire\n\n${b!.id}\n${a!.id}\n`;
    h.sandbox.resetStats();
    const result = await h.cli(['--json', 'resolve', '-', '--details', 'bulk fix'], { stdin });
    expect(result.code).toBe(0);
    expect(
      jsonLines(result.stdout)
        .map((line) => line.id)
        .sort(),
    ).toEqual([a!.id, b!.id].sort());
    expect(h.sandbox.stats.byRoute['POST /api/TicketsApi/resolve/{id}']).toBe(2);
  });

  it('succeeds with a note when stdin holds no IDs (a cron job on a quiet day), sending nothing', async () => {
    h.sandbox.resetStats();
    const result = await h.cli(['close', '-'], { stdin: '# nothing to close today\n\n' });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('no ticket IDs on stdin: nothing to do\n');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('takes #42 on stdin as ticket 42, and refuses -106 before any request', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.assignedUser === null);
    const picked = await h.cli(['pickup', '-', '--json'], { stdin: `#${ticket!.id}: Wi-Fi dead zone\n` });
    expect(picked.code).toBe(0);
    expect(JSON.parse(picked.stdout)).toMatchObject({ id: ticket!.id, ok: true });
    h.sandbox.resetStats();
    const negative = await h.cli(['close', '-'], { stdin: `-${ticket!.id}\n` });
    expect(negative.code).toBe(2);
    expect(negative.stderr).toContain('stdin line 1');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('refuses "1,031" and "1031.5" on stdin before any request, rather than closing #1 and #1031', async () => {
    h.sandbox.resetStats();
    const separated = await h.cli(['close', '-'], { stdin: '1001\n1002\n1,031\n' });
    expect(separated.code).toBe(2);
    expect(separated.stderr).toBe('error: stdin line 3: "1,031" is no ticket ID: write it as 1031\n');
    const decimal = await h.cli(['close', '-'], { stdin: '1031.5\n' });
    expect(decimal.code).toBe(2);
    expect(decimal.stderr).toBe('error: stdin line 1: "1031.5" is no ticket ID (a decimal number)\n');
    const argument = await h.cli(['close', '1,031']);
    expect(argument.code).toBe(2);
    expect(argument.stderr).toBe('error: invalid ticket ID "1,031": write it as 1031\n');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('rejects a bad stdin line before any request', async () => {
    h.sandbox.resetStats();
    const result = await h.cli(['pickup', '-'], { stdin: '12\nno id here\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('stdin line 2');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  // The in-process sandbox answers each request before the next one is read, so its own
  // maxInFlight stays 1: a server in front counts requests as they arrive and holds them until
  // `limit` are open at once (or none has come for a while, when the client sends fewer), so
  // the count does not depend on how fast a loaded machine runs.
  it.each([
    ['--concurrency 3', ['--concurrency', '3'], 3],
    ['the default of 8', [], 8],
    // Saved for the profile "conc" only (tkt --profile conc config set default-concurrency 2).
    ['the default-concurrency setting', ['--profile', 'conc'], 2],
    ['--concurrency over the setting', ['--profile', 'conc', '--concurrency', '5'], 5],
  ])('has exactly %s requests in flight at most', async (_name, flags, limit) => {
    await createConfigStore(h.configDir).saveSettings({ defaultConcurrency: 2 }, 'conc');
    // Enough tickets to fill every lane more than twice.
    const tickets = closable(limit * 2 + 4);
    const inFlight = countInFlight(limit);
    const server = await startFrontServer(h, () => false, inFlight);
    try {
      h.sandbox.resetStats();
      const result = await h.cli(['-q', 'close', ...ids(tickets), ...flags], { env: frontEnv(h, server) });
      expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    } finally {
      await server.close();
    }
    expect(h.sandbox.stats.byRoute[CLOSE]).toBe(tickets.length);
    expect(inFlight.max()).toBe(limit);
    expect(tickets.every((t) => t.ticketStatusId === CLOSED)).toBe(true);
  });

  it("draws a progress bar on a colour terminal's stderr, and none when piped", async () => {
    const tickets = closable(3);
    const terminal = await h.context({ tty: true, color: true });
    await runClose(closeOptions(ids(tickets)), terminal.ctx);
    // The bar is redrawn in place on stderr: done/total, and the per-ID lines stay on stdout.
    expect(terminal.stderr()).toMatch(/closed .*3\/3/);
    expect(terminal.stderr()).toContain('\r');
    expect(terminal.stdout()).not.toMatch(/3\/3/);

    const piped = await h.context();
    await runClose(closeOptions(ids(closable(3))), piped.ctx);
    expect(piped.stderr()).toBe('');
  });

  it('ends a run of many IDs at a terminal with the count on stderr, bar or no bar; never piped, with -q or --json', async () => {
    // Without colour (NO_COLOR) there is no bar: the count is the only total.
    const plain = await h.context({ tty: true });
    await runClose(closeOptions(ids(closable(3))), plain.ctx);
    expect(plain.stderr()).toBe('3 of 3 closed\n');

    const coloured = await h.context({ tty: true, color: true });
    await runClose(closeOptions(ids(closable(2))), coloured.ctx);
    expect(coloured.stderr()).toMatch(/\r\u001b\[2K2 of 2 closed\n$/);

    // A ticket already closed is counted apart, as its line says it.
    const [done] = closable(1);
    await runClose(closeOptions([String(done!.id)]), (await h.context()).ctx);
    const again = await h.context({ tty: true });
    await runClose(closeOptions([String(done!.id), ...ids(closable(1))]), again.ctx);
    expect(again.stderr()).toBe('1 of 2 closed, 1 unchanged\n');

    // Piped: scripts see no change.
    const piped = await h.context();
    await runClose(closeOptions(ids(closable(2))), piped.ctx);
    expect(piped.stderr()).toBe('');
    for (const globals of [{ quiet: true }, { json: true }]) {
      const terminal = await h.context({ tty: true, globals });
      await runClose(closeOptions(ids(closable(2))), terminal.ctx);
      expect(terminal.stderr()).toBe('');
    }
  });

  it('says at a terminal that it reads the IDs typed, until Ctrl-D; nothing said when they are piped', async () => {
    const [typed, piped] = [closable(1), closable(1)];
    const terminal = await h.context({ tty: true, stdin: `${typed[0]!.id}\n` });
    await runClose(closeOptions(['-']), terminal.ctx);
    expect(terminal.stderr()).toBe('reading ticket IDs from the terminal, one a line; Ctrl-D to end\n');
    expect(terminal.stdout()).toContain(`#${typed[0]!.id} closed`);

    const pipe = await h.context({ stdin: `${piped[0]!.id}\n` });
    await runClose(closeOptions(['-']), pipe.ctx);
    expect(pipe.stderr()).toBe('');
  });

  it('Ctrl-C while IDs are typed at a terminal says only that the run was interrupted, not "nothing to do"', async () => {
    const signals = processSignals();
    const proc = { ...fakeProcess({ stdin: true, stdout: true, stderr: true }, h.env), ...signals };
    let stderr = '';
    const asked = new Promise<void>((resolve) => proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')).includes('Ctrl-D') && resolve()));
    const run = runCli(['close', '-'], proc);
    await asked;
    signals.send('SIGINT');
    expect(await run).toBe(130);
    expect(stderr).not.toContain('nothing to do');
    expect(stderr).toMatch(/error: interrupted\n$/);
  });

  // A user typed `1025⏎ 10x26⏎ 1027⏎` quickly: the run ended at line 2, "1027" went to the shell
  // as a command, and the Ctrl-D asked for logged them out. The IDs typed are read until Ctrl-D.
  it('reads the IDs typed at a terminal until Ctrl-D after a bad line, then refuses it, sending nothing', async () => {
    const [first, last] = closable(2);
    const proc = { ...fakeProcess({ stdin: true, stdout: true, stderr: true }, h.env), ...processSignals() };
    let stderr = '';
    const asked = new Promise<void>((resolve) => proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')).includes('Ctrl-D') && resolve()));
    h.sandbox.resetStats();
    let settled = false;
    const run = runCli(['close', '-'], proc).finally(() => (settled = true));
    await asked;
    const typing = proc.stdin as PassThrough;
    typing.write(`${first!.id}\n10x26\n`);
    // What was typed is read: a few turns of the event loop.
    for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    typing.end(`${last!.id}\n`);

    expect(await run).toBe(2);
    expect(stderr).toBe('reading ticket IDs from the terminal, one a line; Ctrl-D to end\nerror: stdin line 2 has no ticket ID: "10x26"\n');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('names the first bad stdin line and how many more, at their line numbers, before any request', async () => {
    h.sandbox.resetStats();
    const result = await h.cli(['close', '-'], { stdin: '1001\nno id here\n1002\n-5\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: stdin line 2 has no ticket ID: "no id here" (and 1 more bad line: 4)\n');
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('refuses --concurrency outside 1..32', async () => {
    for (const value of ['0', '33', 'many']) {
      const result = await h.cli(['close', '1', '--concurrency', value]);
      expect(result.code, value).toBe(2);
    }
  });

  // A command line's mistake is said first: not after a lookup of --by's user or the new status,
  // nor after a token that cannot be read (exit 4 would hide the line's own exit 2).
  it.each<[string, string[], Record<string, string>?]>([
    ['close', ['close', '1001', '--by', 'nobody-here']],
    ['close, a token tkt cannot read', ['close', '1001'], { TKT_TOKEN: '***' }],
    ['assign', ['assign', '1001', 'nobody-here']],
    ['reopen', ['reopen', '1001', '--status', 'No Such Status']],
    ['resolve', ['resolve', '1001', '--details', 'x', '--by', 'nobody-here']],
    ['pickup', ['pickup', '1001']],
  ])('%s: a bad --concurrency is a usage error before anything is looked up or sent', async (_name, argv, env = {}) => {
    const result = await sendsNothing(h, () => h.cli([...argv, '--concurrency', '33'], { env }));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: invalid --concurrency "33": expected a whole number from 1 to 32\n');
  });

  it('--dry-run over several IDs sends no change, printing a JSON line per ID that names it', async () => {
    const tickets = closable(3);
    h.sandbox.resetStats();
    const result = await h.cli(['close', ...ids(tickets), '--dry-run']);
    expect(result.code).toBe(0);
    for (const t of tickets) expect(result.stdout).toContain(`would send POST /api/TicketsApi/close/${t.id}`);
    expect(h.sandbox.stats.requests).toBe(0);
    expect(tickets.some((t) => t.ticketStatusId === CLOSED)).toBe(false);
    const json = await h.cli(['--json', 'pickup', ...ids(tickets), '--dry-run']);
    expect(jsonLines(json.stdout).map((line) => [line.id, line.dryRun, line.method, line.path])).toEqual(
      tickets.map((t) => [t.id, true, 'POST', `/api/TicketsApi/pickup/${t.id}`]),
    );
    // pickup reads each ticket first (whose it is), in a dry run too: those reads, and nothing else.
    expect(h.sandbox.stats.requests).toBe(tickets.length);
    expect(h.sandbox.stats.byRoute['GET /api/TicketsApi/{id}']).toBe(tickets.length);
    // The lines name their IDs, so the README's query over a real run's lines works on them too.
    const queried = await sendsNothing(h, () => h.cli(['close', ...ids(tickets), '--dry-run', '--query', '{id: id, path: path}']));
    expect(jsonLines(queried.stdout)).toEqual(tickets.map((t) => ({ id: t.id, path: `/api/TicketsApi/close/${t.id}` })));
  });

  it('documents each command with examples in --help', async () => {
    for (const command of ['reply', 'forward', 'resolve', 'close', 'pickup', 'attach', 'delete']) {
      const result = await h.cli([command, '--help']);
      expect(result.code, command).toBe(0);
      expect(result.stdout, command).toContain(`Examples:\n  $ tkt ${command} `);
    }
  });

  it('on Ctrl-C stops starting new IDs, lets the one in flight finish and names what was not done (exit 130)', async () => {
    const tickets = closable(5);
    // Ctrl-C arrives while the first close is at the service (lines to a pipe are written a batch
    // at a time, so the first line printed comes too late to time it by).
    let abort: AbortController | undefined;
    const server = await startFrontServer(h, (req) => {
      if (req.url?.startsWith('/api/TicketsApi/close/')) abort?.abort();
      return false;
    });
    try {
      const run = await h.context({ globals: { json: true }, env: frontEnv(h, server) });
      abort = run.abort;
      const error = await rejectionOf(runClose(closeOptions(ids(tickets), { concurrency: '1' }), run.ctx));
      expect(error).toBeInstanceOf(InterruptedError);
      const notDone = formatRanges(
        tickets.slice(1).map((t) => t.id),
        '#',
      );
      expect((error as InterruptedError).details).toEqual([`closed: #${tickets[0]!.id}`, `not started: ${notDone}`]);
      expect(tickets.map((t) => t.ticketStatusId === CLOSED)).toEqual([true, false, false, false, false]);
      expect(jsonLines(run.stdout()).map((line) => [line.id, line.ok])).toEqual(tickets.map((t, i) => [t.id, i === 0]));
    } finally {
      await server.close();
    }
  });

  it('on a second signal gives up the requests in flight and says in --json that they are in doubt', async () => {
    const tickets = closable(5);
    const { error, stdout, url } = await closesGivenUp(tickets, 2, { json: true });
    expect(error).toBeInstanceOf(InterruptedError);
    const [sent1, sent2, ...rest] = tickets;
    const lines = jsonLines(stdout).sort((x, y) => Number(x.id) - Number(y.id));
    expect(lines).toEqual([
      ...[sent1!, sent2!].map((t) => ({
        id: t.id,
        ok: false,
        inDoubt: true,
        error: `interrupted while waiting for the answer to POST ${url}/api/TicketsApi/close/${t.id}`,
      })),
      ...rest.map((t) => ({ id: t.id, ok: false, notStarted: true, error: 'not started: interrupted' })),
    ]);
    expect((error as InterruptedError).details).toEqual([
      `in doubt (may have been carried out): ${formatRanges([sent1!.id, sent2!.id], '#')}`,
      `not started: ${formatRanges(
        rest.map((t) => t.id),
        '#',
      )}`,
    ]);
    // The lines in doubt are looked at before a run for those not started: they may have been closed.
    expect((error as InterruptedError).hint).toBe(
      'to finish, run again for the IDs not started: --json marks them "notStarted"; look at those marked "inDoubt" first ("tkt show ID"): they may have been carried out',
    );
  });

  it('on a second signal counts the requests given up as in doubt, not done, and says so once on each line', async () => {
    const tickets = closable(5);
    const { error, stderr, url } = await closesGivenUp(tickets, 2);
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).message).toBe('interrupted: 0 of 5 done, 2 in doubt, 3 not started');
    const lines = stderr.trimEnd().split('\n').sort();
    expect(lines).toEqual(
      tickets
        .slice(0, 2)
        .map((t) => `? #${t.id} in doubt (it may have been carried out): interrupted while waiting for the answer to POST ${url}/api/TicketsApi/close/${t.id}`)
        .sort(),
    );
    // No --json in this run: the hint says where its own output lists them.
    expect((error as InterruptedError).hint).toBe(
      'to finish, run again for the IDs not started, listed above; look at those in doubt first ("tkt show ID"): they may have been carried out',
    );
  });

  it('given up on one ID at a second signal, says it is in doubt', async () => {
    const [ticket] = closable(1);
    const { error } = await closesGivenUp([ticket!], 1);
    expect((error as InterruptedError).message).toBe('interrupted: 0 of 1 done, 1 in doubt');
    expect((error as InterruptedError).details).toEqual([`in doubt (may have been carried out): #${ticket!.id}`]);
    expect((error as InterruptedError).hint).toBe(`look at it with "tkt show ${ticket!.id}" before running this again`);
  });

  it('at a terminal gives a long list of IDs not started as ranges, and how to finish', async () => {
    // Interrupted before the first request: the IDs need not exist.
    const { ctx, abort } = await h.context({ tty: true });
    abort.abort();
    const error = await rejectionOf(runClose(closeOptions(Array.from({ length: 14 }, (_, i) => String(900_000 + i))), ctx));
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).details).toEqual(['not started: #900000-900013']);
    expect((error as InterruptedError).hint).toBe('to finish, run again for the IDs not started, listed above');
  });

  it('at a terminal, with the list of IDs not started cut short, says where a run lists every one', async () => {
    const { ctx, abort } = await h.context({ tty: true });
    abort.abort();
    // Every other ID: as many ranges as IDs, more than two lines hold.
    const error = await rejectionOf(runClose(closeOptions(Array.from({ length: 60 }, (_, i) => String(900_000 + 2 * i))), ctx));
    expect(error).toBeInstanceOf(InterruptedError);
    expect((error as InterruptedError).details.at(-2)).toMatch(/ and \d+ more$/);
    // A text run cannot get back what it cut: the hint says where a run keeps every ID, not that this one marked them.
    expect((error as InterruptedError).hint).toBe(
      'to finish, run again for the IDs not started: at a terminal their list is cut short (a log, 2>FILE, or --json has every ID)',
    );
  });
});

// A 401 or a 403 is met by every further request of the run (README, "Scripting"): the run stops.
describe('ID... commands refused by the service', () => {
  it('stop at the first 403: one request at --concurrency 1, the rest not started, exit 5', async () => {
    const tickets = closable(10);
    h.sandbox.resetStats();
    const result = await h.cli(['--profile', 'viewer', 'close', '-', '--concurrency', '1'], { stdin: ids(tickets).join('\n') });
    expect(result.code).toBe(5);
    expect(h.sandbox.stats.byRoute[CLOSE]).toBe(1);
    const [first, ...rest] = tickets;
    expect(result.stderr).toContain(`error: stopped at #${first!.id}: permission denied (HTTP 403); 9 of 10 not started\n`);
    expect(result.stderr).toContain(`  permission denied (HTTP 403): #${first!.id}\n`);
    expect(result.stderr).toContain(
      `  not started: ${formatRanges(
        rest.map((t) => t.id),
        '#',
      )}\n`,
    );
    expect(result.stderr).toContain('hint: this login lacks the permission, so every other ID would be refused too\n');
    expect(tickets.some((t) => t.ticketStatusId === CLOSED)).toBe(false);
  });

  it('at the default concurrency of 8 send only the 8 already in flight, and say which were not started in --json', async () => {
    const tickets = closable(10);
    // Held until all 8 lanes have sent, so every lane has its request out when the first 403 comes.
    let open = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await startFrontServer(h, () => false, {
      gate: async () => {
        if (++open >= 8) release();
        await held;
      },
    });
    try {
      h.sandbox.resetStats();
      const result = await h.cli(['--json', 'close', ...ids(tickets)], { env: { TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('viewer') } });
      expect(result.code).toBe(5);
      expect(h.sandbox.stats.byRoute[CLOSE]).toBe(8);
      const lines = jsonLines(result.stdout);
      expect(lines).toHaveLength(10);
      expect(
        lines
          .filter((line) => line.status === 403)
          .map((line) => line.id)
          .sort(),
      ).toEqual(
        tickets
          .slice(0, 8)
          .map((t) => t.id)
          .sort(),
      );
      expect(lines.filter((line) => line.notStarted === true).map((line) => line.id)).toEqual(tickets.slice(8).map((t) => t.id));
      expect(lines.at(-1)!.error).toMatch(/^not started: the run stopped at #\d+ \(permission denied \(HTTP 403\)\)$/);
    } finally {
      await server.close();
    }
  });

  it('stop at the first 401 and exit 4 with the hint for the token in use', async () => {
    const server = await startServer((_req, res) => res.writeHead(401).end());
    try {
      const result = await h.cli(['pickup', '1001', '1002', '1003', '1004', '--concurrency', '1'], {
        env: { TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('admin') },
      });
      expect(result.code).toBe(4);
      // The read of #1001 (pickup reads each ticket first) is refused, and nothing more is asked.
      expect(server.requests.map((request) => request.url)).toEqual(['/api/TicketsApi/1001']);
      expect(result.stderr).toContain('error: stopped at #1001: not authenticated (HTTP 401); 3 of 4 not started\n');
      expect(result.stderr).toContain('  not started: #1002-1004\n');
      expect(result.stderr).toContain('hint: the token in TKT_TOKEN was refused');
    } finally {
      await server.close();
    }
  });
});

describe('ID... commands whose request timed out', () => {
  it('say of a single ID that it is in doubt, as a run of several does, and how to look at it, as attach does (exit 1)', async () => {
    const [unassigned] = unusedTickets(h, 1, (t) => t.assignedUser === null);
    // The service accepts the change and never answers; the lookups before it are answered.
    const server = await startFrontServer(h, (req) => req.method === 'POST' && /^\/api\/TicketsApi\/(close|pickup)\//.test(req.url!));
    try {
      for (const [verb, id] of [
        ['close', 1013],
        ['pickup', unassigned!.id],
      ] as const) {
        const result = await h.cli([verb, String(id), '--timeout', '0.5'], { env: frontEnv(h, server) });
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(changeInDoubtStderr(id, `${server.url}/api/TicketsApi/${verb}/${id}`));
      }
    } finally {
      await server.close();
    }
  });
});

// A service that takes connections and answers nothing: each ID would wait its --timeout in vain
// (2,606 IDs at the defaults: 2.7 hours), so the run stops as for one that cannot be reached.
describe('ID... commands to a service that answers nothing', () => {
  const stdin = Array.from({ length: 20 }, (_, i) => String(1010 + i)).join('\n');

  it('stop at the first time-out in which no request was answered: those in flight in doubt, the rest not started (exit 1)', async () => {
    const server = await startServer(() => {});
    try {
      const args = ['close', '-', '--timeout', '0.2', '--concurrency', '2'];
      const result = await h.cli(args, { env: frontEnv(h, server), stdin });
      expect(result.code).toBe(1);
      expect(server.requests).toHaveLength(2);
      const lines = result.stderr.split('\n');
      expect(lines.slice(0, 2).sort()).toEqual(
        [1010, 1011].map(
          (id) => `? #${id} in doubt (it may have been carried out): request timed out after 0.2s: POST ${server.url}/api/TicketsApi/close/${id}`,
        ),
      );
      expect(lines.slice(2)).toEqual([
        expect.stringMatching(/^error: stopped at #101[01]: request timed out after 0\.2s; 18 of 20 not started$/),
        '  in doubt (may have been carried out): #1010-1011',
        '  not started: #1012-1029',
        'hint: the service answered no request meanwhile, so every other ID would time out too: once it answers, run again for the IDs not done, ' +
          'listed above; look at those in doubt first ("tkt show ID"): they may have been carried out',
        '',
      ]);
      const json = await h.cli(['--json', ...args], { env: frontEnv(h, server), stdin });
      expect(json.code).toBe(1);
      const notStarted = jsonLines(json.stdout).filter((line) => line.notStarted === true);
      expect(notStarted.map((line) => line.id)).toEqual(Array.from({ length: 18 }, (_, i) => 1012 + i));
      expect(notStarted[0]!.error).toMatch(/^not started: the run stopped at #101[01] \(request timed out after 0\.2s\)$/);
    } finally {
      await server.close();
    }
  });

  it('go on past a time-out while the service answers other requests: that one in doubt, the others done', async () => {
    const tickets = closable(4);
    const [stalled] = tickets;
    // The first close is held for good; the second lane's closes are answered meanwhile.
    const server = await startFrontServer(h, (req) => req.url === `/api/TicketsApi/close/${stalled!.id}`);
    try {
      const result = await h.cli(['close', ...ids(tickets), '--timeout', '0.5', '--concurrency', '2'], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('error: 1 of 4 in doubt\n');
      expect(result.stderr).toContain(`  in doubt (may have been carried out): #${stalled!.id}\n`);
      expect(result.stderr).not.toContain('not started');
      expect(tickets.slice(1).every((t) => t.ticketStatusId === CLOSED)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('ID... commands whose change is answered 200 with a body cut in half', () => {
  it('say in --json that each is in doubt, not failed: the service had it, and most likely carried it out (exit 1)', async () => {
    const tickets = unusedTickets(h, 2, (t) => t.assignedUser === null);
    const server = await startFrontServer(
      h,
      halvedAnswers(h, (req) => req.method === 'POST' && req.url!.startsWith('/api/TicketsApi/pickup/')),
    );
    try {
      const result = await h.cli(['pickup', ...ids(tickets), '--json'], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      const unusable = expect.stringMatching(/^unusable answer \(HTTP 200\): the service answered with JSON that does not parse /) as unknown;
      expect(jsonLines(result.stdout).sort((x, y) => Number(x.id) - Number(y.id))).toEqual(
        tickets.map((t) => ({ id: t.id, ok: false, inDoubt: true, status: 200, error: unusable })),
      );
      expect(result.stderr).toContain(
        `  in doubt (may have been carried out): ${formatRanges(
          tickets.map((t) => t.id),
          '#',
        )}\n`,
      );
      // Picked up indeed: the doubt is real.
      expect(tickets.every((t) => t.assignedUser !== null)).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('a --timeout longer than any timer Node keeps', () => {
  it('waits as long as Node can (about 24.8 days), with no warning: a slow answer still comes', async () => {
    const warnings: Error[] = [];
    const warned = (warning: Error) => void warnings.push(warning);
    process.on('warning', warned);
    // The service answers after a moment: a deadline cut to 1 ms (Node's overflow) would fail it.
    const server = await startFrontServer(h, () => false, { holdMs: 30 });
    try {
      const [ticket] = closable(1);
      const closed = await h.cli(['close', String(ticket!.id), '--timeout', '3000000'], { env: frontEnv(h, server) });
      expect(closed.code, closed.stderr).toBe(0);
      expect(ticket!.ticketStatusId).toBe(CLOSED);
      const listed = await h.cli(['list', '--limit', '1', '--timeout', '99999999999'], { env: frontEnv(h, server) });
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).not.toBe('');
      // Node emits its warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', warned);
      await server.close();
    }
    expect(warnings.map((warning) => warning.name)).toEqual([]);
  });
});

// The error of a JSON Line says what happened, as the line of a human run does.
describe('ID... commands refused or unreachable, in JSON Lines', () => {
  const answering =
    (status: number, body?: unknown): Handler =>
    (_req, res) => {
      if (body === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };

  it.each([
    ['a 401', answering(401), 4, 'not authenticated (HTTP 401)'],
    ['a 403', answering(403), 5, 'permission denied (HTTP 403)'],
    ["a 403 with the service's words", answering(403, { message: 'Tickets.Close is required' }), 5, 'permission denied (HTTP 403): Tickets.Close is required'],
    ['a 500', answering(500), 1, 'failed (HTTP 500)'],
    ["a 500 with the service's words", answering(500, { message: 'database offline' }), 1, 'failed (HTTP 500): database offline'],
  ] as const)('%s', async (_name, handler, code, error) => {
    const server = await startServer(handler);
    try {
      const json = await h.cli(['--json', 'close', '1001', '1002', '--concurrency', '1'], { env: frontEnv(h, server) });
      expect(json.code).toBe(code);
      expect(jsonLines(json.stdout)[0]).toMatchObject({ id: 1001, ok: false, error });
      const human = await h.cli(['close', '1001', '1002', '--concurrency', '1'], { env: frontEnv(h, server) });
      expect(human.stderr.split('\n')[0]).toBe(`✗ #1001 ${error}`);
    } finally {
      await server.close();
    }
  });

  it('a refused connection', async () => {
    const server = await startServer(() => {});
    await server.close();
    const json = await h.cli(['--json', 'close', '1001', '1002'], { env: frontEnv(h, server) });
    expect(json.code).toBe(1);
    expect(jsonLines(json.stdout)[0]).toEqual({ id: 1001, ok: false, error: `connection refused: POST ${server.url}/api/TicketsApi/close/1001` });
    const human = await h.cli(['close', '1001', '1002'], { env: frontEnv(h, server) });
    expect(human.stderr.split('\n')[0]).toBe(`✗ #1001 connection refused: POST ${server.url}/api/TicketsApi/close/1001`);
    // The summary names the reason, as it does for an answer (`not found (HTTP 404): #1001-1002`).
    expect(human.stderr).toContain('\n  connection refused: #1001-1002\n');
  });

  // The service gone: every other ID would be refused too, as after a 401 or a 403 the run stops.
  it('a refused connection stops the run: the rest not started, the hint to run again once the service is back', async () => {
    const server = await startServer(() => {});
    await server.close();
    const result = await h.cli(['close', '-', '--concurrency', '1'], { env: frontEnv(h, server), stdin: '1001\n1002\n1003\n1004\n' });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      `✗ #1001 connection refused: POST ${server.url}/api/TicketsApi/close/1001`,
      'error: stopped at #1001: connection refused; 3 of 4 not started',
      '  connection refused: #1001',
      '  not started: #1002-1004',
      `hint: nothing answers at ${new URL(server.url).host}: check the URL, and that the service (or "tkt sandbox") is running there; ` +
        'the service could not be reached, so every other ID would fail too: once it can be, run again for the IDs not done, listed above',
      '',
    ]);
    const json = await h.cli(['--json', 'close', '-', '--concurrency', '1'], { env: frontEnv(h, server), stdin: '1001\n1002\n' });
    expect(jsonLines(json.stdout)[1]).toEqual({ id: 1002, ok: false, notStarted: true, error: 'not started: the run stopped at #1001 (connection refused)' });
    // The hint names what this run printed: with --json, the lines that mark them.
    expect(json.stderr).toMatch(/once it can be, run again for the IDs not done: --json marks those not started "notStarted"\n$/);
  });

  it('a refused connection at a terminal, the list of IDs not started cut short: the hint says where a run lists every one', async () => {
    const server = await startServer(() => {});
    await server.close();
    const { ctx } = await h.context({ tty: true, env: frontEnv(h, server) });
    // Every other ID: as many ranges as IDs, more than two lines hold.
    const every = Array.from({ length: 60 }, (_, i) => String(900_000 + 2 * i));
    const error = await rejectionOf(runClose(closeOptions(every, { concurrency: '1' }), ctx));
    expect((error as Error).message).toBe('stopped at #900000: connection refused; 59 of 60 not started');
    expect((error as TktError).hint).toMatch(
      /once it can be, run again for the IDs not done: at a terminal their list is cut short \(a log, 2>FILE, or --json has every ID\)$/,
    );
  });
});

// A change refused for what the ticket is now (resolve of a closed one, reopen of one In
// Progress): its line names the ticket once, and the summary groups such refusals by why.
describe('ID... commands refused for the state of a ticket', () => {
  it('say why after the ID once, and group the refusals under their reason in the summary (exit 1)', async () => {
    const [closedA, closedB] = closable(2);
    closedA!.ticketStatusId = CLOSED;
    closedB!.ticketStatusId = CLOSED;
    const resolved = await h.cli(['resolve', ...ids([closedA!, closedB!]), '--details', 'done', '--concurrency', '1']);
    expect(resolved.code).toBe(1);
    expect(resolved.stderr.split('\n')).toEqual([
      `✗ #${closedA!.id} is closed: reopen it first`,
      `✗ #${closedB!.id} is closed: reopen it first`,
      'error: 2 of 2 failed',
      `  closed, reopen first: ${formatRanges([closedA!.id, closedB!.id], '#')}`,
      '',
    ]);

    const [busyA, busyB] = closable(2);
    busyA!.ticketStatusId = IN_PROGRESS;
    busyB!.ticketStatusId = IN_PROGRESS;
    const reopened = await h.cli(['reopen', ...ids([busyA!, busyB!]), '--concurrency', '1']);
    expect(reopened.code).toBe(1);
    expect(reopened.stderr.split('\n')).toEqual([
      `✗ #${busyA!.id} is In Progress, not resolved or closed: nothing to re-open`,
      `✗ #${busyB!.id} is In Progress, not resolved or closed: nothing to re-open`,
      'error: 2 of 2 failed',
      `  not resolved or closed, nothing to re-open: ${formatRanges([busyA!.id, busyB!.id], '#')}`,
      '',
    ]);
    // The JSON Line says it as the text line does.
    const json = await h.cli(['--json', 'reopen', ...ids([busyA!, busyB!]), '--concurrency', '1']);
    expect(jsonLines(json.stdout)[0]).toEqual({ id: busyA!.id, ok: false, error: 'is In Progress, not resolved or closed: nothing to re-open' });
  });

  it('say it of a single ID in one line, with the way on', async () => {
    const [closed] = closable(1);
    closed!.ticketStatusId = CLOSED;
    const result = await h.cli(['resolve', String(closed!.id), '--details', 'done']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: ticket #${closed!.id} is closed: reopen it first\nhint: run "tkt reopen ${closed!.id}", then resolve it\n`);
  });
});

describe('ID... commands with --json that fail before any ID is sent', () => {
  // A CI review: an expired token, none at all, or a refused one met while finding who acts gave
  // an empty stdout (exit 4), though --json has a line for every ID (docs/cli.md section 3).
  it.each([
    ['an expired token', () => ({ TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('tech', { expiresInSeconds: -60 }) }), []],
    ['a token the service refuses, met finding who --by is', () => ({ TKT_URL: h.sandbox.url, TKT_TOKEN: 'garbage' }), ['--by', 'tech']],
  ] as const)('%s: each ID not started, with why, and the exit code of the failure', async (_case, env, by) => {
    // Nothing is sent: any tickets do. A range has a line for each of its IDs.
    const tickets = ['1001', '1002', '#1004-1005'];
    h.sandbox.resetStats();

    const result = await h.cli(['--json', 'close', ...tickets, ...by], { env: env() });

    expect(result.code).toBe(4);
    const lines = jsonLines(result.stdout);
    expect(lines.map((line) => line.id)).toEqual([1001, 1002, 1004, 1005]);
    for (const line of lines) {
      expect(line).toMatchObject({ ok: false, notStarted: true });
      expect(line.error).toMatch(/^not started: /);
    }
    expect(h.sandbox.stats.byRoute[CLOSE] ?? 0).toBe(0);
  });

  // A code review: a usage error (exit 2) printed a line per ID too, before saying what was wrong.
  it('prints no line for a usage error: the command line is wrong, not the IDs', async () => {
    const result = await h.cli(['--json', 'close', '1001', '1002', '--date', 'garbage']);

    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
  });

  it.each([
    ['resolve', ['--details', 'done']],
    ['assign', ['tech']],
  ] as const)('%s too', async (command, rest) => {
    const [first, second] = ['1001', '1002'];
    const env = { TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('tech', { expiresInSeconds: -60 }) };

    const result = await h.cli(['--json', command, first!, second!, ...rest], { env });

    expect(result.code).toBe(4);
    expect(jsonLines(result.stdout).map((line) => [line.id, line.notStarted])).toEqual([
      [Number(first), true],
      [Number(second), true],
    ]);
  });
});

describe('ID... commands stopped by SIGTERM', () => {
  const capture = () => {
    let text = '';
    return { stream: new Writable({ write: (chunk: Buffer, _encoding, callback) => ((text += chunk.toString('utf8')), callback()) }), text: () => text };
  };

  it.each([
    ['SIGTERM', 143, 'stopped by SIGTERM'],
    ['SIGINT', 130, 'interrupted'],
  ] as const)('%s while still reading the IDs on stdin: those read so far are reported not started, exit %i', async (signal, code, how) => {
    const signals = processSignals();
    // Two lines, then a writer that stays quiet (`(echo 1001; sleep 30; echo 1002) | tkt close -`):
    // with no buffer, stdin is asked for more only once the lines before were taken.
    let askedForMore = () => {};
    const quiet = new Promise<void>((resolve) => (askedForMore = resolve));
    let reads = 0;
    const stdin = new Readable({
      highWaterMark: 0,
      read() {
        reads += 1;
        if (reads === 1) this.push('1001\n# a comment\n#1002: Wi-Fi\n');
        else askedForMore();
      },
    });
    const stdout = capture();
    const stderr = capture();
    const running = runCli(['close', '-', '--json'], { stdin, stdout: stdout.stream, stderr: stderr.stream, env: { ...h.env }, ...signals });
    await quiet;
    await new Promise((resolve) => setImmediate(resolve));
    await sendsNothing(h, async () => {
      signals.send(signal);
      expect(await running).toBe(code);
    });
    expect(jsonLines(stdout.text())).toEqual([1001, 1002].map((id) => ({ id, ok: false, notStarted: true, error: `not started: ${how}` })));
    expect(stderr.text()).toMatch(new RegExp(`^error: ${how}: 0 of 2 done, 2 not started\n  not started: #1001-1002\nhint: to finish, run again`));
  });

  /**
   * `argv` (a close of `tickets`) run until `inFlight` of its closes reach the service and are held
   * there; then `sent`, delivered at once; then the closes answered. What the run printed, and its code.
   */
  async function closesStopped(
    tickets: readonly SandboxTicket[],
    argv: string[],
    inFlight: number,
    sent: readonly StopSignal[],
    { stderrTerminal = false } = {},
  ) {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived = 0;
    const server = await startFrontServer(h, () => false, {
      gate: async () => {
        arrived += 1;
        await released;
      },
    });
    try {
      const signals = processSignals();
      const [stdout, stderr] = [capture(), capture()];
      // A terminal of 80 columns that moves its cursor: the progress bar is drawn there.
      if (stderrTerminal) Object.assign(stderr.stream, { isTTY: true, columns: 80, rows: 24 });
      const running = runCli([...argv, ...ids(tickets)], {
        stdin: Readable.from([]),
        stdout: stdout.stream,
        stderr: stderr.stream,
        env: { ...h.env, ...frontEnv(h, server) },
        ...signals,
      });
      await vi.waitFor(() => expect(arrived).toBe(inFlight));
      for (const signal of sent) signals.send(signal);
      release();
      return { code: await running, stdout: stdout.text(), stderr: stderr.text() };
    } finally {
      await server.close();
    }
  }

  it.each([
    [
      'the same signal twice at once (GNU timeout: to tkt, then to its group) is one stop',
      ['SIGTERM', 'SIGTERM'],
      'stopped by SIGTERM: 2 of 3 done, 1 not started',
    ],
    [
      'another signal at once is a second one: the requests in flight are given up',
      ['SIGTERM', 'SIGINT'],
      'stopped by SIGTERM: 0 of 3 done, 2 in doubt, 1 not started',
    ],
  ] as const)('%s', async (_name, sent, summary) => {
    // timeout -s TERM reported closes that had completed as in doubt, 4 runs in 60.
    const run = await closesStopped(closable(3), ['close', '--concurrency', '2'], 2, sent);
    expect(run.code).toBe(143);
    expect(run.stderr.split('\n').find((line) => line.startsWith('error: '))).toBe(`error: ${summary}`);
    // Said at once, and once: a stalled service kept the run silent for up to --timeout.
    expect(run.stderr.split('\n').filter((line) => line.includes('in flight'))).toEqual([
      'stopped by SIGTERM: waiting up to 30s for 2 requests in flight; another SIGTERM gives up',
    ]);
  });

  // The terminal echoes "^C" where the cursor is, at the end of the bar: the bar gives way to the
  // notice, as the wait notice does, rather than staying on the screen with "^C" on it.
  it('at a terminal, the progress bar gives way to the notice of the requests in flight; drawn again under it, it is erased before the summary', async () => {
    const run = await closesStopped(closable(2), ['close', '--concurrency', '1'], 1, ['SIGINT'], { stderrTerminal: true });

    expect(run.code).toBe(130);
    const eraseLine = '\r\u001b[2K';
    const notice = 'interrupted: waiting up to 30s for 1 request in flight; press Ctrl-C again to give up';
    const [beforeNotice, afterNotice] = run.stderr.split(`${notice}\n`);
    expect(afterNotice, JSON.stringify(run.stderr)).toBeDefined();
    // The bar was on the screen, and its line was erased right before the notice, with no line break in between.
    expect(beforeNotice).toMatch(/closed \[░+\] 0\/2/);
    expect(beforeNotice!.endsWith(eraseLine)).toBe(true);
    // The close in flight may end the run before the notice is written (then no bar comes back), or
    // after (the bar is restored under it, at 0/2 or, 50 ms after its last draw, 1/2): the clock
    // decides. Either way no bar is left under the summary.
    const summary = 'error: interrupted: 1 of 2 done, 1 not started\n';
    expect(afterNotice).toContain(summary);
    const between = afterNotice!.slice(0, afterNotice!.indexOf(summary));
    if (between !== '') {
      expect(between).toMatch(/closed \[█*░+\] [01]\/2/);
      expect(between.endsWith(eraseLine)).toBe(true);
    }
  });

  // helper-225 saw "^C", a blank line, then the notice: the close's own break and the notice's each started a line.
  it('at a terminal, a single close Ctrl-C\'d while waiting starts the notice on the line after the "^C", once', async () => {
    const run = await closesStopped(closable(1), ['close'], 1, ['SIGINT'], { stderrTerminal: true });

    expect(run.code).toBe(130);
    expect(run.stderr.startsWith('\ninterrupted: waiting up to 30s for 1 request in flight; press Ctrl-C again to give up\n'), JSON.stringify(run.stderr)).toBe(
      true,
    );
  });

  it('exit 143 and say it was SIGTERM that stopped them, in the summary and the JSON Lines', async () => {
    const tickets = closable(3);
    const run = await closesStopped(tickets, ['--json', 'close', '--concurrency', '1'], 1, ['SIGTERM']);
    expect(run.code).toBe(143);
    const [first, ...rest] = tickets;
    const [notice, summary] = run.stderr.split('\n');
    expect(notice).toBe('stopped by SIGTERM: waiting up to 30s for 1 request in flight; another SIGTERM gives up');
    expect(summary).toBe('error: stopped by SIGTERM: 1 of 3 done, 2 not started');
    expect(jsonLines(run.stdout)).toEqual([
      { id: first!.id, ok: true, status: 204 },
      ...rest.map((t) => ({ id: t.id, ok: false, notStarted: true, error: 'not started: stopped by SIGTERM' })),
    ]);
  });

  // resolve reads each ticket before its change (close reads none): at the first signal one ID's
  // read and another's change are in flight. A read changes nothing, so it is given up at once and
  // its ID is not started; only the change is waited for (README, Interruption). The read is never
  // answered, under a --timeout of 60s: a pass proves it was not waited for.
  it.each([
    ['SIGINT', 130, 'interrupted'],
    ['SIGTERM', 143, 'stopped by SIGTERM'],
  ] as const)('%s with one ID read and another changed: the read is given up (not started), the change awaited (done), exit %i', async (signal, code, how) => {
    const [read, changed] = unusedTickets(h, 2, (t) => t.ticketStatusId !== CLOSED && t.ticketStatusId !== RESOLVED);
    const statusBefore = read!.ticketStatusId;
    const readOf = requestTo('GET', `/api/TicketsApi/${read!.id}`);
    const changeOf = requestTo('POST', `/api/TicketsApi/resolve/${changed!.id}`);
    let bothArrived = () => {};
    const arrived = new Promise<void>((resolve) => (bothArrived = resolve));
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = 0;
    const server = await startFrontServer(h, (req) => readOf(req), {
      gate: async (req) => {
        if (!readOf(req) && !changeOf(req)) return;
        if (++held === 2) bothArrived();
        if (changeOf(req)) await released;
      },
    });
    try {
      const signals = processSignals();
      const args = ['--json', 'resolve', String(read!.id), String(changed!.id), '--details', 'Fixed', '--concurrency', '2', '--timeout', '60'];
      const running = h.cli(args, { env: frontEnv(h, server), signals });
      await arrived;
      signals.send(signal);
      release();
      const run = await running;

      expect(run.code).toBe(code);
      expect(signals.exits).toEqual([]);
      // The wait counts the change alone, not the read given up.
      expect(run.stderr).toBe(
        `${how}: waiting up to 60s for 1 request in flight; another ${signal} gives up\n` +
          `error: ${how}: 1 of 2 done, 1 not started\n  resolved: #${changed!.id}\n  not started: #${read!.id}\nhint: to finish, run again for the IDs not started: --json marks them "notStarted"\n`,
      );
      expect(jsonLines(run.stdout)).toEqual([
        { id: changed!.id, ok: true, status: 200, body: `Ticket ${changed!.id} resolved.` },
        { id: read!.id, ok: false, notStarted: true, error: `not started: ${how}` },
      ]);
      expect(changed!.ticketStatusId).toBe(RESOLVED);
      expect(read!.ticketStatusId).toBe(statusBefore);
      expect(server.requests.filter((req) => req.url === `/api/TicketsApi/resolve/${read!.id}`)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
