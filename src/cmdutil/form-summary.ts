// What `tkt create` shows before "Create this ticket?": the form as the person who filled it in
// reads it. Apart from dry-run.ts, whose printer every command loads: its layout measures text as
// the terminal draws it (output/table.ts), which only this question needs.
import type { MultipartInput } from '../api/types.js';
import { fieldsFor, ticketTypeName, type TicketEndpoint } from '../model/fields.js';
import { sanitizeInline } from '../output/sanitize.js';
import { renderKeyValue } from '../output/table.js';
import { fileText, formatValue, sentFields, type PlannedRequest } from './dry-run.js';

/**
 * What a form holds, for the person who filled it in, before it is sent: a field a line under the
 * field table's labels (the prompts' words, not the API's), chosen names with their IDs (people
 * with their usernames, as the rest of tkt names them, the ID only when no username is known), the
 * ticket type in words. The dry run shows the API's own names instead: it is about the request.
 */
export function formSummary(endpoint: TicketEndpoint, form: MultipartInput, aids: Pick<PlannedRequest, 'labels' | 'people'> = {}, width?: number): string {
  const specs = fieldsFor(endpoint);
  const rows = sentFields(form).map(([formField, value]): [string, string] => {
    const spec = specs.find((candidate) => candidate.formField === formField);
    const text = spec?.value.type === 'ticketType' && typeof value === 'number' ? ticketTypeName(value) : formatValue(value);
    const name = aids.labels?.[formField];
    return [spec?.label ?? formField, aids.people?.[formField] ?? (name === undefined ? text : `${name} (${text})`)];
  });
  const attachments = specs.find((spec) => spec.value.type === 'files')?.label ?? 'Uploads';
  for (const file of form.files ?? []) rows.push([attachments, fileText(file)]);
  // Each value on one line, wrapped at a terminal under its value column (a long title or ID stays readable at 40 columns).
  const pairs = rows.map(([label, text]): [string, string] => [label, sanitizeInline(text).trim()]);
  const laidOut = renderKeyValue(pairs, { color: false, width: width === undefined ? undefined : width - SUMMARY_MARGIN.length });
  return laidOut.replace(/^(?=.)/gm, SUMMARY_MARGIN);
}

const SUMMARY_MARGIN = '  ';
