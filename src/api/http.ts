// The API client, the one place tkt speaks HTTP: it sends the request plans of plans.ts with
// undici over a single keep-alive pool, with time-outs, retries for read-only requests, safe
// redirects, bounded and checked response bodies, the error model and redaction of everything
// it reports (contract sections 4 and 5, issue 11).
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { EnvHttpProxyAgent } from './undici-core.js';
import { AbandonedRequestError, ApiError, InterruptedError, NetworkError, TktError } from '../errors.js';
import { normalizeBaseUrl } from '../config/url.js';
import { DeadlineExceeded, startDeadline } from './deadline.js';
import type { NetworkFailure } from '../errors.js';
import { formatBytes, MAX_BODY_BYTES, MAX_ERROR_BODY_BYTES, parseBody, readLimited, unexpectedBody } from './body.js';
import { serverMessages } from './error-body.js';
import { failedProxy, proxySettings, tlsHint, type ProxySettings } from './network-advice.js';
import { redactJson, redactSecrets, redactText, REDACTED, secretValues } from './redact.js';
import type { ApiClient, ApiResponse, RequestPlan } from './types.js';
import { buildMultipart, uploadChunks, type Upload } from './upload.js';

export interface ApiClientOptions {
  /** e.g. http://127.0.0.1:8642 or https://helpdesk.example.com/sub */
  baseUrl: string;
  /** Bearer token; sent only to the base URL's origin. */
  token?: string;
  /** Per request. */
  timeoutMs: number;
  /** --debug trace lines, already redacted. */
  debug?: (line: string) => void;
  userAgent?: string;
  /** Backoff base between retries; default 250ms. */
  retryBaseDelayMs?: number;
  /** The largest response body read; default MAX_BODY_BYTES. */
  maxBodyBytes?: number;
  /**
   * Aborted on a second Ctrl-C/SIGTERM: requests not yet sent are refused, those in flight are
   * given up (AbandonedRequestError: their outcome is unknown).
   */
  halt?: AbortSignal;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms) are read. */
  env: Readonly<Record<string, string | undefined>>;
}

const MAX_ATTEMPTS = 3;
const MAX_REDIRECTS = 5;
const DEFAULT_RETRY_BASE_DELAY_MS = 250;
/** A Retry-After longer than this is cut short: a CLI user will not wait minutes. */
export const MAX_RETRY_DELAY_MS = 10_000;
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_FAILURES = new Set<NetworkFailure>(['refused', 'reset']);
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Real tokens (JWTs, opaque keys) are far longer than this. */
const MIN_TOKEN_IN_DATA = 16;
/** How long an aborted request may take to settle before its pool is taken for stuck. */
const STUCK_GRACE_MS = 250;

type Headers = Record<string, string | string[] | undefined>;

interface Outgoing {
  headers: Record<string, string>;
  /** A multipart upload with files is read from disk as it is sent (upload.ts). */
  body: string | Buffer | Upload | undefined;
  /** What the trace shows of the body, already redacted. */
  summary: string;
}

