// One request and its answer over the pool, neither retried (retry.ts) nor redirected
// (redirects.ts). --timeout bounds the whole exchange, a second Ctrl-C gives it up (the first, an
// upload still being sent), and the secrets the request carries never come back out of it: not in
// the trace, an error or the answer.
import {
  AbandonedRequestError,
  InterruptedError,
  NetworkError,
  StoppedBeforeSendingError,
  StoppedWhileSendingError,
  TktError,
  isStopSignal,
  stoppedHow,
} from '../errors.js';
import { header, isSuccess, type Received } from './answer.js';
import { formatBytes, parseBody, type ParsedBody } from './body.js';
import { DeadlineExceeded, deadlineClock, type Deadline } from './deadline.js';
import { networkError, tooLargeError, type Progress } from './http-errors.js';
import { destinationsUnder } from './redirects.js';
import { proxyRoute } from './network-advice.js';
import type { ProxySettings } from './proxy-env.js';
import { buildOutgoing, isUpload, type Outgoing } from './outgoing.js';
import type { Pool } from './pool.js';
import { echoableSecrets, REDACTED, redactStrings, redactText, secretsRedactor } from './redact.js';
import { readAnswerBody } from './size-limits.js';
import type { RequestPlan, UploadWatcher } from './types.js';
import { uploadChunks } from './upload.js';

/** Real tokens (JWTs, opaque keys) are far longer than this. */
const MIN_TOKEN_IN_DATA = 16;

/** What every request of a client shares. */
export interface ExchangeSettings {
  pool: Pool;
  /** The configured service's origin: the only one the token is sent to. */
  baseOrigin: string;
  /** The profile whose saved URL the service's is, named in the hint of a refused connection. */
  urlProfile?: string | undefined;
  token: string | undefined;
  userAgent: string;
  timeoutMs: number;
  maxBodyBytes: number;
  /** For naming a proxy that could not be reached. */
  proxies: ProxySettings;
  /** Aborted on a second Ctrl-C/SIGTERM. */
  halt: AbortSignal | undefined;
  /** Aborted on the first Ctrl-C/SIGTERM, the signal's name as its reason (else by a closed stdout). */
  stop: AbortSignal | undefined;
  /**
   * Aborted on the first Ctrl-C/SIGTERM of a command that awaits no read (ActionOptions.awaitsReads):
   * the reads in flight are given up at once, as StoppedBeforeSendingError.
   */
  endReads?: AbortSignal | undefined;
  /** Counts the requests in flight that the first signal waits for (not an upload it ends, nor a read it gives up). */
  requests?: { count: number } | undefined;
}

/** One request of a plan: its method, and what it must never print (the token, a login's password). */
export interface Exchange {
  method: string;
  plan: RequestPlan;
  secrets: readonly (string | undefined)[];
  /** --debug, already redacted; absent without --debug, when no trace line is even made. */
  trace?: ((line: string) => void) | undefined;
  /** Gives the request up (a read no one waits for any more): aborted, it fails as InterruptedError. */
  giveUp?: AbortSignal | undefined;
  /** Told how an upload's files are sent (SendOptions.upload). */
  upload?: UploadWatcher | undefined;
}

/** Sends `request` to `url` once. */
export type Exchanger = (request: Exchange, url: string) => Promise<Received>;

