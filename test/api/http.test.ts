import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyNetworkError, createApiClient, joinUrl, MAX_RETRY_DELAY_MS, retryAfterMs } from '../../src/api/http.js';
import type { ApiClientOptions } from '../../src/api/http.js';
import { supportsSystemCaVariable } from '../../src/api/network-advice.js';
import type { ApiClient } from '../../src/api/types.js';
import { ApiError, ExitCode, NetworkError, outcomeUnknown } from '../../src/errors.js';
import { selfSignedCertificate } from '../helpers/certificate.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { manualClock } from '../helpers/manual-clock.js';
import { sendJson, startServer } from './server.js';
import type { Handler, TestServer } from './server.js';
import { plans } from '../../src/api/plans.js';

// The built CLI (`npm test` builds dist/ first).
const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1LTEifQ.c2lnbmF0dXJl';

const servers: TestServer[] = [];
const clients: ApiClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.dispose()));
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function client(baseUrl: string, options: Partial<ApiClientOptions> = {}): ApiClient {
  const api = createApiClient({ baseUrl, token: TOKEN, timeoutMs: 5_000, retryBaseDelayMs: 1, env: {}, ...options });
  clients.push(api);
  return api;
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

/**
 * Runs `use` with an HTTPS server on 127.0.0.1 whose certificate is its own, made by openssl for
 * that address, and the certificate's PEM file.
 */
async function withSelfSignedServer(use: (url: string, certFile: string) => Promise<void>, names = 'IP:127.0.0.1'): Promise<void> {
  const certificate = selfSignedCertificate(names);
  try {
    const server = createHttpsServer({ key: certificate.key, cert: certificate.cert }, (_req, res) => sendJson(res, 200, { trusted: true }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await use(`https://127.0.0.1:${(server.address() as AddressInfo).port}`, certificate.certFile);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  } finally {
    certificate.remove();
  }
}

describe('requests and responses', () => {
  it('joins a base URL with a path prefix without doubling slashes and sends the token', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: 5, title: 'Printer' }));
    const response = await client(`${server.url}/sub/`).send(plans.getTicket(5));

    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/sub/api/TicketsApi/5' });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 5, title: 'Printer' });
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.url).toBe(`${server.url}/sub/api/TicketsApi/5`);
  });

  it('sends the list as JSON and reads text and empty bodies', async () => {
    let received = '';
    const server = await serve((req, res, index) => {
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (received += chunk));
      req.on('end', () => {
        if (index === 0) {
          sendJson(res, 200, [{ id: 1 }]);
        } else if (index === 1) {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('plain words');
        } else {
          res.writeHead(204);
          res.end();
        }
      });
    });
    const api = client(server.url);

    const list = await api.send(plans.listTickets({ page: 2, listType: 'MyOpenTickets' }));
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/api/TicketsApi' });
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(received)).toEqual({ page: 2, listType: 'MyOpenTickets' });
    expect(list.body).toEqual([{ id: 1 }]);

    const pickup = await api.send(plans.pickupTicket(7));
    expect(server.requests[1]).toMatchObject({ method: 'POST', url: '/api/TicketsApi/pickup/7' });
    expect(pickup).toMatchObject({ status: 200, body: 'plain words' });

    expect(await api.send(plans.markRead(7))).toMatchObject({ status: 204, body: undefined });
  });

  it('parses a JSON body even when the content type does not say so', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('{"sites":[{"id":1}]}');
    });
    expect((await client(server.url).send(plans.appMetadata())).body).toEqual({ sites: [{ id: 1 }] });
  });

  it('maps each endpoint to its method and path', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, {}));
    const api = client(server.url);
    await api.send(plans.metadata());
    await api.send(plans.metadata(3));
    await api.send(plans.markRead(4));
    await api.send(plans.deleteTicket(5));
    await api.send(plans.closeTicket(6, { closeBy: 'u-1' }));
    await api.send(plans.anyRequest('patch', 'api/Other?x=1'));
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/TicketsApi/metadata',
      'GET /api/TicketsApi/metadata/3',
      'POST /api/TicketsApi/read/4',
      'DELETE /api/TicketsApi/5',
      'POST /api/TicketsApi/close/6',
      'PATCH /api/Other?x=1',
    ]);
  });

  it('does not send a token to the authenticate call', async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { Token: 'x' }));
    await client(server.url).send(plans.authenticate({ Email: 'ann', Password: 'pw', RememberMe: false, Domain: '' }));
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe('errors', () => {
  it('turns a non-2xx answer into an ApiError carrying the server message', async () => {
    const server = await serve((_req, res) =>
      sendJson(res, 400, { title: 'Validation failed', errors: { Title: ['is required'] } }, 'application/problem+json'),
    );
    const error = await failure(client(server.url).send(plans.register({ fields: { Title: '' } })));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      method: 'POST',
      url: `${server.url}/api/TicketsApi/register`,
      serverMessages: ['Validation failed', 'Title: is required'],
      exitCode: ExitCode.failed,
    });
  });

  // The app metadata is found (the base URL is right): the 404 is the ticket's.
  const appMetadataFound = (req: { url?: string }) => req.url?.endsWith('/api/TicketsApi/appmetadata') === true;

  it('says what failed in the words the bulk report uses, with the full URL', async () => {
    const server = await serve((req, res) => sendJson(res, appMetadataFound(req) ? 200 : 404, {}));
    const error = await failure(client(server.url).send(plans.getTicket(999999)));
    expect(error).toMatchObject({ message: `not found (HTTP 404): GET ${server.url}/api/TicketsApi/999999` });
  });

  it('shows the title and headings of an HTML error page, not its markup', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><head><title>Server Error</title></head><body><h1>Oops</h1><script>x()</script></body></html>');
    });
    const error = await failure(client(server.url).send(plans.deleteTicket(1)));
    expect(error).toMatchObject({ status: 500, serverMessages: ['HTTP 500: Server Error', 'Oops'] });
  });

  it('maps 401 to exit 4 and 404 to exit 3', async () => {
    const server = await serve((req, res, index) => (appMetadataFound(req) ? sendJson(res, 200, {}) : sendJson(res, index === 0 ? 401 : 404, 'nope')));
    const api = client(server.url);
    expect(await failure(api.send(plans.getTicket(1)))).toMatchObject({ status: 401, exitCode: ExitCode.notAuthenticated });
    expect(await failure(api.send(plans.getTicket(2)))).toMatchObject({ status: 404, exitCode: ExitCode.notFound, serverMessages: ['nope'] });
  });

  // A code review: the answer was kept for the client's life, which tkt mcp's is (days): after an
  // outage that answered 404 to everything, every missing ticket read as a wrong base URL.
  it('holds a wrong base URL only until a success, and a right one for good', async () => {
    let down = true;
    const paths: string[] = [];
    const server = await serve((req, res) => {
      paths.push(req.url ?? '');
      sendJson(res, down || req.url?.endsWith('/9') === true ? 404 : 200, { id: 7 });
    });
    const api = client(server.url);
    expect(await failure(api.send(plans.getTicket(9)))).toMatchObject({ exitCode: ExitCode.failed, baseUrlNotFound: server.url });
    down = false;
    expect((await api.send(plans.getTicket(7))).status).toBe(200);
    expect(await failure(api.send(plans.getTicket(9)))).toMatchObject({ exitCode: ExitCode.notFound, baseUrlNotFound: undefined });
    // Asked once, during the outage; not again once a success said the URL is right.
    expect(paths.filter((path) => path.endsWith('/appmetadata'))).toHaveLength(1);
  });

  it('asks nothing once the run is stopping, and keeps the hint the 404 had', async () => {
    const paths: string[] = [];
    const server = await serve((req, res) => {
      paths.push(req.url ?? '');
      sendJson(res, 404, 'no route');
    });
    const stop = new AbortController();
    stop.abort('SIGINT');
    expect(await failure(client(server.url, { stop: stop.signal }).send(plans.getTicket(2)))).toMatchObject({ exitCode: ExitCode.notFound });
    expect(paths).toEqual(['/api/TicketsApi/2']);

    const hinted = new ApiError({
      status: 404,
      method: 'GET',
      url: `${server.url}/x`,
      body: undefined,
      serverMessages: [],
      hint: 'the redirect went elsewhere',
    });
    expect(hinted.underWrongBaseUrl(server.url)).toMatchObject({ hint: 'the redirect went elsewhere', baseUrlNotFound: server.url });
  });

  it('takes a 404 for a wrong base URL when the app metadata, which every service has, is not found either: asked once', async () => {
    const paths: string[] = [];
    const server = await serve((req, res) => {
      paths.push(req.url ?? '');
      sendJson(res, 404, 'no route');
    });
    const api = client(`${server.url}/helpdesk`);
    const first = await failure(api.send(plans.getTicket(2)));
    const second = await failure(api.send(plans.closeTicket(3, { closeBy: 'u' })));

    expect(first).toMatchObject({ status: 404, exitCode: ExitCode.failed, baseUrlNotFound: `${server.url}/helpdesk` });
    expect((first as Error).message).toBe(`no such endpoint, wrong service URL? (HTTP 404): GET ${server.url}/helpdesk/api/TicketsApi/2`);
    expect(second).toMatchObject({ exitCode: ExitCode.failed });
    expect(paths).toEqual(['/helpdesk/api/TicketsApi/2', '/helpdesk/api/TicketsApi/appmetadata', '/helpdesk/api/TicketsApi/close/3']);
  });

  it('reports a refused connection naming the URL', async () => {
    const server = await serve(() => undefined);
    const url = server.url;
    await server.close();
    servers.splice(0);
    const error = await failure(client(url).send(plans.getTicket(9)));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ failure: 'refused', exitCode: ExitCode.failed });
    expect((error as NetworkError).message).toBe(`connection refused: GET ${url}/api/TicketsApi/9`);
  });

  it('times out a server that never answers', async () => {
    const server = await serve(() => undefined);
    const error = await failure(client(server.url, { timeoutMs: 200 }).send(plans.register({ fields: { Title: 't' } })));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ failure: 'timeout' });
    expect((error as NetworkError).message).toBe(`request timed out after 0.2s: POST ${server.url}/api/TicketsApi/register`);
  });

  it('times out a server that keeps the body dripping past --timeout (a deadline, not an idle limit)', async () => {
    const drips: NodeJS.Timeout[] = [];
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      // A byte every 50 ms never trips an idle limit of 300 ms, but takes 5 s in all.
      const drip = setInterval(() => res.write(' '), 50);
      drips.push(drip);
      res.on('close', () => clearInterval(drip));
      setTimeout(() => res.end(']'), 5000).unref();
    });
    try {
      const error = await failure(client(server.url, { timeoutMs: 300 }).send(plans.listTickets({})));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(`request timed out after 0.3s: POST ${server.url}/api/TicketsApi`);
    } finally {
      for (const drip of drips) clearInterval(drip);
    }
  });

  it('refuses a self-signed certificate as a TLS failure (certificate checks stay on)', async () => {
    await withSelfSignedServer(async (url) => {
      const error = await failure(client(url).send(plans.appMetadata()));
      expect(error).toMatchObject({ failure: 'tls' });
      expect((error as NetworkError).message).toContain(`GET ${url}/api/TicketsApi/appmetadata`);
      // What to do about a private CA, with the system store where this Node can use it.
      const { hint } = error as NetworkError;
      expect(hint).toContain('NODE_EXTRA_CA_CERTS');
      if (supportsSystemCaVariable(process.version)) expect(hint).toContain('NODE_USE_SYSTEM_CA=1');
      else expect(hint).not.toContain('NODE_USE_SYSTEM_CA');
    });
  });

  it('trusts that certificate once NODE_EXTRA_CA_CERTS names it (read by Node at start: a tkt run in a child)', async () => {
    await withSelfSignedServer(async (url, certFile) => {
      const child = spawn(process.execPath, [bin, 'api', 'GET', '/api/TicketsApi/appmetadata'], {
        env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile, TKT_URL: url, TKT_TOKEN: 'a-token', TKT_CONFIG_DIR: dirname(certFile) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const [code] = (await once(child, 'exit')) as [number];
      expect([code, output]).toEqual([0, '{\n  "trusted": true\n}\n']);
    });
  });

  /** A tkt run in a child (Node reads NODE_EXTRA_CA_CERTS at start): its exit code and stderr. */
  async function tktAgainst(url: string, caFile: string): Promise<{ code: number; stderr: string }> {
    const child = spawn(process.execPath, [bin, 'api', 'GET', '/api/TicketsApi/appmetadata'], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile, TKT_URL: url, TKT_TOKEN: 'a-token', TKT_CONFIG_DIR: join(dirname(caFile), 'cfg') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    return { code, stderr };
  }

  it('says that a trusted certificate names another host, and which, instead of pointing at a private CA', async () => {
    await withSelfSignedServer(async (url, certFile) => {
      const run = await tktAgainst(url, certFile);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`GET ${url}/api/TicketsApi/appmetadata`);
      expect(run.stderr).toContain('hint: the certificate is for other.test, www.other.test, not 127.0.0.1: use a --url with a name it is for');
      expect(run.stderr).not.toContain('private CA');
    }, 'DNS:other.test,DNS:www.other.test');
  });

  it('says that the file NODE_EXTRA_CA_CERTS names could not be loaded', async () => {
    await withSelfSignedServer(async (url, certFile) => {
      const missing = join(dirname(certFile), 'nonexistent.pem');
      const run = await tktAgainst(url, missing);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`hint: NODE_EXTRA_CA_CERTS names ${missing}, which could not be loaded (Node ignored it): point it at a readable PEM file`);
    });
  });

  it('reports a host that does not resolve as a DNS failure', async () => {
    const error = await failure(client('http://tkt-test.invalid').send(plans.appMetadata()));
    expect(error).toMatchObject({ failure: 'dns' });
    expect((error as NetworkError).message).toContain('tkt-test.invalid');
  });
});

