// The one error model of tkt. Errors carry what happened (their class, HTTP facts); the exit
// code is decided from those in one place, exitCodeOf, and only src/cli-run.ts turns an error into
// an `error:` line, a hint and that code (docs/cli.md section 5).

export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  notFound: 3,
  notAuthenticated: 4,
  permissionDenied: 5,
  /** SIGHUP: the terminal closed (an SSH session dropped). */
  hungUp: 129,
  interrupted: 130,
  terminated: 143,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export interface ErrorOptions {
  hint?: string | undefined;
  details?: string[] | undefined;
  cause?: unknown;
}

export abstract class TktError extends Error {
  /** A short next step for the user, e.g. `run "tkt login"`. */
  readonly hint: string | undefined;
  /** Extra lines shown under the `error:` line (the server's own message, candidates...). */
  readonly details: string[];

  constructor(message: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.hint = options.hint;
    this.details = options.details ?? [];
  }

  /** The code the run exits with: exitCodeOf decides it for every error. */
  get exitCode(): ExitCodeValue {
    return exitCodeOf(this);
  }
}

/** Bad input caught before any request: exit 2. */
export class UsageError extends TktError {}

/** No token, expired token, wrong credentials: exit 4 (main.ts adds the login hint for the run's profile, when it has none). */
export class AuthError extends TktError {}

/** The user declined a confirmation, or the operation failed locally: exit 1. */
export class OperationError extends TktError {}

/**
 * A change refused for what the ticket is now, before anything was sent (resolve of a closed
 * ticket, reopen of one In Progress). Its message names the ticket ("ticket #7 is closed: reopen
 * it first"); a bulk run, whose line names the ID already, says `state` after it, and its summary
 * lists every ID refused so under `group` ("closed, reopen first").
 */
export class TicketStateError extends OperationError {
  /** The message after "ticket #7": "is closed: reopen it first". */
  readonly state: string;
  /** The summary's label of such refusals, the same for every ticket: "closed, reopen first". */
  readonly group: string;

  constructor(id: number | string, state: string, group: string, options: { hint?: string } = {}) {
    super(`ticket #${id} ${state}`, options);
    this.state = state;
    this.group = group;
  }
}

/**
 * The editor failed (exit code, signal) on a file the user had typed in, or saved it in another
 * encoding than UTF-8: `typed` is that text, kept as a draft as a failed request's is (README,
 * Drafts). Exit 1, as OperationError, or its cause's code (exit 2 for a text not UTF-8).
 */
export class EditorFailedError extends OperationError {
  constructor(
    message: string,
    readonly typed: string,
    options: ErrorOptions = {},
  ) {
    super(message, options);
  }
}

/**
 * The service did not keep some of the files sent (docs/service.md 4.11: it skips types it does not allow,
 * without an error): exit 1, though the ticket change itself was done and reported.
 */
export class FilesSkippedError extends TktError {}

/**
 * --fields or --query failed on the answer to a request that changed something: exit 1, not 2,
 * for the change was made (docs/cli.md section 9), and what was done is told on stderr.
 */
export class OutputAfterChangeError extends OperationError {}

/** The hint of an OutputAfterChangeError for one change. */
export const CHANGE_MADE_HINT = 'the change was made; only its output failed: do not run the command again for it';

/** Ctrl-C (exit 130) or SIGTERM (143): main.ts gives the code of the signal that came. */
export class InterruptedError extends TktError {
  /** Made without words of its own: its `error:` line says how the run was stopped (stoppedHow). */
  readonly bare: boolean;
  /** The text typed at the question (or in the editor) it closed, for a request not sent: kept as a draft (typedTextOf). */
  readonly typed: string | undefined;

  constructor(message?: string, options: ErrorOptions & { typed?: string | undefined } = {}) {
    super(message ?? 'interrupted', options);
    this.bare = message === undefined;
    this.typed = options.typed;
  }
}

/**
 * A question left with Esc (README, Interruption): the command is cancelled, which is no signal,
 * so exit 1 as a question declined, not 130. `typed`: as InterruptedError's.
 */
export class CancelledError extends OperationError {
  constructor(readonly typed?: string) {
    super('cancelled: Esc closed the question');
  }
}

/**
 * The text typed for a request not sent that `error` carries, from the question or the editor it
 * ended: an editor that failed, a question closed by Ctrl-C, Esc or a signal. The command keeps
 * it as a draft (README, Drafts).
 */
export function typedTextOf(error: unknown): string | undefined {
  return error instanceof EditorFailedError || error instanceof InterruptedError || error instanceof CancelledError ? error.typed : undefined;
}

