import {
  ApiError,
  NetworkError,
  StoppedBeforeSendingError,
  TicketStateError,
  TktError,
  answerReason,
  exitCodeOf,
  failureReason,
  outcomeUnknown,
  refusesEveryRequest,
  whatHappened,
} from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import type { KeptFiles } from '../cmdutil/attachments.js';
import { wholeNumberOption } from '../util/ids.js';

const MAX_CONCURRENCY = 32;

export interface BulkResult {
  id: number;
  ok: boolean;
  /** HTTP status of the answer; absent when there was none (network failure). */
  status?: number;
  /**
   * What happened, in words, as its line says it in every output: "permission denied (HTTP
   * 403)" with the service's words after it when it sent any, "connection refused: POST ...".
   */
  error?: string;
  /** The API's response body, when it sent one. */
  body?: unknown;
  /** Why a success changed nothing, e.g. "already closed". */
  note?: string;
  /** Whom the change took the ticket from (pickup of another's ticket). */
  previousAssignee?: string;
  /** Of the files the request uploaded, which the service kept (close --attach). */
  files?: KeptFiles;
  /** What the worker threw: exitCodeOf tells what kind of failure it was. */
  failure?: unknown;
  /** Failed after the request may have reached the service: it may have been carried out. */
  inDoubt?: true;
}

/** What a worker reports for one ID that succeeded. Throwing makes a failed result. */
export type BulkOutcome = Pick<BulkResult, 'status' | 'body' | 'note' | 'previousAssignee' | 'files'>;

/** Does the work for one ID; a second signal gives its request up through the HTTP layer. */
export type BulkWorker = (id: number) => Promise<BulkOutcome>;

export interface BulkOptions {
  concurrency: number;
  signal: AbortSignal;
  /**
   * Called as each ID finishes (completion order), e.g. to print its line. A returned promise
   * is awaited before that lane starts its next ID, so a slow stdout slows the run down
   * instead of buffering every line. One that fails (the output cannot be written) stops the
   * run: no ID starts after it (BulkRun.outputFailure).
   */
  onResult?: (result: BulkResult, done: number, total: number) => void | Promise<void>;
}

export interface BulkRun {
  /** One per started ID, in input order. */
  results: BulkResult[];
  /**
   * IDs never started (the signal aborted, or a refusal stopped the run), in input order: also
   * those whose worker was stopped before its change left (StoppedBeforeSendingError).
   */
  notStarted: number[];
  interrupted: boolean;
  /**
   * The first failure every further request would meet too (refusesEveryRequest: a 401, a 403,
   * the service not reached), after which no ID started.
   */
  stoppedBy?: BulkResult;
  /** What onResult threw first (stdout closed or full), after which no ID started; every result is in `results` all the same. */
  outputFailure?: unknown;
}

/**
 * The hint of a run stopped because the service could not be reached (serviceUnreachable): the
 * failure's own advice first (a proxy, a certificate), then `then`, what to do once it can be.
 */
export function unreachableHint(failure: unknown, then: string): string {
  const own = failure instanceof TktError ? failure.hint : undefined;
  return own === undefined ? then : `${own}; ${then}`;
}

/** A failed result's reason: what its answer means ("not found (HTTP 404)"), else "failed". */
export function resultReason(result: BulkResult): string {
  return result.failure instanceof ApiError ? answerReason(result.failure) : failureReason(exitCodeOf(result.failure), result.status);
}

/**
 * What a failure was, for a summary of many and for the line of a stopped run: its answer's
 * meaning, or, without an answer, what failed (`connection refused`).
 */
export function failureGroup(result: BulkResult): string {
  if (result.failure instanceof TicketStateError) return result.failure.group;
  return result.failure instanceof NetworkError ? sanitizeInline(result.failure.reason) : resultReason(result);
}

/**
 * What became of a run's IDs (or rows, `unit` " rows"), for the line of an interrupted run:
 * "0 of 20 done, 8 in doubt, 12 not started"; in doubt is not done: it may not have been. A
 * success that changed nothing ("already closed") is unchanged, not done. `done` names the
 * change, for the line that ends a successful run at a terminal: "47 of 47 closed".
 */
