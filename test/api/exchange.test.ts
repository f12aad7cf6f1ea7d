// One exchange over a real pool with tiny loopback servers.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createExchanger, type Exchange, type ExchangeSettings } from '../../src/api/exchange.js';
import { plans } from '../../src/api/plans.js';
import { createPool } from '../../src/api/pool.js';
import { MAX_ERROR_BODY_BYTES } from '../../src/api/size-limits.js';
import { createTransport } from '../../src/api/transport.js';
import type { RequestPlan } from '../../src/api/types.js';
import { fileUpload } from '../../src/api/upload-name.js';
import { AbandonedRequestError, ApiError, InterruptedError, NetworkError } from '../../src/errors.js';
import { manualClock } from '../helpers/manual-clock.js';
import { sendJson, startServer, type Handler, type TestServer } from './server.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl';
const NO_PROXY = { httpProxy: '', httpsProxy: '', noProxy: '' };

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.allSettled(closers.splice(0).map((close) => close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  closers.push(() => server.close());
  return server;
}

/** An exchanger for a service at `baseUrl`; the pool's clock never moves, so a stuck request shows as a hang. */
function exchanger(baseUrl: string, settings: Partial<ExchangeSettings> = {}) {
  const pool = createPool(() => createTransport({ proxies: NO_PROXY, connectTimeoutMs: 5_000 }), manualClock());
  closers.push(() => pool.close());
  const exchange = createExchanger({
    pool,
    baseOrigin: new URL(baseUrl).origin,
    token: TOKEN,
    userAgent: 'tkt/test',
    timeoutMs: 5_000,
    maxBodyBytes: 1024,
    proxies: NO_PROXY,
    halt: undefined,
    stop: undefined,
    ...settings,
  });
  const lines: string[] = [];
  const request = (plan: RequestPlan, secrets: readonly (string | undefined)[] = [TOKEN]): Exchange => ({
    method: plan.method.toUpperCase(),
    plan,
    secrets,
    trace: (line) => lines.push(line),
  });
  return { exchange, request, lines };
}

const failureOf = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );

