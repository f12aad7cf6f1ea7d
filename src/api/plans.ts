// One request plan per endpoint that changes something (spec section 4): its method, its path
// and what it carries. The client sends these plans and --dry-run prints the same ones, so the
// service's paths are written here and nowhere else. Light on purpose: command files import it,
// so it must not load the HTTP client.
import { UsageError } from '../errors.js';
import type { MultipartInput, TicketId } from './types.js';

export interface RequestPlan {
  method: 'POST' | 'DELETE';
  /** Relative to the base URL. */
  path: string;
  /** The multipart form; absent for the endpoints that take no body (pickup, read, delete). */
  form?: MultipartInput;
  /** A create must answer with the ticket (an object), whose ID tkt reads. */
  answersWithObject?: true;
}

export const TICKETS_PATH = '/api/TicketsApi';

/** One path segment, e.g. a ticket ID; never lets a value add segments or a query. */
export function pathSegment(value: string | number): string {
  return encodeURIComponent(String(value));
}

/** A ticket ID as one path segment; a negative or unsafe number is refused before any request. */
export function ticketSegment(id: TicketId): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new UsageError(`invalid ticket ID: ${id}`);
  return pathSegment(id);
}

/** /api/TicketsApi/{id}, for reading a ticket. */
export const ticketPath = (id: TicketId): string => `${TICKETS_PATH}/${ticketSegment(id)}`;
const actionPath = (action: string, id: TicketId): string => `${TICKETS_PATH}/${action}/${ticketSegment(id)}`;

export const plans = {
  register: (form: MultipartInput): RequestPlan => ({ method: 'POST', path: `${TICKETS_PATH}/register`, form, answersWithObject: true }),
  newTicket: (form: MultipartInput): RequestPlan => ({ method: 'POST', path: `${TICKETS_PATH}/new`, form, answersWithObject: true }),
  updateTicket: (id: TicketId, form: MultipartInput): RequestPlan => ({ method: 'POST', path: actionPath('update', id), form }),
  forwardTicket: (id: TicketId, form: MultipartInput): RequestPlan => ({ method: 'POST', path: actionPath('forward', id), form }),
  replyTicket: (id: TicketId, form: MultipartInput): RequestPlan => ({ method: 'POST', path: actionPath('reply', id), form }),
  requesterReply: (id: TicketId, form: MultipartInput): RequestPlan => ({ method: 'POST', path: actionPath('reqreply', id), form }),
  closeTicket: (id: TicketId, form: MultipartInput): RequestPlan => ({ method: 'POST', path: actionPath('close', id), form }),
  resolveTicket: (id: TicketId, form: MultipartInput): RequestPlan => ({ method: 'POST', path: actionPath('resolve', id), form }),
  pickupTicket: (id: TicketId): RequestPlan => ({ method: 'POST', path: actionPath('pickup', id) }),
  markRead: (id: TicketId): RequestPlan => ({ method: 'POST', path: actionPath('read', id) }),
  addFiles: (id: TicketId, files: readonly string[]): RequestPlan => ({ method: 'POST', path: actionPath('addfiles', id), form: { fields: {}, files } }),
  deleteTicket: (id: TicketId): RequestPlan => ({ method: 'DELETE', path: ticketPath(id) }),
};