/**
 * A change not sent because the run had been stopped before it left (docs/cli.md section 8):
 * nothing was done. An ID command counts its ticket as not started.
 */
export class StoppedBeforeSendingError extends InterruptedError {
  /** How the run was stopped, in words (stoppedHow): "stopped by SIGTERM". */
  readonly how: string;

  /** `signal`: the reason of the run's stop signal, the name of the signal that came. */
  constructor(signal: unknown) {
    super();
    this.how = stoppedHow(signal);
  }
}

/**
 * A request whose body was still being sent when the run was stopped (an upload from a pipe that
 * keeps writing): it was given up there, and the service, never having received it whole, cannot
 * have acted on it. Not done, not in doubt; the run exits as the signal says.
 */
export class StoppedWhileSendingError extends InterruptedError {
  /** `signal`: the reason of the run's stop signal, the name of the signal that came. */
  constructor(signal: unknown, method: string, url: string) {
    super(`${stoppedHow(signal)} while sending ${method} ${url}: not done, the service never received the whole request`);
  }
}

/**
 * A failure that a closed stdout does not excuse, because it came before the close: `watch
 * --once` whose --exec failed, `tkt api`'s error answer whose body was printed. Unlike any other
 * error of a run whose stdout was closed, its `error:` line is printed and its exit code kept
 * (docs/cli.md section 8): its cause's, when it has one.
 */
export class FailedBeforeOutputClosedError extends OperationError {}

/** stdout was closed by its reader (`| head -1`): the run ends quietly with exit 0. */
export class OutputClosedError extends TktError {
  constructor() {
    super('output closed');
  }
}

/**
 * stdout could not be written for another reason than its reader leaving (a full disk, an I/O
 * error): exit 1, for what was asked for is lost. After a change, the change is told on stderr
 * (OutputAfterChangeError): nobody should run it again to see what it did.
 */
export class OutputFailedError extends OperationError {}

/**
 * A request given up on a second Ctrl-C/SIGTERM while the service had it: it may or may not
 * have been carried out ("in doubt", docs/cli.md section 8).
 */
export class AbandonedRequestError extends InterruptedError {
  readonly method: string;
  /** What happened, without what it means: a bulk report says "in doubt" by itself. */
  readonly givenUp: string;
  /** The request would have changed something (not a read): its outcome is unknown. */
  readonly mayHaveChanged: boolean;

  /**
   * `read`: the request only reads (a plan that may be retried: a list's POST too). `signal`: what
   * halted the run (the reason of its halt), said as its error line says it (stoppedHow).
   */
  constructor(method: string, url: string, read = method === 'GET', signal?: unknown) {
    const givenUp = `${stoppedHow(signal)} while waiting for the answer to ${method} ${url}`;
    super(read ? givenUp : `${givenUp}: it may have been carried out`);
    this.method = method;
    this.givenUp = givenUp;
    this.mayHaveChanged = !read;
  }
}

/** The signals that stop a run (src/cli-run.ts); the run's stop signal has one as its reason. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];
export const isStopSignal = (reason: unknown): reason is StopSignal => STOP_SIGNALS.includes(reason as StopSignal);

/**
 * How a run was stopped, in the words of its `error:` line (docs/cli.md section 8): "stopped by
 * SIGTERM", else "interrupted" (Ctrl-C). `signal` is the name of the signal that came: the
 * reason of the run's stop signal (src/cli-run.ts aborts it so).
 */
export function stoppedHow(signal: unknown): string {
  return signal === 'SIGTERM' || signal === 'SIGHUP' ? `stopped by ${signal}` : 'interrupted';
}

/**
 * How the first signal's line says to give up (the second signal): a Ctrl-C at a terminal (stdin
 * or stderr one: `tkt close - < ids` reads a file, yet a person reads stderr and has the keys)
 * asks for another; any other signal (a script's SIGTERM) names itself.
 */
export function howToGiveUp(signal: string, atTerminal: boolean): string {
  return signal === 'SIGINT' && atTerminal ? 'press Ctrl-C again to give up' : `another ${signal} gives up`;
}

export type NetworkFailure = 'refused' | 'dns' | 'tls' | 'timeout' | 'reset' | 'other';

/** The request never got an HTTP answer: exit 1, one line naming the URL. */
export class NetworkError extends TktError {
  readonly failure: NetworkFailure;
  readonly method: string;
  readonly url: string;
  /** What failed without the request (`connection refused`), for a summary of many requests; else the message. */
  readonly reason: string;
  /** The request surely never reached the service (a proxy that opened no tunnel), whatever the failure. */
  readonly notSent: boolean;
  /** The request's body was not all sent (an upload that stopped moving): the service cannot have acted on it. */
  readonly bodyCutShort: boolean;
  /**
   * A time-out during which the service answered no request of the run, this one or any other,
   * since it was sent: it takes connections and answers nothing (serviceUnresponsive).
   */
  readonly serviceSilent: boolean;

