import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConcurrency, runBulk, type BulkResult, type BulkWorker } from '../../src/bulk/runner.js';
import { AbandonedRequestError, ApiError, ExitCode, NetworkError, UsageError, exitCodeOf } from '../../src/errors.js';

/** A promise the test settles by hand, so ordering is decided by the test, not by timers. */
function deferred<T = void>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const never = new AbortController().signal;

/**
 * runBulk over IDs 1 to 5, two at a time, each held until its gate is opened, then passed to
 * `after` (which may throw) before it succeeds; with the gates and the IDs started so far.
 */
function gatedRun(signal: AbortSignal, after: (id: number) => void = () => {}) {
  const gates = new Map([1, 2, 3, 4, 5].map((id) => [id, deferred()]));
  const started: number[] = [];
  const running = runBulk(
    [1, 2, 3, 4, 5],
    async (id) => {
      started.push(id);
      await gates.get(id)!.promise;
      after(id);
      return { status: 204 };
    },
    { concurrency: 2, signal },
  );
  return { open: (id: number) => gates.get(id)!.resolve(), started, running };
}

describe('runBulk', () => {
  it('never has more than `concurrency` IDs in flight, and uses all of them', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const worker: BulkWorker = async () => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return { status: 204 };
    };
    const ids = Array.from({ length: 20 }, (_, index) => index + 1);
    const run = await runBulk(ids, worker, { concurrency: 3, signal: never });
    expect(maxInFlight).toBe(3);
    expect(run.results.map((result) => result.id)).toEqual(ids);
    expect(run.results.every((result) => result.ok && result.failure === undefined)).toBe(true);
    expect(run).toMatchObject({ notStarted: [], interrupted: false });
  });

  it('waits for a slow reporter before a lane starts its next ID (backpressure from stdout)', async () => {
    const started: number[] = [];
    const printed = deferred();
    const worker: BulkWorker = async (id) => {
      started.push(id);
      return { status: 204 };
    };
    const running = runBulk([1, 2, 3, 4, 5, 6], worker, { concurrency: 2, signal: never, onResult: () => printed.promise });
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    // Each lane printed its first result and waits for that write: no third ID has started.
    expect(started).toEqual([1, 2]);
    printed.resolve();
    expect((await running).results).toHaveLength(6);
    expect(started).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('starts no ID once a result could not be reported (stdout full): the lanes in flight finish, kept in the results', async () => {
    const gates = new Map([1, 2, 3, 4, 5].map((id) => [id, deferred()]));
    const reported: number[] = [];
    const full = new Error('cannot write the output: no space left on device (ENOSPC)');
    const running = runBulk(
      [1, 2, 3, 4, 5],
      async (id) => {
        await gates.get(id)!.promise;
        return { status: 204 };
      },
      {
        concurrency: 2,
        signal: never,
        onResult: (result) => {
          reported.push(result.id);
          if (result.id === 1) throw full;
        },
      },
    );
    gates.get(1)!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    gates.get(2)!.resolve();
    const run = await running;

    expect(run.outputFailure).toBe(full);
    // #2 was in flight: it finished, and is not reported to the output that failed.
    expect(run.results.map((result) => result.id)).toEqual([1, 2]);
    expect(reported).toEqual([1]);
    expect(run.notStarted).toEqual([3, 4, 5]);
    expect(run.interrupted).toBe(false);
  });

  it('keeps input order in results while reporting in completion order', async () => {
    const gates = new Map([1, 2, 3].map((id) => [id, deferred()]));
    const reported: Array<[number, number, number]> = [];
    const running = runBulk(
      [1, 2, 3],
      async (id) => {
        await gates.get(id)!.promise;
        return { status: 200 };
      },
      {
        concurrency: 3,
        signal: never,
        onResult: (result, done, total) => {
          reported.push([result.id, done, total]);
        },
      },
    );
    gates.get(3)!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    gates.get(1)!.resolve();
    await new Promise((resolve) => setImmediate(resolve));
    gates.get(2)!.resolve();
    const run = await running;
    expect(reported).toEqual([
      [3, 1, 3],
      [1, 2, 3],
      [2, 3, 3],
    ]);
    expect(run.results.map((result) => result.id)).toEqual([1, 2, 3]);
  });

  it('turns thrown errors into failed results and carries on with the rest', async () => {
    const worker: BulkWorker = async (id) => {
      if (id === 2) {
        throw new ApiError({
          status: 404,
          method: 'POST',
          url: 'http://127.0.0.1/api/TicketsApi/close/2',
          body: { title: 'Not Found', detail: 'Ticket 2 does not exist' },
          serverMessages: ['Ticket 2 does not exist'],
        });
      }
      if (id === 3) throw new NetworkError('reset', 'POST', 'http://127.0.0.1:9/x', 'connection closed by http://127.0.0.1:9');
      if (id === 4) throw new TypeError('boom');
      // Last: a 403 stops the run.
      if (id === 6) throw new ApiError({ status: 403, method: 'POST', url: 'u', body: '', serverMessages: [] });
      return { status: 204 };
    };
    const run = await runBulk([1, 2, 3, 4, 5, 6], worker, { concurrency: 1, signal: never });
    expect(run.results).toEqual<BulkResult[]>([
      { id: 1, ok: true, status: 204 },
      {
        id: 2,
        ok: false,
        status: 404,
        error: 'not found (HTTP 404): Ticket 2 does not exist',
        body: { title: 'Not Found', detail: 'Ticket 2 does not exist' },
        failure: expect.any(ApiError),
      },
      { id: 3, ok: false, error: 'connection closed by http://127.0.0.1:9', failure: expect.any(NetworkError), inDoubt: true },
      { id: 4, ok: false, error: 'boom', failure: expect.any(TypeError) },
      { id: 5, ok: true, status: 204 },
      { id: 6, ok: false, status: 403, error: 'permission denied (HTTP 403)', failure: expect.any(ApiError) },
    ]);
    // The failure is kept whole: exitCodeOf tells each kind apart (404 is 3, 403 is 5, the rest 1).
    const failures = run.results.filter((result) => !result.ok).map((result) => exitCodeOf(result.failure));
    expect(failures).toEqual([ExitCode.notFound, ExitCode.failed, ExitCode.failed, ExitCode.permissionDenied]);
  });

  it("keeps a success's note and body", async () => {
    const run = await runBulk([1], async () => ({ status: 200, note: 'already closed', body: { id: 1 } }), { concurrency: 2, signal: never });
    expect(run.results).toEqual<BulkResult[]>([{ id: 1, ok: true, status: 200, note: 'already closed', body: { id: 1 } }]);
  });

  it('on abort starts nothing new, lets in-flight IDs finish and lists the rest as not started', async () => {
    const controller = new AbortController();
    const { open, started, running } = gatedRun(controller.signal);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2]);
    controller.abort();
    open(2);
    open(1);
    const run = await running;
    expect(started).toEqual([1, 2]);
    expect(run.results.map((result) => [result.id, result.ok])).toEqual([
      [1, true],
      [2, true],
    ]);
    expect(run.notStarted).toEqual([3, 4, 5]);
    expect(run.interrupted).toBe(true);
  });

  it.each([
    ['a 403', 403, ''],
    ['a 401', 401, 'token expired'],
    ["register's 400 saying the permission is missing", 400, 'You do not have permission to create tickets'],
  ])('after %s starts nothing new, lets the IDs in flight finish and lists the rest as not started', async (_name, status, message) => {
    const { open, started, running } = gatedRun(never, (id) => {
      if (id === 1) throw new ApiError({ status, method: 'POST', url: 'u', body: message, serverMessages: message === '' ? [] : [message] });
    });
    await new Promise((resolve) => setImmediate(resolve));
    open(1);
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    // The refusal is in: the lane that had it takes no next ID; the other's request still runs.
    expect(started).toEqual([1, 2]);
    open(2);
    const run = await running;
    expect(started).toEqual([1, 2]);
    expect(run.results.map((result) => [result.id, result.ok])).toEqual([
      [1, false],
      [2, true],
    ]);
    expect(run.stoppedBy).toBe(run.results[0]);
    expect(run.notStarted).toEqual([3, 4, 5]);
    expect(run.interrupted).toBe(false);
  });

  it('keeps going after failures that other IDs need not share (404, 500, a time-out, a reset)', async () => {
    const run = await runBulk(
      [1, 2, 3, 4, 5],
      async (id) => {
        if (id === 1) throw new ApiError({ status: 404, method: 'POST', url: 'u', body: '', serverMessages: [] });
        if (id === 2) throw new ApiError({ status: 500, method: 'POST', url: 'u', body: '', serverMessages: [] });
        if (id === 3) throw new NetworkError('timeout', 'POST', 'u', 'request timed out');
        if (id === 4) throw new NetworkError('reset', 'POST', 'u', 'connection closed by the server');
        return { status: 204 };
      },
      { concurrency: 1, signal: never },
    );
    expect(run.results).toHaveLength(5);
    expect(run.stoppedBy).toBeUndefined();
    expect(run.notStarted).toEqual([]);
  });

  // The service down mid-run: every further request would be refused too (README, Scripting).
  it.each([
    ['a refused connection', new NetworkError('refused', 'POST', 'u', 'connection refused')],
    ['a host name that does not resolve', new NetworkError('dns', 'POST', 'u', 'could not resolve host x')],
    ['a TLS failure', new NetworkError('tls', 'POST', 'u', 'TLS error (self-signed certificate)')],
    ['a proxy that opened no tunnel', new NetworkError('reset', 'POST', 'u', 'the proxy closed the connection', undefined, { notSent: true })],
    [
      'a time-out while the service answered no request at all',
      new NetworkError('timeout', 'POST', 'u', 'request timed out after 30s', undefined, { serviceSilent: true }),
    ],
  ])('stops after %s: the rest not started', async (_name, failure) => {
    const run = await runBulk(
      [1, 2, 3, 4],
      async (id) => {
        if (id === 2) throw failure;
        return { status: 204 };
      },
      { concurrency: 1, signal: never },
    );
    expect(run.results.map((result) => [result.id, result.ok])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect(run.stoppedBy).toBe(run.results[1]);
    expect(run.notStarted).toEqual([3, 4]);
  });

  it('a refusal after Ctrl-C leaves the run interrupted, not stopped', async () => {
    const controller = new AbortController();
    const run = await runBulk(
      [1, 2],
      async () => {
        controller.abort();
        throw new ApiError({ status: 403, method: 'POST', url: 'u', body: '', serverMessages: [] });
      },
      { concurrency: 1, signal: controller.signal },
    );
    expect(run).toMatchObject({ notStarted: [2], interrupted: true });
    expect(run.stoppedBy).toBeUndefined();
  });

  it.each([
    ['a change given up on a second signal', true, new AbandonedRequestError('POST', 'u')],
    ['a change that timed out', true, new NetworkError('timeout', 'POST', 'u', 'timed out')],
    ['a change whose connection was reset', true, new NetworkError('reset', 'POST', 'u', 'reset')],
    ["a gateway's 502 to a change", true, new ApiError({ status: 502, method: 'POST', url: 'u', body: '', serverMessages: [] })],
    ['a refused connection (nothing sent)', false, new NetworkError('refused', 'POST', 'u', 'refused')],
    ['a read that timed out (it changes nothing)', false, new NetworkError('timeout', 'GET', 'u', 'timed out')],
    ['a read given up', false, new AbandonedRequestError('GET', 'u')],
    ['a read by POST (a list) given up', false, new AbandonedRequestError('POST', 'u', true)],
    ['a 500 (the service answered)', false, new ApiError({ status: 500, method: 'POST', url: 'u', body: '', serverMessages: [] })],
  ])('%s: in doubt %s', async (_name, inDoubt, error) => {
    const run = await runBulk(
      [1],
      async () => {
        throw error;
      },
      { concurrency: 1, signal: never },
    );
    expect(run.results[0]!.inDoubt === true).toBe(inDoubt);
  });

  it('starts nothing when already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const run = await runBulk(
      [7, 8],
      async () => {
        calls += 1;
        return {};
      },
      { concurrency: 4, signal: controller.signal },
    );
    expect(calls).toBe(0);
    expect(run).toEqual({ results: [], notStarted: [7, 8], interrupted: true });
  });

  it('refuses a concurrency outside 1..32', async () => {
    await expect(runBulk([1], async () => ({}), { concurrency: 0, signal: never })).rejects.toThrow(RangeError);
    await expect(runBulk([1], async () => ({}), { concurrency: 33, signal: never })).rejects.toThrow(RangeError);
  });
});

