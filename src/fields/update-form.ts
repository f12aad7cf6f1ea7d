// The update form of a read-modify-write (docs/service.md 4.4): the ticket's current values, as the ticket
// read model finds them where the field table says a ticket keeps them, with the changes on top.
import type { FormValue } from '../api/types.js';
import { fieldsFor } from '../model/fields.js';
import { readTicket } from '../model/ticket.js';

/**
 * The full update form (read-modify-write): every current value of the ticket plus the
 * changes, so a server that clears absent fields never loses one the user did not name.
 */
export function mergeUpdateForm(ticketId: number, detail: unknown, changes: Record<string, FormValue>): Record<string, FormValue> {
  const ticket = readTicket(detail);
  const form: Record<string, FormValue> = { Id: ticketId };
  for (const spec of fieldsFor('update')) {
    if (spec.formField === '') continue;
    form[spec.formField] = spec.formField in changes ? changes[spec.formField] : ticket.field(spec.key).value;
  }
  if (ticket.templateId !== undefined) form.TemplateId = ticket.templateId;
  return form;
}
