// HTTP_PROXY / NO_PROXY (docs/cli.md section 1): the client goes through a real
// forward proxy on loopback unless NO_PROXY covers the host. The variables come
// from the run's environment (the injected one), never from process.env.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/http.js';
import { NetworkError } from '../../src/errors.js';
import type { ApiClient } from '../../src/api/types.js';
import { createHarness } from '../helpers/harness.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import { sendJson, startServer, type TestServer } from './server.js';
import { plans } from '../../src/api/plans.js';

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
  it('ends with a network error within --timeout when the proxy drops CONNECT, instead of hanging', async () => {
    const dropping = createServer();
    dropping.on('connect', (_req, socket: Socket) => socket.destroy());
    await new Promise<void>((resolve) => dropping.listen(0, '127.0.0.1', resolve));
    const made = client({ HTTP_PROXY: `http://127.0.0.1:${(dropping.address() as AddressInfo).port}` }, { timeoutMs: 500 });
    try {
      const error = await made.send(plans.register({ fields: { Title: 't' } })).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).url).toBe(`${target.url}/api/TicketsApi/register`);
      expect(target.requests).toEqual([]);
    } finally {
      dropping.closeAllConnections();
      await new Promise<void>((resolve) => dropping.close(() => resolve()));
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
      ['user:secret@proxy', 'not a url'].map((HTTP_PROXY) =>
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

    const direct = await client({ HTTP_PROXY: 'user:secret@proxy', NO_PROXY: '127.0.0.1' }).send(plans.getTicket(7));
    expect(direct.status).toBe(200);
  });
});
