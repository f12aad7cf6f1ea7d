// The client's one keep-alive connection pool, and its replacement when a request is stuck in it.
// A request that has a connection settles promptly once aborted. One that does not is still
// queued while its pool reconnects in a loop (a proxy that keeps dropping the tunnel): the only
// way to stop that pool is to destroy it, so later requests get a fresh one.
import type { Dispatcher } from 'undici';
import type { Clock } from './clock.js';

/** How long an aborted request may take to settle before its pool is taken for stuck. */
export const STUCK_GRACE_MS = 250;

export interface Pool {
  request(options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  /**
   * Called with an aborted request: when it has not settled within STUCK_GRACE_MS, destroys the
   * pool it is queued in and puts a fresh one in its place.
   */
  replaceIfStuck(pending: Promise<unknown>, trace: (line: string) => void): Promise<void>;
  close(): Promise<void>;
}

export function createPool(newDispatcher: () => Dispatcher, clock: Pick<Clock, 'sleep'>): Pool {
  let dispatcher = newDispatcher();
  return {
    request: (options) => dispatcher.request(options),
    async replaceIfStuck(pending, trace) {
      const settled = await Promise.race([
        pending.then(
          () => true,
          () => true,
        ),
        clock.sleep(STUCK_GRACE_MS).then(() => false),
      ]);
      if (settled) return;
      const stuck = dispatcher;
      dispatcher = newDispatcher();
      trace('HTTP a request never got a connection: replacing the connection pool');
      await stuck.destroy().catch(() => undefined);
    },
    close: () => dispatcher.close(),
  };
}