export function createExchanger(settings: ExchangeSettings): Exchanger {
  const { pool, token, timeoutMs, halt, stop, endReads } = settings;
  const requests = settings.requests ?? { count: 0 };
  const startDeadline = deadlineClock(timeoutMs);
  const destinationOf = destinationsUnder(settings.baseOrigin);
  const authorization = `Bearer ${token}`;
  // In data (a successful answer) only a token long enough not to be ordinary text is replaced:
  // a test's TKT_TOKEN=x must not turn every x of a ticket into ***.
  const redactData = secretsRedactor(token !== undefined && token.length >= MIN_TOKEN_IN_DATA ? [token] : []);
  // A second Ctrl-C gives up every request in flight: one listener for the run aborts them all,
  // rather than a signal combined with the halt for each request.
  const inFlight = new Set<Deadline>();
  halt?.addEventListener('abort', () => {
    for (const deadline of inFlight) deadline.abort(halt.reason);
  });
  // A read changes nothing: at the first signal, nothing needs waiting for (README, Interruption),
  // and the change it was for is not sent. One listener for the run, as for the halt.
  const readsInFlight = new Set<Deadline>();
  const readsEnded = (): boolean => endReads?.aborted === true;
  endReads?.addEventListener('abort', () => {
    for (const deadline of readsInFlight) deadline.abort(endReads.reason);
  });
  // The first signal gives up every upload whose body is still being sent (README, Interruption): the
  // service never received it whole, so it cannot have acted on it, and a pipe that keeps writing
  // would hold the run (each chunk starts --timeout again). A body sent whole is awaited as any
  // request. A closed stdout stops no upload: it is no reason to lose one.
  const sendingBodies = new Set<(signal: string) => void>();
  // Answers received (their status line), of every request: a time-out during which it did not
  // move met a service that takes connections and answers nothing (NetworkError.serviceSilent).
  let answers = 0;
  const stoppedBySignal = (): string | undefined => (stop?.aborted === true && isStopSignal(stop.reason) ? stop.reason : undefined);
  stop?.addEventListener('abort', () => {
    const signal = stoppedBySignal();
    if (signal !== undefined) for (const stopSending of sendingBodies) stopSending(signal);
  });

  return async ({ method, plan, secrets, trace, giveUp, upload }, url) => {
    if (halt?.aborted || giveUp?.aborted) throw new InterruptedError();
    // A read in flight at the first signal is given up there, counted in no wait. One sent after
    // it (a change's read-back, telling its outcome) is not: the command decides what it sends.
    const endable = plan.retry && endReads !== undefined && !readsEnded();
    const built = buildOutgoing(plan);
    const outgoing = built instanceof Promise ? await built : built;
    const headers: Record<string, string> = {
      accept: 'application/json, text/plain;q=0.9, */*;q=0.5',
      'user-agent': settings.userAgent,
      ...outgoing.headers,
    };
    const { origin, path } = destinationOf(url);
    const withToken = token !== undefined && plan.auth !== false && origin === settings.baseOrigin;
    if (withToken) headers.authorization = authorization;
    trace?.(
      `HTTP > ${method} ${url}${withToken ? ` authorization: Bearer ${REDACTED}` : ''}${outgoing.summary()}${proxyRoute(new URL(url), settings.proxies)}`,
    );

    // Date.now(), not performance.now(): the latter loads perf_hooks (a dozen modules) for a trace figure.
    const started = Date.now();
    const deadline = startDeadline();
    inFlight.add(deadline);
    if (endable) readsInFlight.add(deadline);
    // Halted or given up while the body was being built: the request is given up as it starts.
    if (halt?.aborted) deadline.abort(halt.reason);
    else if (giveUp?.aborted) deadline.abort(giveUp.reason);
    const abandon = (): void => deadline.abort(giveUp?.reason);
    giveUp?.addEventListener('abort', abandon, { once: true });
    // An upload of files may take longer than --timeout in all: every chunk sent starts the clock
    // again, so only an upload that stops moving times out; once sent, the answer gets the full time.
    let stoppedSending: string | undefined;
    if (!endable) requests.count += 1;
    const stopSending = (signal: string): void => {
      if (stoppedSending === undefined && !endable) requests.count -= 1;
      stoppedSending = signal;
      deadline.abort(signal);
    };
    let body: Outgoing['body'] | AsyncGenerator<Buffer> = outgoing.body;
    // Until an upload's last chunk is taken, a failure leaves its body cut short.
    let bodyTaken = true;
    if (isUpload(body)) {
      bodyTaken = false;
      sendingBodies.add(stopSending);
      body = untilSent(
        uploadChunks(body, () => deadline.restart(), deadline.signal, upload),
        () => {
          bodyTaken = true;
          sendingBodies.delete(stopSending);
          upload?.bodySent();
        },
      );
      const signal = stoppedBySignal();
      if (signal !== undefined) stopSending(signal);
    }
    // The request reaches the service only once it has a connection to it: behind a proxy, once
    // the proxy has opened a tunnel; to https, once the TLS handshake is done.
    let progress: Progress = 'unsent';
    const connected = (): void => void (progress = 'sent');
    // Told only while the request waits for its connection: the tunnel is open, the TLS handshake next.
    const tunnelled = (): void => void (progress = 'handshaking');
    const answersBefore = answers;
    const pending = pool.request({
      origin,
      path,
      method,
      headers,
      body,
      signal: deadline.signal,
      connected,
      tunnelled,
    });
    try {
      // One race for the answer and its body: the exchange waits once, not twice, for each request.
      const { answer, read } = await deadline.race(
        pending.then((answer) => {
          answers += 1;
          return readAnswerBody(answer, settings.maxBodyBytes).then((read) => ({ answer, read }));
        }),
      );
      if ('refused' in read) throw tooLargeError(answer.statusCode, method, plan.retry, url, read.refused.limit, secrets, read.refused.declared);
      if (trace) {
        const cut = read.cutAt === undefined ? '' : ` (body cut at ${formatBytes(read.cutAt)})`;
        trace(`HTTP < ${answer.statusCode} ${method} ${url} ${Date.now() - started}ms${cut}`);
      }
      const contentType = header(answer.headers, 'content-type');
      // An error body is also cleared of anything credential-shaped: it is printed as the reason of a failure.
      const { body: parsed, problem } = isSuccess(answer.statusCode)
        ? parseSuccess(redactData(read.text), contentType, plan.json === undefined ? [] : echoableSecrets(plan.json))
        : parseBody(redactText(read.text, secrets), contentType);
      return { status: answer.statusCode, headers: answer.headers, url, body: parsed, problem };
    } catch (error) {
      if (stoppedSending !== undefined) {
        trace?.(`HTTP ! ${method} ${url} given up while its body was being sent: ${stoppedSending}`);
        throw new StoppedWhileSendingError(stoppedSending, method, redactText(url, secrets));
      }
      // Given up by the caller: whatever the abort made of the request, it is no failure of the service's.
      if (giveUp?.aborted) {
        trace?.(`HTTP ! ${method} ${url} given up`);
        throw new InterruptedError();
      }
      if (endable && readsEnded()) {
        trace?.(`HTTP ! ${method} ${url} given up: ${stoppedHow(endReads.reason)}`);
        throw new StoppedBeforeSendingError(endReads.reason);
      }
      if (error instanceof TktError) throw error;
      if (halt?.aborted) {
        trace?.(`HTTP ! ${method} ${url} given up: ${stoppedHow(halt.reason)}`);
        throw new AbandonedRequestError(method, redactText(url, secrets), plan.retry, halt.reason);
      }
      if (error instanceof DeadlineExceeded) await pool.replaceIfStuck(pending, trace ?? ignore);
      const service = new URL(url).origin === settings.baseOrigin ? { profile: settings.urlProfile } : undefined;
      const reached = networkError(error, method, url, timeoutMs, secrets, settings.proxies, progress, service);
      const whole = bodyTaken || reached.notSent ? reached : cutShort(reached);
      const failed = whole.failure === 'timeout' && !whole.notSent && answers === answersBefore ? silentService(whole) : whole;
      trace?.(`HTTP ! ${method} ${url} ${Date.now() - started}ms ${failed.failure}: ${failed.message}`);
      throw failed;
    } finally {
      giveUp?.removeEventListener('abort', abandon);
      if (stoppedSending === undefined && !endable) requests.count -= 1;
      sendingBodies.delete(stopSending);
      inFlight.delete(deadline);
      readsInFlight.delete(deadline);
      deadline.stop();
    }
  };
}

