// The typed surface of the service (spec section 4), one method per endpoint.
// Implemented in src/api/client.ts over the undici layer in src/api/http.ts.
import type { RequestPlan } from './plans.js';

export type { RequestPlan };

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

export interface MultipartInput {
  fields: Record<string, FormValue>;
  /** Paths on disk, streamed (never read into memory) as repeated `Uploads` parts. */
  files?: readonly string[];
}

/** Body of the paginated list (spec 4.1, TicketTable). */
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

export interface RawRequest {
  method: string;
  /** Relative to the base URL, e.g. `/api/TicketsApi/5`; may carry a query string. */
  path: string;
  json?: unknown;
  form?: MultipartInput;
}

export interface ApiClient {
  readonly baseUrl: string;
  authenticate(credentials: Credentials): Promise<ApiResponse>;
  listTickets(table: TicketTable): Promise<ApiResponse>;
  listByUsername(username: string, page?: number): Promise<ApiResponse>;
  getTicket(id: TicketId): Promise<ApiResponse>;
  /** Sends a change planned by src/api/plans.ts, once (never retried). */
  send(plan: RequestPlan): Promise<ApiResponse>;
  metadata(id?: TicketId): Promise<ApiResponse>;
  appMetadata(): Promise<ApiResponse>;
  /** `tkt api`: any method and path, authenticated like the rest. Non-2xx still throws ApiError. */
  raw(request: RawRequest): Promise<ApiResponse>;
  /** Closes the keep-alive pool. */
  dispose(): Promise<void>;
}
