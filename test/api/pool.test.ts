// The pool with real transports (node:http direct, undici through a proxy) and real loopback
// servers; only the grace period's clock is moved by hand.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createPool, STUCK_GRACE_MS, type Pool } from '../../src/api/pool.js';
import { createTransport } from '../../src/api/transport.js';
import { manualClock } from '../helpers/manual-clock.js';
import { sendJson, startServer, type Handler } from './server.js';

const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.allSettled(closers.splice(0).map((close) => close()));
});

async function serve(handler: Handler): Promise<string> {
  const server = await startServer(handler);
  closers.push(() => server.close());
  return server.url;
}

/** A proxy that drops every CONNECT: an agent behind it reconnects in a loop, deaf to aborts. */
async function startDroppingProxy(): Promise<string> {
  const proxy: Server = createServer();
  proxy.on('connect', (_req, socket: Socket) => socket.destroy());
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  closers.push(() => {
    proxy.closeAllConnections();
    return new Promise<void>((resolve) => proxy.close(() => resolve()));
  });
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

/** A pool of transports going through `httpProxy` (direct when ''), counting the transports it makes. */
function testPool(httpProxy = ''): { pool: Pool; clock: ReturnType<typeof manualClock>; agentsMade: () => number } {
  const clock = manualClock();
  let agentsMade = 0;
  const pool = createPool(() => {
    agentsMade += 1;
    return createTransport({ proxies: { httpProxy, httpsProxy: '', noProxy: '' }, connectTimeoutMs: 5_000 });
  }, clock);
  closers.push(() => pool.close());
  return { pool, clock, agentsMade: () => agentsMade };
}

async function readJson(body: AsyncIterable<Buffer>): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

const settledAs = (pending: Promise<unknown>): Promise<unknown> =>
  pending.then(
    () => 'answered',
    (error: unknown) => error,
  );

describe('createPool', () => {
  it('sends over one agent, kept for every request, on one kept-alive connection', async () => {
    const clientPorts: Array<number | undefined> = [];
    const url = await serve((req, res) => {
      clientPorts.push(req.socket.remotePort);
      sendJson(res, 200, { ok: true });
    });
    const { pool, agentsMade } = testPool();

    for (let request = 0; request < 2; request++) {
      const answer = await pool.request({ origin: url, path: '/x', method: 'GET' });
      expect([answer.statusCode, await readJson(answer.body)]).toEqual([200, { ok: true }]);
    }
    expect(agentsMade()).toBe(1);
    expect(new Set(clientPorts).size).toBe(1);
  });

  it('keeps the pool when an aborted request settles, without waiting out the grace period', async () => {
    const url = await serve(() => undefined);
    const { pool, clock, agentsMade } = testPool();
    const controller = new AbortController();
    const pending = pool.request({ origin: url, path: '/', method: 'GET', signal: controller.signal });
    controller.abort();
    const lines: string[] = [];

    // The clock never moves: only the request settling can end this.
    await pool.replaceIfStuck(pending, (line) => lines.push(line));

    expect(await clock.nextSleep()).toBe(STUCK_GRACE_MS);
    expect(agentsMade()).toBe(1);
    expect(lines).toEqual([]);
  });

  it('replaces the pool of an aborted request that never got a connection, which ends that request', async () => {
    const { pool, clock, agentsMade } = testPool(await startDroppingProxy());
    const controller = new AbortController();
    // The target is never reached: the proxy drops the tunnel to it.
    const pending = pool.request({ origin: 'http://127.0.0.1:9', path: '/', method: 'GET', signal: controller.signal });
    const outcome = settledAs(pending);
    controller.abort();
    const lines: string[] = [];

    const replacing = pool.replaceIfStuck(pending, (line) => lines.push(line));
    expect(await clock.nextSleep()).toBe(STUCK_GRACE_MS);
    expect(agentsMade()).toBe(1);
    clock.advance(STUCK_GRACE_MS);
    await replacing;

    expect(agentsMade()).toBe(2);
    expect(lines).toEqual(['HTTP a request never got a connection: replacing the connection pool']);
    expect(await outcome).toMatchObject({ code: 'UND_ERR_DESTROYED' });
  });
});
