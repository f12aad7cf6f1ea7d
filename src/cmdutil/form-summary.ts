// What `tkt create` shows before "Create this ticket?": the form as the person who filled it in
// reads it. Apart from dry-run.ts, whose printer every command loads: its layout measures text as
// the terminal draws it (output/table.ts), which only this question needs.
import type { MultipartInput } from '../api/types.js';
import { fieldsFor, ticketTypeName, type TicketEndpoint } from '../model/fields.js';
import { sanitizeInline, sanitizeText } from '../output/sanitize.js';
import { keyValueRoom, renderKeyValue } from '../output/table.js';
import { truncate } from '../output/width.js';
import { fileText, formatValue, sentFields, type PlannedRequest } from './dry-run.js';

/**
 * What a form holds, for the person who filled it in, before it is sent: a field a line under the
 * field table's labels (the prompts' words, not the API's), chosen names with their IDs (people
 * with their usernames, as the rest of tkt names them, the ID only when no username is known), the
 * ticket type in words. The dry run shows the API's own names instead: it is about the request.
 * The description shows its first lines only (descriptionPreview); the form keeps it whole.
 */
export function formSummary(endpoint: TicketEndpoint, form: MultipartInput, aids: Pick<PlannedRequest, 'labels' | 'people'> = {}, width?: number): string {
  const specs = fieldsFor(endpoint);
  const rows = sentFields(form).map(([formField, value]) => {
    const spec = specs.find((candidate) => candidate.formField === formField);
    const text = spec?.value.type === 'ticketType' && typeof value === 'number' ? ticketTypeName(value) : formatValue(value);
    const name = aids.labels?.[formField];
    const shown = aids.people?.[formField] ?? (name === undefined ? text : `${name} (${text})`);
    return { label: spec?.label ?? formField, text: shown, isDescription: spec?.key === 'description' };
  });
  const attachments = specs.find((spec) => spec.value.type === 'files')?.label ?? 'Uploads';
  for (const file of form.files ?? []) rows.push({ label: attachments, text: fileText(file), isDescription: false });
  const valueWidth = width === undefined ? undefined : width - SUMMARY_MARGIN.length;
  const room =
    valueWidth === undefined
      ? undefined
      : keyValueRoom(
          rows.map(({ label, text }) => [label, text]),
          valueWidth,
        );
  // Each value on one line, wrapped at a terminal under its value column (a long title or ID stays readable at 40 columns).
  const pairs = rows.map(({ label, text, isDescription }): [string, string] => [
    label,
    isDescription ? descriptionPreview(text, room) : sanitizeInline(text).trim(),
  ]);
  const laidOut = renderKeyValue(pairs, { color: false, width: valueWidth });
  return laidOut.replace(/^(?=.)/gm, SUMMARY_MARGIN);
}

const SUMMARY_MARGIN = '  ';
const PREVIEW_LINES = 5;

/**
 * A description as its summary shows it, as gh previews an issue's body: its first lines, each cut
 * to the `room` of its column at a terminal, then how many more there are. The screen keeps the
 * question in sight; the ticket gets the whole text.
 */
function descriptionPreview(text: string, room: number | undefined): string {
  const lines = sanitizeText(text).trim().replaceAll('\t', ' ').split('\n');
  const shown = lines.slice(0, PREVIEW_LINES).map((line) => (room === undefined ? line : truncate(line, room)));
  const more = lines.length - shown.length;
  return [...shown, ...(more > 0 ? [`… (${more} more line${more === 1 ? '' : 's'})`] : [])].join('\n');
}
