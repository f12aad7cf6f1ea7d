// The API client, the one place tkt speaks HTTP: it sends the request plans of plans.ts over a
// single keep-alive pool (pool.ts, transport.ts), one exchange at a time (exchange.ts), following
// safe redirects (redirects.ts) and retrying what may be retried (retry.ts), and turns what came
// back into the answer or the error it is (http-errors.ts).
import { normalizeBaseUrl } from '../config/url.js';
import { systemClock, type Clock } from './clock.js';
import { timerMs } from './deadline.js';
import { createExchanger } from './exchange.js';
import { ApiError, misdirectedBaseUrl } from '../errors.js';
import { finalAnswer } from './http-errors.js';
import { plans } from './plans.js';
import { shownProxyFor } from './network-advice.js';
import { proxySettings } from './proxy-env.js';
import { createPool } from './pool.js';
import { redactText, secretValues } from './redact.js';
import { followRedirects } from './redirects.js';
import { attemptsFor, DEFAULT_RETRY_BASE_DELAY_MS, withRetries } from './retry.js';
import { MAX_BODY_BYTES } from './size-limits.js';
import { createTransport } from './transport.js';
import type { ApiClient, ApiResponse, RequestPlan, SendOptions } from './types.js';

export { classifyNetworkError } from './http-errors.js';
export { MAX_RETRY_DELAY_MS, retryAfterMs } from './retry.js';

export interface ApiClientOptions {
  /** e.g. http://127.0.0.1:8642 or https://helpdesk.example.com/sub */
  baseUrl: string;
  /** Bearer token; sent only to the base URL's origin. */
  token?: string;
  /** The profile whose saved URL baseUrl is (not one from --url or TKT_URL), for the hint of a service not reached. */
  urlProfile?: string;
  /** Per request. */
  timeoutMs: number;
  /** --debug trace lines, already redacted. */
  debug?: (line: string) => void;
  userAgent?: string;
  /** Backoff base between retries; default 250ms. */
  retryBaseDelayMs?: number;
  /** The clock of the waits between retries; default the system's (a test's moves when the test says). */
  clock?: Clock;
  /** The largest response body read; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * Aborted on a second Ctrl-C/SIGTERM: requests not yet sent are refused, those in flight are
   * given up (AbandonedRequestError: their outcome is unknown).
   */
  halt?: AbortSignal;
  /** Aborted on the first Ctrl-C/SIGTERM (its name the reason): an upload still being sent is given up. */
  stop?: AbortSignal;
  /**
   * Aborted on the first Ctrl-C/SIGTERM of a command that awaits no read: the reads in flight are
   * given up (a read changes nothing); only changes already sent are waited for.
   */
  endReads?: AbortSignal;
  /** Counts the requests in flight (those the first signal waits for), shared by a run's clients. */
  requests?: { count: number };
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms) are read. */
  env: Readonly<Record<string, string | undefined>>;
}

/** Joins a base URL (which may have a path prefix) and a path without doubling slashes. */
export function joinUrl(baseUrl: string, path: string): string {
  // By index, not regular expressions: a bulk run joins a URL for every ID.
  let end = baseUrl.length;
  while (end > 0 && baseUrl.charCodeAt(end - 1) === SLASH) end--;
  let start = 0;
  while (start < path.length && path.charCodeAt(start) === SLASH) start++;
  const base = baseUrl.slice(0, end);
  return start === path.length ? base : `${base}/${path.slice(start)}`;
}

