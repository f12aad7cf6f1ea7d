// What an exchange that failed becomes in the error model of src/errors.ts: an answer with a
// failing status, a success whose body is unusable or too large, or no answer at all. The errors
// carry the HTTP facts (status, method, URL, the server's words, the kind of network failure);
// errors.ts decides what they mean for the run. Every URL and message is cleared of `secrets`,
// the secrets the request carried.
import { ApiError, NetworkError, type NetworkFailure } from '../errors.js';
import { header, isSuccess, type Received } from './answer.js';
import { formatBytes, printsAsJson, unexpectedBody, type Expectation } from './body.js';
import { serverMessages } from './error-body.js';
import {
  certificateDateHint,
  certificateNameHint,
  failedProxy,
  httpsProxyHint,
  isPlainHttpAnswer,
  isTlsAnswer,
  plainHttpHint,
  plainHttpProxyHint,
  proxyFor,
  proxyVariable,
  ProxyTunnelError,
  unreachedServiceHint,
  shownProxy,
  tlsHint,
  UnusableProxyError,
} from './network-advice.js';
import type { ProxySettings } from './proxy-env.js';
import { redactText } from './redact.js';
import { REDIRECT_STATUSES, redirectHint, type RedirectContext } from './redirects.js';
import { askedWait } from './retry.js';
import type { ApiResponse } from './types.js';

type Secrets = readonly (string | undefined)[];

/**
 * The answer to return, or the error it is: a status other than 2xx, or a body the endpoint does
 * not return. `read`: the request only reads (a plan that may be retried: a list's POST too);
 * `nowMs`, the time a Retry-After date is counted from.
 */
export function finalAnswer(
  received: Received,
  method: string,
  read: boolean,
  expect: Expectation,
  secrets: Secrets,
  redirect?: RedirectContext,
  nowMs = Date.now(),
): ApiResponse {
  const { problem, status, headers, body } = received;
  const success = isSuccess(status);
  const unexpected = success ? unexpectedBody({ body, problem }, expect, header(headers, 'location')) : undefined;
  if (success && unexpected === undefined) return { status, headers, body, url: received.url };
  // The body was redacted as it was read; the URL may carry a secret in its query.
  const url = redactText(received.url, secrets);
  const advice = redirect === undefined ? undefined : redirectAdvice(received, redirect, read);
  if (unexpected === undefined) {
    const contentType = header(headers, 'content-type');
    const bodyIsJson = printsAsJson({ body, problem }, contentType);
    const wait = askedWait(status, header(headers, 'retry-after'), read, nowMs);
    const refusal = status === 401 ? tokenRefusal(headers) : undefined;
    const fromHeaders = [wait?.line, refusal].filter((line) => line !== undefined).map((line) => redactText(line, secrets));
    const said = serverMessages(body, contentType, status, fromHeaders);
    const hint = advice ?? wait?.hint;
    throw new ApiError({ status, method, url, body, bodyIsJson, serverMessages: said, hint: hint === undefined ? undefined : redactText(hint, secrets) });
  }
  const hint = advice === undefined ? undefined : redactText(advice, secrets);
  throw new ApiError({
    status,
    method,
    url,
    // A sign-in page or a broken document is described, not kept.
    body: undefined,
    serverMessages: [`the service answered with ${unexpected}`],
    message: `unusable answer (HTTP ${status}): ${method} ${url}`,
    hint,
    changeReceived: !read,
  });
}

/**
 * The hint of a failure that a redirect explains: a redirect not followed (a POST's, or a sixth
 * in a row), or a GET that redirects led away from the service, where its token is not sent.
 * `read` as for finalAnswer.
 */
function redirectAdvice(received: Received, redirect: RedirectContext, read: boolean): string | undefined {
  const location = header(received.headers, 'location');
  if (REDIRECT_STATUSES.has(received.status) && location) return redirectHint(new URL(location, received.url).href, redirect, read);
  return new URL(received.url).origin === new URL(redirect.baseUrl).origin ? undefined : redirectHint(received.url, redirect, read);
}

// An auth-param of a challenge: error_description="..." (a quoted string may hold \" and commas) or a token.
const ERROR_DESCRIPTION = /\berror_description\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/i;

/**
 * Why a 401 refused the token, as its WWW-Authenticate says it (RFC 6750's error_description:
 * "The token expired at ..."); none when it does not.
 */