const ignore = (): void => undefined;

/**
 * `failed`, of a request whose body was not all sent: whatever ended it (--timeout on an upload
 * that stopped moving, a reset), the service never received the whole request, so it cannot have
 * acted on it: not done, not in doubt (as an upload stopped by a signal, StoppedWhileSendingError).
 */
function cutShort(failed: NetworkError): NetworkError {
  const reason = `${failed.reason} while its body was being sent (not done: the service never received the whole request)`;
  const message = `${reason}${failed.message.slice(failed.reason.length)}`;
  return new NetworkError(failed.failure, failed.method, failed.url, message, failed.cause, { hint: failed.hint, reason, bodyCutShort: true });
}

/** `failed`, a time-out during which no request of the client was answered: the service is silent (serviceUnresponsive). */
function silentService(failed: NetworkError): NetworkError {
  const { failure, method, url, message, cause, hint, reason, notSent, bodyCutShort } = failed;
  return new NetworkError(failure, method, url, message, cause, { hint, reason, notSent, bodyCutShort, serviceSilent: true });
}

/** `chunks`, then `sent()` once the last of them has been taken. */
async function* untilSent(chunks: AsyncGenerator<Buffer>, sent: () => void): AsyncGenerator<Buffer> {
  yield* chunks;
  sent();
}

/**
 * A successful answer, cleared of the secrets its request's body carried (a login's password):
 * printed as data (login --json) or described as an answer that is not one, it never shows them.
 * Parsed JSON has them replaced in its strings, not its syntax: a password such as `1` or `true`
 * must not break the document.
 */
function parseSuccess(text: string, contentType: string | undefined, bodySecrets: readonly string[]): ParsedBody {
  const parsed = parseBody(text, contentType);
  if (bodySecrets.length === 0) return parsed;
  const redact = secretsRedactor(bodySecrets);
  if (parsed.problem === undefined && typeof parsed.body !== 'string') return { body: redactStrings(parsed.body, redact), problem: undefined };
  return parseBody(redact(text), contentType);
}
