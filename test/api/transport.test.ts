// The transport's direct path (node:http) against raw loopback servers: the head it sends, the
// answer it gives back, and its idle connections, which must never keep a finished run alive.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PoolAnswer } from '../../src/api/pool.js';
import { createTransport } from '../../src/api/transport.js';
import type { Transport } from '../../src/api/pool.js';
import { selfSignedCertificate } from '../helpers/certificate.js';
import { startServer } from './server.js';

const NO_PROXY = { httpProxy: '', httpsProxy: '', noProxy: '' };
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.allSettled(closers.splice(0).map((close) => close()));
});

function transport(): Transport {
  const made = createTransport({ proxies: NO_PROXY, connectTimeoutMs: 5_000 });
  closers.push(() => made.close());
  return made;
}

/** A server that records each request's head as sent and, once the request is whole, answers `answer` (raw HTTP). */
async function rawServer(answer: string): Promise<{ origin: string; heads: string[] }> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = received.slice(0, end);
      const body = received.slice(end + 4);
      const length = /^content-length: (\d+)$/im.exec(head);
      const whole = /^transfer-encoding: chunked$/im.test(head) ? body.endsWith('0\r\n\r\n') : body.length >= Number(length?.[1] ?? 0);
      if (!whole) return;
      heads.push(head);
      received = '';
      socket.write(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, heads };
}

/**
 * A raw server answering "ok" on each connection, the head's extra lines from `extra(connection)`
 * (the connection's number), with `holdFirst` the first answer only once a second connection is
 * open (so that two requests take two); `connected[n]` and `closed[n]` settle as connection n
 * opens and closes.
 */
