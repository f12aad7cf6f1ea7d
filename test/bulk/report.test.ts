import { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createBulkReporter, type BulkReporterOptions } from '../../src/bulk/report.js';
import { runBulk, type BulkResult, type BulkRun } from '../../src/bulk/runner.js';
import { ApiError, ExitCode, InterruptedError, NetworkError, OperationError, TktError } from '../../src/errors.js';
import type { IO } from '../../src/context.js';
import { createOutput } from '../../src/output/format.js';
import { createTestIO, type TestIOOptions } from '../helpers/io.js';

const outputFor = (io: IO, json: boolean, quiet = false) => createOutput({ flags: { json, quiet }, io, now: () => new Date() });

/** What the client throws for an answer of `status` saying `message`. */
const answered = (status: number, message: string) => new ApiError({ status, method: 'POST', url: 'http://127.0.0.1:9/x', body: { message }, serverMessages: [message] });

const closed12: BulkResult = { id: 12, ok: true, status: 204 };
const missing13: BulkResult = {
  id: 13, ok: false, status: 404, error: 'Ticket 13 does not exist', body: { message: 'Ticket 13 does not exist' }, failure: answered(404, 'Ticket 13 does not exist'),
};
const already14: BulkResult = { id: 14, ok: true, status: 200, note: 'already closed' };
const refused15: BulkResult = {
  id: 15, ok: false, error: 'connection refused by http://127.0.0.1:9', failure: new NetworkError('refused', 'POST', 'http://127.0.0.1:9/x', 'connection refused by http://127.0.0.1:9'),
};

async function report(results: BulkResult[], options: Partial<BulkReporterOptions> & { json?: boolean; quiet?: boolean; io?: TestIOOptions; notStarted?: number[]; interrupted?: boolean } = {}) {
  const test = createTestIO(options.io);
  const notStarted = options.notStarted ?? [];
  const reporter = createBulkReporter(test.io, {
    output: await outputFor(test.io, options.json ?? false, options.quiet ?? false),
    verb: options.verb ?? 'closed',
    total: options.total ?? results.length + notStarted.length,
  });
  for (const result of results) await reporter.result(result);
  const run: BulkRun = { results, notStarted, interrupted: options.interrupted ?? false };
  let thrown: unknown;
  try {
    await reporter.finish(run);
  } catch (error) {
    thrown = error;
  }
  return { stdout: test.stdout(), stderr: test.stderr(), thrown };
}

describe('human output', () => {
  it('prints successes on stdout, failures on stderr, and ends with exit 1 naming every failed ID', async () => {
    const { stdout, stderr, thrown } = await report([closed12, missing13, already14, refused15]);
    expect(stdout).toBe('✓ #12 closed\n✓ #14 already closed\n');
    expect(stderr).toBe('✗ #13 not found (HTTP 404): Ticket 13 does not exist\n✗ #15 failed: connection refused by http://127.0.0.1:9\n');
    expect(thrown).toBeInstanceOf(OperationError);
    expect((thrown as OperationError).exitCode).toBe(ExitCode.failed);
    expect((thrown as OperationError).message).toBe('2 of 4 failed: #13, #15');
  });

  it('names the failure by its exit code: permission denied, not authenticated', async () => {
    const { stderr } = await report([
      { id: 1, ok: false, status: 400, error: 'User lacks permission Tickets.Resolve', failure: answered(400, 'User lacks permission Tickets.Resolve') },
      { id: 2, ok: false, status: 401, error: 'token expired', failure: answered(401, 'token expired') },
      { id: 3, ok: false, status: 500, error: 'Internal error', failure: answered(500, 'Internal error') },
    ], { verb: 'resolved' });
    expect(stderr).toBe([
      '✗ #1 permission denied (HTTP 400): User lacks permission Tickets.Resolve',
      '✗ #2 not authenticated (HTTP 401): token expired',
      '✗ #3 failed (HTTP 500): Internal error',
      '',
    ].join('\n'));
  });

  it('never lets server text drive the terminal', async () => {
    const { stderr } = await report([closed12, { ...missing13, error: 'gone\u001b]0;pwned\u0007\u001b[2J\nsecond line' }]);
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
    expect((await report([{ ...closed12, status: 200 }, { id: 20, ok: true }], { verb: 'picked up' })).stdout).toBe(
      '✓ #12 picked up\n✓ #20 picked up\n',
    );
  });
});

