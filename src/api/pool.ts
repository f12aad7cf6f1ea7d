// The client's one keep-alive connection pool, and its replacement when a request is stuck in it.
// A request that has a connection settles promptly once aborted. One that does not is still
// queued while its pool reconnects in a loop (a proxy that keeps dropping the tunnel): the only
// way to stop that pool is to destroy it, so later requests get a fresh one.
import type { Readable } from 'node:stream';
import type { ResponseHeaders } from './answer.js';
import type { Clock } from './clock.js';
import type { AbortLike } from '../util/abort-like.js';

/** How long an aborted request may take to settle before its pool is taken for stuck. */
export const STUCK_GRACE_MS = 250;

/** One HTTP request as the pool sends it. */
export interface PoolRequest {
  /** `http://host:port` */
  origin: string;
  /** The path and query, from `/`. */
  path: string;
  method: string;
  headers?: Record<string, string>;
  /**
   * An async iterable is written a chunk at a time, the next asked for once the socket has taken
   * the last (chunked without a content-length header).
   */
  body?: string | Buffer | AsyncIterable<Buffer>;
  signal?: AbortLike;
  /**
   * Called as the request starts out on a connection to the service: behind a proxy, through the
   * tunnel the proxy opened; to https, once the TLS handshake is done. Until then nothing has
   * reached the service.
   */
  connected?: () => void;
  /**
   * Behind a proxy: called when the proxy has opened the tunnel this request waits for (its
   * CONNECT answered 200); to https, the TLS handshake with the service through it comes next.
   */
  tunnelled?: () => void;
}

export interface PoolAnswer {
  statusCode: number;
  headers: ResponseHeaders;
  /** Read to its end or destroyed: only then is the connection free again. */
  body: Readable;
}

/** What a pool sends with: the connections of one client (transport.ts). */
export interface Transport {
  request(options: PoolRequest): Promise<PoolAnswer>;
  /** Ends every connection and every request on them at once. */
  destroy(): Promise<void>;
  /** Ends the connections once their requests are done. */
  close(): Promise<void>;
}

export interface Pool {
  request(options: PoolRequest): Promise<PoolAnswer>;
  /**
   * Called with an aborted request: when it has not settled within STUCK_GRACE_MS, destroys the
   * pool it is queued in and puts a fresh one in its place.
   */
  replaceIfStuck(pending: Promise<unknown>, trace: (line: string) => void): Promise<void>;
  close(): Promise<void>;
}

export function createPool(newTransport: () => Transport, clock: Pick<Clock, 'sleep'>): Pool {
  let transport = newTransport();
  return {
    request: (options) => transport.request(options),
    async replaceIfStuck(pending, trace) {
      const settled = await Promise.race([
        pending.then(
          () => true,
          () => true,
        ),
        clock.sleep(STUCK_GRACE_MS).then(() => false),
      ]);
      if (settled) return;
      const stuck = transport;
      transport = newTransport();
      trace('HTTP a request never got a connection: replacing the connection pool');
      await stuck.destroy().catch(() => undefined);
    },
    close: () => transport.close(),
  };
}
