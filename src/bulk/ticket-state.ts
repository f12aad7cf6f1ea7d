// What a change sent without a form depends on in the ticket as it is (resolve, close, pickup,
// delete): read once before it, so that a dry run answers what the real call would (a ticket not
// found fails as the read fails; "already closed" is the note, with nothing sent), and so that
// resolve refuses a closed ticket, which the service would move back to Resolved and mail again.
import { field } from '../api/member-access.js';
import { plans } from '../api/plans.js';
import type { ApiClient, TicketId } from '../api/types.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import { TicketStateError } from '../errors.js';
import { readTicket, type Ticket } from '../model/ticket.js';
import { sanitizeInline } from '../output/sanitize.js';
import { sameId } from '../util/same-id.js';
import { alreadyAssignedToNote } from '../reading/unchanged.js';

/** The ticket as it is now: one GET; a ticket that does not exist fails as `tkt show` fails. */
export async function currentTicket(client: ApiClient, id: TicketId): Promise<Ticket> {
  return readTicket((await client.send(plans.getTicket(id))).body);
}

/**
 * A plan made from the ticket as it is (one GET, in a dry run too): a ticket not found is the
 * read's error, and `unchanged` the note of a ticket that already has the change, as the real
 * call would answer, with nothing sent.
 */
export function readFirst(
  request: (id: number) => PlannedRequest | Promise<PlannedRequest>,
  unchanged: (ticket: Ticket, id: number) => string | undefined,
): (id: number, api: () => Promise<ApiClient>) => Promise<PlannedRequest> {
  return async (id, api) => {
    const note = unchanged(await currentTicket(await api(), id), id);
    const planned = await request(id);
    return note === undefined ? planned : { ...planned, unchanged: note };
  };
}

/** The service's flag when it sends one (`isClosed`, in any case, as every member is read), else the status's name. */
function isIn(ticket: Ticket, flag: 'isClosed' | 'isResolved', name: RegExp): boolean {
  return field(ticket.raw, flag) === true || name.test(ticket.status ?? '');
}

const isClosed = (ticket: Ticket): boolean => isIn(ticket, 'isClosed', /\bclosed\b/i);
const isResolved = (ticket: Ticket): boolean => isIn(ticket, 'isResolved', /\bresolved\b/i);

/** Whether resolve would send nothing for the ticket as it is: it is closed or resolved (resolveUnchanged says which, and how). */
export const resolveSendsNothing = (ticket: Ticket): boolean => isClosed(ticket) || isResolved(ticket);

/**
 * resolve's answer for the ticket as it is: a closed one is refused (exit 1), a resolved one
 * changes nothing (the service's "already resolved"), else undefined: resolve it. `hint`: how to
 * reopen it, in the caller's words.
 */
export function resolveUnchanged(ticket: Ticket, id: TicketId, hint: string): string | undefined {
  if (isClosed(ticket)) throw new TicketStateError(id, 'is closed: reopen it first', 'closed, reopen first', { hint });
  return isResolved(ticket) ? 'already resolved, nothing changed' : undefined;
}

/** close's: a closed ticket changes nothing (the service's 200 "no action"). */
export const closeUnchanged = (ticket: Ticket): string | undefined => (isClosed(ticket) ? 'already closed, nothing changed' : undefined);

/**
 * pickup's: a ticket already yours changes nothing; one another technician holds is taken from
 * them, who are named (`previousAssignee`, as the ticket names them: "Tina Torres (tina)"). `me`:
 * your user ID, when the login says it.
 */
function pickupState(ticket: Ticket, me: string | undefined): Pick<PlannedRequest, 'unchanged' | 'previousAssignee'> {
  const assignee = ticket.field('assignee');
  if (assignee.id === undefined) return {};
  if (me !== undefined && sameId(assignee.id, me)) return { unchanged: alreadyAssignedToNote('you') };
  return { previousAssignee: sanitizeInline(assignee.name ?? String(assignee.id)) };
}

/**
 * pickup's plan (`tkt pickup`, pickup_ticket), made from the ticket as read: whom it is taken
 * from, or that it is yours already. `me`: your user ID, asked once a ticket is read (a bad ID is
 * said before the login is looked at).
 */
export function pickupPlan(me: () => Promise<string | undefined>): (id: number, api: () => Promise<ApiClient>) => Promise<PlannedRequest> {
  return async (id, api) => ({ ...plans.pickupTicket(id), ...pickupState(await currentTicket(await api(), id), await me()) });
}
