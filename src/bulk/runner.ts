import { ApiError, TktError } from '../errors.js';
import type { KeptFiles } from '../tickets/attachments.js';
import { wholeNumberOption } from '../util/ids.js';

const MAX_CONCURRENCY = 32;

export interface BulkResult {
  id: number;
  ok: boolean;
  /** HTTP status of the answer; absent when there was none (network failure). */
  status?: number;
  error?: string;
  /** The API's response body, when it sent one. */
  body?: unknown;
  /** Why a success changed nothing, e.g. "already closed". */
  note?: string;
  /** Of the files the request uploaded, which the service kept (close --attach). */
  files?: KeptFiles;
  /** What the worker threw: exitCodeOf tells what kind of failure it was. */
  failure?: unknown;
}

/** What a worker reports for one ID that succeeded. Throwing makes a failed result. */
export type BulkOutcome = Pick<BulkResult, 'status' | 'body' | 'note' | 'files'>;

/** Does the work for one ID; a second signal gives its request up through the HTTP layer. */
export type BulkWorker = (id: number) => Promise<BulkOutcome>;

export interface BulkOptions {
  concurrency: number;
  signal: AbortSignal;
  /**
   * Called as each ID finishes (completion order), e.g. to print its line. A returned promise
   * is awaited before that lane starts its next ID, so a slow stdout slows the run down
   * instead of buffering every line.
   */
  onResult?: (result: BulkResult, done: number, total: number) => void | Promise<void>;
}

export interface BulkRun {
  /** One per started ID, in input order. */
  results: BulkResult[];
  /** IDs never started because the signal aborted, in input order. */
  notStarted: number[];
  interrupted: boolean;
}

/** `--concurrency N`: a whole number from 1 to 32. */
export function parseConcurrency(text: string): number {
  return wholeNumberOption('--concurrency', text, { min: 1, max: MAX_CONCURRENCY });
}

// The report puts failureReason ("not found (HTTP 404)") in front: the request is what is left to say.
function describeApiError(error: ApiError): string {
  return error.serverMessages.length > 0 ? error.serverMessages.join('; ') : `${error.method} ${error.url}`;
}

function hasBody(body: unknown): boolean {
  return body !== undefined && body !== null && body !== '';
}

function failedResult(id: number, error: unknown): BulkResult {
  if (error instanceof ApiError) {
    return {
      id,
      ok: false,
      status: error.status,
      error: describeApiError(error),
      ...(hasBody(error.body) ? { body: error.body } : {}),
      failure: error,
    };
  }
  if (error instanceof TktError) {
    const message = [error.message, ...error.details].join(': ');
    return { id, ok: false, error: message, failure: error };
  }
  return { id, ok: false, error: error instanceof Error ? error.message : String(error), failure: error };
}

function resultFromOutcome(id: number, outcome: BulkOutcome): BulkResult {
  const result: BulkResult = { id, ok: true };
  if (outcome.status !== undefined) result.status = outcome.status;
  if (hasBody(outcome.body)) result.body = outcome.body;
  if (outcome.note !== undefined) result.note = outcome.note;
  if (outcome.files !== undefined) result.files = outcome.files;
  return result;
}

async function settle(id: number, worker: BulkWorker): Promise<BulkResult> {
  try {
    return resultFromOutcome(id, await worker(id));
  } catch (error) {
    return failedResult(id, error);
  }
}

/**
 * Runs `worker` over `ids`, at most `concurrency` at once. One failure never stops the others.
 * When `signal` aborts (Ctrl-C), no new ID starts; those in flight finish and are reported.
 */
export async function runBulk(ids: readonly number[], worker: BulkWorker, options: BulkOptions): Promise<BulkRun> {
  const { concurrency, signal, onResult } = options;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${concurrency}`);
  }
  const results: (BulkResult | undefined)[] = new Array<BulkResult | undefined>(ids.length);
  let nextIndex = 0;
  let done = 0;

  async function lane(): Promise<void> {
    while (nextIndex < ids.length && !signal.aborted) {
      const index = nextIndex++;
      const result = await settle(ids[index]!, worker);
      results[index] = result;
      done += 1;
      await onResult?.(result, done, ids.length);
    }
  }

  await Promise.all(Array.from({ length: Math.min(concurrency, ids.length) }, lane));
  return {
    results: results.filter((result): result is BulkResult => result !== undefined),
    notStarted: ids.slice(nextIndex),
    interrupted: signal.aborted,
  };
}
