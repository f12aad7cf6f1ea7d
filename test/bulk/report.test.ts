import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBulkReporter, type BulkReporterOptions } from '../../src/bulk/report.js';
import { runBulk, type BulkResult, type BulkRun } from '../../src/bulk/runner.js';
import { AbandonedRequestError, ApiError, ExitCode, InterruptedError, NetworkError, OperationError, TktError } from '../../src/errors.js';
import type { IO } from '../../src/output/io.js';
import { createOutput } from '../../src/output/format.js';
import { createWaitNotice, WAIT_NOTICE_DELAY_MS } from '../../src/output/waiting.js';
import { createCollector, createTestIO, type TestIOOptions } from '../helpers/io.js';
import { manualTimer } from '../helpers/manual-clock.js';

const outputFor = (io: IO, json: boolean, quiet = false) => createOutput({ flags: { json, quiet }, io, now: () => new Date() });

/** A reporter on `io` of a run of `total` IDs. */
const reporterOn = async (io: IO, options: Partial<Pick<BulkReporterOptions, 'verb' | 'stop'>> & { json?: boolean; quiet?: boolean; total: number }) =>
  createBulkReporter(io, {
    output: await outputFor(io, options.json ?? false, options.quiet ?? false),
    verb: options.verb ?? 'closed',
    total: options.total,
    ...(options.stop === undefined ? {} : { stop: options.stop }),
    run: { globals: {}, env: {} },
  });

/** What the client throws for an answer of `status` saying `message`. */
const answered = (status: number, message: string) =>
  new ApiError({ status, method: 'POST', url: 'http://127.0.0.1:9/x', body: { message }, serverMessages: [message] });

/** Each JSON Line of `stdout`, parsed. */
const jsonLines = (stdout: string): unknown[] =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);

const closed12: BulkResult = { id: 12, ok: true, status: 204 };
const missing13: BulkResult = {
  id: 13,
  ok: false,
  status: 404,
  error: 'not found (HTTP 404): Ticket 13 does not exist',
  body: { message: 'Ticket 13 does not exist' },
  failure: answered(404, 'Ticket 13 does not exist'),
};
const already14: BulkResult = { id: 14, ok: true, status: 200, note: 'already closed' };
// Sent, then no answer in time: the service may have done it.
const timedOut9: BulkResult = {
  id: 9,
  ok: false,
  inDoubt: true,
  error: 'timed out after 30s',
  failure: new NetworkError('timeout', 'POST', 'u', 'timed out after 30s'),
};
const refused15: BulkResult = {
  id: 15,
  ok: false,
  error: 'connection refused by http://127.0.0.1:9',
  failure: new NetworkError('refused', 'POST', 'http://127.0.0.1:9/x', 'connection refused by http://127.0.0.1:9', undefined, { reason: 'connection refused' }),
};

async function report(
  results: BulkResult[],
  options: Partial<BulkReporterOptions> & {
    json?: boolean;
    quiet?: boolean;
    io?: TestIOOptions;
    notStarted?: number[];
    interrupted?: boolean;
    stoppedBy?: BulkResult;
  } = {},
) {
  const test = createTestIO(options.io);
  const notStarted = options.notStarted ?? [];
  const reporter = await reporterOn(test.io, { ...options, total: options.total ?? results.length + notStarted.length });
  for (const result of results) await reporter.result(result);
  const run: BulkRun = {
    results,
    notStarted,
    interrupted: options.interrupted ?? false,
    ...(options.stoppedBy === undefined ? {} : { stoppedBy: options.stoppedBy }),
  };
  let thrown: unknown;
  try {
    await reporter.finish(run);
  } catch (error) {
    thrown = error;
  }
  return { stdout: test.stdout(), stderr: test.stderr(), thrown };
}

