// HTTP_PROXY / NO_PROXY (docs/cli.md section 1): the client goes through a real
// forward proxy on loopback unless NO_PROXY covers the host. The variables come
// from the run's environment (the injected one), never from process.env.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/http.js';
import { NetworkError, outcomeUnknown } from '../../src/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { selfSignedCertificate, type Certificate } from '../helpers/certificate.js';
import { createHarness } from '../helpers/harness.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { sendJson, startServer, type TestServer } from './server.js';
import { plans } from '../../src/api/plans.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));

/** The tunnels the proxy opened to `targetUrl`. */
function proxiedTo(proxy: ForwardProxy, targetUrl: string): string[] {
  return proxy.seen.filter((line) => line === `CONNECT ${new URL(targetUrl).host}`);
}

let proxy: ForwardProxy;
let target: TestServer;
const clients: ApiClient[] = [];

beforeEach(async () => {
  proxy = await startForwardProxy();
  target = await startServer((_req, res) => sendJson(res, 200, { id: 7 }));
});

afterEach(async () => {
  await Promise.allSettled(clients.splice(0).map((client) => client.dispose()));
  await proxy.close();
  await target.close();
});

function client(env: Record<string, string> = {}, options: { baseUrl?: string; timeoutMs?: number } = {}): ApiClient {
  const made = createApiClient({ baseUrl: target.url, timeoutMs: 5000, token: 'secret-token', retryBaseDelayMs: 1, env, ...options });
  clients.push(made);
  return made;
}

describe('HTTP_PROXY', () => {
  it('sends requests through the proxy', async () => {
    const response = await client({ HTTP_PROXY: proxy.url }).send(plans.getTicket(7));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: 7 });
    expect(proxiedTo(proxy, target.url)).toHaveLength(1);
    // The proxy passed it on: the service got the request, token included.
    expect(target.requests).toHaveLength(1);
    expect(target.requests[0]!.url).toBe('/api/TicketsApi/7');
    expect(target.requests[0]!.headers.authorization).toBe('Bearer secret-token');
  });

  it('goes direct when NO_PROXY names the host', async () => {
    const response = await client({ HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' }).send(plans.getTicket(7));

    expect(response.status).toBe(200);
    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });

  it('still uses the proxy when NO_PROXY names other hosts only', async () => {
    await client({ http_proxy: proxy.url, no_proxy: 'example.com,10.0.0.1' }).send(plans.getTicket(7));

    expect(proxiedTo(proxy, target.url)).toHaveLength(1);
  });

  it('goes direct without any proxy variable', async () => {
    await client().send(plans.getTicket(7));

    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });

  it("reads the run's environment, not the process's", async () => {
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.url;
    try {
      await client().send(plans.getTicket(7));
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }

    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });

  it('is honoured by a whole tkt run', async () => {
    const h = await createHarness();
    try {
      const result = await h.cli(['show', '1013', '--json'], { env: { HTTP_PROXY: proxy.url } });

      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ id: 1013 });
      expect(proxiedTo(proxy, h.sandbox.url).length).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  });
});

