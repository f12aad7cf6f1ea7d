// "Waiting for HOST…": at a terminal, a service that takes the connection and then keeps the
// user waiting is not taken for a hung tkt. Once requests have gone a second without an answer,
// one line on stderr says so (as gh's spinner does); it is erased when the last of them
// answers or fails, before the command prints anything, and when the run ends. Where it is
// wanted is decided in src/process-host.ts (README, "Scripting": output rules).
import type { ApiClient } from '../api/types.js';
import type { IO } from './io.js';
import { transientLine } from './progress.js';

export const WAIT_NOTICE_DELAY_MS = 1000;

/** Runs `callback` after `ms` unless the returned function cancels it. */
export type StartTimer = (callback: () => void, ms: number) => () => void;

/** The real timer: it never keeps the process alive on its own. */
export const realTimer: StartTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface WaitNotice {
  /** `request`, with the line shown while it (or another watched request) is a second late. */
  watch<T>(host: string, request: Promise<T>): Promise<T>;
  /** `client`, every request it sends watched. */
  watching(client: ApiClient): ApiClient;
  /** Erases the line and shows it no more: the run ends. True when a line was showing. */
  end(): boolean;
}

export function createWaitNotice(io: IO, startTimer: StartTimer = realTimer): WaitNotice {
  const line = transientLine(io);
  let inFlight = 0;
  let cancelTimer: (() => void) | undefined;
  let ended = false;
  const stopTimer = (): void => {
    cancelTimer?.();
    cancelTimer = undefined;
  };
  const notice: WaitNotice = {
    async watch(host, request) {
      inFlight += 1;
      if (inFlight === 1 && !ended) cancelTimer = startTimer(() => line.draw(`Waiting for ${host}…`), WAIT_NOTICE_DELAY_MS);
      try {
        return await request;
      } finally {
        inFlight -= 1;
        if (inFlight === 0) {
          stopTimer();
          line.erase();
        }
      }
    },
    watching(client) {
      // Behind a proxy, the wait may be the proxy's as much as the service's.
      const { host } = new URL(client.baseUrl);
      const waitedFor = client.proxy === undefined ? host : `${host} via proxy ${client.proxy}`;
      return { ...client, send: (plan, options) => notice.watch(waitedFor, client.send(plan, options)) };
    },
    end() {
      ended = true;
      stopTimer();
      return line.erase();
    },
  };
  return notice;
}