describe('human output', () => {
  it('prints successes on stdout, failures on stderr, and ends with exit 1 and a summary of every ID by outcome', async () => {
    const { stdout, stderr, thrown } = await report([closed12, missing13, already14, refused15]);
    expect(stdout).toBe('✓ #12 closed\n✓ #14 already closed\n');
    expect(stderr).toBe('✗ #13 not found (HTTP 404): Ticket 13 does not exist\n✗ #15 connection refused by http://127.0.0.1:9\n');
    expect(thrown).toBeInstanceOf(OperationError);
    expect((thrown as OperationError).exitCode).toBe(ExitCode.failed);
    expect((thrown as OperationError).message).toBe('2 of 4 failed');
    expect((thrown as OperationError).details).toEqual(['closed: #12', 'already closed: #14', 'not found (HTTP 404): #13', 'connection refused: #15']);
  });

  it('groups the failed IDs by reason, as ranges', async () => {
    const notFound = (id: number): BulkResult => ({ ...missing13, id });
    const results = [20, 21, 22, 23, 30].map(notFound);
    const serverError: BulkResult = { id: 24, ok: false, status: 500, error: 'boom', failure: answered(500, 'boom') };
    const { thrown } = await report([...results, serverError, { ...closed12, id: 25 }]);
    expect((thrown as OperationError).message).toBe('6 of 7 failed');
    expect((thrown as OperationError).details).toEqual(['closed: #25', 'not found (HTTP 404): #20-23, #30', 'failed (HTTP 500): #24']);
  });

  it('prints what happened, as the runner words it from the exit code: permission denied, not authenticated', async () => {
    const { stderr } = await report(
      [
        {
          id: 1,
          ok: false,
          status: 400,
          error: 'permission denied (HTTP 400): User lacks permission Tickets.Resolve',
          failure: answered(400, 'User lacks permission Tickets.Resolve'),
        },
        { id: 2, ok: false, status: 401, error: 'not authenticated (HTTP 401): token expired', failure: answered(401, 'token expired') },
        { id: 3, ok: false, status: 500, error: 'failed (HTTP 500): Internal error', failure: answered(500, 'Internal error') },
      ],
      { verb: 'resolved' },
    );
    expect(stderr).toBe(
      [
        '✗ #1 permission denied (HTTP 400): User lacks permission Tickets.Resolve',
        '✗ #2 not authenticated (HTTP 401): token expired',
        '✗ #3 failed (HTTP 500): Internal error',
        '',
      ].join('\n'),
    );
  });

  it('never lets server text drive the terminal', async () => {
    const { stderr } = await report([closed12, { ...missing13, error: 'not found (HTTP 404): gone\u001b]0;pwned\u0007\u001b[2J\nsecond line' }]);
    expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(stderr).toBe('✗ #13 not found (HTTP 404): gone^[]0;pwned^G^[[2J second line\n');
  });

  it('returns quietly when every ID succeeded', async () => {
    const { stdout, stderr, thrown } = await report([closed12, already14], { verb: 'closed' });
    expect(thrown).toBeUndefined();
    expect(stdout).toBe('✓ #12 closed\n✓ #14 already closed\n');
    expect(stderr).toBe('');
  });

  it('uses the verb it is given', async () => {
    expect(
      (
        await report(
          [
            { ...closed12, status: 200 },
            { id: 20, ok: true },
          ],
          { verb: 'picked up' },
        )
      ).stdout,
    ).toBe('✓ #12 picked up\n✓ #20 picked up\n');
  });
});