/** Joins a base URL (which may have a path prefix) and a path without doubling slashes. */
export function joinUrl(baseUrl: string, path: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const relative = path.replace(/^\/+/, '');
  return relative === '' ? base : `${base}/${relative}`;
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const baseOrigin = new URL(baseUrl).origin;
  const retryBaseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  // Proxies come from HTTP(S)_PROXY/NO_PROXY of the run's environment (undici would read
  // process.env for any left undefined); no custom CA is set, so Node's store (including
  // NODE_EXTRA_CA_CERTS) stays in force.
  const proxies = proxySettings(options.env);
  const newDispatcher = () => new EnvHttpProxyAgent({ ...proxies, connect: { timeout: options.timeoutMs } });
  let dispatcher = newDispatcher();
  const maxBodyBytes = options.maxBodyBytes ?? MAX_BODY_BYTES;
  // In data (a successful answer) only a token long enough not to be ordinary text is replaced:
  // a test's TKT_TOKEN=x must not turn every x of a ticket into ***.
  const tokenInData = options.token !== undefined && options.token.length >= MIN_TOKEN_IN_DATA ? [options.token] : [];

  async function send(req: RequestPlan): Promise<ApiResponse> {
    const method = req.method.toUpperCase();
    const url = joinUrl(baseUrl, req.path);
    const maxAttempts = req.retry ? MAX_ATTEMPTS : 1;
    // What this request must never print: the token and, for a login, the password.
    const secrets = [options.token, ...secretValues(req.json)];
    const trace = (line: string): void => options.debug?.(redactText(line, secrets));
    for (let attempt = 1; ; attempt++) {
      let received: Received;
      try {
        received = await exchange(method, url, req, secrets, trace);
      } catch (error) {
        if (!(error instanceof NetworkError) || !RETRY_FAILURES.has(error.failure) || attempt >= maxAttempts) throw error;
        await backOff(trace, method, url, `connection ${error.failure}`, backoffDelay(attempt), attempt + 1, maxAttempts);
        continue;
      }
      const { problem, ...response } = received;
      if (response.status >= 200 && response.status < 300) {
        const unexpected = unexpectedBody({ body: response.body, problem }, req.expect);
        if (unexpected === undefined) return response;
        throw new ApiError({
          status: response.status,
          method,
          url: redactText(response.url, secrets),
          // A sign-in page or a broken document is described, not kept.
          body: undefined,
          serverMessages: [`the service answered with ${unexpected}`],
          message: `unusable answer (HTTP ${response.status}): ${method} ${redactText(response.url, secrets)}`,
        });
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= maxAttempts) throw toApiError(method, response, secrets);
      const delay = retryAfterMs(header(response.headers, 'retry-after'), Date.now()) ?? backoffDelay(attempt);
      await backOff(trace, method, url, `HTTP ${response.status}`, delay, attempt + 1, maxAttempts);
    }
  }

  function backoffDelay(attempt: number): number {
    return Math.min(retryBaseDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
  }

  async function backOff(trace: Trace, method: string, url: string, reason: string, delayMs: number, nextAttempt: number, maxAttempts: number): Promise<void> {
    trace(`HTTP retry ${method} ${url} after ${reason}: waiting ${delayMs}ms (attempt ${nextAttempt} of ${maxAttempts})`);
    await delay(delayMs);
  }

  /** One attempt, following redirects for GET only. */
  async function exchange(method: string, firstUrl: string, req: RequestPlan, secrets: Secrets, trace: Trace): Promise<Received> {
    let url = firstUrl;
    for (let redirects = 0; ; redirects++) {
      const response = await once(method, url, req, secrets, trace);
      const location = header(response.headers, 'location');
      if (method !== 'GET' || !REDIRECT_STATUSES.has(response.status) || !location || redirects >= MAX_REDIRECTS) return response;
      const next = new URL(location, url);
      if (next.protocol !== 'http:' && next.protocol !== 'https:') return response;
      trace(`HTTP redirect ${response.status} ${url} -> ${next.href}`);
      url = next.href;
    }
  }

  async function once(method: string, url: string, req: RequestPlan, secrets: Secrets, trace: Trace): Promise<Received> {
    if (options.halt?.aborted) throw new InterruptedError();
    const outgoing = await buildBody(req);
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
      'user-agent': options.userAgent ?? 'tkt',
      ...outgoing.headers,
    };
    // The token goes to the configured origin only, never to a redirect target elsewhere.
    const withToken = options.token !== undefined && req.auth !== false && new URL(url).origin === baseOrigin;
    if (withToken) headers.authorization = `Bearer ${options.token}`;
    trace(`HTTP > ${method} ${url}${withToken ? ` authorization: Bearer ${REDACTED}` : ''}${outgoing.summary}`);

    const started = performance.now();
    const deadline = startDeadline(options.timeoutMs);
    // An upload of files may take longer than --timeout in all: every chunk sent starts the clock
    // again, so only an upload that stops moving times out; once sent, the answer gets the full time.
    // An upload goes as an async iterable, which undici takes (its Dispatcher.request docs) but its
    // types do not list: every chunk is written, and the socket drained, before the next is asked for.
    const body = (isUpload(outgoing.body) ? uploadChunks(outgoing.body, deadline.restart) : outgoing.body) as string | Buffer | undefined;
    const target = new URL(url);
    const pending = dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: method as 'GET',
      headers,
      body,
      signal: options.halt === undefined ? deadline.signal : AbortSignal.any([deadline.signal, options.halt]),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    try {
      const res = await deadline.race(pending);
      const responseHeaders = res.headers as Headers;
      const success = res.statusCode >= 200 && res.statusCode < 300;
      // A success must come whole or not at all; of an error body, the start says enough.
      const limit = success ? maxBodyBytes : MAX_ERROR_BODY_BYTES;
      const declared = Number(header(responseHeaders, 'content-length'));
      if (success && declared > limit) {
        res.body.destroy();
        throw tooLarge(res.statusCode, method, url, limit, secrets, declared);
      }
      const read = await deadline.race(readLimited(res.body, limit));
      if (success && read.truncated) throw tooLarge(res.statusCode, method, url, limit, secrets);
      const elapsed = Math.round(performance.now() - started);
      trace(`HTTP < ${res.statusCode} ${method} ${url} ${elapsed}ms${read.truncated ? ` (body cut at ${formatBytes(limit)})` : ''}`);
      // The secrets tkt sent never come back out of it, whatever the answer; an error body is
      // also cleared of anything credential-shaped, as it is printed as the reason of a failure.
      const text = success ? redactSecrets(read.text(), tokenInData) : redactText(read.text(), secrets);
      return { status: res.statusCode, headers: responseHeaders, url, ...parseBody(text, header(responseHeaders, 'content-type')) };
    } catch (error) {
      if (error instanceof TktError) throw error;
      if (options.halt?.aborted) {
        trace(`HTTP ! ${method} ${url} given up: interrupted`);
        throw new AbandonedRequestError(method, redactText(url, secrets));
      }
      if (error instanceof DeadlineExceeded) await abandonIfStuck(pending, trace);
      const networkError = toNetworkError(error, method, url, options.timeoutMs, secrets, proxies);
      trace(`HTTP ! ${method} ${url} ${Math.round(performance.now() - started)}ms ${networkError.failure}: ${networkError.message}`);
      throw networkError;
    } finally {
      deadline.stop();
    }
  }

  /**
   * A request that has a connection settles promptly once aborted. One that does not is still
   * queued, its pool reconnecting in a loop: the only way to stop that pool is to destroy it,
   * so later requests get a fresh one.
   */
  async function abandonIfStuck(pending: Promise<unknown>, trace: Trace): Promise<void> {
    const settled = await Promise.race([pending.then(() => true, () => true), delay(STUCK_GRACE_MS).then(() => false)]);
    if (settled) return;
    const stuck = dispatcher;
    dispatcher = newDispatcher();
    trace('HTTP a request never got a connection: replacing the connection pool');
    await stuck.destroy().catch(() => undefined);
  }

  return {
    baseUrl,
    send,
    dispose: () => dispatcher.close(),
  };
}