  constructor(
    failure: NetworkFailure,
    method: string,
    url: string,
    message: string,
    cause?: unknown,
    options: { hint?: string; reason?: string; notSent?: boolean; bodyCutShort?: boolean; serviceSilent?: boolean } = {},
  ) {
    super(message, { cause, hint: options.hint });
    this.failure = failure;
    this.method = method;
    this.url = url;
    this.reason = options.reason ?? message;
    this.notSent = options.notSent === true;
    this.bodyCutShort = options.bodyCutShort === true;
    this.serviceSilent = options.serviceSilent === true;
  }
}

/**
 * Any non-2xx answer, or a 2xx whose body cannot be used. `body` is the parsed JSON, or the
 * text, as the server sent it.
 */
export class ApiError extends TktError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  /** `body` is JSON, a string too (a bare JSON string), not the answer's text: `tkt api` prints it so. */
  readonly bodyIsJson: boolean;
  /** The server's own message, extracted whatever the body's shape; may be empty. */
  readonly serverMessages: string[];
  /**
   * A change (a request never retried) answered 2xx with a body that cannot be used (truncated
   * JSON, too large): the service had it and most likely carried it out; only its answer is lost.
   */
  readonly changeReceived: boolean;
  /**
   * A 404 under a base URL where the app metadata, which every service has, is not found either
   * (src/api/http.ts): that base URL, which is wrong; the ticket may well exist.
   */
  readonly baseUrlNotFound: string | undefined;

  constructor(init: {
    status: number;
    method: string;
    url: string;
    body: unknown;
    bodyIsJson?: boolean;
    serverMessages: string[];
    message?: string;
    hint?: string | undefined;
    changeReceived?: boolean;
    baseUrlNotFound?: string;
  }) {
    // The full URL names the server, which matters when several profiles exist.
    super(init.message ?? `${answerReason(init)}: ${init.method} ${init.url}`, {
      details: init.serverMessages,
      hint: init.hint,
    });
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.body = init.body;
    this.bodyIsJson = init.bodyIsJson === true;
    this.serverMessages = init.serverMessages;
    this.changeReceived = init.changeReceived === true;
    this.baseUrlNotFound = init.baseUrlNotFound;
  }

  /** This 404 under `baseUrl`, where the app metadata was not found either: the URL is wrong, not the ticket gone. */
  underWrongBaseUrl(baseUrl: string): ApiError {
    const { status, method, url, body, bodyIsJson, serverMessages, changeReceived, hint } = this;
    return new ApiError({ status, method, url, body, bodyIsJson, serverMessages, changeReceived, hint, baseUrlNotFound: baseUrl });
  }
}