describe('--json', () => {
  it('prints exactly one JSON Line per ID on stdout, body only when the API sent one', async () => {
    const { stdout, stderr, thrown } = await report([closed12, missing13, already14, refused15], { json: true });
    expect(stdout).toBe(
      [
        '{"id":12,"ok":true,"status":204}',
        '{"id":13,"ok":false,"status":404,"error":"not found (HTTP 404): Ticket 13 does not exist","body":{"message":"Ticket 13 does not exist"}}',
        '{"id":14,"ok":true,"status":200,"note":"already closed"}',
        '{"id":15,"ok":false,"error":"connection refused by http://127.0.0.1:9"}',
        '',
      ].join('\n'),
    );
    expect(stderr).toBe('');
    expect((thrown as TktError).exitCode).toBe(ExitCode.failed);
  });

  it("still prints a JSON Line for a single ID, and the exit code is that ID's own", async () => {
    const { stdout, thrown } = await report([missing13], { json: true });
    expect(jsonLines(stdout)).toEqual([
      { id: 13, ok: false, status: 404, error: 'not found (HTTP 404): Ticket 13 does not exist', body: { message: 'Ticket 13 does not exist' } },
    ]);
    expect((thrown as TktError).exitCode).toBe(ExitCode.notFound);
  });

  it('keeps server text exact (JSON escapes it)', async () => {
    const { stdout } = await report([{ ...missing13, error: 'bad\u001b[2J', body: undefined }, closed12], { json: true });
    expect(JSON.parse(stdout.split('\n')[0]!)).toEqual({ id: 13, ok: false, status: 404, error: 'bad\u001b[2J' });
    expect(stdout).not.toContain('\u001b');
  });
});

describe('-q', () => {
  it('prints nothing for successes and still reports failures on stderr', async () => {
    const { stdout, stderr, thrown } = await report([closed12, missing13, already14], { quiet: true });
    expect(stdout).toBe('');
    expect(stderr).toBe('✗ #13 not found (HTTP 404): Ticket 13 does not exist\n');
    expect((thrown as TktError).message).toBe('1 of 3 failed');
    expect((thrown as TktError).details).toEqual(['closed: #12', 'already closed: #14', 'not found (HTTP 404): #13']);
  });

  it('prints nothing at all when everything succeeded', async () => {
    expect(await report([closed12, already14], { quiet: true })).toEqual({ stdout: '', stderr: '', thrown: undefined });
  });
});

describe('a single ID', () => {
  it.each([
    [missing13, ExitCode.notFound, '#13 not found (HTTP 404)', 'Ticket 13 does not exist'],
    [
      {
        id: 7,
        ok: false,
        status: 403,
        error: 'permission denied (HTTP 403)',
        failure: new ApiError({ status: 403, method: 'POST', url: 'http://127.0.0.1:9/x', body: '', serverMessages: [] }),
      } as BulkResult,
      ExitCode.permissionDenied,
      '#7 permission denied (HTTP 403)',
      'POST http://127.0.0.1:9/x',
    ],
    [refused15, ExitCode.failed, '#15 failed', refused15.error],
    [timedOut9, ExitCode.failed, '#9 in doubt (it may have been carried out)', 'timed out after 30s'],
  ])("exits with the ID's own code and tells the failure once, through the error", async (result, exitCode, message, detail) => {
    const { stdout, stderr, thrown } = await report([result]);
    expect(stdout).toBe('');
    expect(stderr).toBe('');
    expect(thrown).toBeInstanceOf(TktError);
    expect((thrown as TktError).exitCode).toBe(exitCode);
    expect((thrown as TktError).message).toBe(message);
    expect((thrown as TktError).details).toEqual([detail]);
  });

  it('fails with exit 4 when the token was refused, leaving the hint to main.ts', async () => {
    const { thrown } = await report([{ id: 2, ok: false, status: 401, error: 'token expired', failure: answered(401, 'token expired') }]);
    expect((thrown as TktError).exitCode).toBe(ExitCode.notAuthenticated);
    expect((thrown as TktError).hint).toBeUndefined();
  });

  it('prints its success line and returns', async () => {
    expect(await report([closed12], { verb: 'deleted' })).toEqual({ stdout: '✓ #12 deleted\n', stderr: '', thrown: undefined });
  });
});

