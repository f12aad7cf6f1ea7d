// What `tkt create` shows before "Create this ticket?": the form as the person who filled it in
// reads it; and what `tkt update` at a terminal shows before "Update ticket #ID?": what it
// changes. Apart from dry-run.ts, whose printer every command loads: its layout measures text as
// the terminal draws it (output/table.ts), which only these questions need.
import type { FormValue, MultipartInput } from '../api/types.js';
import { onProfile, profileToName } from '../config/session.js';
import type { Context } from '../context/context.js';
import { OperationError } from '../errors.js';
import { fieldsFor, ticketTypeName, type TicketEndpoint, type TicketFieldSpec } from '../model/fields.js';
import { wrapWords } from '../output/reflow.js';
import { sanitizeInline, sanitizeText } from '../output/sanitize.js';
import { keyValueRoom, renderKeyValue } from '../output/table.js';
import { formatDate } from '../output/time.js';
import { truncate } from '../output/width.js';
import { writeText } from '../output/write.js';
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
    const text = shownValue(spec, value);
    const name = aids.labels?.[formField];
    const shown = aids.people?.[formField] ?? (name === undefined ? text : `${name} (${text})`);
    return { label: spec?.label ?? formField, text: shown, isDescription: spec?.key === 'description' };
  });
  const attachments = specs.find((spec) => spec.value.type === 'files')?.label ?? 'Uploads';
  for (const file of form.files ?? []) rows.push({ label: attachments, text: fileText(file), isDescription: false });
  return summaryLines(rows, width);
}

/**
 * What an update will change, for the person who chose it, laid out as formSummary lays out a
 * create's form: a field a line, under the field table's labels, `old → new` (`value (kept)` for
 * one sent as it is). `was`: what the ticket holds, as the questions said it, by form field; a new
 * value goes by its name where it has one (a person as tkt names them), a due date as every date
 * is shown. `note`: a line after them, wrapped to `width`.
 */
export function changeSummary(
  fields: Readonly<Record<string, FormValue>>,
  was: Readonly<Record<string, string>>,
  aids: Pick<PlannedRequest, 'labels' | 'people'> = {},
  options: { width?: number | undefined; note?: string | undefined } = {},
): string {
  const specs = fieldsFor('update');
  const rows = Object.entries(fields).map(([formField, value]) => {
    const spec = specs.find((candidate) => candidate.formField === formField);
    const named = aids.people?.[formField] ?? aids.labels?.[formField];
    const text = spec?.value.type === 'when' ? formatDate(new Date(String(value))) : shownValue(spec, value);
    const from = was[formField] ?? 'empty';
    const to = named ?? text;
    // Sent all the same (a due date kept with a new priority, whose SLA would move it).
    return { label: spec?.label ?? formField, text: from === to ? `${to} (kept)` : `${from} → ${to}`, isDescription: false };
  });
  const { width, note } = options;
  const noteLines = note === undefined ? [] : width === undefined ? [note] : wrapWords(note, width - SUMMARY_MARGIN.length);
  return summaryLines(rows, width) + noteLines.map((line) => `${SUMMARY_MARGIN}${line}\n`).join('');
}

/** A value as a person names it: the ticket type in words. */
function shownValue(spec: TicketFieldSpec | undefined, value: FormValue): string {
  return spec?.value.type === 'ticketType' && typeof value === 'number' ? ticketTypeName(value) : formatValue(value);
}

/** A summary's rows, each value on one line, wrapped at a terminal under its value column (a long title or ID stays readable at 40 columns). */
function summaryLines(rows: readonly { label: string; text: string; isDescription: boolean }[], width: number | undefined): string {
  const valueWidth = width === undefined ? undefined : width - SUMMARY_MARGIN.length;
  const room =
    valueWidth === undefined
      ? undefined
      : keyValueRoom(
          rows.map(({ label, text }) => [label, text]),
          valueWidth,
        );
  const pairs = rows.map(({ label, text, isDescription }): [string, string] => [
    label,
    isDescription ? descriptionPreview(text, room) : sanitizeInline(text).trim(),
  ]);
  const laidOut = renderKeyValue(pairs, { color: false, width: valueWidth });
  return laidOut.replace(/^(?=.)/gm, SUMMARY_MARGIN);
}

/**
 * Shows what a command is about to send (`summary`, made for the terminal's width when stderr is
 * one) and asks `question` (told the words that name a profile other than the default, as
 * delete's question does: where it goes), yes by default; no is exit 1 with nothing sent
 * (`cancelled: nothing was NOTHING`), `declined` told first.
 */
export async function confirmSummary(
  ctx: Context,
  summary: (width: number | undefined) => string,
  question: (onProfile: string) => string,
  options: { nothing: string; declined?: () => void },
): Promise<void> {
  await writeText(ctx.io.stderr, `\n${summary(ctx.io.stderrIsTTY ? ctx.io.size().columns : undefined)}`);
  if (await ctx.prompter.confirm({ message: question(onProfile(profileToName(ctx))), default: true })) return;
  options.declined?.();
  throw new OperationError(`cancelled: nothing was ${options.nothing}`);
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
