// How a request travels. Straight to the service: node:http or node:https, over one keep-alive
// agent per protocol, which loads in a few milliseconds and answers at a bare script's pace.
// Through HTTP(S)_PROXY (network-advice.ts proxyFor): undici's EnvHttpProxyAgent, which tunnels
// with CONNECT; undici is loaded only then, as it costs about five times node:http's load and
// a slower first request (README, Performance).
import type { Agent as HttpAgent, ClientRequest, IncomingMessage } from 'node:http';
import type { RequestOptions as HttpsRequestOptions } from 'node:https';
import { isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Dispatcher, Pool } from 'undici';
import type { ResponseHeaders } from './answer.js';
import { checkProxyUrl, ProxyTunnelError, proxyFor, shownProxy } from './network-advice.js';
import type { ProxySettings } from './proxy-env.js';
import type { PoolAnswer, PoolRequest, Transport } from './pool.js';
import type { AbortLike } from '../util/abort-like.js';
import { monotonicMs } from './clock.js';

/**
 * How long an idle connection is kept for the next request: undici's default. A long run (tkt mcp,
 * tkt watch) then never sends into a connection that a load balancer or NAT dropped without a
 * word; a shorter keep-alive the service announces wins (less a second, node:http's margin).
 */
export const IDLE_SOCKET_MS = 4_000;

export interface TransportSettings {
  proxies: ProxySettings;
  /** A proxy's connect limit: undici's own default (10 s) would cut a longer --timeout short. */
  connectTimeoutMs: number;
  /** IDLE_SOCKET_MS unless given. */
  idleSocketMs?: number;
}

// node:https's options: node:http takes them too, and leaves TLS's (the server name) alone.
type Send = (options: HttpsRequestOptions, onResponse: (answer: IncomingMessage) => void) => ClientRequest;

interface Route {
  origin: string;
  protocol: string;
  /** Host and port, for the Host header. */
  host: string;
  /** node:http wants an IPv6 address without its brackets (and puts them back in Host). */
  hostname: string;
  /** The name TLS asks for (SNI): the host name, none for an IP address. */
  servername: string;
  port: string;
  /** The proxy the origin is reached through, if any. */
  proxy: string | undefined;
  /** Host and port, the default one too: what undici's CONNECT asks the proxy for. */
  authority: string;
}

interface Direct {
  agent: HttpAgent;
  send: Send;
}