describe('retries', () => {
  it('retries a GET answered 503', async () => {
    const server = await serve((_req, res, index) => (index === 0 ? sendJson(res, 503, 'busy') : sendJson(res, 200, { id: 1 })));
    const response = await client(server.url).send(plans.getTicket(1));
    expect(response.body).toEqual({ id: 1 });
    expect(server.requests).toHaveLength(2);
  });

  it('retries a GET whose connection was dropped', async () => {
    const server = await serve((req, res, index) => (index === 0 ? req.socket.destroy() : sendJson(res, 200, { ok: true })));
    const response = await client(server.url).send(plans.metadata());
    expect(response.body).toEqual({ ok: true });
    expect(server.requests).toHaveLength(2);
  });

  it('gives up after three tries in all', async () => {
    const server = await serve((_req, res) => sendJson(res, 504, 'gateway'));
    const error = await failure(client(server.url).send(plans.appMetadata()));
    expect(error).toMatchObject({ status: 504 });
    expect(server.requests).toHaveLength(3);
  });

  it('retries both list POSTs', async () => {
    const server = await serve((_req, res, index) => sendJson(res, index % 2 === 0 ? 502 : 200, []));
    const api = client(server.url);
    await api.send(plans.listTickets({}));
    await api.send(plans.listByUsername('ann', 2));
    expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /api/TicketsApi',
      'POST /api/TicketsApi',
      'POST /api/TicketsApi/list',
      'POST /api/TicketsApi/list',
    ]);
  });

  it('retries a 429 that carries Retry-After', async () => {
    const server = await serve((_req, res, index) => {
      if (index > 0) return sendJson(res, 200, []);
      res.writeHead(429, { 'retry-after': '0', 'content-type': 'text/plain' });
      res.end('slow down');
    });
    await client(server.url).send(plans.listTickets({}));
    expect(server.requests).toHaveLength(2);
  });

  // tkt waits at most MAX_RETRY_DELAY_MS between tries: the error after the last says what the service asked for.
  it.each([
    ['in seconds', () => '120', 'the service asked to wait 120 s (Retry-After), longer than tkt waits between tries (10 s)', 'try again in 2 min'],
    [
      'as a date',
      (now: number) => new Date(now + 3600_000).toUTCString(),
      'the service asked to wait 3600 s (Retry-After), longer than tkt waits between tries (10 s)',
      'try again in 60 min',
    ],
  ])('a read refused with a Retry-After longer than tkt waits (%s) says so, and when to try again', async (_form, retryAfter, line, hint) => {
    const clock = manualClock(Date.parse('2026-11-28T12:00:00Z'));
    const server = await serve((_req, res) => res.writeHead(429, { 'retry-after': retryAfter(clock.now()), 'content-type': 'text/plain' }).end('slow down'));
    const pending = failure(client(server.url, { clock }).send(plans.listTickets({})));
    for (let wait = 0; wait < 2; wait++) {
      expect(await clock.nextSleep()).toBe(MAX_RETRY_DELAY_MS);
      clock.advance(MAX_RETRY_DELAY_MS);
    }
    expect(await pending).toMatchObject({ status: 429, serverMessages: ['slow down', line], hint });
    expect(server.requests).toHaveLength(3);
  });

  it('never retries a register answered 503', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, 'busy'));
    const error = await failure(client(server.url).send(plans.register({ fields: { Title: 'once' } })));
    expect(error).toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(1);
  });

  it('never retries a change whose connection was dropped', async () => {
    const server = await serve((req) => req.socket.destroy());
    const error = await failure(client(server.url).send(plans.pickupTicket(3)));
    expect(error).toMatchObject({ failure: 'reset' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries raw GETs but not raw POSTs', async () => {
    const server = await serve((_req, res) => sendJson(res, 503, 'busy'));
    const api = client(server.url);
    await failure(api.send(plans.anyRequest('get', '/api/x')));
    await failure(api.send(plans.anyRequest('POST', '/api/TicketsApi')));
    expect(server.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'GET', 'POST']);
  });
});

