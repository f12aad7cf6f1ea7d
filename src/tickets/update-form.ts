// The update form of a read-modify-write (spec 4.4): the ticket's current values, where the field
// table says a ticket detail holds them, with the changes on top.
import { field, isObject } from '../api/fields.js';
import type { FormValue } from '../api/types.js';
import { fieldsFor, type TicketFieldSpec } from './fields.js';

/** The current value of a field in a ticket detail, read without regard to case. */
export function currentValue(detail: unknown, spec: TicketFieldSpec): FormValue {
  if (spec.detail === undefined) return undefined;
  const flat = field(detail, ...spec.detail.ids);
  if (typeof flat === 'string' || typeof flat === 'number' || typeof flat === 'boolean') return flat;
  const nested = field(detail, ...(spec.detail.nested ?? []));
  const id = isObject(nested) ? field(nested, 'id') : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * The full update form (read-modify-write): every current value of the ticket plus the
 * changes, so a server that clears absent fields never loses one the user did not name.
 */
export function mergeUpdateForm(ticketId: number, detail: unknown, changes: Record<string, FormValue>): Record<string, FormValue> {
  const form: Record<string, FormValue> = { Id: ticketId };
  for (const spec of fieldsFor('update')) {
    if (spec.formField === '') continue;
    form[spec.formField] = spec.formField in changes ? changes[spec.formField] : currentValue(detail, spec);
  }
  const template = field(detail, 'templateId');
  if (typeof template === 'string' && template !== '') form.TemplateId = template;
  return form;
}
