// The typed API (spec section 4): one method per endpoint over src/api/http.ts.
import { UsageError } from '../errors.js';
import { createHttp, pathSegment } from './http.js';
import type { HttpOptions, HttpRequest } from './http.js';
import type { ApiClient, ApiResponse, Credentials, MultipartInput, TicketId, TicketTable } from './types.js';

/** The client takes exactly the HTTP layer's options. */
export type ApiClientOptions = HttpOptions;

const TICKETS = '/api/TicketsApi';

export function createApiClient(options: ApiClientOptions): ApiClient {
  const http = createHttp(options);

  // A read answers with an object (a ticket, the lookups): anything else is a failure.
  const read = (path: string): Promise<ApiResponse> => http.send({ method: 'GET', path, retry: true, expect: 'object' });
  // Anything that creates or changes data is sent once: a create must never produce two tickets.
  const change = (method: string, path: string, body: Pick<HttpRequest, 'form' | 'json' | 'expect'> = {}): Promise<ApiResponse> =>
    http.send({ method, path, ...body, retry: false });
  const ticketPath = (action: string, id: TicketId): string => `${TICKETS}/${action}/${ticketSegment(id)}`;

  return {
    baseUrl: http.baseUrl,
    authenticate: (credentials: Credentials) =>
      http.send({ method: 'POST', path: '/api/Users/authenticate', json: credentials, retry: false, auth: false, expect: 'object' }),
    // The list POSTs only read, so they may be retried like a GET. A list may come wrapped in an object.
    listTickets: (table: TicketTable) => http.send({ method: 'POST', path: TICKETS, json: table, retry: true, expect: 'json' }),
    listByUsername: (username: string, page?: number) =>
      http.send({ method: 'POST', path: `${TICKETS}/list`, form: { fields: { username, page } }, retry: true, expect: 'json' }),
    getTicket: async (id: TicketId) => read(`${TICKETS}/${ticketSegment(id)}`),
    // The new ticket's ID is read from the body (tickets/created.ts).
    register: (form: MultipartInput) => change('POST', `${TICKETS}/register`, { form, expect: 'object' }),
    newTicket: (form: MultipartInput) => change('POST', `${TICKETS}/new`, { form, expect: 'object' }),
    updateTicket: async (id: TicketId, form: MultipartInput) => change('POST', ticketPath('update', id), { form }),
    forwardTicket: async (id: TicketId, form: MultipartInput) => change('POST', ticketPath('forward', id), { form }),
    replyTicket: async (id: TicketId, form: MultipartInput) => change('POST', ticketPath('reply', id), { form }),
    requesterReply: async (id: TicketId, form: MultipartInput) => change('POST', ticketPath('reqreply', id), { form }),
    closeTicket: async (id: TicketId, form: MultipartInput) => change('POST', ticketPath('close', id), { form }),
    resolveTicket: async (id: TicketId, form: MultipartInput) => change('POST', ticketPath('resolve', id), { form }),
    pickupTicket: async (id: TicketId) => change('POST', ticketPath('pickup', id)),
    markRead: async (id: TicketId) => change('POST', ticketPath('read', id)),
    addFiles: async (id: TicketId, files: readonly string[]) => change('POST', ticketPath('addfiles', id), { form: { fields: {}, files } }),
    deleteTicket: async (id: TicketId) => change('DELETE', `${TICKETS}/${ticketSegment(id)}`),
    metadata: async (id?: TicketId) => read(id === undefined ? `${TICKETS}/metadata` : ticketPath('metadata', id)),
    appMetadata: () => read(`${TICKETS}/appmetadata`),
    raw: (request) => {
      const method = request.method.toUpperCase();
      return http.send({ method, path: request.path, json: request.json, form: request.form, retry: method === 'GET', expect: 'unchecked' });
    },
    dispose: () => http.close(),
  };
}

function ticketSegment(id: TicketId): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new UsageError(`invalid ticket ID: ${id}`);
  return pathSegment(id);
}
