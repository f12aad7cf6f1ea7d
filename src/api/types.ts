// The typed surface of the service (docs/service.md section 4): every request is a plan of
// src/api/plans.ts, sent by the client of src/api/http.ts.
import type { Expectation } from './body.js';
import type { NetworkFailure } from '../errors.js';

export interface ApiResponse<T = unknown> {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON when the body is JSON, the text otherwise, undefined when empty. */
  body: T;
  /** The absolute URL that was requested. */
  url: string;
}

export type FormScalar = string | number | boolean;
/** undefined/null fields are left out; arrays become repeated fields (SelectedTags). */
export type FormValue = FormScalar | readonly FormScalar[] | undefined | null;

/** A file to upload: where it is read from, and the name the service gets it under (its `filename`). */
export interface UploadFile {
  path: string;
  name: string;
  /**
   * The run may send this upload again (create --dedup-key's reply to an older ticket): a pipe,
   * readable once, is kept in a private file as it is first sent, and sent again from there (upload.ts).
   */
  resend?: boolean;
}

export interface MultipartInput {
  fields: Record<string, FormValue>;
  /** Files on disk, streamed (never read into memory) as repeated `Uploads` parts. */
  files?: readonly UploadFile[];
}

/** Body of the paginated list (docs/service.md 4.1, TicketTable). */
export interface TicketTable {
  page?: number;
  length?: number;
  search?: string;
  listType?: string;
  filterBy?: string;
}

export interface Credentials {
  Email: string;
  Password: string;
  RememberMe: boolean;
  Domain: string;
}

export type TicketId = number;

/** One request to the service, as src/api/plans.ts makes it: sent as it is, and printed by --dry-run. */
export interface RequestPlan {
  method: string;
  /** Relative to the base URL; may carry a query string (`tkt api`). */
  path: string;
  /** A JSON body. */
  json?: unknown;
  /** A multipart form; absent for the endpoints that take no body (pickup, read, delete). */
  form?: MultipartInput;
  /** Only requests that merely read may be retried: a create must never run twice. */
  retry: boolean;
  /** false for the authenticate call, which needs no token. */
  auth?: false;
  /** What a 2xx body must be; anything else is an ApiError. */
  expect: Expectation;
}

/** A retry due, and what called for it: an answer's status, or the failure to get one (the wait notice says it). */
export type Retry = {
  /** For the trace: `HTTP 503`, `connection reset`. */
  reason: string;
  delayMs: number;
} & ({ status: number } | { failure: NetworkFailure });

/**
 * Told how the files of an upload go out (the wait notice shows it): bytes count once the
 * connection has taken them, not as they are read ahead from disk.
 */
export interface UploadWatcher {
  /** File `index` of the plan's form starts; `size` undefined for a pipe, known only once read. */
  fileStarted(index: number, size: number | undefined): void;
  /** `bytes` more of that file taken by the connection. */
  taken(bytes: number): void;
  /** The whole body taken: what is left is the service's answer. */
  bodySent(): void;
}

export interface SendOptions {
  signal?: AbortSignal | undefined;
  /** Told before each wait to try a read again, `attempt` the try to come (the wait notice says why it waits). */
  onRetry?: ((retry: Retry, attempt: number, attempts: number) => void) | undefined;
  /** Told how the body's files are sent, for a plan with a form of files. */
  upload?: UploadWatcher | undefined;
}

export interface ApiClient {
  readonly baseUrl: string;
  /** The proxy the service is reached through, as tkt shows it (without credentials); undefined when direct. */
  readonly proxy?: string | undefined;
  /**
   * Sends a plan: a read retried on a dropped connection or a 502/503/504/429, a change once.
   * `signal` gives a read up (its request aborted, InterruptedError) when it aborts; a change
   * once sent is awaited whatever it says.
   */
  send(plan: RequestPlan, options?: SendOptions): Promise<ApiResponse>;
  /** Closes the keep-alive pool. */
  dispose(): Promise<void>;
}