/** The connections of one client: a direct agent per protocol and the proxy agent, each made on first use. */
export function createTransport(settings: TransportSettings): Transport {
  // Free keep-alive sockets are unref'd by node:http: they never hold the process open. The number
  // of sockets is not capped: the bulk runner's --concurrency caps the requests in flight.
  let http: Direct | undefined;
  let https: Direct | undefined;
  let proxied: Promise<Dispatcher> | undefined;
  // Proxied requests waiting for a connection, by the host and port their tunnel goes to: a
  // tunnel the proxy opens is for the first of them (undici hands connections out in turn).
  const waiting: Array<{ authority: string; tunnelled: () => void }> = [];
  const tunnelOpened = (authority: string): void => {
    const first = waiting.findIndex((request) => request.authority === authority);
    if (first !== -1) waiting.splice(first, 1)[0]!.tunnelled();
  };
  // Requests sent and not yet done: close() lets them finish, as undici's close did (a list that
  // stopped at its short page still has pages in flight, which the service counts).
  const inFlight = new Set<ClientRequest>();

  // Taken with getBuiltinModule, not imported: from Node 22 on, importing node:http as an ES module
  // reads every export, http.WebSocket too, which loads Node's own copy of undici (65 modules,
  // crypto, tls, http2, zlib): on Node 24, 35 ms and 12.6 MiB more than a bare request needs.
  // node:https (tls, crypto) loads only for a service on https.
  const idleMs = settings.idleSocketMs ?? IDLE_SOCKET_MS;
  const direct = (protocol: string): Direct =>
    protocol === 'https:'
      ? (https ??= keepAlive(process.getBuiltinModule('node:https'), idleMs))
      : (http ??= keepAlive(process.getBuiltinModule('node:http'), idleMs));
  const proxyAgent = (): Promise<Dispatcher> =>
    (proxied ??= import('./undici-core.js').then(
      ({ EnvHttpProxyAgent, Pool }) =>
        new EnvHttpProxyAgent({
          ...settings.proxies,
          connect: { timeout: settings.connectTimeoutMs },
          clientFactory: (proxy, options) => tunnellingPool(new Pool(proxy, options), proxy, tunnelOpened),
        }),
    ));
  const proxyIfMade = async (): Promise<Dispatcher | undefined> => {
    try {
      return await proxied;
    } catch {
      return undefined;
    }
  };
  const sendProxied = async (proxy: string, authority: string, { tunnelled, ...options }: PoolRequest): Promise<PoolAnswer> => {
    checkProxyUrl(proxy);
    const agent = await proxyAgent();
    if (tunnelled === undefined) return sendThroughProxy(agent, options);
    const entry = { authority, tunnelled };
    const leave = (): void => {
      const at = waiting.indexOf(entry);
      if (at !== -1) waiting.splice(at, 1);
    };
    waiting.push(entry);
    try {
      const connected = (): void => {
        leave();
        options.connected?.();
      };
      return await sendThroughProxy(agent, { ...options, connected });
    } finally {
      leave();
    }
  };
  const directAgents = (): HttpAgent[] => [http, https].filter((made) => made !== undefined).map((made) => made.agent);

  // Every request of a run goes to one origin: what it says of the connection is worked out once
  // (a URL's getters, read for each of a bulk run's requests, cost more than the rest of the route).
  let route: Route | undefined;
  const routeTo = (origin: string): Route => {
    if (route?.origin !== origin) {
      const url = new URL(origin);
      const { protocol, host, port } = url;
      const authority = port === '' ? `${host}:${protocol === 'https:' ? 443 : 80}` : host;
      const hostname = url.hostname.replace(/^\[|\]$/g, '');
      // TLS's server name, as node:http would work it out of the Host header for each request: none for an IP address.
      const servername = isIP(hostname) === 0 ? hostname : '';
      route = { origin, protocol, host, hostname, servername, port, proxy: proxyFor(url, settings.proxies), authority };
    }
    return route;
  };

  return {
    // Not an async function: a direct request (each of a bulk run's) is the one promise sendDirect makes.
    request(options) {
      const to = routeTo(options.origin);
      return to.proxy === undefined ? sendDirect(direct(to.protocol), to, options, inFlight) : sendProxied(to.proxy, to.authority, options);
    },
    async destroy() {
      for (const agent of directAgents()) agent.destroy();
      await (await proxyIfMade())?.destroy();
    },
    async close() {
      // Not events.once: it would reject on the request's 'error', which comes before its 'close'.
      await Promise.all([...inFlight].map((request) => new Promise((resolve) => request.once('close', resolve))));
      for (const agent of directAgents()) agent.destroy();
      await (await proxyIfMade())?.close();
    },
  };
}

function keepAlive({ Agent, request }: { Agent: typeof HttpAgent; request: Send }, idleMs: number): Direct {
  return { agent: idleEndingAgent(Agent, idleMs), send: request };
}

/** Where a service announces how long it keeps an idle connection: `Keep-Alive: timeout=5`. */
const KEEP_ALIVE_HINT = /^timeout=(\d+)/;
/** node:http's margin under such a hint: the client ends the connection a second before the service would. */
const HINT_MARGIN_MS = 1_000;
/** node:http's default keepAliveMsecs: TCP's own keep-alive probes on an idle connection start after it. */
const TCP_KEEP_ALIVE_DELAY_MS = 1_000;

/**
 * A keep-alive agent ending the connections left idle `idleMs` (or a second less than the service
 * announces, if that is shorter) with one timer for all of them. node:http's own timeout option
 * does the same with a timer and a 'timeout' listener on the socket of every request, which a
 * bulk run pays for each ID: 3% of a 500-ticket close (README, Performance). Only idle sockets
 * are ended: --timeout is the deadline of a request in use (exchange.ts).
 */
