// When a request is tried again. Only a request that merely reads may be (a create must never
// run twice), only after a failure that a moment may cure, three tries at most, waiting as long
// as the service asks (Retry-After) or else doubling the wait, and never long.
import { InterruptedError, NetworkError, StoppedBeforeSendingError, type NetworkFailure } from '../errors.js';
import { header, type Received } from './answer.js';
import type { Clock } from './clock.js';
import type { RequestPlan, Retry } from './types.js';

const MAX_ATTEMPTS = 3;
export const DEFAULT_RETRY_BASE_DELAY_MS = 250;
/** A Retry-After longer than this is cut short: a CLI user will not wait minutes. */
export const MAX_RETRY_DELAY_MS = 10_000;
// Rate-limited, or a gateway whose backend is busy or away: the same request may well pass soon.
const RETRY_STATUSES = new Set([429, 502, 503, 504]);
// The connection was refused or dropped: a restarting service or a recycled keep-alive socket.
const RETRY_FAILURES = new Set<NetworkFailure>(['refused', 'reset']);

/** Tries in all for `plan`. */
export function attemptsFor(plan: RequestPlan): number {
  return plan.retry ? MAX_ATTEMPTS : 1;
}

/** What one try came to: an answer's status with its Retry-After, or no answer at all. */
export type Outcome = { status: number; retryAfter: string | undefined } | { failure: NetworkFailure };

/** The retry due after try number `attempt` of `attempts`, or undefined when `outcome` stands. */
export function nextRetry(outcome: Outcome, attempt: number, attempts: number, baseDelayMs: number, nowMs: number): Retry | undefined {
  if (attempt >= attempts) return undefined;
  if ('failure' in outcome) {
    if (!RETRY_FAILURES.has(outcome.failure)) return undefined;
    return { reason: `connection ${outcome.failure}`, failure: outcome.failure, delayMs: backoffDelay(attempt, baseDelayMs) };
  }
  if (!RETRY_STATUSES.has(outcome.status)) return undefined;
  return {
    reason: `HTTP ${outcome.status}`,
    status: outcome.status,
    delayMs: retryAfterMs(outcome.retryAfter, nowMs) ?? backoffDelay(attempt, baseDelayMs),
  };
}

/** The wait after try number `attempt`: the base, doubled with every try, capped. */
function backoffDelay(attempt: number, baseDelayMs: number): number {
  return Math.min(baseDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
}

/** Retry-After in seconds or as an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  const asked = askedWaitMs(value, nowMs);
  return asked === undefined ? undefined : Math.min(asked, MAX_RETRY_DELAY_MS);
}

/** The wait Retry-After asks for, in seconds or as an HTTP date, however long; undefined when absent or unreadable. */
export function askedWaitMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  return Number.isNaN(ms) ? undefined : Math.max(ms, 0);
}

/**
 * What a refusal to be asked again so soon (429, or 503 with a Retry-After) says of the wait: a
 * line for the error ("the service asked to wait 120 s"), one of a read that was tried again
 * saying that tkt waits less, and the hint of when to try again.
 */
export function askedWait(status: number, retryAfter: string | undefined, retried: boolean, nowMs: number): { line: string; hint: string } | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const ms = askedWaitMs(retryAfter, nowMs);
  if (ms === undefined) return undefined;
  const seconds = Math.ceil(ms / 1000);
  const longer = retried && ms > MAX_RETRY_DELAY_MS ? `, longer than tkt waits between tries (${MAX_RETRY_DELAY_MS / 1000} s)` : '';
  return { line: `the service asked to wait ${seconds} s (Retry-After)${longer}`, hint: seconds === 0 ? 'try again now' : `try again in ${inWords(seconds)}` };
}

/** 45 s, 2 min, 3 h: rounded up, so that a try at that time is not too soon. */
function inWords(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}

export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  clock: Clock;
  /** Told before each wait; `attempt` is the try about to come. */
  onRetry(retry: Retry, attempt: number): void;
  /** Gives the request up (a read no one waits for any more): a wait it aborts ends at once, as InterruptedError. */
  giveUp?: AbortSignal | undefined;
  /** The run gives up everything (the second Ctrl-C): a wait ends at once too, even a read's that a change awaits. */
  halt?: AbortSignal | undefined;
  /** The first Ctrl-C of a command that awaits no read (ApiClientOptions.endReads): a wait then ends at once, as StoppedBeforeSendingError. */
  endReads?: AbortSignal | undefined;
}

/**
 * Runs `attempt` until its outcome stands: the last answer is returned whatever its status, and
 * the last failure to get one is thrown.
 */
export async function withRetries(attempt: () => Promise<Received>, options: RetryOptions): Promise<Received> {
  const { attempts, baseDelayMs, clock } = options;
  for (let tried = 1; ; tried++) {
    let retry: Retry | undefined;
    try {
      const received = await attempt();
      const outcome = { status: received.status, retryAfter: header(received.headers, 'retry-after') };
      retry = nextRetry(outcome, tried, attempts, baseDelayMs, clock.now());
      if (retry === undefined) return received;
    } catch (error) {
      if (!(error instanceof NetworkError)) throw error;
      retry = nextRetry({ failure: error.failure }, tried, attempts, baseDelayMs, clock.now());
      if (retry === undefined) throw error;
    }
    options.onRetry(retry, tried + 1);
    await clock.sleep(retry.delayMs, waitEnder(options));
    if (options.giveUp?.aborted === true) throw new InterruptedError();
    if (options.endReads?.aborted === true) throw new StoppedBeforeSendingError(options.endReads.reason);
    if (options.halt?.aborted === true) throw new InterruptedError();
  }
}

/** What ends a wait before a retry: any of the signals, combined only when there are more (AbortSignal.any is not free). */
function waitEnder({ giveUp, halt, endReads }: RetryOptions): AbortSignal | undefined {
  const enders = [giveUp, halt, endReads].filter((signal) => signal !== undefined);
  return enders.length < 2 ? enders[0] : AbortSignal.any(enders);
}