describe('interrupted', () => {
  it('exits 130 naming what was done, what failed and what never started', async () => {
    const { thrown } = await report([closed12, missing13], { notStarted: [20, 21], interrupted: true, total: 4 });
    expect(thrown).toBeInstanceOf(InterruptedError);
    expect((thrown as InterruptedError).exitCode).toBe(ExitCode.interrupted);
    expect((thrown as InterruptedError).message).toBe('interrupted: 1 of 4 done, 1 failed, 2 not started');
    expect((thrown as InterruptedError).details).toEqual(['closed: #12', 'not found (HTTP 404): #13', 'not started: #20-21']);
  });

  it('gives never-started IDs their own JSON Line, marked as such, so every ID has one', async () => {
    const { stdout, thrown } = await report([closed12], { json: true, notStarted: [20], interrupted: true, total: 2 });
    expect(stdout).toBe('{"id":12,"ok":true,"status":204}\n{"id":20,"ok":false,"notStarted":true,"error":"not started: interrupted"}\n');
    expect((thrown as TktError).exitCode).toBe(ExitCode.interrupted);
  });

  // A request given up on a second signal: the service may have done it.
  const abandoned7: BulkResult = {
    id: 7,
    ok: false,
    inDoubt: true,
    error: 'interrupted while waiting for the answer to POST http://127.0.0.1:9/x',
    failure: new AbandonedRequestError('POST', 'http://127.0.0.1:9/x'),
  };

  it('says in the JSON Line of a request whose outcome is unknown that it is in doubt', async () => {
    const { stdout } = await report([closed12, abandoned7], { json: true, notStarted: [8], interrupted: true });
    expect(jsonLines(stdout)).toEqual([
      { id: 12, ok: true, status: 204 },
      { id: 7, ok: false, inDoubt: true, error: abandoned7.error },
      { id: 8, ok: false, notStarted: true, error: 'not started: interrupted' },
    ]);
  });

  it('tells an in-doubt ID apart from a failed one, on its line and in the summary', async () => {
    const { stderr, thrown } = await report([closed12, abandoned7, missing13], { notStarted: [8], interrupted: true });
    expect(stderr).toContain(`? #7 in doubt (it may have been carried out): ${abandoned7.error}\n`);
    // In doubt is not done: it may or may not have been.
    expect((thrown as TktError).message).toBe('interrupted: 1 of 4 done, 1 failed, 1 in doubt, 1 not started');
    expect((thrown as TktError).details).toEqual(['closed: #12', 'not found (HTTP 404): #13', 'in doubt (may have been carried out): #7', 'not started: #8']);
  });
});

describe('stopped by SIGTERM', () => {
  it('says so on its error line and on the JSON Line of each ID not started', async () => {
    const stop = new AbortController();
    stop.abort('SIGTERM');
    const { stdout, thrown } = await report([closed12], { json: true, notStarted: [20], interrupted: true, stop: stop.signal });
    expect(stdout).toBe('{"id":12,"ok":true,"status":204}\n{"id":20,"ok":false,"notStarted":true,"error":"not started: stopped by SIGTERM"}\n');
    expect((thrown as TktError).message).toBe('stopped by SIGTERM: 1 of 2 done, 1 not started');
  });
});

describe('a request that timed out after it was sent', () => {
  it('is in doubt, not failed, in the count and the summary', async () => {
    const { stderr, thrown } = await report([closed12, timedOut9, missing13]);
    expect(stderr).toContain('? #9 in doubt (it may have been carried out): timed out after 30s\n');
    expect((thrown as TktError).exitCode).toBe(ExitCode.failed);
    expect((thrown as TktError).message).toBe('1 of 3 failed, 1 of 3 in doubt');
    expect((thrown as TktError).details).toEqual(['closed: #12', 'not found (HTTP 404): #13', 'in doubt (may have been carried out): #9']);
  });
});