function idleEndingAgent(Agent: typeof HttpAgent, idleMs: number): HttpAgent {
  const idleUntil = new WeakMap<Duplex, number>();
  let sweep: NodeJS.Timeout | undefined;
  let sweepAt = Infinity;
  // A service announces the same keep-alive on every answer: read once.
  let hintRead: string | string[] | undefined;
  let hintMs = idleMs;
  class IdleEndingAgent extends Agent {
    override keepSocketAlive(socket: Duplex): boolean {
      const hint = (socket as { _httpMessage?: { res?: Heard } })._httpMessage?.res?.[keepAliveHeard];
      if (hint !== hintRead) {
        hintRead = hint;
        hintMs = keptMs(hint, idleMs);
      }
      if (hintMs <= 0) return false;
      // What node:http's own keepSocketAlive does besides its timer: a free socket holds no run open.
      (socket as Socket).setKeepAlive(true, TCP_KEEP_ALIVE_DELAY_MS);
      (socket as Socket).unref();
      const until = monotonicMs() + hintMs;
      idleUntil.set(socket, until);
      if (until < sweepAt) this.sweepIn(hintMs, until);
      return true;
    }

    override destroy(): void {
      clearTimeout(sweep);
      sweep = undefined;
      sweepAt = Infinity;
      super.destroy();
    }

    /** Ends the free sockets idle past their time, and looks again when the next one's comes. */
    private sweepIn(ms: number, at: number): void {
      clearTimeout(sweep);
      sweepAt = at;
      sweep = setTimeout(() => {
        const now = monotonicMs();
        let next = Infinity;
        for (const sockets of Object.values(this.freeSockets)) {
          for (const socket of sockets ?? []) {
            const until = idleUntil.get(socket) ?? now;
            // As node:http's timeout does: the agent takes a destroyed socket out of its free list on its 'close'.
            if (until <= now) socket.destroy();
            else next = Math.min(next, until);
          }
        }
        sweep = undefined;
        sweepAt = Infinity;
        if (next !== Infinity) this.sweepIn(next - now, next);
      }, ms).unref();
    }
  }
  return new IdleEndingAgent({ keepAlive: true });
}

/** How long a connection may stay idle: `idleMs`, or less under the service's keep-alive hint (0: not kept). */
function keptMs(hint: string | string[] | undefined, idleMs: number): number {
  // A repeated header is read as node:http reads it: joined, the first value first.
  const text = Array.isArray(hint) ? hint.join(', ') : hint;
  const seconds = text === undefined ? undefined : KEEP_ALIVE_HINT.exec(text)?.[1];
  return seconds === undefined ? idleMs : Math.min(idleMs, Number(seconds) * 1000 - HINT_MARGIN_MS);
}

function sendDirect({ agent, send }: Direct, route: Route, options: PoolRequest, inFlight: Set<ClientRequest>): Promise<PoolAnswer> {
  const { body } = options;
  // The head undici sent: Host first (as RFC 9110 asks of a client), then Connection; a body in
  // hand announced by its length, an iterable without one chunked (node:http's own choice).
  const headers: Record<string, string> = { host: route.host, connection: 'keep-alive', ...options.headers };
  if ((typeof body === 'string' || Buffer.isBuffer(body)) && headers['content-length'] === undefined) {
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    let request: ClientRequest;
    try {
      request = send(
        {
          protocol: route.protocol,
          hostname: route.hostname,
          servername: route.servername,
          port: route.port,
          path: options.path,
          method: options.method,
          headers,
          agent,
        },
        (answer) => resolve(answerOf(answer)),
      );
    } catch (error) {
      // A header value node:http refuses (a control character in a token).
      reject(error as Error);
      return;
    }
    // Every error, also one after the answer came (which reaches the body's reader), ends here.
    request.on('error', reject);
    const { connected } = options;
    // on, not once: a request has one 'socket' and one 'close', and once wraps each listener
    // (a bulk run adds them to every request).
    if (connected !== undefined) {
      request.on('socket', (socket) => {
        // A socket the agent hands on again is open; a new one has not connected yet (to https,
        // not until its TLS handshake is done), and until then nothing left for the service.
        if (socket.connecting) socket.once(route.protocol === 'https:' ? 'secureConnect' : 'connect', connected);
        else connected();
      });
    }
    inFlight.add(request);
    const stopAborting = options.signal === undefined ? undefined : abortWith(options.signal, request);
    // One listener for both.
    request.on('close', () => {
      inFlight.delete(request);
      stopAborting?.();
    });
    if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) request.end(body);
    else writeChunks(request, body).catch((error: unknown) => request.destroy(error as Error));
  });
}

/**
 * Destroys `request`, and with it its answer, when `signal` aborts; returns what stops that once
 * the request is closed. node:http's own signal option does the same at about a third more CPU
 * per request (a stream end-of-life watcher for each), which a bulk run pays hundreds of times.
 */
function abortWith(signal: AbortLike, request: ClientRequest): (() => void) | undefined {
  const abort = (): void => void request.destroy(signal.reason as Error);
  if (signal.aborted) {
    abort();
    return undefined;
  }
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}

