// Creating a ticket, shared by `tkt create` and `tkt create --from`: where each kind is
// sent, and how the answer names the new ticket.
import { field } from '../api/fields.js';
import type { ApiResponse } from '../api/types.js';
import type { TicketEndpoint } from './fields.js';

export const ENDPOINT_PATHS: Record<Exclude<TicketEndpoint, 'update'>, string> = {
  register: '/api/TicketsApi/register',
  new: '/api/TicketsApi/new',
};

/** The new ticket's ID: the Location header's last segment, else the body's id. */
export function createdId(response: ApiResponse): string | undefined {
  const location = response.headers.location;
  const header = Array.isArray(location) ? location[0] : location;
  if (header !== undefined) {
    const segment = header.split(/[?#]/)[0]!.replace(/\/+$/, '').split('/').pop();
    if (segment !== undefined && /^\d+$/.test(segment)) return segment;
  }
  const id = field(response.body, 'id', 'ticketId');
  return typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? String(id) : undefined;
}
