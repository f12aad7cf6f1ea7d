// "Waiting for HOST…": at a terminal, a service that takes the connection and then keeps the
// user waiting is not taken for a hung tkt. Once requests have gone a second without an answer,
// one line on stderr says so (as gh's spinner does); it is erased when the last of them
// answers or fails, before the command prints anything, and when the run ends. While a read
// waits to be tried again (a 503, a 429, a dropped connection), the line says why and for how
// long, not just that tkt waits. A command may have the line say how far its upload's files are
// sent (tkt attach: upload-progress.ts), then, the body sent, what it waits for again. The line
// keeps off the terminal while a prompt, the editor or the pager has it (aside), and gives way to
// a progress bar: one line drawn in place at a time. Where it is wanted is decided in
// src/process-host.ts (README, "Scripting": output rules).
import type { ApiClient, RequestPlan, Retry, UploadWatcher } from '../api/types.js';
import type { IO } from './io.js';
import { REDRAW_INTERVAL_MS, transientLine } from './progress.js';

export const WAIT_NOTICE_DELAY_MS = 1000;

/** Runs `callback` after `ms` unless the returned function cancels it. */
export type StartTimer = (callback: () => void, ms: number) => () => void;

/** The real timer: it never keeps the process alive on its own. */
export const realTimer: StartTimer = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Why a read waits to be tried again, and what it does: `the service is busy (503): trying again in 8 s (try 2 of 3)`. */
function retryText(retry: Retry, attempt: number, attempts: number): string {
  const why =
    'failure' in retry ? `the connection was ${retry.failure === 'reset' ? 'dropped' : retry.failure}` : `${statusWords(retry.status)} (${retry.status})`;
  return `${why}: trying again in ${Math.max(1, Math.ceil(retry.delayMs / 1000))} s (try ${attempt} of ${attempts})`;
}

function statusWords(status: number): string {
  if (status === 429) return 'too many requests';
  if (status === 503) return 'the service is busy';
  return "the service's gateway got no answer";
}

/** The notice's line as an upload's watcher (upload-progress.ts) shares it. */
export interface NoticeLine {
  /** The line says `text()` instead of what the run waits for (drawn at once when it shows); undefined: the wait again. */
  instead(text: (() => string) | undefined): void;
  /** Draws the line anew within REDRAW_INTERVAL_MS: no more often, however often asked, and not before it is due. */
  redrawSoon(): void;
}

/** The watcher of the upload of `plan`, saying on `line` how far its files are sent; undefined for a plan without files. */
export type UploadProgress = (plan: RequestPlan, line: NoticeLine) => UploadWatcher | undefined;

export interface WaitNotice {
  /** `request`, with the line shown while it (or another watched request) is a second late. */
  watch<T>(host: string, request: Promise<T>): Promise<T>;
  /** `host` is waited for to try a read again: the line says why while the wait lasts, then which try it is. */
  retrying(host: string, retry: Retry, attempt: number, attempts: number): void;
  /** `client`, every request it sends watched (with `uploadProgress`, its uploads too). */
  watching(client: ApiClient): ApiClient;
  /**
   * Runs `use` while a prompt, the editor or the pager has the terminal: the line is erased first
   * and not drawn until `use` is done, then drawn again if the wait goes on.
   */
  aside<T>(use: () => Promise<T>): Promise<T>;
  /** Erases the line and shows it no more: the run ends. True when a line was showing. */
  end(): boolean;
}

export function createWaitNotice(io: IO, startTimer: StartTimer = realTimer, uploadProgress?: UploadProgress): WaitNotice {
  const line = transientLine(io);
  let inFlight = 0;
  let cancelTimer: (() => void) | undefined;
  let cancelRetryEnd: (() => void) | undefined;
  let ended = false;
  let cancelRedraw: (() => void) | undefined;
  // What the line says, and whether it is due (from a second after the first request on); an
  // upload's progress says something else instead while its files are sent. A due line is drawn
  // unless the terminal is another's (`asides`: a prompt, the editor) or another line drawn in
  // place shows (a bulk run's progress bar, which says the run goes on and how far).
  let text = '';
  let instead: (() => string) | undefined;
  let due = false;
  let asides = 0;
  const show = (): void => {
    due = true;
    cancelRedraw?.();
    cancelRedraw = undefined;
    if (asides > 0 || [...(io.liveLines ?? [])].some((other) => other !== line)) return;
    line.draw(instead?.() ?? text);
  };
  const say = (said: string): void => {
    text = said;
    if (due) show();
  };
  const stopTimer = (): void => {
    cancelTimer?.();
    cancelTimer = undefined;
    cancelRetryEnd?.();
    cancelRetryEnd = undefined;
    cancelRedraw?.();
    cancelRedraw = undefined;
    instead = undefined;
  };
  const shared: NoticeLine = {
    instead(said) {
      if (ended || inFlight === 0) return;
      instead = said;
      if (due) show();
    },
    redrawSoon() {
      if (due && cancelRedraw === undefined) cancelRedraw = startTimer(show, REDRAW_INTERVAL_MS);
    },
  };
  const notice: WaitNotice = {
    async watch(host, request) {
      inFlight += 1;
      if (inFlight === 1 && !ended) {
        text = `Waiting for ${host}…`;
        cancelTimer = startTimer(show, WAIT_NOTICE_DELAY_MS);
      }
      try {
        return await request;
      } finally {
        inFlight -= 1;
        if (inFlight === 0) {
          stopTimer();
          due = false;
          line.erase();
        }
      }
    },
    retrying(host, retry, attempt, attempts) {
      if (ended || inFlight === 0) return;
      say(`Waiting for ${host}: ${retryText(retry, attempt, attempts)}…`);
      // Once the wait is over the request is sent again: the line no longer counts down.
      cancelRetryEnd?.();
      cancelRetryEnd = startTimer(() => say(`Waiting for ${host} (try ${attempt} of ${attempts})…`), retry.delayMs);
    },
    watching(client) {
      // Behind a proxy, the wait may be the proxy's as much as the service's.
      const { host } = new URL(client.baseUrl);
      const waitedFor = client.proxy === undefined ? host : `${host} via proxy ${client.proxy}`;
      const onRetry = (retry: Retry, attempt: number, attempts: number): void => notice.retrying(waitedFor, retry, attempt, attempts);
      return {
        ...client,
        send: (plan, options) => notice.watch(waitedFor, client.send(plan, { ...options, onRetry, upload: uploadProgress?.(plan, shared) })),
      };
    },
    async aside(use) {
      asides += 1;
      line.erase();
      try {
        return await use();
      } finally {
        asides -= 1;
        if (due) show();
      }
    },
    end() {
      ended = true;
      stopTimer();
      due = false;
      return line.erase();
    },
  };
  return notice;
}