/**
 * An answer's Keep-Alive header as answerOf read it, for the agent when the connection is freed:
 * node:http's headers getter would build every header of the answer again (1% of a bulk close).
 */
const keepAliveHeard = Symbol('keep-alive heard');
type Heard = IncomingMessage & { [keepAliveHeard]?: string | string[] | undefined };

/** The answer's headers as undici gave them: lower-case names, a repeated header as an array. */
function answerOf(answer: Heard): PoolAnswer {
  // From the raw name-value list, in one pass: headersDistinct would build an array for every header.
  const headers: ResponseHeaders = {};
  const raw = answer.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    const value = raw[index + 1]!;
    const before = headers[name];
    headers[name] = before === undefined ? value : Array.isArray(before) ? [...before, value] : [before, value];
  }
  answer[keepAliveHeard] = headers['keep-alive'];
  return { statusCode: answer.statusCode ?? 0, headers, body: answer };
}

/**
 * Writes `chunks` in turn, asking for the next only once the connection has taken the last
 * (upload.ts reuses its buffers on that promise); stops asking once the request is gone.
 */
async function writeChunks(request: ClientRequest, chunks: AsyncIterable<Buffer>): Promise<void> {
  for await (const chunk of chunks) {
    if (request.destroyed || (!request.write(chunk) && !(await drained(request)))) return;
  }
  request.end();
}

/** true once `request` can take more, false when it closed first. */
function drained(request: ClientRequest): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (more: boolean) => () => {
      request.off('drain', onDrain);
      request.off('close', onClose);
      resolve(more);
    };
    const onDrain = done(true);
    const onClose = done(false);
    request.on('drain', onDrain);
    request.on('close', onClose);
  });
}

/**
 * `pool` (undici's connection to the proxy `proxy`) with its CONNECT failing as ProxyTunnelError:
 * a refusal keeps its status for the message, and a proxy that closes the connection instead of
 * answering is not retried by undici in a loop (see ProxyTunnelError). `opened` is told the host
 * and port of each tunnel opened.
 */
function tunnellingPool(pool: Pool, proxy: URL, opened: (authority: string) => void): Pool {
  const connect = pool.connect.bind(pool) as (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  const shown = shownProxy(proxy);
  const tunnel = async (options: Dispatcher.ConnectOptions & { servername?: string }): Promise<Dispatcher.ConnectData> => {
    let answer: Dispatcher.ConnectData;
    try {
      // undici gives an https:// proxy's host as its TLS server name, an IP address too, which
      // RFC 6066 forbids (Node warns, DEP0123): such a proxy is sent none.
      answer = await connect(options.servername !== undefined && isIP(options.servername) !== 0 ? { ...options, servername: undefined } : options);
    } catch (error) {
      throw new ProxyTunnelError(shown, undefined, error);
    }
    if (answer.statusCode === 200) {
      opened(options.path);
      return answer;
    }
    answer.socket.on('error', () => undefined).destroy();
    throw new ProxyTunnelError(shown, answer.statusCode);
  };
  return Object.assign(pool, { connect: tunnel });
}

async function sendThroughProxy(agent: Dispatcher, { connected, ...options }: PoolRequest): Promise<PoolAnswer> {
  const sender = connected === undefined ? agent : tellingWhenWritten(agent, connected);
  // undici takes an async iterable as a body (its Dispatcher.request docs), though its types do not list it.
  const { statusCode, headers, body } = await sender.request({
    ...options,
    method: options.method as Dispatcher.HttpMethod,
    body: options.body as string | Buffer | undefined,
  });
  return { statusCode, headers: headers as ResponseHeaders, body };
}

/**
 * `agent`, calling `written` as its request starts to be written to a connection: undici calls a
 * request's onConnect then, once a connection (behind a proxy, its tunnel; to https, past the TLS
 * handshake through it) is open, not before.
 */
function tellingWhenWritten(agent: Dispatcher, written: () => void): Dispatcher {
  const dispatch = (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    const { onConnect } = handler;
    handler.onConnect = function (this: Dispatcher.DispatchHandler, ...args: Parameters<NonNullable<typeof onConnect>>) {
      written();
      onConnect?.apply(this, args);
    };
    return agent.dispatch(options, handler);
  };
  // The request API (undici's Dispatcher.request) sends through `this.dispatch`.
  return Object.assign(Object.create(agent) as Dispatcher, { dispatch });
}