describe('a run stopped by a refusal', () => {
  const refused = (id: number, status: number): BulkResult => {
    const [reason, message] = status === 401 ? ['not authenticated', 'token expired'] : ['permission denied', 'Forbidden'];
    return { id, ok: false, status, error: `${reason} (HTTP ${status}): ${message}`, failure: answered(status, message) };
  };
  const inFlight = [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008];

  it('exits 5 after a 403, naming the refusal, what was refused and what never started', async () => {
    const results = inFlight.map((id) => refused(id, 403));
    const { thrown } = await report(results, { stoppedBy: results[0], notStarted: [1009, 1010] });
    expect((thrown as TktError).exitCode).toBe(ExitCode.permissionDenied);
    expect((thrown as TktError).message).toBe('stopped at #1001: permission denied (HTTP 403); 2 of 10 not started');
    expect((thrown as TktError).details).toEqual(['permission denied (HTTP 403): #1001-1008', 'not started: #1009-1010']);
  });

  it('exits 4 after a 401 and leaves the login hint to main.ts', async () => {
    const results = [{ ...closed12, id: 1001 }, refused(1002, 401)];
    const { thrown } = await report(results, { stoppedBy: results[1], notStarted: [1003] });
    expect((thrown as TktError).exitCode).toBe(ExitCode.notAuthenticated);
    expect((thrown as TktError).hint).toBeUndefined();
    expect((thrown as TktError).details).toEqual(['closed: #1001', 'not authenticated (HTTP 401): #1002', 'not started: #1003']);
  });

  it('exits 5 even when nothing was left to start', async () => {
    const results = [refused(1, 403), refused(2, 403)];
    const { thrown } = await report(results, { stoppedBy: results[0] });
    expect((thrown as TktError).exitCode).toBe(ExitCode.permissionDenied);
    expect((thrown as TktError).message).toBe('stopped at #1: permission denied (HTTP 403)');
  });

  it('gives each ID not started a JSON Line naming why', async () => {
    const results = [refused(1001, 403)];
    const { stdout } = await report(results, { json: true, stoppedBy: results[0], notStarted: [1002] });
    expect(jsonLines(stdout)).toEqual([
      { id: 1001, ok: false, status: 403, error: 'permission denied (HTTP 403): Forbidden' },
      { id: 1002, ok: false, notStarted: true, error: 'not started: the run stopped at #1001 (permission denied (HTTP 403))' },
    ]);
  });
});