const SLASH = 0x2f;

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const baseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  // Proxies come from HTTP(S)_PROXY/NO_PROXY of the run's environment (undici would read
  // process.env for any left undefined); no custom CA is set, so Node's store (including
  // NODE_EXTRA_CA_CERTS) stays in force.
  const proxies = proxySettings(options.env);
  // Every limit and message uses the time a timer can hold (README: --timeout).
  const timeoutMs = timerMs(options.timeoutMs);
  const pool = createPool(() => createTransport({ proxies, connectTimeoutMs: timeoutMs }), systemClock);
  const exchange = createExchanger({
    pool,
    baseOrigin: new URL(baseUrl).origin,
    urlProfile: options.urlProfile,
    token: options.token,
    userAgent: options.userAgent ?? 'tkt',
    timeoutMs,
    maxBodyBytes: options.maxBodyBytes ?? MAX_BODY_BYTES,
    proxies,
    halt: options.halt,
    stop: options.stop,
    endReads: options.endReads,
    requests: options.requests,
  });

  const tokenOnly = [options.token];
  // A base URL with a wrong path (https://desk.example.com/helpdesk) gets a 404 for every ticket,
  // which reads as the ticket gone (exit 3): a 404 before any success asks the app metadata, which
  // every service has (one question at a time, shared); not found either, the base URL is wrong
  // (exit 1, and a bulk run stops). Any success says the URL is right, for good; "wrong" holds
  // only until one (a long-running client outlives an outage); an answer that is neither (a time-
  // out, a signal) is kept by no one. Not asked once the run is stopping, nor for a read given up.
  let baseUrlFound = false;
  let baseUrlWrong = false;
  let asking: Promise<boolean | undefined> | undefined;
  const appMetadataPath = plans.appMetadata().path;
  const askAppMetadata = (signal: AbortSignal | undefined): Promise<boolean | undefined> =>
    send(plans.appMetadata(), signal === undefined ? {} : { signal }).then(
      () => true,
      (probe: unknown) => (probe instanceof ApiError && probe.status === 404 ? false : undefined),
    );
  // Once the service answered under the base URL, a 404 is the resource's: a bulk run's requests go
  // straight to send, without this check's promise and try around each.
  const sendChecked = (plan: RequestPlan, sendOptions: SendOptions = {}): Promise<ApiResponse> =>
    baseUrlFound ? send(plan, sendOptions) : sendFirst(plan, sendOptions);

  async function sendFirst(plan: RequestPlan, sendOptions: SendOptions): Promise<ApiResponse> {
    try {
      const response = await send(plan, sendOptions);
      baseUrlFound = true;
      return response;
    } catch (error) {
      if (baseUrlFound || !(error instanceof ApiError) || error.status !== 404 || misdirectedBaseUrl(error) !== undefined || plan.path === appMetadataPath)
        throw error;
      if (!baseUrlWrong) {
        if (options.stop?.aborted === true || options.halt?.aborted === true || sendOptions.signal?.aborted === true) throw error;
        const found = await (asking ??= askAppMetadata(sendOptions.signal).finally(() => (asking = undefined)));
        if (found === true) baseUrlFound = true;
        if (found === false) baseUrlWrong = true;
      }
      throw baseUrlWrong && !baseUrlFound ? error.underWrongBaseUrl(baseUrl) : error;
    }
  }

  async function send(plan: RequestPlan, sendOptions: SendOptions = {}): Promise<ApiResponse> {
    const method = plan.method.toUpperCase();
    const url = joinUrl(baseUrl, plan.path);
    const secrets = plan.json === undefined ? tokenOnly : [options.token, ...secretValues(plan.json)];
    // Without --debug no trace line is made at all.
    const { debug } = options;
    const trace = debug === undefined ? undefined : (line: string): void => debug(redactText(line, secrets));
    // Only a read is given up: a change once sent is awaited (its outcome is the user's to know).
    const request = { method, plan, secrets, trace, giveUp: plan.retry ? sendOptions.signal : undefined, upload: sendOptions.upload };
    // Only a GET follows redirects and only a read is tried again: a change (each ID of a bulk
    // run) is one exchange, without those layers' closures and promises.
    const tryOnce = method === 'GET' ? () => followRedirects(method, url, (at) => exchange(request, at), trace) : () => exchange(request, url);
    const attempts = attemptsFor(plan);
    const received =
      attempts === 1
        ? await tryOnce()
        : await withRetries(tryOnce, {
            attempts,
            baseDelayMs,
            clock: options.clock ?? systemClock,
            giveUp: request.giveUp,
            halt: options.halt,
            // As the exchange: only a read begun before the first signal ends at it.
            endReads: options.endReads?.aborted === true ? undefined : options.endReads,
            onRetry: (retry, attempt) => {
              trace?.(`HTTP retry ${method} ${url} after ${retry.reason}: waiting ${retry.delayMs}ms (attempt ${attempt} of ${attempts})`);
              sendOptions.onRetry?.(retry, attempt, attempts);
            },
          });
    return finalAnswer(
      received,
      method,
      plan.retry,
      plan.expect,
      secrets,
      { requestUrl: url, baseUrl, withToken: options.token !== undefined && plan.auth !== false },
      (options.clock ?? systemClock).now(),
    );
  }

  return { baseUrl, proxy: shownProxyFor(new URL(baseUrl), proxies), send: sendChecked, dispose: () => pool.close() };
}
