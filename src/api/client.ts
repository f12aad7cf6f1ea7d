// The typed API (spec section 4): one method per endpoint over src/api/http.ts.
import { createHttp } from './http.js';
import type { HttpOptions } from './http.js';
import { TICKETS_PATH, plans, ticketPath, ticketSegment, type RequestPlan } from './plans.js';
import type { ApiClient, ApiResponse, Credentials, MultipartInput, TicketId, TicketTable } from './types.js';

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
    // The new ticket's ID is read from the body (tickets/created.ts).
    register: (form: MultipartInput) => change(plans.register(form)),
    newTicket: (form: MultipartInput) => change(plans.newTicket(form)),
    updateTicket: async (id: TicketId, form: MultipartInput) => change(plans.updateTicket(id, form)),
    forwardTicket: async (id: TicketId, form: MultipartInput) => change(plans.forwardTicket(id, form)),
    replyTicket: async (id: TicketId, form: MultipartInput) => change(plans.replyTicket(id, form)),
    requesterReply: async (id: TicketId, form: MultipartInput) => change(plans.requesterReply(id, form)),
    closeTicket: async (id: TicketId, form: MultipartInput) => change(plans.closeTicket(id, form)),
    resolveTicket: async (id: TicketId, form: MultipartInput) => change(plans.resolveTicket(id, form)),
    pickupTicket: async (id: TicketId) => change(plans.pickupTicket(id)),
    markRead: async (id: TicketId) => change(plans.markRead(id)),
    addFiles: async (id: TicketId, files: readonly string[]) => change(plans.addFiles(id, files)),
    deleteTicket: async (id: TicketId) => change(plans.deleteTicket(id)),
    metadata: async (id?: TicketId) => read(id === undefined ? `${TICKETS_PATH}/metadata` : `${TICKETS_PATH}/metadata/${ticketSegment(id)}`),
    appMetadata: () => read(`${TICKETS_PATH}/appmetadata`),
    raw: (request) => {
      const method = request.method.toUpperCase();
      return http.send({ method, path: request.path, json: request.json, form: request.form, retry: method === 'GET', expect: 'unchecked' });
    },
    dispose: () => http.close(),
  };
}