// Register answers 400 (not 403) when the caller lacks Tickets.Create (docs/service.md 4.3, 5.4).
const PERMISSION_WORDS = /permission|not allowed|forbidden|unauthori[sz]ed|lacks?\b|access denied/i;
// A ticket or a person (the requester, a user) that does not exist: "Ticket 42 was not found.",
// 'Requester "j.smith" was not found (nor a user with e-mail ...).', "The user with ID 7 does
// not exist", "CreatorId 9 does not match any user". Only a few words (a quoted name counts as
// one) may stand between the thing and the verb, so that a ticket's other missing value ("could
// not save the ticket: SiteId 99 not found") and a site or department (a bad value) stay
// failures: exit 1. One literal: a RegExp built from parts at load kept this module in every
// bundle that names an error class, dist/start.cjs included.
const NOT_FOUND_WORDS =
  /\b(ticket|user|requester|creator|technician|assignee)\b(\s+("[^"]*"|'[^']*'|[^\s;,:]*[^\s;,:.])){0,4}?\s+((was|has) not (been )?found|(could|can) not be found|not found|does not exist|doesn't exist)\b|\b(no such|does not match any) (ticket|user|requester)\b/i;

/**
 * A multi-ID command that exits as one ticket's failure (its `cause`) would have: the run's
 * only ticket failed, or a refusal (401, 403) stopped the run.
 */
export class ItemFailedError extends TktError {
  constructor(message: string, failure: unknown, options: Omit<ErrorOptions, 'cause'> = {}) {
    // The failure's next step is the item's (a proxy that cannot be reached, a login).
    super(message, { hint: failure instanceof TktError ? failure.hint : undefined, ...options, cause: failure });
  }
}

/**
 * A change whose request was sent and never answered: it may have been carried out ("in doubt",
 * docs/cli.md section 8). It exits as its cause does (a time-out, a reset, a gateway's 502/504, a 2xx whose body
 * cannot be used: 1).
 */
export class InDoubtError extends TktError {}

// Every path of the service starts with /api (docs/service.md 4): a base URL ending in /api
// sends to /api/api/... One literal, as NOT_FOUND_WORDS.
const API_TWICE = /^(.*?\/api)\/api\//i;
// Endpoints every service has, whatever the login: their 404 is the URL's, never a ticket's.
const ALWAYS_THERE = /^(.*?)\/api\/(Users\/authenticate|TicketsApi|TicketsApi\/list|TicketsApi\/appmetadata|TicketsApi\/metadata)\/?$/i;

/**
 * The base URL a 404 was sent under when it says that URL is wrong, not that a ticket or a user
 * is gone (README, Exit codes): a path with /api twice, an endpoint that always exists, or any
 * path under a base URL where such an endpoint was not found either (ApiError.baseUrlNotFound).
 * Exit 1, not 3: a script reading 3 as "the ticket is gone" must not act on a wrong URL.
 */
export function misdirectedBaseUrl(answer: { status: number; url: string; baseUrlNotFound?: string | undefined }): string | undefined {
  if (answer.status !== 404) return undefined;
  if (answer.baseUrlNotFound !== undefined) return answer.baseUrlNotFound;
  let url: URL;
  try {
    url = new URL(answer.url);
  } catch {
    return undefined;
  }
  const match = API_TWICE.exec(url.pathname) ?? ALWAYS_THERE.exec(url.pathname);
  return match === null ? undefined : `${url.origin}${match[1]}`;
}

/**
 * What an answer that failed means, in words: "not found (HTTP 404)", a wrong service URL's 404,
 * or of a 2xx whose body cannot be used "unusable answer (HTTP 200)" (no failure of the service's).
 */
export function answerReason(answer: { status: number; url: string; serverMessages: readonly string[]; baseUrlNotFound?: string | undefined }): string {
  if (answer.status >= 200 && answer.status < 300) return `unusable answer (HTTP ${answer.status})`;
  return misdirectedBaseUrl(answer) === undefined
    ? failureReason(exitCodeForStatus(answer.status, answer.serverMessages), answer.status)
    : `no such endpoint, wrong service URL? (HTTP ${answer.status})`;
}

/** The exit code of a failure: decided here, and only here, from what the error says happened. */
export function exitCodeOf(error: unknown): ExitCodeValue {
  if (error instanceof OutputClosedError) return ExitCode.ok;
  if (error instanceof InterruptedError) return ExitCode.interrupted;
  if (error instanceof UsageError) return ExitCode.usage;
  if (error instanceof AuthError) return ExitCode.notAuthenticated;
  if (error instanceof ApiError) return misdirectedBaseUrl(error) === undefined ? exitCodeForStatus(error.status, error.serverMessages) : ExitCode.failed;
  if (error instanceof ItemFailedError || error instanceof InDoubtError) return exitCodeOf(error.cause);
  if ((error instanceof EditorFailedError || error instanceof FailedBeforeOutputClosedError) && error.cause !== undefined) return exitCodeOf(error.cause);
  if (error instanceof FilesSkippedError) return ExitCode.failed;
  return ExitCode.failed;
}

/**
 * A failure every further request of a bulk run would meet too, so the run stops there: the
 * token refused (exit 4), the permission missing (exit 5), a wrong service URL, the service
 * not reached at all (serviceUnreachable), or reached and answering nothing (serviceUnresponsive).
 */
export function refusesEveryRequest(error: unknown): boolean {
  const code = exitCodeOf(error);
  return (
    code === ExitCode.notAuthenticated ||
    code === ExitCode.permissionDenied ||
    (error instanceof ApiError && misdirectedBaseUrl(error) !== undefined) ||
    serviceUnreachable(error) ||
    serviceUnresponsive(error)
  );
}

// Failures of the way to the service, not of what a request carried: a connection refused (the
// service down), a host name that does not resolve, a TLS handshake that fails. A time-out or a
// reset may be the one request's (and leaves it in doubt): those let the run go on, but for a
// time-out in which the service answered nothing at all (serviceUnresponsive).
const UNREACHABLE_FAILURES: ReadonlySet<NetworkFailure> = new Set(['refused', 'dns', 'tls']);

/** The request never reached the service, and no other request would: the service (or the proxy in front of it) cannot be reached. */
export function serviceUnreachable(error: unknown): boolean {
  return error instanceof NetworkError && (error.notSent || UNREACHABLE_FAILURES.has(error.failure));
}

/**
 * The request timed out and the service answered no request of the run since it was sent: it
 * takes connections and answers none, so every other request would wait its --timeout in vain.
 * A time-out among answers to other requests is the one request's.
 */
export function serviceUnresponsive(error: unknown): boolean {
  return error instanceof NetworkError && error.serviceSilent;
}

/** The exit code an HTTP answer calls for. */
function exitCodeForStatus(status: number, serverMessages: readonly string[] = []): ExitCodeValue {
  if (status === 401) return ExitCode.notAuthenticated;
  if (status === 403) return ExitCode.permissionDenied;
  if (status === 404) return ExitCode.notFound;
  if (status === 400 && serverMessages.some((m) => PERMISSION_WORDS.test(m))) return ExitCode.permissionDenied;
  // Update, forward, reply and resolve answer 400 for a ticket that does not exist, reqreply
  // and the new endpoint for a user (docs/service.md 4.15, 4.17, 7): 3 whichever way it is said.
  if (status === 400 && serverMessages.some((m) => NOT_FOUND_WORDS.test(m))) return ExitCode.notFound;
  return ExitCode.failed;
}

/**
 * A failure in words, the one wording for every command: "not found (HTTP 404)", or without
 * an HTTP answer just "failed".
 */
export function failureReason(exitCode: ExitCodeValue, status: number | undefined): string {
  const reason =
    exitCode === ExitCode.notFound
      ? 'not found'
      : exitCode === ExitCode.notAuthenticated
        ? 'not authenticated'
        : exitCode === ExitCode.permissionDenied
          ? 'permission denied'
          : 'failed';
  return status === undefined ? reason : `${reason} (HTTP ${status})`;
}

// A failure after a change may have reached the service: it may have been carried out. A
// refused connection or a name that does not resolve never sent anything; a gateway's 502 or
// 504 came from in front of a service that may have done the work, and a 2xx whose body cannot
// be used from one that most likely did it. A read (GET, such as the read of a
// read-modify-write) changed nothing whatever became of it.
const UNKNOWN_OUTCOME_FAILURES: ReadonlySet<NetworkFailure> = new Set(['timeout', 'reset', 'other']);
const UNKNOWN_OUTCOME_STATUSES: ReadonlySet<number> = new Set([502, 504]);

/** Whether the request that failed with `error` may still have been carried out ("in doubt"). */
export function outcomeUnknown(error: unknown): boolean {
  if (error instanceof AbandonedRequestError) return error.mayHaveChanged;
  if (error instanceof NetworkError) return error.method !== 'GET' && !error.notSent && !error.bodyCutShort && UNKNOWN_OUTCOME_FAILURES.has(error.failure);
  return error instanceof ApiError && (error.changeReceived || (error.method !== 'GET' && UNKNOWN_OUTCOME_STATUSES.has(error.status)));
}

/** What happened to a request, in one line; "in doubt" is for the caller to say. */
export function whatHappened(error: TktError): string {
  return error instanceof AbandonedRequestError ? error.givenUp : [error.message, ...error.details].join(': ');
}

/** How every report says that a change may have been carried out (docs/cli.md section 8). */
export const IN_DOUBT = 'in doubt (it may have been carried out)';
/** ...and that a create may have created its ticket. */
export const IN_DOUBT_CREATED = 'in doubt (the service may have created it)';

export interface InDoubtWords {
  /** What the change was of ("#7"); none for a create, which has no ID yet. */
  ticket?: string;
  /** How to find out what became of it. */
  hint: string;
}

/**
 * A catch for the request of one change: a failure whose outcome is unknown (outcomeUnknown)
 * becomes "#7 in doubt (...)", or for a create "in doubt (the service may have created it)",
 * with what happened under it and `words.hint`; any other failure is thrown as it came. Given
 * up on a second signal, it is still an interruption (exit 130 or 143); else it exits 1.
 */
export function rethrowInDoubt(words: InDoubtWords): (error: unknown) => never {
  return (error) => {
    if (!(error instanceof TktError) || !outcomeUnknown(error)) throw error;
    const message = words.ticket === undefined ? IN_DOUBT_CREATED : `${words.ticket} ${IN_DOUBT}`;
    const options = { details: [whatHappened(error)], hint: words.hint, cause: error };
    throw error instanceof InterruptedError ? new InterruptedError(message, options) : new InDoubtError(message, options);
  };
}