function tokenRefusal(headers: Received['headers']): string | undefined {
  const challenges = headers['www-authenticate'];
  for (const challenge of Array.isArray(challenges) ? challenges : [challenges]) {
    const match = challenge === undefined ? null : ERROR_DESCRIPTION.exec(challenge);
    const description = match === null ? undefined : (match[1]?.replace(/\\(.)/g, '$1') ?? match[2] ?? '').trim();
    if (description) return description;
  }
  return undefined;
}

/** A success larger than `limit`, as its Content-Length said (`declared`) or as it turned out; `read` as for finalAnswer. */
export function tooLargeError(status: number, method: string, read: boolean, url: string, limit: number, secrets: Secrets, declared?: number): ApiError {
  const size = declared === undefined ? `more than ${formatBytes(limit)}` : `${formatBytes(declared)} (Content-Length)`;
  const shownUrl = redactText(url, secrets);
  return new ApiError({
    status,
    method,
    url: shownUrl,
    body: undefined,
    serverMessages: [`tkt reads at most ${formatBytes(limit)} of an answer; the rest was not read`],
    message: `answer too large (HTTP ${status}): ${size} from ${method} ${shownUrl}`,
    changeReceived: !read,
  });
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

const PROXY_HINT = 'check HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY to go direct';
const PROXY_CREDENTIALS_HINT = "check the proxy's user name and password in HTTPS_PROXY / HTTP_PROXY";
// A tunnel the proxy opened, and an answer in it that is not TLS: a proxy's block page, most often.
const BLOCK_PAGE_HINT = `the proxy may have answered in place of the service (a block page?): ${PROXY_HINT}`;

// The proxy opened the tunnel and the service's end of it never finished the TLS handshake.
const HANDSHAKE_HINT = "the proxy opened the tunnel: check that the URL's port speaks https, and that the proxy lets TLS through to it";

/** The ProxyTunnelError of a failure, if it is one: undici may hand it on wrapped. */
function proxyTunnelError(error: unknown, depth = 0): ProxyTunnelError | undefined {
  if (error instanceof ProxyTunnelError) return error;
  if (typeof error !== 'object' || error === null || depth > 4) return undefined;
  return proxyTunnelError((error as { cause?: unknown }).cause, depth + 1);
}

/** A request to the service's own URL (not a redirect's elsewhere): `profile`, the profile whose saved URL it is. */
export interface ServiceUrl {
  profile: string | undefined;
}

/**
 * How far a request got: 'unsent', never out on a connection to the service (behind a proxy,
 * through its tunnel; to https, past the TLS handshake), so nothing reached the service;
 * 'handshaking', unsent too, behind a proxy that opened the tunnel, in the TLS handshake with the
 * service through it; 'sent', out on its connection.
 */
export type Progress = 'unsent' | 'handshaking' | 'sent';

/**
 * A request to `url` that got no answer: `error` is what node:http, undici (behind a proxy) or the
 * deadline threw; `progress`, how far the request got. `service`: given for a request to the
 * service's URL, whose refusal says what to check there.
 */
export function networkError(
  error: unknown,
  method: string,
  url: string,
  timeoutMs: number,
  secrets: Secrets,
  proxies: ProxySettings,
  progress: Progress = 'sent',
  service?: ServiceUrl,
): NetworkError {
  const unsent = progress !== 'sent';
  const failure = classifyNetworkError(error);
  const shownUrl = redactText(url, secrets);
  const target = `${method} ${shownUrl}`;
  const failed = (reason: string, hint: string | undefined, notSent = unsent) =>
    new NetworkError(failure, method, shownUrl, `${reason}: ${target}`, error, { hint, reason, notSent });
  if (error instanceof UnusableProxyError) return failed(error.message, PROXY_HINT, true);
  const tunnel = proxyTunnelError(error);
  if (tunnel?.status !== undefined) {
    // Not imported: node:http as an ES module costs every run its load (transport.ts).
    const phrase = process.getBuiltinModule('node:http').STATUS_CODES[tunnel.status];
    const refused = `the proxy ${tunnel.proxy} refused the tunnel (${tunnel.status}${phrase === undefined ? '' : ` ${phrase}`})`;
    return failed(refused, tunnel.status === 407 ? PROXY_CREDENTIALS_HINT : PROXY_HINT, true);
  }
  if (tunnel !== undefined && failure === 'reset') {
    return failed(`the proxy ${tunnel.proxy} closed the connection instead of opening a tunnel (nothing was sent to the service)`, PROXY_HINT, true);
  }
  // node:http's socket errors start with the system call and code ("write EPROTO ..."), and
  // OpenSSL's words end with a newline: the message is one line, of what failed. Of a tunnel
  // that failed, they are its cause's: the reason names the proxy already.
  const cause = tunnel?.cause ?? error;
  const words = cause instanceof Error ? cause.message.replace(/^(read|write) EPROTO /, '').trim() : String(cause);
  const detail = redactText(words, secrets);
  const plainAnswer = failure === 'tls' && isPlainHttpAnswer(errorCodes(error), words);
  // A failure to reach the proxy is about the proxy, whatever the kind (network-advice.ts).
  const proxy = tunnel?.proxy ?? (failure === 'tls' ? undefined : failedProxy(error, url, proxies));
  if (proxy !== undefined) {
    if (failure === 'dns') return failed(`could not resolve the proxy ${new URL(proxy).hostname} (${proxyVariable(url, proxies)})`, PROXY_HINT, true);
    if (failure === 'tls') {
      const variable = proxyVariable(url, proxies);
      const hint = plainAnswer
        ? plainHttpProxyHint(proxy, variable)
        : (certificateNameHint(error, proxy, "the proxy's certificate", `write the proxy in ${variable} with a name it is for`) ??
          tlsHint(process.version, process.env.NODE_EXTRA_CA_CERTS, 'the proxy'));
      return failed(`TLS error with the proxy ${proxy} (${detail})`, hint, true);
    }
    // An http:// proxy that speaks https answers CONNECT with TLS, which undici cannot parse.
    if (tunnel !== undefined && isTlsAnswer(error)) {
      return failed(`could not reach the proxy ${proxy} (it answered CONNECT in TLS)`, httpsProxyHint(proxy, proxyVariable(url, proxies)), true);
    }
    const proxyReasons: Record<Exclude<NetworkFailure, 'dns' | 'tls'>, string> = {
      refused: 'connection refused',
      timeout: 'timed out',
      reset: 'connection closed',
      other: detail,
    };
    return failed(`could not reach the proxy ${proxy} (${proxyReasons[failure]})`, PROXY_HINT, tunnel !== undefined || unsent);
  }
  // The proxy opened the tunnel, and the request never started out through it.
  const through = unsent ? proxyFor(new URL(url), proxies) : undefined;
  if (through !== undefined && (failure === 'timeout' || failure === 'reset' || plainAnswer)) {
    const shown = shownProxy(new URL(through));
    if (failure === 'timeout' && progress === 'handshaking') {
      return failed(
        `the TLS handshake with the service through the proxy ${shown} did not complete within ${seconds(timeoutMs)} s (nothing was sent to the service)`,
        HANDSHAKE_HINT,
      );
    }
    if (failure === 'timeout')
      return failed(`the proxy ${shown} did not open a tunnel within ${seconds(timeoutMs)} s (nothing was sent to the service)`, PROXY_HINT);
    if (failure === 'reset')
      return failed(`the proxy ${shown} closed the tunnel before the TLS handshake with the service (nothing was sent to the service)`, PROXY_HINT);
    return failed(`TLS error through the proxy ${shown} (${detail})`, BLOCK_PAGE_HINT);
  }
  const reasons: Record<NetworkFailure, string> = {
    refused: 'connection refused',
    dns: `could not resolve host ${new URL(url).host}`,
    tls: `TLS error (${detail})`,
    timeout: `request timed out after ${formatSeconds(timeoutMs)}`,
    reset: unsent ? 'connection closed by the server before the TLS handshake (nothing was sent to the service)' : 'connection closed by the server',
    other: `request failed (${detail})`,
  };
  // Every command's refused request, login's and each ID's of a run alike: the one place this hint is made.
  if (failure !== 'tls') return failed(reasons[failure], service === undefined ? undefined : unreachedServiceHint(url, failure, service.profile));
  const hint = plainAnswer
    ? plainHttpHint(url)
    : (certificateNameHint(error, url) ?? certificateDateHint(error, new Date()) ?? tlsHint(process.version, process.env.NODE_EXTRA_CA_CERTS));
  return failed(reasons[failure], hint);
}

function seconds(ms: number): number {
  return Number((ms / 1000).toFixed(3));
}

function formatSeconds(ms: number): string {
  return `${seconds(ms)}s`;
}