type Secrets = readonly (string | undefined)[];
type Trace = (line: string) => void;

/** An answer as read, with what makes its body unusable, if anything (see body.ts). */
interface Received extends ApiResponse {
  problem: string | undefined;
}

function tooLarge(status: number, method: string, url: string, limit: number, secrets: Secrets, declared?: number): ApiError {
  const size = declared === undefined ? `more than ${formatBytes(limit)}` : `${formatBytes(declared)} (Content-Length)`;
  const target = `${method} ${redactText(url, secrets)}`;
  return new ApiError({
    status,
    method,
    url: redactText(url, secrets),
    body: undefined,
    serverMessages: [`tkt reads at most ${formatBytes(limit)} of an answer; the rest was not read`],
    message: `answer too large (HTTP ${status}): ${size} from ${target}`,
  });
}

const isUpload = (body: Outgoing['body']): body is Upload => typeof body === 'object' && !Buffer.isBuffer(body);

async function buildBody(req: RequestPlan): Promise<Outgoing> {
  if (req.form) {
    const { headers, body, names } = await buildMultipart(req.form);
    return { headers, body, summary: ` multipart [${names.join(', ')}]` };
  }
  if (req.json !== undefined) {
    return {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(req.json),
      summary: ` json ${truncate(JSON.stringify(redactJson(req.json)), 500)}`,
    };
  }
  return { headers: {}, body: undefined, summary: '' };
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body was redacted as it was read; the URL may carry a secret in its query. */
function toApiError(method: string, response: ApiResponse, secrets: Secrets): ApiError {
  return new ApiError({
    status: response.status,
    method,
    url: redactText(response.url, secrets),
    body: response.body,
    serverMessages: serverMessages(response.body, header(response.headers, 'content-type'), response.status),
  });
}

/** Retry-After in seconds or as an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  if (Number.isNaN(ms)) return undefined;
  return Math.min(Math.max(ms, 0), MAX_RETRY_DELAY_MS);
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
// OpenSSL verification codes (UNABLE_TO_VERIFY_LEAF_SIGNATURE, SELF_SIGNED_CERT_IN_CHAIN...) and Node's ERR_TLS_/ERR_SSL_.
const TLS_CODE = /CERT|VERIFY|SSL|TLS|HOSTNAME_MISMATCH|^EPROTO$/;

export function classifyNetworkError(error: unknown): NetworkFailure {
  if (isDeadline(error)) return 'timeout';
  for (const code of errorCodes(error)) {
    if (code === 'ECONNREFUSED') return 'refused';
    if (DNS_CODES.has(code)) return 'dns';
    if (TIMEOUT_CODES.has(code)) return 'timeout';
    if (TLS_CODE.test(code)) return 'tls';
    if (RESET_CODES.has(code)) return 'reset';
  }
  return 'other';
}

/** AbortSignal.timeout() aborts with a DOMException named TimeoutError; undici may wrap it. */
function isDeadline(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { name, cause } = error as { name?: unknown; cause?: unknown };
  return name === 'TimeoutError' || isDeadline(cause, depth + 1);
}

/** The codes of an error and of its causes (undici wraps, Happy Eyeballs aggregates). */
function errorCodes(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  const own = typeof code === 'string' ? [code] : [];
  const nested = Array.isArray(errors) ? errors.flatMap((inner) => errorCodes(inner, depth + 1)) : [];
  return [...own, ...errorCodes(cause, depth + 1), ...nested];
}

function toNetworkError(error: unknown, method: string, url: string, timeoutMs: number, secrets: Secrets, proxies: ProxySettings): NetworkError {
  const failure = classifyNetworkError(error);
  const target = `${method} ${redactText(url, secrets)}`;
  const detail = redactText(error instanceof Error ? error.message : String(error), secrets);
  // A failure to reach the proxy is about the proxy, whatever the kind (network-advice.ts).
  const proxy = failure === 'tls' ? undefined : failedProxy(error, url, proxies);
  if (proxy !== undefined) {
    const reasons: Record<NetworkFailure, string> = { refused: 'connection refused', dns: 'its name does not resolve', timeout: 'timed out', reset: 'connection closed', tls: detail, other: detail };
    const reason = reasons[failure];
    return new NetworkError(failure, method, redactText(url, secrets), `could not reach the proxy ${proxy} (${reason}): ${target}`, error, {
      hint: 'check HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY to go direct',
    });
  }
  const messages: Record<NetworkFailure, string> = {
    refused: `connection refused: ${target}`,
    dns: `could not resolve host ${hostOf(url)}: ${target}`,
    tls: `TLS error (${detail}): ${target}`,
    timeout: `request timed out after ${formatSeconds(timeoutMs)}: ${target}`,
    reset: `connection closed by the server: ${target}`,
    other: `request failed (${detail}): ${target}`,
  };
  const hint = failure === 'tls' ? tlsHint(process.version) : undefined;
  return new NetworkError(failure, method, redactText(url, secrets), messages[failure], error, { hint });
}

function hostOf(url: string): string {
  return new URL(url).host;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