describe('runBulk over real HTTP', () => {
  let server: Server;
  let baseUrl: string;
  let inFlight = 0;
  let maxInFlight = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const id = Number(request.url?.split('/').pop());
      // Answer on the next turn so requests overlap for real.
      setImmediate(() => {
        inFlight -= 1;
        if (id % 5 === 0) {
          response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `Ticket ${id} not found` }));
        } else {
          response.writeHead(204).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('bounds the requests the server sees and reports each failure with its server message', async () => {
    const worker: BulkWorker = async (id) => {
      const url = `${baseUrl}/api/TicketsApi/pickup/${id}`;
      const response = await fetch(url, { method: 'POST' });
      if (response.ok) return { status: response.status };
      const body = (await response.json()) as { message: string };
      throw new ApiError({ status: response.status, method: 'POST', url, body, serverMessages: [body.message] });
    };
    const ids = Array.from({ length: 25 }, (_, index) => index + 1);
    const run = await runBulk(ids, worker, { concurrency: 4, signal: never });
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(run.results.filter((result) => !result.ok)).toEqual(
      [5, 10, 15, 20, 25].map((id) => ({
        id,
        ok: false,
        status: 404,
        error: `not found (HTTP 404): Ticket ${id} not found`,
        body: { message: `Ticket ${id} not found` },
        failure: expect.any(ApiError),
      })),
    );
    expect(run.results.filter((result) => result.ok)).toHaveLength(20);
  });
});

describe('parseConcurrency', () => {
  it.each([
    ['1', 1],
    ['4', 4],
    ['32', 32],
    [' 8 ', 8],
  ])('accepts %j', (text, value) => {
    expect(parseConcurrency(text)).toBe(value);
  });

  it.each(['0', '33', '-1', '2.5', 'four', '', '1e1'])('refuses %j as a usage error', (text) => {
    expect(() => parseConcurrency(text)).toThrow(UsageError);
    expect(() => parseConcurrency(text)).toThrow(`invalid --concurrency ${JSON.stringify(text)}: expected a whole number from 1 to 32`);
  });
});