export function runCounts(run: BulkRun, total: number, unit = '', done = 'done'): string {
  const changed = run.results.filter((result) => result.ok && result.note === undefined).length;
  const unchanged = run.results.filter((result) => result.ok && result.note !== undefined).length;
  const inDoubt = run.results.filter((result) => result.inDoubt).length;
  const failed = run.results.length - changed - unchanged - inDoubt;
  return [
    `${changed} of ${total}${unit} ${done}`,
    ...(unchanged > 0 ? [`${unchanged} unchanged`] : []),
    ...(failed > 0 ? [`${failed} failed`] : []),
    ...(inDoubt > 0 ? [`${inDoubt} in doubt`] : []),
    ...(run.notStarted.length > 0 ? [`${run.notStarted.length} not started`] : []),
  ].join(', ');
}

/** `--concurrency N`: a whole number from 1 to 32. */
export function parseConcurrency(text: string): number {
  return wholeNumberOption('--concurrency', text, { min: 1, max: MAX_CONCURRENCY });
}

// The ID (or row) names the request: the answer's meaning and the service's words are what is left to say.
function describeApiError(error: ApiError): string {
  const reason = answerReason(error);
  return error.serverMessages.length > 0 ? `${reason}: ${error.serverMessages.join('; ')}` : reason;
}

function hasBody(body: unknown): boolean {
  return body !== undefined && body !== null && body !== '';
}

function failedResult(id: number, error: unknown): BulkResult {
  const inDoubt = outcomeUnknown(error) ? { inDoubt: true as const } : {};
  if (error instanceof ApiError) {
    return {
      id,
      ok: false,
      status: error.status,
      error: describeApiError(error),
      ...(hasBody(error.body) ? { body: error.body } : {}),
      failure: error,
      ...inDoubt,
    };
  }
  // Said after the ID, which names the ticket already: "#7 is closed: reopen it first".
  if (error instanceof TicketStateError) return { id, ok: false, error: error.state, failure: error };
  if (error instanceof TktError) return { id, ok: false, error: whatHappened(error), failure: error, ...inDoubt };
  return { id, ok: false, error: error instanceof Error ? error.message : String(error), failure: error };
}

function resultFromOutcome(id: number, outcome: BulkOutcome): BulkResult {
  const result: BulkResult = { id, ok: true };
  if (outcome.status !== undefined) result.status = outcome.status;
  if (hasBody(outcome.body)) result.body = outcome.body;
  if (outcome.note !== undefined) result.note = outcome.note;
  if (outcome.previousAssignee !== undefined) result.previousAssignee = outcome.previousAssignee;
  if (outcome.files !== undefined) result.files = outcome.files;
  return result;
}

/**
 * Runs `worker` over `ids`, at most `concurrency` at once. A failure does not stop the others,
 * but one that every further request would meet too (401, 403, the service not reached) does. When `signal`
 * aborts (Ctrl-C) or after such a refusal, no new ID starts; those in flight finish and are
 * reported.
 */
export async function runBulk(ids: readonly number[], worker: BulkWorker, options: BulkOptions): Promise<BulkRun> {
  const { concurrency, signal, onResult } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${concurrency}`);
  }
  const results: (BulkResult | undefined)[] = new Array<BulkResult | undefined>(ids.length);
  let nextIndex = 0;
  let done = 0;
  let stoppedBy: BulkResult | undefined;
  let outputFailed: { error: unknown } | undefined;

  async function lane(): Promise<void> {
    while (nextIndex < ids.length && !signal.aborted && stoppedBy === undefined && outputFailed === undefined) {
      const index = nextIndex++;
      const id = ids[index]!;
      // Settled here, not in an async function of its own: one promise fewer for each ID.
      let result: BulkResult;
      try {
        result = resultFromOutcome(id, await worker(id));
      } catch (error) {
        // Nothing was sent for it: left without a result, it is reported as not started.
        if (error instanceof StoppedBeforeSendingError) continue;
        result = failedResult(id, error);
      }
      results[index] = result;
      // After Ctrl-C the run is interrupted whatever answers come in.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- signal.aborted changes while the worker awaits
      if (!result.ok && !signal.aborted && refusesEveryRequest(result.failure)) stoppedBy ??= result;
      done += 1;
      // Once the output failed, the lanes still sending finish theirs, kept in the results alone.
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by another lane while this one's worker awaited
      if (outputFailed !== undefined) continue;
      try {
        await onResult?.(result, done, ids.length);
      } catch (error) {
        outputFailed ??= { error };
      }
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, lane));
  return {
    results: results.filter((result): result is BulkResult => result !== undefined),
    notStarted: ids.filter((_, index) => results[index] === undefined),
    interrupted: signal.aborted,
    ...(stoppedBy === undefined ? {} : { stoppedBy }),
    ...(outputFailed === undefined ? {} : { outputFailure: outputFailed.error }),
  };
}