describe('summaries of long runs', () => {
  // Ctrl-C halfway through closing 5,000 tickets whose IDs are not consecutive (as a list gives them).
  const ids = Array.from({ length: 5000 }, (_, index) => 1001 + index * 2 + (index % 7 === 0 ? 1 : 0));
  const closedHalf: BulkResult[] = ids.slice(0, 2466).map((id) => ({ id, ok: true, status: 204 }));
  const failedSome: BulkResult[] = ids.slice(2466, 2500).map((id) => ({ ...missing13, id }));
  const notStarted = ids.slice(2500);

  it('stay within a few lines at a terminal, each within its width, saying where the full lists are', async () => {
    const reporter = await report([...closedHalf, ...failedSome], { notStarted, interrupted: true, io: { isTTY: true, columns: 80 } });
    const thrown = reporter.thrown as TktError;
    expect(thrown.message).toBe('interrupted: 2466 of 5000 done, 34 failed, 2500 not started');
    expect(thrown.details.length).toBeLessThanOrEqual(7);
    for (const line of thrown.details) expect(line.length).toBeLessThanOrEqual(78);
    expect(thrown.details.join('\n')).toMatch(/closed: #1002-1003, #1005,.* and \d+ more/s);
    expect(thrown.details.join('\n')).toMatch(/not started: .* and \d+ more/s);
    expect(thrown.details.at(-1)).toBe('(lists cut short: --json prints a line for every ID)');
    expect(thrown.hint).toMatch(/--json/);
  });

  it('keep every ID when stderr is not a terminal (a CI log), as ranges', async () => {
    const { thrown } = await report([...closedHalf, ...failedSome], { notStarted, interrupted: true });
    const shown = (thrown as TktError).details.join(' ');
    expect(shown).not.toContain('more');
    const listed = [...shown.matchAll(/#(\d+)(?:-(\d+))?/g)].flatMap(([, first, last]) => {
      const from = Number(first);
      return Array.from({ length: Number(last ?? first) - from + 1 }, (_, offset) => from + offset);
    });
    expect(listed.sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  });

  it('of a run that was not interrupted stay short too', async () => {
    const manyFailed = ids.map((id) => ({ ...missing13, id }));
    const { thrown } = await report(manyFailed, { io: { isTTY: true } });
    expect((thrown as TktError).message).toBe('5000 of 5000 failed');
    expect((thrown as TktError).details.length).toBeLessThanOrEqual(3);
    expect((thrown as TktError).details.at(-1)).toMatch(/--json/);
  });
});

describe('progress bar', () => {
  it('shows on a colour terminal for several IDs, and is gone before the count that ends the run', async () => {
    const { stdout, stderr } = await report([closed12, already14], { io: { isTTY: true, color: true } });
    expect(stderr).toContain('closed [');
    expect(stderr).toContain('2/2');
    expect(stderr.endsWith('\r\u001b[2K1 of 2 closed, 1 unchanged\n')).toBe(true);
    expect(stdout).toContain('#12 closed');
  });

  it.each([
    ['-q', { quiet: true }],
    ['a single ID', {}],
  ])('does not show with %s', async (_name, options) => {
    const results = 'quiet' in options ? [closed12, already14] : [closed12];
    expect((await report(results, { ...options, io: { isTTY: true, color: true } })).stderr).toBe('');
  });
});

// Several IDs with -q at a terminal: no bar (with one, the bar takes the wait line's place), and
// the wait line of the requests still in flight (output/waiting.ts) shows alone on its line, each
// failure printed above it.
describe('the wait line of the requests in flight', () => {
  it('with -q, is lifted for the line of an ID that failed and put back under it', async () => {
    const screen = createCollector();
    const test = createTestIO({ isTTY: true, color: true });
    const io: IO = { ...test.io, stdout: screen.stream, stderr: screen.stream, liveLines: new Set() };
    const timer = manualTimer();
    const notice = createWaitNotice(io, timer.start);
    let answer = () => {};
    const waiting = notice.watch('h', new Promise<void>((resolve) => (answer = resolve)));
    timer.advance(WAIT_NOTICE_DELAY_MS);
    const reporter = await reporterOn(io, { quiet: true, total: 3 });
    await reporter.result(missing13);
    const erase = '\r\u001b[2K';
    const [before, printed, after, ...rest] = screen
      .text()
      .split(erase)
      .filter((frame) => frame !== '');
    expect([before, after, ...rest]).toEqual(['Waiting for h…', 'Waiting for h…']);
    expect(stripVTControlCharacters(printed!)).toBe('✗ #13 not found (HTTP 404): Ticket 13 does not exist\n');
    answer();
    await waiting;
    expect(screen.text().endsWith(`Waiting for h…${erase}`)).toBe(true);
  });
});

describe('with runBulk', () => {
  it('reports each ID as it finishes and ends with the right error', async () => {
    const test = createTestIO();
    const reporter = await reporterOn(test.io, { verb: 'picked up', total: 3 });
    const run = await runBulk(
      [3, 1, 2],
      async (id) => {
        if (id === 1) throw new ApiError({ status: 404, method: 'POST', url: 'u', body: undefined, serverMessages: ['No ticket 1'] });
        return { status: 200 };
      },
      { concurrency: 2, signal: new AbortController().signal, onResult: (result) => reporter.result(result) },
    );
    await expect(reporter.finish(run)).rejects.toMatchObject({ message: '1 of 3 failed', details: ['picked up: #2-3', 'not found (HTTP 404): #1'] });
    expect(test.stdout()).toBe('✓ #3 picked up\n✓ #2 picked up\n');
    expect(test.stderr()).toBe('✗ #1 not found (HTTP 404): No ticket 1\n');
  });
});

describe('a slow stdout', () => {
  it('waits for it to drain before a JSON Line counts as printed, in order', async () => {
    const test = createTestIO();
    const held: (() => void)[] = [];
    const lines: string[] = [];
    // A pipe whose reader takes nothing until told to: every write fills it.
    const stdout = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        held.push(callback);
      },
    });
    const io = { ...test.io, stdout };
    const reporter = await reporterOn(io, { json: true, total: 2 });
    let printed = false;
    const first = reporter.result(closed12).then(() => (printed = true));
    await nextTurn();
    expect(printed).toBe(false);
    held.shift()!();
    await first;
    const second = reporter.result({ ...closed12, id: 13 });
    held.shift()!();
    await second;
    expect(lines).toEqual(['{"id":12,"ok":true,"status":204}\n', '{"id":13,"ok":true,"status":204}\n']);
  });
});