describe('--json', () => {
  it('prints exactly one JSON Line per ID on stdout, body only when the API sent one', async () => {
    const { stdout, stderr, thrown } = await report([closed12, missing13, already14, refused15], { json: true });
    expect(stdout).toBe([
      '{"id":12,"ok":true,"status":204}',
      '{"id":13,"ok":false,"status":404,"error":"Ticket 13 does not exist","body":{"message":"Ticket 13 does not exist"}}',
      '{"id":14,"ok":true,"status":200}',
      '{"id":15,"ok":false,"error":"connection refused by http://127.0.0.1:9"}',
      '',
    ].join('\n'));
    expect(stderr).toBe('');
    expect((thrown as TktError).exitCode).toBe(ExitCode.failed);
  });

  it('still prints a JSON Line for a single ID, and the exit code is that ID\'s own', async () => {
    const { stdout, thrown } = await report([missing13], { json: true });
    expect(stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown)).toEqual([
      { id: 13, ok: false, status: 404, error: 'Ticket 13 does not exist', body: { message: 'Ticket 13 does not exist' } },
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
    expect((thrown as TktError).message).toBe('1 of 3 failed: #13');
  });

  it('prints nothing at all when everything succeeded', async () => {
    expect(await report([closed12, already14], { quiet: true })).toEqual({ stdout: '', stderr: '', thrown: undefined });
  });
});

describe('a single ID', () => {
  it.each([
    [missing13, ExitCode.notFound, '#13 not found (HTTP 404)'],
    [{ id: 7, ok: false, status: 403, error: 'Forbidden', failure: answered(403, 'Forbidden') } as BulkResult, ExitCode.permissionDenied, '#7 permission denied (HTTP 403)'],
    [refused15, ExitCode.failed, '#15 failed'],
  ])('exits with the ID\'s own code and tells the failure once, through the error', async (result, exitCode, message) => {
    const { stdout, stderr, thrown } = await report([result]);
    expect(stdout).toBe('');
    expect(stderr).toBe('');
    expect(thrown).toBeInstanceOf(TktError);
    expect((thrown as TktError).exitCode).toBe(exitCode);
    expect((thrown as TktError).message).toBe(message);
    expect((thrown as TktError).details).toEqual([result.error]);
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
    expect((thrown as InterruptedError).message).toBe('interrupted: 2 of 4 done, 2 not started');
    expect((thrown as InterruptedError).details).toEqual(['closed: #12', 'failed: #13', 'not started: #20, #21']);
  });

  it('gives never-started IDs their own JSON Line so every ID has one', async () => {
    const { stdout, thrown } = await report([closed12], { json: true, notStarted: [20], interrupted: true, total: 2 });
    expect(stdout).toBe('{"id":12,"ok":true,"status":204}\n{"id":20,"ok":false,"error":"not started: interrupted"}\n');
    expect((thrown as TktError).exitCode).toBe(ExitCode.interrupted);
  });
});

describe('progress bar', () => {
  it('shows on a colour terminal for several IDs, and is gone before the end', async () => {
    const { stdout, stderr } = await report([closed12, already14], { io: { isTTY: true, color: true } });
    expect(stderr).toContain('closed [');
    expect(stderr).toContain('2/2');
    expect(stderr.endsWith('\r\u001b[2K')).toBe(true);
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

describe('with runBulk', () => {
  it('reports each ID as it finishes and ends with the right error', async () => {
    const test = createTestIO();
    const reporter = createBulkReporter(test.io, { output: await outputFor(test.io, false), verb: 'picked up', total: 3 });
    const run = await runBulk([3, 1, 2], async (id) => {
      if (id === 1) throw new ApiError({ status: 404, method: 'POST', url: 'u', body: undefined, serverMessages: ['No ticket 1'] });
      return { status: 200 };
    }, { concurrency: 2, signal: new AbortController().signal, onResult: (result) => reporter.result(result) });
    await expect(reporter.finish(run)).rejects.toThrow('1 of 3 failed: #1');
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
    const reporter = createBulkReporter(io, { output: await outputFor(io, true), verb: 'closed', total: 2 });
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
