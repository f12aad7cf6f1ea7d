// One request plan per endpoint of the service (docs/service.md section 4): its method, its path, what it
// carries and how it is sent. The client sends these plans and --dry-run prints the same ones,
// so the service's paths and form field names are written here and nowhere else. Light on
// purpose: command files import it, so it must not load the HTTP client.
import { UsageError } from '../errors.js';
import type { Credentials, FormScalar, FormValue, MultipartInput, RequestPlan, TicketId, TicketTable, UploadFile } from './types.js';

export const TICKETS_PATH = '/api/TicketsApi';

/** A ticket ID as one path segment; a negative or unsafe number is refused before any request. */
function ticketSegment(id: TicketId): string {
  if (!Number.isSafeInteger(id) || id < 0) throw new UsageError(`invalid ticket ID: ${id}`);
  return String(id);
}

const ticketPath = (id: TicketId): string => `${TICKETS_PATH}/${ticketSegment(id)}`;
const actionPath = (action: string, id: TicketId): string => `${TICKETS_PATH}/${action}/${ticketSegment(id)}`;

// Text goes out composed (Unicode NFC), as the service stores it and as --search is sent: a
// title pasted decomposed (NFD, as macOS pastes it) would be stored so, and no search typed
// composed would ever find its accented words. Upload names are left as given: they name files.
/** Text as a plan sends it, and so as the service keeps it: composed (ASCII is, as it is: a bulk run's IDs skip ICU). */
export const asSent = (text: string): string => (NOT_ASCII.test(text) ? text.normalize('NFC') : text);
const NOT_ASCII = /[^\x00-\x7f]/;

function composed(value: FormValue): FormValue {
  if (typeof value === 'string') return asSent(value);
  return Array.isArray(value) ? value.map((item: FormScalar) => (typeof item === 'string' ? asSent(item) : item)) : value;
}
const decomposable = (value: FormValue): boolean =>
  typeof value === 'string'
    ? NOT_ASCII.test(value)
    : Array.isArray(value) && value.some((item: FormScalar) => typeof item === 'string' && NOT_ASCII.test(item));
/** `form` with its text composed; the same form when all of it is ASCII (every form of a bulk run of IDs). */
const composedForm = (form: MultipartInput): MultipartInput =>
  Object.values(form.fields).some(decomposable)
    ? { ...form, fields: Object.fromEntries(Object.entries(form.fields).map(([name, value]) => [name, composed(value)])) }
    : form;

/** A read: retried on a dropped connection or a busy service, never changes anything. */
const read = (method: string, path: string, body: { json?: unknown; form?: MultipartInput } = {}): RequestPlan => ({
  method,
  path,
  ...body,
  ...(body.form === undefined ? {} : { form: composedForm(body.form) }),
  retry: true,
  expect: 'object',
});
/** A change: sent once, whatever happens (a create must never produce two tickets). */
const change = (method: string, path: string, form?: MultipartInput): RequestPlan => ({
  method,
  path,
  ...(form === undefined ? {} : { form: composedForm(form) }),
  retry: false,
  expect: 'any',
});

/**
 * A path as the request line carries it, so that a dry run shows what is sent: under the base URL
 * (leading slashes as one, as joinUrl joins it: `//host/x` is `/host/x`, never another host), as
 * URL reads it (`.` and `..` resolved, a `#fragment` dropped, spaces and other characters
 * percent-encoded). Leading slashes are taken again after URL: a `\` is a `/` to it.
 */
function pathAsSent(path: string): string {
  const url = new URL(`http://service/${path.replace(/^\/+/, '')}`);
  return `${url.pathname.replace(/^\/+/, '/')}${url.search}`;
}

/** Form fields, with the files to upload as `Uploads` parts when there are any. */
function formOf(fields: Record<string, FormValue>, files: readonly UploadFile[] | undefined): MultipartInput {
  return files === undefined || files.length === 0 ? { fields } : { fields, files };
}

// The permission claim each changing endpoint needs (docs/service.md 5.5); the others need only a token.
const ACTION_PERMISSIONS: Record<string, string> = {
  register: 'Tickets.Create',
  update: 'Tickets.Update',
  forward: 'Tickets.Forward',
  reply: 'Tickets.Reply',
  close: 'Tickets.Close',
  resolve: 'Tickets.Resolve',
  pickup: 'Tickets.Pickup',
};
const TICKETS_ACTION = new RegExp(`${TICKETS_PATH}/(?:([a-z]+)(?:/\\d+)?|\\d+)$`, 'i');

/** The permission the request at `url` needs, for a refusal's hint: undefined when the service names none for it. */
export function permissionFor(method: string, url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const match = TICKETS_ACTION.exec(path);
  if (match === null) return undefined;
  if (match[1] === undefined) return method === 'DELETE' ? 'Tickets.Delete' : undefined;
  return method === 'POST' ? ACTION_PERMISSIONS[match[1].toLowerCase()] : undefined;
}

/** The resolution of a ticket (docs/service.md 4.8). */
export interface Resolution {
  details: string;
  /** User ID of the resolver. */
  submitBy: string;
}

