// Creating a ticket, shared by `tkt create` and `tkt create --from`: where each kind is
// sent, and how the answer names the new ticket.
import { field } from '../api/fields.js';
import { plans } from '../api/plans.js';
import type { ApiResponse, MultipartInput, RequestPlan } from '../api/types.js';
import type { TicketEndpoint } from './fields.js';

/** The request that creates a ticket: register (on someone's behalf) or new (integration). */
export function createPlan(endpoint: Exclude<TicketEndpoint, 'update'>, form: MultipartInput): RequestPlan {
  return endpoint === 'new' ? plans.newTicket(form) : plans.register(form);
}

/**
 * The new ticket's ID, from the body. A Location header counts only for a body that names
 * no ID, and only when it points to the same service: a proxy or a hostile service naming
 * another host must not decide which ticket a script goes on to change.
 */
export function createdId(response: ApiResponse): string | undefined {
  return wholeNumber(field(response.body, 'id', 'ticketId')) ?? sameServiceLocationId(response);
}

function sameServiceLocationId(response: ApiResponse): string | undefined {
  const location = response.headers.location;
  const header = Array.isArray(location) ? location[0] : location;
  if (header === undefined) return undefined;
  let target: URL;
  try {
    target = new URL(header, response.url);
  } catch {
    return undefined;
  }
  if (target.origin !== new URL(response.url).origin) return undefined;
  return wholeNumber(target.pathname.replace(/\/+$/, '').split('/').pop());
}

function wholeNumber(value: unknown): string | undefined {
  return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? String(value) : undefined;
}
