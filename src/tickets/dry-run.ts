// `--dry-run` (contract section 7): show exactly what would be sent, send nothing.
import type { FormValue, MultipartInput, RequestPlan } from '../api/types.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';

/** A request plan of src/api/plans.ts, with what helps a person read it. */
export interface PlannedRequest extends RequestPlan {
  /** Display names of looked-up IDs by form field, shown next to the ID. */
  labels?: Readonly<Record<string, string>>;
  /** Form fields the user changed (update), marked in the listing. */
  changed?: ReadonlySet<string>;
  /** What the listing leaves out, e.g. the fields a read-modify-write sends back unchanged. */
  note?: string;
}

function formatValue(value: FormValue): string {
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** The fields that would really go on the wire: undefined/null ones are left out, as the client does. */
export function sentFields(form: MultipartInput): [string, FormValue][] {
  return Object.entries(form.fields).filter(([, value]) => value !== undefined && value !== null);
}

/**
 * Prints the planned request: a readable listing, or with --json one object
 * `{dryRun, method, path, fields, files}` (one compact line with `jsonLines`, as the
 * ID... commands print); with -q nothing.
 */
export async function printDryRun(ctx: Context, request: PlannedRequest, options: { jsonLines?: boolean } = {}): Promise<void> {
  const fields = request.form === undefined ? [] : sentFields(request.form);
  const files = request.form?.files ?? [];
  // An endpoint without a body (pickup, read, delete) shows none.
  const planned = {
    dryRun: true,
    method: request.method,
    path: request.path,
    ...(request.form === undefined ? {} : { fields: Object.fromEntries(fields), files }),
    ...(request.note === undefined ? {} : { note: request.note }),
  };
  const print = options.jsonLines === true ? ctx.output.line : ctx.output.document;
  await print(planned, { human: () => dryRunText(request, fields, files) });
}

function dryRunText(request: PlannedRequest, fields: [string, FormValue][], files: readonly string[]): string {
  const note = request.note === undefined ? '' : `  (${request.note})\n`;
  return `dry run: would send ${request.method} ${request.path} (nothing was sent)\n${formText(request, fields, files)}${note}`;
}

/** What a form holds, a field a line, looked-up IDs with their names: for a dry run and a summary. */
export function formSummary(form: MultipartInput, labels?: Readonly<Record<string, string>>): string {
  return formText({ labels }, sentFields(form), form.files ?? []);
}

function formText(request: Pick<PlannedRequest, 'labels' | 'changed'>, fields: [string, FormValue][], files: readonly string[]): string {
  const width = Math.max(0, ...fields.map(([name]) => name.length), files.length > 0 ? 'Uploads'.length : 0) + 2;
  const lines: string[] = [];
  for (const [name, value] of fields) {
    const label = request.labels?.[name];
    const shown = label === undefined ? formatValue(value) : `${formatValue(value)} (${label})`;
    const mark = request.changed?.has(name) ? '  [changed]' : '';
    lines.push(`  ${`${name}:`.padEnd(width)}${sanitizeInline(shown)}${mark}`);
  }
  for (const file of files) lines.push(`  ${'Uploads:'.padEnd(width)}${sanitizeInline(file)}`);
  return lines.join('\n') + '\n';
}
