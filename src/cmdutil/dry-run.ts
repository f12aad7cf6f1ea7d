// `--dry-run` (docs/cli.md section 7): show exactly what would be sent, send nothing. The one
// printer of every dry run: the request plans of src/api/plans.ts (ID... commands, create,
// update, reply..., the rows of create --from, `tkt api`) in one JSON shape and one listing.
import type { FormValue, MultipartInput, RequestPlan, TicketId, UploadFile } from '../api/types.js';
import type { Context } from '../context/context.js';
import { sanitizeInline, sanitizeText } from '../output/sanitize.js';
import type { ShapedPart } from '../output/types.js';

/** What helps a person read a planned request. */
interface ReadingAids {
  /** Display names of looked-up IDs by form field, shown next to the ID. */
  labels?: Readonly<Record<string, string>>;
  /** Chosen people as tkt names them ("Anna Berg (aberg)"), by form field: what a person reads instead of a user ID. */
  people?: Readonly<Record<string, string>>;
  /** Form fields the user changed (update, assign, reopen), marked in the listing. */
  changed?: ReadonlySet<string>;
  /** The ticket already has the change (assign, reopen): what to say instead of sending it. */
  unchanged?: string;
  /** What the ticket holds now in each changed field, as a person reads it ("1 (Low)", "empty"). */
  was?: Readonly<Record<string, string>>;
  /** Whom the change takes the ticket from (pickup of another's ticket), as the ticket names them. */
  previousAssignee?: string;
}

/** A plan of src/api/plans.ts as a dry run shows it (and as it is sent: the aids stay here). */
export type PlannedRequest = RequestPlan & ReadingAids;

export function formatValue(value: FormValue): string {
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}

/** A value as the listing shows it: with the name of the ID it is, when known ("3 (High)"). */
export function labelledValue(value: FormValue, label: string | undefined): string {
  return label === undefined ? formatValue(value) : `${formatValue(value)} (${label})`;
}

/** The fields that would really go on the wire: undefined/null ones are left out, as the client does. */
export function sentFields(form: MultipartInput): [string, FormValue][] {
  return Object.entries(form.fields).filter(([, value]) => value !== undefined && value !== null);
}

/**
 * A planned request as JSON, the same shape for every dry run:
 * `{dryRun, method, path, fields, files, fileNames}` (no fields for an endpoint without a body,
 * `json` for a JSON body): `files` the paths read, `fileNames` the names each is sent under.
 */
export function plannedJson(request: PlannedRequest): Record<string, unknown> {
  const files = request.form?.files ?? [];
  return {
    dryRun: true,
    method: request.method,
    path: request.path,
    ...(request.json === undefined ? {} : { json: request.json }),
    ...(request.form === undefined
      ? {}
      : { fields: Object.fromEntries(sentFields(request.form)), files: files.map((file) => file.path), fileNames: files.map((file) => file.name) }),
  };
}

/** A file as a person checks it before it is sent: its path, and the name the service gets when that is not the path (`/dev/stdin as build.log`). */
export function fileText(file: UploadFile): string {
  return file.path === file.name ? file.path : `${file.path} as ${file.name}`;
}

/**
 * Prints the planned request: a readable listing, or with --json plannedJson; with -q nothing.
 * `idLine`: the request for that ID of an ID... command, one compact line with the ID first, as
 * a real run's lines (docs/cli.md section 7). `asData`: plannedJson in every format, for
 * `tkt api`, whose every answer is JSON. `shapesForm`: --fields and --query see the form's
 * fields, not the whole plan: they stand for what the real run prints (the ticket a create makes).
 */
export async function printDryRun(
  ctx: Context,
  request: PlannedRequest,
  options: { idLine?: TicketId; asData?: boolean; decision?: DryRunDecision; shapesForm?: boolean } = {},
): Promise<void> {
  if (options.asData === true) {
    await ctx.output.data(plannedJson(request));
    await ctx.output.note('dry run: nothing was sent\n');
    return;
  }
  const { idLine, decision } = options;
  const print = idLine === undefined ? ctx.output.document : ctx.output.line;
  await print(
    { ...(idLine === undefined ? {} : { id: idLine }), ...(decision === undefined ? {} : { dryRun: true, ...decision.members }), ...plannedJson(request) },
    {
      human: () =>
        `${decision === undefined ? '' : `${decision.line}\n`}dry run: would send ${request.method} ${request.path} (nothing was sent)\n${requestText(request, '  ')}`,
      ...(decision?.quiet === undefined ? {} : { quiet: () => decision.quiet }),
      ...(options.shapesForm === true && request.form !== undefined ? { shapes: formPart(request.form) } : {}),
    },
  );
}

