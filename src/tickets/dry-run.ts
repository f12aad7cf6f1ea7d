// `--dry-run` (contract section 7): show exactly what would be sent, send nothing. The one
// printer of every dry run: a request plan (ID... commands, create, update, reply...), the rows
// of create --from, and `tkt api`'s request share one JSON shape and one listing of a form.
import type { FormValue, MultipartInput, RequestPlan } from '../api/types.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';

/** What helps a person read a planned request. */
interface ReadingAids {
  /** Display names of looked-up IDs by form field, shown next to the ID. */
  labels?: Readonly<Record<string, string>>;
  /** Form fields the user changed (update), marked in the listing. */
  changed?: ReadonlySet<string>;
  /** What the listing leaves out, e.g. the fields a read-modify-write sends back unchanged. */
  note?: string;
}

/** A request as a dry run shows it: a plan of src/api/plans.ts, or `tkt api`'s request. */
export interface PlannedRequest extends ReadingAids {
  method: string;
  /** Relative to the base URL. */
  path: string;
  /** The multipart form; absent for the endpoints that take no body (pickup, read, delete). */
  form?: MultipartInput | undefined;
  /** A JSON body (`tkt api`). */
  json?: unknown;
}

/** A plan of src/api/plans.ts that is sent as it is and printed by --dry-run. */
export type SendablePlan = RequestPlan & ReadingAids;

function formatValue(value: FormValue): string {
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** The fields that would really go on the wire: undefined/null ones are left out, as the client does. */
function sentFields(form: MultipartInput): [string, FormValue][] {
  return Object.entries(form.fields).filter(([, value]) => value !== undefined && value !== null);
}

/**
 * A planned request as JSON, the same shape for every dry run:
 * `{dryRun, method, path, fields, files}` (no fields for an endpoint without a body, `json`
 * for a JSON body, `note` for what the listing leaves out).
 */
export function plannedJson(request: PlannedRequest): Record<string, unknown> {
  return {
    dryRun: true,
    method: request.method,
    path: request.path,
    ...(request.json === undefined ? {} : { json: request.json }),
    ...(request.form === undefined ? {} : { fields: Object.fromEntries(sentFields(request.form)), files: request.form.files ?? [] }),
    ...(request.note === undefined ? {} : { note: request.note }),
  };
}

/**
 * Prints the planned request: a readable listing, or with --json plannedJson (one compact line
 * with `jsonLines`, as the ID... commands print); with -q nothing.
 */
export async function printDryRun(ctx: Context, request: PlannedRequest, options: { jsonLines?: boolean } = {}): Promise<void> {
  const print = options.jsonLines === true ? ctx.output.line : ctx.output.document;
  await print(plannedJson(request), { human: () => `dry run: would send ${request.method} ${request.path} (nothing was sent)\n${requestText(request, '  ')}` });
}

/**
 * Prints the requests of several rows (create --from): with --json one array of plannedJson
 * with each row's number; else a listing per row, after `notes` (rows left out, and why).
 */
export async function printDryRunRows(ctx: Context, rows: readonly { row: number; request: PlannedRequest }[], notes: readonly string[]): Promise<void> {
  const planned = rows.map(({ row, request }) => ({ row, ...plannedJson(request) }));
  const human = () => {
    const first = rows[0]?.request;
    const what = first === undefined ? 'nothing' : `${rows.length} × ${first.method} ${first.path}`;
    const lines = [`dry run: would send ${what} (nothing was sent)\n`, ...notes.map((note) => `- ${sanitizeInline(note)}\n`)];
    for (const { row, request } of rows) lines.push(`  row ${row}:\n${requestText(request, '    ')}`);
    return lines.join('');
  };
  await ctx.output.document(planned, { human });
}

function requestText(request: PlannedRequest, indent: string): string {
  const form = request.form === undefined ? '' : formText(request, sentFields(request.form), request.form.files ?? [], indent);
  const json = request.json === undefined ? '' : `${indent}Body: ${sanitizeInline(JSON.stringify(request.json))}\n`;
  const note = request.note === undefined ? '' : `${indent}(${request.note})\n`;
  return `${form}${json}${note}`;
}

/** What a form holds, a field a line, looked-up IDs with their names: for a dry run and a summary. */
export function formSummary(form: MultipartInput, labels?: Readonly<Record<string, string>>): string {
  return formText({ labels }, sentFields(form), form.files ?? [], '  ');
}

function formText(request: Pick<PlannedRequest, 'labels' | 'changed'>, fields: [string, FormValue][], files: readonly string[], indent: string): string {
  const width = Math.max(0, ...fields.map(([name]) => name.length), files.length > 0 ? 'Uploads'.length : 0) + 2;
  const lines: string[] = [];
  for (const [name, value] of fields) {
    const label = request.labels?.[name];
    const shown = label === undefined ? formatValue(value) : `${formatValue(value)} (${label})`;
    const mark = request.changed?.has(name) ? '  [changed]' : '';
    lines.push(`${indent}${`${name}:`.padEnd(width)}${sanitizeInline(shown)}${mark}`);
  }
  for (const file of files) lines.push(`${indent}${'Uploads:'.padEnd(width)}${sanitizeInline(file)}`);
  return lines.map((line) => `${line}\n`).join('');
}