async function closeWatchingServer(
  extra: (connection: number) => string,
  { holdFirst = false } = {},
): Promise<{
  origin: string;
  connected: Promise<void>[];
  closed: Promise<void>[];
  open: () => number;
}> {
  const opened: Array<() => void> = [];
  const ended: Array<() => void> = [];
  const connected = [0, 1].map((at) => new Promise<void>((resolve) => (opened[at] = resolve)));
  const closed = [0, 1].map((at) => new Promise<void>((resolve) => (ended[at] = resolve)));
  const sockets = new Set<Socket>();
  let count = 0;
  const server = createServer((socket) => {
    const connection = count++;
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      ended[connection]?.();
    });
    opened[connection]?.();
    socket.once('data', () => {
      const answer = () => socket.write(`HTTP/1.1 200 OK\r\ncontent-length: 2\r\n${extra(connection)}\r\nok`);
      if (holdFirst && connection === 0) void connected[1]!.then(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`, connected, closed, open: () => sockets.size };
}

async function text(answer: PoolAnswer): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of answer.body) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

const OK = 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok';

describe('createTransport, direct', () => {
  it('sends the head undici sent: Host first, a body by its length, one of unknown length chunked, none for a GET', async () => {
    const server = await rawServer(OK);
    const send = transport();
    async function* chunks(): AsyncGenerator<Buffer> {
      yield Buffer.from('part one, ');
      yield Buffer.from('part two');
    }
    const headers = { accept: 'application/json', authorization: 'Bearer t' };

    for (const request of [
      { method: 'GET', path: '/api/TicketsApi/5', headers },
      { method: 'POST', path: '/api/TicketsApi', headers: { ...headers, 'content-type': 'application/json' }, body: '{"page":1}' },
      { method: 'POST', path: '/api/TicketsApi/pickup/5', headers },
      { method: 'POST', path: '/api/TicketsApi/addfiles/5', headers, body: chunks() },
    ]) {
      expect(await text(await send.request({ origin: server.origin, ...request }))).toBe('ok');
    }

    const host = `host: ${new URL(server.origin).host}\r\nconnection: keep-alive`;
    expect(server.heads).toEqual([
      `GET /api/TicketsApi/5 HTTP/1.1\r\n${host}\r\naccept: application/json\r\nauthorization: Bearer t`,
      `POST /api/TicketsApi HTTP/1.1\r\n${host}\r\naccept: application/json\r\nauthorization: Bearer t\r\ncontent-type: application/json\r\ncontent-length: 10`,
      `POST /api/TicketsApi/pickup/5 HTTP/1.1\r\n${host}\r\naccept: application/json\r\nauthorization: Bearer t\r\nContent-Length: 0`,
      `POST /api/TicketsApi/addfiles/5 HTTP/1.1\r\n${host}\r\naccept: application/json\r\nauthorization: Bearer t\r\nTransfer-Encoding: chunked`,
    ]);
  });

  it('gives the answer its status, lower-case header names and a repeated header as a list', async () => {
    const server = await rawServer(
      'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nWarning: one\r\nWarning: two\r\ncontent-length: 2\r\n\r\n{}',
    );

    const answer = await transport().request({ origin: server.origin, path: '/', method: 'GET' });

    expect(answer.statusCode).toBe(201);
    expect(answer.headers).toEqual({ 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'], warning: ['one', 'two'], 'content-length': '2' });
    expect(await text(answer)).toBe('{}');
  });

  it('lets the requests in flight finish when closed, as undici did, and only then ends the connections', async () => {
    let answer = (): void => undefined;
    let asked = (): void => undefined;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    const server = await startServer((_req, res) => {
      answer = () => res.end('late but whole');
      asked();
    });
    closers.push(() => server.close());
    const send = transport();
    const pending = send.request({ origin: server.url, path: '/', method: 'GET' });
    await reached;

    let closed = false;
    const closing = send.close().then(() => (closed = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    answer();

    expect(await text(await pending)).toBe('late but whole');
    await closing;
    expect(closed).toBe(true);
  });

  it('closes all the same when a request in flight fails', async () => {
    let drop = (): void => undefined;
    let asked = (): void => undefined;
    const reached = new Promise<void>((resolve) => (asked = resolve));
    const server = await startServer((req) => {
      drop = () => req.socket.destroy();
      asked();
    });
    closers.push(() => server.close());
    const send = transport();
    const failed = send.request({ origin: server.url, path: '/', method: 'GET' }).catch((error: unknown) => error);
    await reached;

    const closing = send.close();
    drop();

    expect(await failed).toMatchObject({ code: 'ECONNRESET' });
    await expect(closing).resolves.toBeUndefined();
  });

  it('ends a connection left idle (not one waiting for its answer), as undici did, so that a long run never writes into one dropped unseen', async () => {
    let connectionClosed = (): void => undefined;
    const closed = new Promise<void>((resolve) => (connectionClosed = resolve));
    // The server keeps an idle connection a minute: only the client can end it sooner.
    // It answers later than the idle limit: a connection in use is not idle.
    const server = createHttpServer({ keepAliveTimeout: 60_000 }, (req, res) => {
      req.socket.once('close', connectionClosed);
      setTimeout(() => res.end('ok'), 60);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const send = createTransport({ proxies: NO_PROXY, connectTimeoutMs: 5_000, idleSocketMs: 20 });
    closers.push(() => send.close());
    const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

    expect(await text(await send.request({ origin, path: '/', method: 'GET' }))).toBe('ok');

    // The transport is not closed: the idle limit alone ends the connection.
    await closed;
  });

  // A repeated header is read as node:http reads it: joined, its first value first.
  it.each([
    ['once', 'keep-alive: timeout=1\r\n'],
    ['repeated', 'keep-alive: timeout=1\r\nkeep-alive: timeout=1\r\n'],
  ])('keeps no connection the service says it keeps a second or less (Keep-Alive: timeout=1, %s), as node:http does', async (_how, head) => {
    const server = await closeWatchingServer(() => head);
    const send = createTransport({ proxies: NO_PROXY, connectTimeoutMs: 5_000, idleSocketMs: 60_000 });
    closers.push(() => send.close());

    expect(await text(await send.request({ origin: server.origin, path: '/', method: 'GET' }))).toBe('ok');

    await server.closed[0];
  });

  // node:http's own idle timer ran on a steady clock; a clock set back an hour (an NTP step
  // during tkt mcp or tkt watch) must not keep a connection the service has long closed.
  it('ends an idle connection on time when the system clock is set back', async () => {
    const server = await closeWatchingServer(() => '');
    const send = createTransport({ proxies: NO_PROXY, connectTimeoutMs: 5_000, idleSocketMs: 50 });
    closers.push(() => send.close());
    expect(await text(await send.request({ origin: server.origin, path: '/', method: 'GET' }))).toBe('ok');

    const setBack = Date.now() - 3_600_000;
    const clock = vi.spyOn(Date, 'now').mockImplementation(() => setBack);
    closers.push(async () => clock.mockRestore());

    await server.closed[0];
  });

  it('ends a connection whose service announced a shorter keep-alive a second early, before one idle longer', async () => {
    // The first connection's answer announces nothing (kept the idle limit, a minute); the second's, 2 s.
    const server = await closeWatchingServer((connection) => (connection === 0 ? '' : 'keep-alive: timeout=2\r\n'), { holdFirst: true });
    const send = createTransport({ proxies: NO_PROXY, connectTimeoutMs: 5_000, idleSocketMs: 60_000 });
    closers.push(() => send.close());
    const first = send.request({ origin: server.origin, path: '/', method: 'GET' });
    await server.connected[0];
    const second = send.request({ origin: server.origin, path: '/', method: 'GET' });
    await server.connected[1];

    expect(await text(await first)).toBe('ok');
    expect(await text(await second)).toBe('ok');

    await server.closed[1];
    expect(server.open()).toBe(1);
  });

  it('sends an https service its host name as the TLS server name, and none to one named by its IP address (RFC 6066)', async () => {
    const certificate = selfSignedCertificate();
    closers.push(async () => certificate.remove());
    const names: string[] = [];
    const server = createTlsServer({
      key: certificate.key,
      cert: certificate.cert,
      SNICallback: (name, done) => {
        names.push(name);
        done(null);
      },
    });
    // The handshake fails at the client (the certificate is its own): the name was sent by then.
    server.on('tlsClientError', () => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const send = transport();

    await expect(send.request({ origin: `https://127.0.0.1:${port}`, path: '/', method: 'GET' })).rejects.toThrow();
    expect(names).toEqual([]);
    await expect(send.request({ origin: `https://localhost:${port}`, path: '/', method: 'GET' })).rejects.toThrow();
    expect(names).toEqual(['localhost']);
  });

  it('keeps an idle connection open for the next request without holding the process open', async () => {
    // The server runs in a child: its own sockets would hold this process, and hide the client's.
    const server = spawn(
      process.execPath,
      ['-e', "const s = require('node:http').createServer((q, r) => r.end('ok')); s.listen(0, '127.0.0.1', () => console.log(s.address().port));"],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    closers.push(async () => {
      server.kill();
      await once(server, 'exit');
    });
    const [port] = (await once(server.stdout, 'data')) as [Buffer];
    const sockets = () => process.getActiveResourcesInfo().filter((resource) => resource === 'TCPSocketWrap').length;
    const before = sockets();
    const send = transport();

    for (let request = 0; request < 2; request++) {
      expect(await text(await send.request({ origin: `http://127.0.0.1:${String(port).trim()}`, path: '/', method: 'GET' }))).toBe('ok');
      await new Promise((resolve) => setImmediate(resolve));
      expect(sockets()).toBe(before);
    }
  });
});