/** A dry run of a change ticket `id` has already (its `unchanged` note): what a real run would say, and that it would send nothing. */
export async function printUnchangedDryRun(ctx: Context, id: TicketId, note: string): Promise<void> {
  await ctx.output.line({ id, dryRun: true, note }, { human: () => `dry run: #${id} ${sanitizeInline(note)} (nothing would be sent)\n` });
}

/** A form as what --fields and --query see in a dry run, in place of the answer a real run would shape. */
function formPart(form: MultipartInput): ShapedPart {
  return {
    value: Object.fromEntries(sentFields(form)),
    noun: 'the request',
    why: "a dry run has no ticket yet: --fields and --query see the form it would send (what only the service sets, such as the ticket's id, comes with its answer)",
  };
}

/** What a run decided before the request it would send (create --dedup-key): a line first, members in the JSON. */
export interface DryRunDecision {
  line: string;
  members: Record<string, unknown>;
  /** What -q prints (the ID of the ticket it would change); nothing without it. */
  quiet?: string;
}

/** A row a dry run would not send (create --from --resume: created or in doubt before): its line, and its --json element. */
export interface RowLeftOut {
  row: number;
  line: string;
  json: Record<string, unknown>;
}

/**
 * Prints the requests of several rows (create --from): with --json one array, in row order, of
 * plannedJson with each row's number and of the rows left out (marked `dryRun`); else the
 * lines of the rows left out, then a listing per row.
 */
export async function printDryRunRows(ctx: Context, rows: readonly { row: number; request: PlannedRequest }[], leftOut: readonly RowLeftOut[]): Promise<void> {
  const planned = [
    ...rows.map(({ row, request }) => ({ row, ...plannedJson(request) })),
    ...leftOut.map(({ row, json }) => ({ row, dryRun: true, ...json })),
  ].sort((a, b) => a.row - b.row);
  const human = () => {
    const first = rows[0]?.request;
    const what = first === undefined ? 'nothing' : `${rows.length} × ${first.method} ${first.path}`;
    const lines = [`dry run: would send ${what} (nothing was sent)\n`, ...leftOut.map(({ line }) => `${line}\n`)];
    for (const { row, request } of rows) lines.push(`  row ${row}:\n${requestText(request, '    ')}`);
    return lines.join('');
  };
  await ctx.output.document(planned, { human });
}

function requestText(request: PlannedRequest, indent: string): string {
  const form = request.form === undefined ? '' : formText(request, sentFields(request.form), request.form.files ?? [], indent);
  const json = request.json === undefined ? '' : `${indent}Body: ${sanitizeInline(JSON.stringify(request.json))}\n`;
  return `${form}${json}`;
}

/**
 * A value as it would be sent, for a dry run that is there to check it: a message of several
 * lines keeps them (its blank ones too), the lines after the first under the value column.
 * A final line break is not shown, as a text ends with one.
 */
function valueLines(value: string, column: string): string {
  return sanitizeText(value)
    .replace(/\n$/, '')
    .split('\n')
    .map((line, index) => (index === 0 || line === '' ? line : `${column}${line}`))
    .join('\n');
}

function formText(request: Pick<PlannedRequest, 'labels' | 'changed'>, fields: [string, FormValue][], files: readonly UploadFile[], indent: string): string {
  const width = Math.max(0, ...fields.map(([name]) => name.length), files.length > 0 ? 'Uploads'.length : 0) + 2;
  const column = ' '.repeat(indent.length + width);
  const lines: string[] = [];
  for (const [name, value] of fields) {
    const shown = labelledValue(value, request.labels?.[name]);
    const mark = request.changed?.has(name) ? '  [changed]' : '';
    lines.push(`${indent}${`${name}:`.padEnd(width)}${valueLines(shown, column)}${mark}`);
  }
  for (const file of files) lines.push(`${indent}${'Uploads:'.padEnd(width)}${sanitizeInline(fileText(file))}`);
  return lines.map((line) => `${line}\n`).join('');
}