/** The closing of a ticket (docs/service.md 4.7). */
export interface Closure {
  /** User ID of who closes. */
  closeBy: string;
  /** Sends the closure e-mail to the requester and the CC list. */
  acknowledged?: boolean | undefined;
  comments?: string | undefined;
  /** A ClosureStatus code. */
  status?: number | undefined;
  closureComments?: string | undefined;
  /** ISO 8601. */
  closingDate?: string | undefined;
  files?: readonly UploadFile[] | undefined;
}

/** An e-mail about a ticket: a reply (docs/service.md 4.6) or a forward (4.5). */
export interface Mail {
  subject: string;
  to: string;
  cc?: string | undefined;
  message?: string | undefined;
  files?: readonly UploadFile[] | undefined;
}

/** A reply posted as the ticket's requester (docs/service.md 4.17). */
export interface RequesterReply {
  /** The requester's username. */
  username: string;
  subject: string;
  message?: string | undefined;
  files?: readonly UploadFile[] | undefined;
}

export const plans = {
  authenticate: (credentials: Credentials): RequestPlan => ({ ...read('POST', '/api/Users/authenticate', { json: credentials }), retry: false, auth: false }),

  // The list POSTs only read, so they may be retried like a GET. A list may come wrapped in an object.
  listTickets: (table: TicketTable): RequestPlan => ({
    ...read('POST', TICKETS_PATH, { json: table.search === undefined ? table : { ...table, search: table.search.normalize('NFC') } }),
    expect: 'json',
  }),
  listByUsername: (username: string, page?: number): RequestPlan => ({
    ...read('POST', `${TICKETS_PATH}/list`, { form: { fields: { username, page } } }),
    expect: 'json',
  }),
  getTicket: (id: TicketId): RequestPlan => read('GET', ticketPath(id)),
  metadata: (id?: TicketId): RequestPlan => read('GET', id === undefined ? `${TICKETS_PATH}/metadata` : actionPath('metadata', id)),
  appMetadata: (): RequestPlan => read('GET', `${TICKETS_PATH}/appmetadata`),

  // A create must answer with the ticket (an object), whose ID tkt reads, or at least with its address (201, Location).
  register: (form: MultipartInput): RequestPlan => ({ ...change('POST', `${TICKETS_PATH}/register`, form), expect: 'created' }),
  newTicket: (form: MultipartInput): RequestPlan => ({ ...change('POST', `${TICKETS_PATH}/new`, form), expect: 'created' }),
  /** `fields`: the whole ticket with the changes (see tickets/update-form.ts). */
  updateTicket: (id: TicketId, fields: Record<string, FormValue>): RequestPlan => change('POST', actionPath('update', id), { fields }),
  forwardTicket: (id: TicketId, mail: Mail & { draft?: boolean | undefined }): RequestPlan =>
    change(
      'POST',
      actionPath('forward', id),
      formOf({ Id: id, Title: mail.subject, SendTo: mail.to, CcTo: mail.cc, Message: mail.message, HasDraft: mail.draft }, mail.files),
    ),
  replyTicket: (id: TicketId, mail: Mail): RequestPlan =>
    change('POST', actionPath('reply', id), formOf({ Id: id, Title: mail.subject, SendTo: mail.to, CcTo: mail.cc, Message: mail.message }, mail.files)),
  requesterReply: (id: TicketId, reply: RequesterReply): RequestPlan =>
    change('POST', actionPath('reqreply', id), formOf({ Id: id, Username: reply.username, Title: reply.subject, Message: reply.message }, reply.files)),
  closeTicket: (id: TicketId, closure: Closure): RequestPlan =>
    change(
      'POST',
      actionPath('close', id),
      formOf(
        {
          TicketId: id,
          CloseBy: closure.closeBy,
          Acknowledged: closure.acknowledged,
          Comments: closure.comments,
          Status: closure.status,
          ClosureComments: closure.closureComments,
          ClosingDate: closure.closingDate,
        },
        closure.files,
      ),
    ),
  resolveTicket: (id: TicketId, resolution: Resolution): RequestPlan =>
    change('POST', actionPath('resolve', id), { fields: { TicketId: id, Details: resolution.details, SubmitBy: resolution.submitBy } }),
  pickupTicket: (id: TicketId): RequestPlan => change('POST', actionPath('pickup', id)),
  markRead: (id: TicketId): RequestPlan => change('POST', actionPath('read', id)),
  addFiles: (id: TicketId, files: readonly UploadFile[]): RequestPlan => change('POST', actionPath('addfiles', id), { fields: {}, files }),
  deleteTicket: (id: TicketId): RequestPlan => change('DELETE', ticketPath(id)),

  /** `tkt api`: any method and path (as sent: pathAsSent); a GET may be retried; whatever comes back is the answer. */
  anyRequest: (method: string, path: string, body: { json?: unknown; form?: MultipartInput } = {}): RequestPlan => ({
    method,
    path: pathAsSent(path),
    ...body,
    retry: method.toUpperCase() === 'GET',
    expect: 'unchecked',
  }),
};