describe('redirects', () => {
  it('follows a GET to another origin without the token', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, { moved: true }));
    const home = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/landing` });
      res.end();
    });
    const response = await client(home.url).send(plans.getTicket(1));
    expect(response.body).toEqual({ moved: true });
    expect(home.requests[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(elsewhere.requests[0]?.url).toBe('/landing');
    expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('keeps the token on a redirect within the same origin', async () => {
    const server = await serve((_req, res, index) => {
      if (index > 0) return sendJson(res, 200, {});
      res.writeHead(301, { location: '/api/TicketsApi/2' });
      res.end();
    });
    await client(server.url).send(plans.getTicket(1));
    expect(server.requests.map((r) => [r.url, r.headers.authorization])).toEqual([
      ['/api/TicketsApi/1', `Bearer ${TOKEN}`],
      ['/api/TicketsApi/2', `Bearer ${TOKEN}`],
    ]);
  });

  it('does not follow a redirect of a POST, and stops after five for a GET', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(307, { location: '/again' });
      res.end();
    });
    const api = client(server.url);
    expect(await failure(api.send(plans.pickupTicket(1)))).toMatchObject({ status: 307 });
    expect(server.requests).toHaveLength(1);

    expect(await failure(api.send(plans.anyRequest('GET', '/start')))).toMatchObject({ status: 307 });
    // 307 is not a retry status, so one try: the request plus five redirects.
    expect(server.requests).toHaveLength(1 + 6);
  });
});

describe('debug trace', () => {
  it('shows method, URL and status but no token or password', async () => {
    const password = 'correct-horse-battery';
    const server = await serve((_req, res, index) => (index === 1 ? sendJson(res, 503, 'busy') : sendJson(res, 200, { Username: 'ann', Token: TOKEN })));
    const lines: string[] = [];
    const api = client(server.url, { debug: (line) => lines.push(line) });
    await api.send(plans.authenticate({ Email: 'ann', Password: password, RememberMe: true, Domain: '' }));
    await api.send(plans.getTicket(1));
    await api.send(plans.anyRequest('GET', `/api/x?access_token=${TOKEN}`));

    const trace = lines.join('\n');
    expect(trace).not.toContain(password);
    expect(trace).not.toContain(TOKEN);
    expect(trace).not.toContain('eyJ');
    expect(trace).toContain(`POST ${server.url}/api/Users/authenticate`);
    expect(trace).toMatch(/"Password":"\*\*\*"/);
    expect(trace).toMatch(/HTTP < 200 GET .*\/api\/TicketsApi\/1 \d+ms/);
    expect(trace).toContain('authorization: Bearer ***');
    expect(trace).toMatch(/retry .* after HTTP 503/);
  });
});

describe('joinUrl', () => {
  it.each([
    ['http://h:1', '/api/x', 'http://h:1/api/x'],
    ['http://h:1/', 'api/x', 'http://h:1/api/x'],
    ['https://h/sub/', '/api/x?y=1', 'https://h/sub/api/x?y=1'],
    ['https://h/sub', '//evil.example/x', 'https://h/sub/evil.example/x'],
  ])('%s + %s', (base, path, expected) => {
    expect(joinUrl(base, path)).toBe(expected);
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds and HTTP dates, capped', () => {
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:03 GMT', now)).toBe(3000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('3600', now)).toBe(MAX_RETRY_DELAY_MS);
  });

  it('ignores a missing or unreadable value', () => {
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('classifyNetworkError', () => {
  const withCode = (code: string, cause?: unknown): Error => Object.assign(new Error(code), { code, cause });

  it.each([
    [withCode('ECONNREFUSED'), 'refused'],
    [new AggregateError([withCode('ECONNREFUSED')]), 'refused'],
    [withCode('ENOTFOUND'), 'dns'],
    [withCode('EAI_AGAIN'), 'dns'],
    [withCode('UND_ERR_HEADERS_TIMEOUT'), 'timeout'],
    [withCode('UND_ERR_CONNECT_TIMEOUT'), 'timeout'],
    [new TypeError('fetch failed', { cause: withCode('SELF_SIGNED_CERT_IN_CHAIN') }), 'tls'],
    [withCode('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'tls'],
    [withCode('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    [withCode('ECONNRESET'), 'reset'],
    [withCode('UND_ERR_SOCKET'), 'reset'],
    [new Error('something else'), 'other'],
  ])('%s -> %s', (error, failure) => {
    expect(classifyNetworkError(error)).toBe(failure);
  });
});

describe('a change that never got a connection to the service', () => {
  it('is not sent, not in doubt, when an https port closes the connection before the TLS handshake', async () => {
    const closing = createNetServer((socket) => void socket.end());
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(closing.address() as AddressInfo).port}`;
      const error = await failure(client(url).send(plans.register({ fields: { Title: 't' } })));

      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).message).toBe(
        `connection closed by the server before the TLS handshake (nothing was sent to the service): POST ${url}/api/TicketsApi/register`,
      );
      expect(outcomeUnknown(error)).toBe(false);
    } finally {
      closing.close();
    }
  });

  /** `tkt close 1029 --json` against a trusted https service that takes the request and drops the connection. */
  async function closeDropped(env: Record<string, string>): Promise<Record<string, unknown>> {
    const certificate = selfSignedCertificate('IP:127.0.0.1');
    const received: string[] = [];
    const silent = createHttpsServer(certificate, (req) => {
      received.push(`${req.method} ${req.url}`);
      req.socket.destroy();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const child = spawn(process.execPath, [bin, 'close', '1029', '--json'], {
        env: {
          ...process.env,
          ...env,
          NODE_EXTRA_CA_CERTS: certificate.certFile,
          TKT_URL: url,
          TKT_TOKEN: TOKEN,
          TKT_CONFIG_DIR: join(certificate.dir, 'cfg'),
        },
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      await once(child, 'exit');
      expect(received).toEqual(['POST /api/TicketsApi/close/1029']);
      return JSON.parse(stdout) as Record<string, unknown>;
    } finally {
      silent.closeAllConnections();
      silent.close();
      certificate.remove();
    }
  }

  it('stays in doubt once the TLS handshake is done and the request went out (a tkt run: Node reads NODE_EXTRA_CA_CERTS at start)', async () => {
    expect(await closeDropped({})).toMatchObject({ id: 1029, ok: false, inDoubt: true });
  });

  it('stays in doubt through a proxy once the tunnel and the TLS handshake through it are done', async () => {
    const proxy = await startForwardProxy();
    try {
      expect(await closeDropped({ HTTPS_PROXY: proxy.url })).toMatchObject({ id: 1029, ok: false, inDoubt: true });
    } finally {
      await proxy.close();
    }
  });
});
