// The update form of a read-modify-write (docs/service.md 4.4): the ticket's current values, as the ticket
// read model finds them where the field table says a ticket keeps them, with the changes on top.
import type { FormValue } from '../api/types.js';
import { fieldsFor } from '../model/fields.js';
import { readTicket } from '../model/ticket.js';

/** What a ticket holds in one field, for a person about to change it (`tkt update` at a terminal). */
export interface HeldValue {
  /** As the person reads it: the name where the ticket names one ("High"), else the value; "empty". */
  said: string;
  /**
   * The answer that keeps it: what, given at the field's question, sends the value the ticket holds
   * (a lookup's ID, the due date in ISO 8601); none when the field is empty.
   */
  answer?: string;
}

/** Every current value of the ticket, as the update form names its fields. */
export function currentUpdateForm(ticketId: number, detail: unknown): Record<string, FormValue> {
  const ticket = readTicket(detail);
  const form: Record<string, FormValue> = { Id: ticketId };
  for (const spec of fieldsFor('update')) if (spec.formField !== '') form[spec.formField] = ticket.field(spec.key).value;
  if (ticket.templateId !== undefined) form.TemplateId = ticket.templateId;
  return form;
}

/**
 * The full update form (read-modify-write): every current value of the ticket plus the
 * changes, so a server that clears absent fields never loses one the user did not name; a field
 * the service applies only as a change (the status) is sent only when it is one.
 */
export function mergeUpdateForm(ticketId: number, detail: unknown, changes: Record<string, FormValue>): Record<string, FormValue> {
  const form = currentUpdateForm(ticketId, detail);
  for (const spec of fieldsFor('update')) {
    if (spec.formField in changes) form[spec.formField] = changes[spec.formField];
    else if (spec.onlyAsChange) delete form[spec.formField];
  }
  return form;
}
