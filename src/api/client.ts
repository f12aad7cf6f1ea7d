// The typed API (spec section 4) over src/api/http.ts: reads and lists by name, every change as a
// request plan of src/api/plans.ts (send), the one way a change is made and shown by --dry-run.
import { createHttp } from './http.js';
import type { HttpOptions } from './http.js';
import { TICKETS_PATH, ticketPath, ticketSegment, type RequestPlan } from './plans.js';
import type { ApiClient, ApiResponse, Credentials, TicketId, TicketTable } from './types.js';

/** The client takes exactly the HTTP layer's options. */
export type ApiClientOptions = HttpOptions;


export function createApiClient(options: ApiClientOptions): ApiClient {
  const http = createHttp(options);

  // A read answers with an object (a ticket, the lookups): anything else is a failure.
  const read = (path: string): Promise<ApiResponse> => http.send({ method: 'GET', path, retry: true, expect: 'object' });
  // Anything that creates or changes data is sent once: a create must never produce two tickets.
  const change = (plan: RequestPlan): Promise<ApiResponse> =>
    http.send({ method: plan.method, path: plan.path, ...(plan.form === undefined ? {} : { form: plan.form }), ...(plan.answersWithObject ? { expect: 'object' as const } : {}), retry: false });

  return {
    baseUrl: http.baseUrl,
    authenticate: (credentials: Credentials) =>
      http.send({ method: 'POST', path: '/api/Users/authenticate', json: credentials, retry: false, auth: false, expect: 'object' }),
    // The list POSTs only read, so they may be retried like a GET. A list may come wrapped in an object.
    listTickets: (table: TicketTable) => http.send({ method: 'POST', path: TICKETS_PATH, json: table, retry: true, expect: 'json' }),
    listByUsername: (username: string, page?: number) =>
      http.send({ method: 'POST', path: `${TICKETS_PATH}/list`, form: { fields: { username, page } }, retry: true, expect: 'json' }),
    getTicket: async (id: TicketId) => read(ticketPath(id)),
    send: async (plan: RequestPlan) => change(plan),
    metadata: async (id?: TicketId) => read(id === undefined ? `${TICKETS_PATH}/metadata` : `${TICKETS_PATH}/metadata/${ticketSegment(id)}`),
    appMetadata: () => read(`${TICKETS_PATH}/appmetadata`),
    raw: (request) => {
      const method = request.method.toUpperCase();
      return http.send({ method, path: request.path, json: request.json, form: request.form, retry: method === 'GET', expect: 'unchecked' });
    },
    dispose: () => http.close(),
  };
}