describe('a proxy that fails the tunnel', () => {
  /** A proxy that answers every CONNECT with `refuse`, counting the connections it gets. */
  async function failingProxy(refuse: (socket: Socket) => void): Promise<{ url: string; port: number; connections: () => number; close(): Promise<void> }> {
    const server = createServer();
    let connections = 0;
    server.on('connection', () => (connections += 1));
    server.on('connect', (_req, socket: Socket) => refuse(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      port,
      connections: () => connections,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  const drop = (socket: Socket): void => void socket.destroy();
  const answer = (status: string) => (socket: Socket) =>
    void socket.end(`HTTP/1.1 ${status}\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n`);

  it("tries a read the retry policy's 3 times when the proxy drops CONNECT, naming the proxy, not a time-out", async () => {
    const dropping = await failingProxy(drop);
    try {
      const error = await failureOf(client({ HTTP_PROXY: `http://user:pw@127.0.0.1:${dropping.port}` }, { timeoutMs: 3000 }), plans.getTicket(7));

      expect(error.message).toBe(
        `the proxy ${dropping.url} closed the connection instead of opening a tunnel (nothing was sent to the service): GET ${target.url}/api/TicketsApi/7`,
      );
      expect(error.hint).toContain('HTTPS_PROXY');
      expect(dropping.connections()).toBe(3);
      expect(target.requests).toEqual([]);
    } finally {
      await dropping.close();
    }
  });

  it('sends a change once and reports it not sent, not in doubt', async () => {
    const dropping = await failingProxy(drop);
    try {
      const error = await failureOf(client({ HTTP_PROXY: dropping.url }, { timeoutMs: 3000 }), plans.register({ fields: { Title: 't' } }));

      expect(error.url).toBe(`${target.url}/api/TicketsApi/register`);
      expect(outcomeUnknown(error)).toBe(false);
      expect(dropping.connections()).toBe(1);
      expect(target.requests).toEqual([]);
    } finally {
      await dropping.close();
    }
  });

  it.each([
    ['407 Proxy Authentication Required', "check the proxy's user name and password in HTTPS_PROXY / HTTP_PROXY"],
    ['502 Bad Gateway', 'check HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY to go direct'],
  ])('names a proxy that answers CONNECT with %s, never its password, once and not in doubt', async (status, hint) => {
    const refusing = await failingProxy(answer(status));
    try {
      const made = client({ HTTP_PROXY: `http://user:pw-Secret@127.0.0.1:${refusing.port}` });
      const error = await failureOf(made, plans.getTicket(7));

      expect(error.message).toBe(`the proxy ${refusing.url} refused the tunnel (${status}): GET ${target.url}/api/TicketsApi/7`);
      expect(error.hint).toBe(hint);
      expect(`${error.message} ${error.hint}`).not.toContain('pw-Secret');
      const change = await failureOf(made, plans.register({ fields: { Title: 't' } }));
      expect(outcomeUnknown(change)).toBe(false);
      // A refusal is not retried: the same request would be refused the same way.
      expect(refusing.connections()).toBe(2);
      expect(target.requests).toEqual([]);
    } finally {
      await refusing.close();
    }
  });
  it('reports a change not sent, naming the proxy, when the proxy never answers CONNECT within --timeout', async () => {
    const held: Socket[] = [];
    const silent = await failingProxy((socket) => void held.push(socket));
    try {
      const error = await failureOf(client({ HTTP_PROXY: silent.url }, { timeoutMs: 300 }), plans.register({ fields: { Title: 't' } }));

      expect(error.message).toBe(
        `the proxy ${silent.url} did not open a tunnel within 0.3 s (nothing was sent to the service): POST ${target.url}/api/TicketsApi/register`,
      );
      expect(error.hint).toContain('HTTPS_PROXY');
      expect(outcomeUnknown(error)).toBe(false);
      expect(target.requests).toEqual([]);
    } finally {
      for (const socket of held) socket.destroy();
      await silent.close();
    }
  });

  it('tkt close --json through it: the ID failed, not in doubt, naming the proxy', async () => {
    const held: Socket[] = [];
    const silent = await failingProxy((socket) => void held.push(socket));
    const h = await createHarness();
    try {
      const result = await h.cli(['close', '1013', '--json', '--timeout', '0.3'], { env: { HTTP_PROXY: silent.url } });

      expect(result.code).toBe(1);
      const line = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(line).toMatchObject({ id: 1013, ok: false });
      expect(line).not.toHaveProperty('inDoubt');
      expect(line.error).toBe(
        `the proxy ${silent.url} did not open a tunnel within 0.3 s (nothing was sent to the service): POST ${h.sandbox.url}/api/TicketsApi/close/1013`,
      );
    } finally {
      await h.close();
      for (const socket of held) socket.destroy();
      await silent.close();
    }
  });

  it('keeps a change in doubt when the tunnel opened and the service never answered', async () => {
    const silentService = await startServer(() => undefined);
    try {
      const made = client({ HTTP_PROXY: proxy.url }, { baseUrl: silentService.url, timeoutMs: 300 });
      const error = await failureOf(made, plans.register({ fields: { Title: 't' } }));

      expect(error.message).toBe(`request timed out after 0.3s: POST ${silentService.url}/api/TicketsApi/register`);
      expect(outcomeUnknown(error)).toBe(true);
      expect(silentService.requests).toHaveLength(1);
    } finally {
      await silentService.close();
    }
  });
});

describe('a proxy that cannot be reached', () => {
  /** A loopback port with nothing listening: bound, noted, closed. */
  async function deadPort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    return port;
  }

  it('names the proxy, not the service, when the proxy refuses the connection', async () => {
    const port = await deadPort();
    const error = await client({ HTTP_PROXY: `http://user:pass@127.0.0.1:${port}` })
      .send(plans.getTicket(7))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );

    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(`could not reach the proxy http://127.0.0.1:${port} (connection refused): GET ${target.url}/api/TicketsApi/7`);
    expect((error as NetworkError).hint).toContain('HTTPS_PROXY');
    expect((error as NetworkError).message).not.toContain('pass');
    expect(target.requests).toEqual([]);
  });

  it('still reports the service refusing when the proxy is not in the way (NO_PROXY)', async () => {
    const port = await deadPort();
    const made = client({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }, { baseUrl: `http://127.0.0.1:${port}` });

    const error = await made.send(plans.getTicket(7)).then(
      () => undefined,
      (caught: unknown) => caught,
    );

    expect((error as NetworkError).message).toBe(`connection refused: GET http://127.0.0.1:${port}/api/TicketsApi/7`);
  });
});

describe('a proxy variable that is not a URL', () => {
  it('fails a request it applies to naming the proxy setting, without its value; a host of NO_PROXY goes direct', async () => {
    const [error, unparsed] = await Promise.all(
      ['socks5://user:secret@proxy', 'not a url'].map((HTTP_PROXY) =>
        client({ HTTP_PROXY })
          .send(plans.getTicket(7))
          .then(
            () => undefined,
            (caught: unknown) => caught,
          ),
      ),
    );

    expect(error).toBeInstanceOf(NetworkError);
    expect((unparsed as NetworkError).message).toBe((error as NetworkError).message);
    expect((error as NetworkError).message).toBe(`the proxy of HTTPS_PROXY / HTTP_PROXY is not an http:// or https:// URL: GET ${target.url}/api/TicketsApi/7`);
    expect((error as NetworkError).hint).toContain('NO_PROXY');
    expect(target.requests).toEqual([]);

    const direct = await client({ HTTP_PROXY: 'socks5://user:secret@proxy', NO_PROXY: '127.0.0.1' }).send(plans.getTicket(7));
    expect(direct.status).toBe(200);
  });
});

describe('a proxy host name that does not resolve', () => {
  it('names the proxy and its variable, never its password, with the proxy hint; nothing was sent', async () => {
    // A name under .invalid never resolves (RFC 6761): no traffic leaves the machine.
    const error = await client({ HTTP_PROXY: 'http://jdoe:pw-Secret@proxy.corp.invalid:3128' })
      .send(plans.register({ fields: { Title: 't' } }))
      .then(
        () => expect.unreachable('the request passed'),
        (caught: unknown) => caught as NetworkError,
      );

    expect(error).toBeInstanceOf(NetworkError);
    expect(error.message).toBe(`could not resolve the proxy proxy.corp.invalid (HTTP_PROXY): POST ${target.url}/api/TicketsApi/register`);
    expect(error.hint).toBe('check HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY to go direct');
    expect(`${error.message} ${error.hint}`).not.toContain('pw-Secret');
    expect(outcomeUnknown(error)).toBe(false);
  });

  it('names https_proxy when the proxy came from it (undici reads lower case first), not HTTPS_PROXY', async () => {
    const error = await failureOf(client({ https_proxy: 'http://proxy.corp.invalid:3128' }, { baseUrl: UNREACHED }), plans.getTicket(7));

    expect(error.message).toBe(`could not resolve the proxy proxy.corp.invalid (https_proxy): GET ${UNREACHED}/api/TicketsApi/7`);
  });
});

/** A server on loopback that does `onConnect` with each CONNECT's socket (a proxy that misbehaves once it has answered). */
async function connectServer(onConnect: (socket: Socket) => void, secure?: { key: Buffer; cert: Buffer }): Promise<{ port: number; close(): Promise<void> }> {
  const server = secure === undefined ? createServer() : createHttpsServer(secure);
  const sockets = new Set<Socket>();
  server.on('connect', (_req, socket: Socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    onConnect(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function failureOf(made: ApiClient, plan: Parameters<ApiClient['send']>[0]): Promise<NetworkError> {
  return made.send(plan).then(
    () => expect.unreachable('the request passed'),
    (caught: unknown) => {
      expect(caught).toBeInstanceOf(NetworkError);
      return caught as NetworkError;
    },
  );
}

const ESTABLISHED = 'HTTP/1.1 200 Connection Established\r\n\r\n';
/** An https:// service nothing listens for: the proxies below never pass anything on. */
const UNREACHED = 'https://127.0.0.1:9';

describe('a proxy that opens the tunnel and then fails it before the TLS handshake', () => {
  it('reports a change through a tunnel closed before the handshake as not sent, naming the proxy', async () => {
    const closing = await connectServer((socket) => void socket.end(ESTABLISHED));
    try {
      const made = client({ HTTPS_PROXY: `http://jdoe:pw-Secret@127.0.0.1:${closing.port}` }, { baseUrl: UNREACHED });
      const error = await failureOf(made, plans.register({ fields: { Title: 't' } }));

      expect(error.message).toBe(
        `the proxy http://127.0.0.1:${closing.port} closed the tunnel before the TLS handshake with the service (nothing was sent to the service): POST ${UNREACHED}/api/TicketsApi/register`,
      );
      expect(error.hint).toContain('NO_PROXY');
      expect(outcomeUnknown(error)).toBe(false);
      expect(error.message).not.toContain('pw-Secret');
    } finally {
      await closing.close();
    }
  });

  it("says that a proxy's block page in the tunnel may be the proxy's answer, not that the service speaks plain http", async () => {
    const blocking = await connectServer((socket) => void socket.write(`${ESTABLISHED}<html><body>Access denied by corporate policy</body></html>\r\n`));
    try {
      const error = await failureOf(
        client({ HTTPS_PROXY: `http://127.0.0.1:${blocking.port}` }, { baseUrl: UNREACHED }),
        plans.register({ fields: { Title: 't' } }),
      );

      expect(error.failure).toBe('tls');
      expect(error.message).toMatch(new RegExp(`^TLS error through the proxy http://127\\.0\\.0\\.1:${blocking.port} \\(.*wrong version number.*\\): POST`));
      expect(error.hint).toBe(
        'the proxy may have answered in place of the service (a block page?): check HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY to go direct',
      );
      expect(outcomeUnknown(error)).toBe(false);
    } finally {
      await blocking.close();
    }
  });
});

describe('a proxy that opens the tunnel to a service that never completes the TLS handshake', () => {
  it('says the TLS handshake with the service timed out through the proxy, not that the tunnel was not opened', async () => {
    const held = await connectServer((socket) => void socket.write(ESTABLISHED));
    try {
      const made = client({ HTTPS_PROXY: `http://127.0.0.1:${held.port}` }, { baseUrl: UNREACHED, timeoutMs: 300 });
      const error = await failureOf(made, plans.register({ fields: { Title: 't' } }));

      expect(error.failure).toBe('timeout');
      expect(error.message).toBe(
        `the TLS handshake with the service through the proxy http://127.0.0.1:${held.port} did not complete within 0.3 s (nothing was sent to the service): POST ${UNREACHED}/api/TicketsApi/register`,
      );
      expect(error.hint).toBe("the proxy opened the tunnel: check that the URL's port speaks https, and that the proxy lets TLS through to it");
      expect(outcomeUnknown(error)).toBe(false);
    } finally {
      await held.close();
    }
  });
});

describe('a proxy that speaks https, written as http://', () => {
  // What a TLS server may answer a plain-text CONNECT with: an alert (protocol_version), or a handshake record.
  it.each([
    ['an alert', [0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x46]],
    ['a handshake record', [0x16, 0x03, 0x03, 0x00, 0x04, 0x02, 0x00, 0x00, 0x00]],
  ])('says the proxy may speak https, to be written as https:// in its variable, when it answers CONNECT with %s', async (_kind, record) => {
    const connections: Socket[] = [];
    const tlsOnly = createNetServer((socket) => {
      connections.push(socket);
      socket.once('data', () => void socket.end(Buffer.from(record)));
    });
    await new Promise<void>((resolve) => tlsOnly.listen(0, '127.0.0.1', resolve));
    const { port } = tlsOnly.address() as AddressInfo;
    try {
      const error = await failureOf(
        client({ https_proxy: `http://jdoe:pw-Secret@127.0.0.1:${port}` }, { baseUrl: UNREACHED }),
        plans.register({ fields: { Title: 't' } }),
      );

      expect(error.message).toBe(`could not reach the proxy http://127.0.0.1:${port} (it answered CONNECT in TLS): POST ${UNREACHED}/api/TicketsApi/register`);
      expect(error.hint).toBe(`the proxy may speak https: write it as https://127.0.0.1:${port} in https_proxy`);
      expect(outcomeUnknown(error)).toBe(false);
      expect(connections).toHaveLength(1);
      expect(`${error.message} ${error.hint}`).not.toContain('pw-Secret');
    } finally {
      for (const socket of connections) socket.destroy();
      await new Promise((resolve) => tlsOnly.close(resolve));
    }
  });
});

describe('an https:// proxy', () => {
  let certificate: Certificate;
  beforeEach(() => void (certificate = selfSignedCertificate()));
  afterEach(() => certificate.remove());

  it("names the proxy's untrusted certificate, with a hint for the proxy's CA, not the service's", async () => {
    const secure = await connectServer((socket) => void socket.destroy(), certificate);
    try {
      const error = await failureOf(client({ HTTP_PROXY: `https://jdoe:pw-Secret@localhost:${secure.port}` }), plans.register({ fields: { Title: 't' } }));

      // Node's own words, which Node 24 follows with "; if the root CA is installed locally, try running Node.js with --use-system-ca".
      expect(error.message).toMatch(
        new RegExp(
          `^TLS error with the proxy https://localhost:${secure.port} \\(self-signed certificate(; [^)]*)?\\): POST ${target.url}/api/TicketsApi/register$`,
        ),
      );
      expect(error.hint).toMatch(/^if the proxy uses a private CA, /);
      expect(outcomeUnknown(error)).toBe(false);
      expect(`${error.message} ${error.hint}`).not.toContain('pw-Secret');
      expect(target.requests).toEqual([]);
    } finally {
      await secure.close();
    }
  });

  it('sends no TLS server name to a proxy named by its IP address (RFC 6066; Node warns of it), and its name to one named by host', async () => {
    const names: string[] = [];
    const secure = await connectServer((socket) => void socket.destroy(), {
      ...certificate,
      SNICallback: (name: string, done: (error: null) => void) => {
        names.push(name);
        done(null);
      },
    } as { key: Buffer; cert: Buffer });
    try {
      await failureOf(client({ HTTP_PROXY: `https://127.0.0.1:${secure.port}` }), plans.getTicket(7));
      expect(names).toEqual([]);
      await failureOf(client({ HTTP_PROXY: `https://localhost:${secure.port}` }), plans.getTicket(7));
      expect(names).toEqual(['localhost']);
    } finally {
      await secure.close();
    }
  });

  it('says to write a proxy that speaks plain http as http://, not that the service does', async () => {
    const error = await failureOf(client({ HTTP_PROXY: proxy.url.replace('http:', 'https:') }), plans.getTicket(7));

    expect(error.failure).toBe('tls');
    expect(error.message).toMatch(/^TLS error with the proxy https:\/\/127\.0\.0\.1:\d+ \(.*wrong version number/);
    expect(error.hint).toBe(`the proxy may speak plain http: write it as ${proxy.url} in HTTP_PROXY`);
    expect(target.requests).toEqual([]);
  });

  it('names the variable the proxy came from, lower case as undici reads it first', async () => {
    const error = await failureOf(client({ http_proxy: proxy.url.replace('http:', 'https:'), HTTP_PROXY: 'http://unused.invalid' }), plans.getTicket(7));

    expect(error.hint).toBe(`the proxy may speak plain http: write it as ${proxy.url} in http_proxy`);
  });

  it("says that the proxy's trusted certificate is for another host, naming both, instead of pointing at a private CA", async () => {
    const otherHost = selfSignedCertificate('DNS:other.test,DNS:www.other.test');
    const secure = await connectServer((socket) => void socket.destroy(), otherHost);
    try {
      // Node reads NODE_EXTRA_CA_CERTS at start: a tkt run in a child, with none of this process's proxy variables.
      const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?|no)_proxy$/i.test(name)));
      const run = await promisify(execFile)(process.execPath, [bin, 'show', '7'], {
        env: {
          ...env,
          NODE_EXTRA_CA_CERTS: otherHost.certFile,
          TKT_URL: target.url,
          TKT_TOKEN: 'a-token',
          TKT_CONFIG_DIR: otherHost.dir,
          http_proxy: `https://localhost:${secure.port}`,
        },
      }).then(
        () => expect.unreachable('the run passed'),
        (failed: { code: number; stderr: string }) => failed,
      );

      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`TLS error with the proxy https://localhost:${secure.port} (`);
      expect(run.stderr).toContain(
        "hint: the proxy's certificate is for other.test, www.other.test, not localhost: write the proxy in http_proxy with a name it is for",
      );
      expect(run.stderr).not.toContain('private CA');
      expect(target.requests).toEqual([]);
    } finally {
      await secure.close();
      otherHost.remove();
    }
  });
});

describe('how a proxy variable is written', () => {
  it('takes a proxy without a scheme as http://, as curl does', async () => {
    const response = await client({ HTTP_PROXY: new URL(proxy.url).host }).send(plans.getTicket(7));

    expect(response.status).toBe(200);
    expect(proxiedTo(proxy, target.url)).toHaveLength(1);
  });

  it('goes direct for an IP address in a CIDR range of NO_PROXY', async () => {
    const response = await client({ HTTP_PROXY: proxy.url, NO_PROXY: 'example.com, 127.0.0.0/8' }).send(plans.getTicket(7));

    expect(response.status).toBe(200);
    expect(proxy.seen).toEqual([]);
    expect(target.requests).toHaveLength(1);
  });
});

describe('--debug', () => {
  it('says which proxy a request goes through, without its credentials, or that NO_PROXY sends it direct', async () => {
    const h = await createHarness();
    try {
      const via = await h.cli(['--debug', 'show', '1013'], { env: { HTTP_PROXY: `http://jdoe:pw-Secret@${new URL(proxy.url).host}` } });
      expect(via.code).toBe(0);
      expect(via.stderr).toContain(`HTTP > GET ${h.sandbox.url}/api/TicketsApi/1013`);
      expect(via.stderr).toMatch(new RegExp(`HTTP > GET ${h.sandbox.url}/api/TicketsApi/1013 .* via proxy ${proxy.url}\\n`));
      expect(via.stderr).not.toContain('pw-Secret');

      const direct = await h.cli(['--debug', 'show', '1013'], { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
      expect(direct.stderr).toMatch(new RegExp(`HTTP > GET ${h.sandbox.url}/api/TicketsApi/1013 .* direct \\(NO_PROXY\\)\\n`));
    } finally {
      await h.close();
    }
  });
});