describe('createExchanger', () => {
  it('sends the token to the configured origin only, and never with a plan that needs none', async () => {
    const home = await serve((_req, res) => sendJson(res, 200, {}));
    const elsewhere = await serve((_req, res) => sendJson(res, 200, {}));
    const { exchange, request, lines } = exchanger(home.url);

    await exchange(request(plans.getTicket(1)), `${home.url}/api/TicketsApi/1`);
    await exchange(request(plans.getTicket(1)), `${elsewhere.url}/api/TicketsApi/1`);
    await exchange(request(plans.authenticate({ Email: 'a', Password: 'p', RememberMe: false, Domain: '' })), `${home.url}/api/Users/authenticate`);

    expect(home.requests[0]?.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'user-agent': 'tkt/test' });
    expect(home.requests[0]?.headers.accept).toMatch(/^application\/json/);
    expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
    expect(home.requests[1]?.headers.authorization).toBeUndefined();
    expect(lines[0]).toBe(`HTTP > GET ${home.url}/api/TicketsApi/1 authorization: Bearer ***`);
    expect(lines[1]).toMatch(new RegExp(`^HTTP < 200 GET ${home.url}/api/TicketsApi/1 \\d+ms$`));
    expect(lines[2]).toBe(`HTTP > GET ${elsewhere.url}/api/TicketsApi/1`);
  });

  it('reads the answer, replacing a long token in data and anything credential-shaped in an error body', async () => {
    const server = await serve((_req, res, index) =>
      index === 0 ? sendJson(res, 200, { note: `x token ${TOKEN}` }) : sendJson(res, 500, { message: 'rejected Authorization: Basic YW5uOnB3' }),
    );
    const { exchange, request } = exchanger(server.url);

    const ok = await exchange(request(plans.getTicket(1)), `${server.url}/a`);
    expect(ok).toMatchObject({ status: 200, url: `${server.url}/a`, body: { note: 'x token ***' }, problem: undefined });
    expect(ok.headers['content-type']).toBe('application/json');
    const failed = await exchange(request(plans.getTicket(1)), `${server.url}/b`);
    expect(failed).toMatchObject({ status: 500, body: { message: 'rejected Authorization: Basic ***' } });
  });

  it('leaves a short token in data alone: it would be ordinary text', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { title: 'x marks the spot' }));
    const { exchange, request } = exchanger(server.url, { token: 'x' });
    expect((await exchange(request(plans.getTicket(1), ['x']), `${server.url}/a`)).body).toEqual({ title: 'x marks the spot' });
  });

  it('refuses a success larger than the limit, and cuts an error body, tracing the cut', async () => {
    const server = await serve((_req, res, index) => {
      const body = 'y'.repeat(index === 0 ? 2048 : MAX_ERROR_BODY_BYTES + 10);
      res.writeHead(index === 0 ? 200 : 502, { 'content-type': 'text/plain', 'content-length': body.length });
      res.end(body);
    });
    const { exchange, request, lines } = exchanger(server.url);

    const tooLarge = await failureOf(exchange(request(plans.getTicket(1)), `${server.url}/big`));
    expect(tooLarge).toBeInstanceOf(ApiError);
    expect((tooLarge as ApiError).message).toBe(`answer too large (HTTP 200): 2 KB (Content-Length) from GET ${server.url}/big`);

    const cut = await exchange(request(plans.getTicket(1)), `${server.url}/error`);
    expect(cut).toMatchObject({ status: 502, body: 'y'.repeat(MAX_ERROR_BODY_BYTES) });
    expect(lines.at(-1)).toMatch(/^HTTP < 502 GET .*\/error \d+ms \(body cut at 1 MB\)$/);
  });

  it('sends nothing once the run is halted', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const { exchange, request } = exchanger(server.url, { halt: AbortSignal.abort() });
    expect(await failureOf(exchange(request(plans.getTicket(1)), `${server.url}/a`))).toBeInstanceOf(InterruptedError);
    expect(server.requests).toEqual([]);
  });

  it('gives up a request in flight when the run is halted: its outcome is unknown', async () => {
    const halt = new AbortController();
    const server = await serve(() => halt.abort());
    const { exchange, request, lines } = exchanger(server.url, { halt: halt.signal });

    const error = await failureOf(exchange(request(plans.pickupTicket(3)), `${server.url}/api/TicketsApi/pickup/3`));
    expect(error).toBeInstanceOf(AbandonedRequestError);
    expect((error as Error).message).toContain(`POST ${server.url}/api/TicketsApi/pickup/3`);
    expect(lines.at(-1)).toBe(`HTTP ! POST ${server.url}/api/TicketsApi/pickup/3 given up: interrupted`);
  });

  it('gives up a request whose run is halted while its body is being built, before it is sent', async () => {
    const halt = new AbortController();
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const { exchange, request } = exchanger(server.url, { halt: halt.signal });

    // The exchange builds the form (an await) before it sends: the halt comes in between.
    const pending = failureOf(exchange(request(plans.register({ fields: { Title: 'Printer' } })), `${server.url}/api/TicketsApi/new`));
    halt.abort();
    expect(await pending).toBeInstanceOf(AbandonedRequestError);
    expect(server.requests).toEqual([]);
  });

  it('gives up a read given up (giveUp) while its body is being built, before it is sent', async () => {
    // Answered once the body is read: an answer before it would reset the upload still being written.
    const server = await serve((req, res) => req.resume().on('end', () => sendJson(res, 200, {})));
    const { exchange, request } = exchanger(server.url);
    const dir = await mkdtemp(join(tmpdir(), 'tkt-exchange-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const file = join(dir, 'log.txt');
    await writeFile(file, 'a log');

    // A form with a file is built with an await (its size is read from disk): the giving up comes in between.
    const giveUp = new AbortController();
    const plan = { ...plans.register({ fields: { Title: 'Printer' }, files: [file].map(fileUpload) }), retry: true };
    const pending = failureOf(exchange({ ...request(plan), giveUp: giveUp.signal }, `${server.url}/api/TicketsApi/register`));
    giveUp.abort();
    expect(await pending).toBeInstanceOf(InterruptedError);
    expect(server.requests).toEqual([]);
  });

  it('gives up every request in flight when the run is halted, not only one', async () => {
    const halt = new AbortController();
    let arrived = 0;
    const server = await serve(() => void (++arrived === 3 && halt.abort()));
    const { exchange, request } = exchanger(server.url, { halt: halt.signal });

    const errors = await Promise.all([1, 2, 3].map((id) => failureOf(exchange(request(plans.pickupTicket(id)), `${server.url}/api/TicketsApi/pickup/${id}`))));
    expect(errors.map((error) => error instanceof AbandonedRequestError)).toEqual([true, true, true]);
  });

  it('fails as a dropped connection when the service closes it in the middle of the body', async () => {
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id": 1, "tit', () => req.socket.destroy());
    });
    const { exchange, request } = exchanger(server.url);

    const error = await failureOf(exchange(request(plans.getTicket(1)), `${server.url}/api/TicketsApi/1`));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ failure: 'reset' });
  });

  it('ends an exchange that outlives its time as a network time-out, keeping a pool that is not stuck', async () => {
    const server = await serve(() => undefined);
    const { exchange, request, lines } = exchanger(server.url, { timeoutMs: 100 });

    const error = await failureOf(exchange(request(plans.getTicket(1)), `${server.url}/slow`));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ failure: 'timeout', message: `request timed out after 0.1s: GET ${server.url}/slow` });
    expect(lines.at(-1)).toMatch(/^HTTP ! GET .*\/slow \d+ms timeout: request timed out/);
    expect(lines.join('\n')).not.toContain('replacing the connection pool');
  });

  // A service that takes connections and answers nothing: a bulk run stops at it (README, Scripting).
  it('marks a time-out during which the service answered no request of the client as the service silent', async () => {
    const server = await serve((req, res) => {
      if (req.url !== '/slow') sendJson(res, 200, {});
    });
    const { exchange, request } = exchanger(server.url, { timeoutMs: 100 });
    // An answer before the request was sent says nothing of the time after.
    await exchange(request(plans.getTicket(1)), `${server.url}/fast`);

    const error = await failureOf(exchange(request(plans.pickupTicket(1)), `${server.url}/slow`));
    expect(error).toMatchObject({ failure: 'timeout', serviceSilent: true });
  });

  it('does not mark a time-out as the service silent when another request of the client was answered meanwhile', async () => {
    let answerOthers = () => {};
    const slowArrived = new Promise<void>((resolve) => {
      answerOthers = resolve;
    });
    const server = await serve((req, res) => {
      if (req.url === '/slow') answerOthers();
      else void slowArrived.then(() => sendJson(res, 200, {}));
    });
    const { exchange, request } = exchanger(server.url, { timeoutMs: 300 });

    const [slow, fast] = await Promise.all([
      failureOf(exchange(request(plans.pickupTicket(1)), `${server.url}/slow`)),
      exchange(request(plans.getTicket(2)), `${server.url}/fast`),
    ]);
    expect(fast.status).toBe(200);
    expect(slow).toMatchObject({ failure: 'timeout', serviceSilent: false });
  });
});