describe('lines to a pipe or a file', () => {
  afterEach(() => vi.useRealTimers());

  /** One stream for stdout and stderr (`> log 2>&1`) that keeps each write as it came, a batch of lines written at once as one. */
  function sharedLog() {
    const writes: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        callback();
      },
      writev(chunks, callback) {
        writes.push(chunks.map(({ chunk }) => String(chunk)).join(''));
        callback();
      },
    });
    return { stream, writes };
  }

  async function reporterOnLog(options: { isTTY: boolean; json: boolean; total: number }) {
    const log = sharedLog();
    const io = { ...createTestIO({ isTTY: options.isTTY }).io, stdout: log.stream, stderr: log.stream };
    return { reporter: await reporterOn(io, options), writes: log.writes };
  }

  it('go out together rather than a write per ID (the first at once), a failure on stderr after the lines that finished before it', async () => {
    const { reporter, writes } = await reporterOnLog({ isTTY: false, json: false, total: 5 });
    for (const result of [closed12, { ...closed12, id: 20 }, { ...closed12, id: 21 }, missing13, already14]) await reporter.result(result);
    await reporter.finish({ results: [], notStarted: [], interrupted: false });
    expect(writes).toEqual([
      '✓ #12 closed\n',
      '✓ #20 closed\n✓ #21 closed\n',
      '✗ #13 not found (HTTP 404): Ticket 13 does not exist\n',
      '✓ #14 already closed\n',
    ]);
  });

  it('with --json too', async () => {
    const { reporter, writes } = await reporterOnLog({ isTTY: false, json: true, total: 3 });
    await reporter.result(closed12);
    await reporter.result(missing13);
    await reporter.result(already14);
    await reporter.finish({ results: [], notStarted: [], interrupted: false });
    expect(writes).toHaveLength(2);
    expect(
      writes
        .join('')
        .split('\n')
        .map((line) => (line === '' ? '' : (JSON.parse(line) as { id: number }).id)),
    ).toEqual([12, 13, 14, '']);
  });

  it('are written at once for the first, then held 1 ms, 2, 4... up to 50 ms, without waiting for the end of the run', async () => {
    vi.useFakeTimers();
    const { reporter, writes } = await reporterOnLog({ isTTY: false, json: false, total: 20 });
    await reporter.result(closed12);
    expect(writes).toEqual(['✓ #12 closed\n']);
    let id = 100;
    for (const holdMs of [1, 2, 4, 8, 16, 32, 50, 50]) {
      const before = writes.length;
      await reporter.result({ ...closed12, id: ++id });
      await reporter.result({ ...closed12, id: ++id });
      await vi.advanceTimersByTimeAsync(holdMs - 0.5);
      expect(writes, `held ${holdMs} ms`).toHaveLength(before);
      await vi.advanceTimersByTimeAsync(0.5);
      expect(writes.at(-1)).toBe(`✓ #${id - 1} closed\n✓ #${id} closed\n`);
    }
  });

  it('at a terminal each line shows as its ID finishes', async () => {
    const { reporter, writes } = await reporterOnLog({ isTTY: true, json: false, total: 2 });
    await reporter.result(closed12);
    expect(writes).toEqual(['✓ #12 closed\n']);
  });
});
