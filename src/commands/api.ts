import { TICKETS_PATH } from '../api/plans.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import type { ApiResponse, FormScalar, FormValue, RawRequest } from '../api/types.js';
import { UsageError } from '../errors.js';
import { sanitizeText } from '../output/sanitize.js';
import { writeText } from '../output/write.js';
import { STDIN, assertReadableFiles, fileErrorText, readStdin } from '../tickets/text-input.js';
import { collect } from '../util/option-text.js';
import { readTextFile } from '../util/text-read.js';
import { dryRunOption } from './shared-options.js';
import { plannedJson } from '../tickets/dry-run.js';

export interface ApiOptions {
  method: string;
  path: string;
  /** `-F key=value`: true/false/null and integers typed, `@file` uploads the file. */
  typedFields: string[];
  /** `-f key=value`: always a string. */
  rawFields: string[];
  /** A JSON file sent as the body, or `-` for stdin. */
  input?: string | undefined;
  dryRun?: boolean | undefined;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
// The service's only file field (register, update, reply... all take `Uploads`).
const FILE_FIELD = 'Uploads';

type FieldValue = string | number | boolean | null;
interface ParsedField {
  key: string;
  /** `key[]=v`: the values collect into an array (repeated form fields in multipart). */
  array: boolean;
  value: FieldValue;
  /** `@path`: the file to upload. */
  file?: string;
}


export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('api')
    .description('Send an authenticated request to any endpoint and print the response body')
    .argument('<method>', `HTTP method: ${METHODS.join(', ')}`)
    .argument('<path>', `path under the base URL, starting with /, e.g. ${TICKETS_PATH}/42`)
    .option('-F, --field <key=value>', 'typed field: true, false, null and integers become JSON values; @FILE uploads FILE (multipart, streamed)', collect)
    .option('-f, --raw-field <key=value>', 'string field, sent as is', collect)
    .option('--input <file>', 'send the JSON in FILE (- for stdin) as the body; fields then go to the query string')
    .addOption(dryRunOption())
    .addHelpText(
      'after',
      `
Fields form a JSON body; for GET and HEAD (or with --input) they go to the query string.
"key[]=value" builds an array (repeated form fields in multipart). Any "@file" value sends
the whole request as multipart/form-data; files are sent as "${FILE_FIELD}" parts, the service's
only file field. Non-2xx answers exit like every other command (3 not found, 4 login, 5 permission).

Examples:
  $ tkt api GET ${TICKETS_PATH}/42
  $ tkt api POST ${TICKETS_PATH} -F page=1 -F length=5 -f listType=MyOpenTickets
  $ tkt api POST ${TICKETS_PATH}/addfiles/42 -F Uploads=@screenshot.png
  $ tkt api POST ${TICKETS_PATH}/update/42 -F Title="New title" -F TicketPriorityId=3
  $ tkt api POST ${TICKETS_PATH} --input table.json`,
    );
  host.action(command, ([method, path], { field, rawField, ...opts }, ctx) => run({ method, path, typedFields: field ?? [], rawFields: rawField ?? [], ...opts }, ctx));
}

export async function run(options: ApiOptions, ctx: Context): Promise<void> {
  const request = await buildRequest(options, ctx);
  if (options.dryRun) {
    // JSON whatever the format, as every answer of `tkt api`; the shape of every dry run.
    await ctx.output.data(plannedJson(request));
    ctx.io.stderr.write('dry run: nothing was sent\n');
    return;
  }
  const response = await (await ctx.api()).raw(request);
  await printBody(response, ctx);
}

async function buildRequest(options: ApiOptions, ctx: Context): Promise<RawRequest> {
  const method = options.method.toUpperCase();
  if (!METHODS.includes(method)) {
    throw new UsageError(`invalid method ${JSON.stringify(options.method)}`, { hint: `use one of ${METHODS.join(', ')}` });
  }
  if (!options.path.startsWith('/')) {
    throw new UsageError(`invalid path ${JSON.stringify(options.path)}: it must start with /`, { hint: `e.g. ${TICKETS_PATH}/42` });
  }
  const fields = [...options.typedFields.map((f) => parseField(f, true)), ...options.rawFields.map((f) => parseField(f, false))];
  const files = fields.filter((field) => field.file !== undefined);
  await assertReadableFiles(files.map((field) => field.file!), '-F');

  const fieldsInQuery = method === 'GET' || method === 'HEAD' || options.input !== undefined;
  if (fieldsInQuery && files.length > 0) {
    throw new UsageError('@file uploads need a request body', { hint: 'use POST without --input' });
  }
  if (options.input !== undefined) {
    return { method, path: withQuery(options.path, fields), json: await readJsonInput(options.input, ctx) };
  }
  if (fieldsInQuery || fields.length === 0) return { method, path: withQuery(options.path, fields) };
  if (files.length > 0) {
    return {
      method,
      path: options.path,
      form: { fields: toForm(fields.filter((field) => field.file === undefined)), files: files.map((field) => field.file!) },
    };
  }
  return { method, path: options.path, json: toJson(fields) };
}

function parseField(text: string, typed: boolean): ParsedField {
  const equals = text.indexOf('=');
  if (equals <= 0) throw new UsageError(`invalid field ${JSON.stringify(text)}: expected key=value`);
  const rawKey = text.slice(0, equals);
  const value = text.slice(equals + 1);
  const array = rawKey.endsWith('[]');
  const key = array ? rawKey.slice(0, -2) : rawKey;
  if (key === '') throw new UsageError(`invalid field ${JSON.stringify(text)}: the key is empty`);
  if (!typed) return { key, array, value };
  if (value.startsWith('@')) {
    const file = value.slice(1);
    if (file === '') throw new UsageError(`invalid field ${JSON.stringify(text)}: no file after @`);
    if (key.toLowerCase() !== FILE_FIELD.toLowerCase()) {
      throw new UsageError(`cannot upload ${JSON.stringify(file)} as "${key}": files are always sent as "${FILE_FIELD}" parts`, {
        hint: `use -F ${FILE_FIELD}=@${file}, or -f ${key}=${value} to send the text as is`,
      });
    }
    return { key, array, value, file };
  }
  return { key, array, value: typedValue(value) };
}

/** Like `gh api -F`: true, false, null and integers become JSON values. */
function typedValue(value: string): FieldValue {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value === 'null') return null;
  if (/^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}

function toJson(fields: readonly ParsedField[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    if (!field.array) {
      body[field.key] = field.value;
      continue;
    }
    const existing = body[field.key];
    body[field.key] = Array.isArray(existing) ? [...existing, field.value] : [field.value];
  }
  return body;
}

function toForm(fields: readonly ParsedField[]): Record<string, FormValue> {
  const form: Record<string, FormValue> = {};
  for (const [key, value] of Object.entries(toJson(fields))) {
    // Multipart has no null: a null field is left out, as FormValue documents.
    form[key] = Array.isArray(value) ? value.filter((item): item is FormScalar => item !== null) : (value as FormScalar | null);
  }
  return form;
}

function withQuery(path: string, fields: readonly ParsedField[]): string {
  if (fields.length === 0) return path;
  const query = new URLSearchParams(fields.map((field): [string, string] => [field.key, field.value === null ? '' : String(field.value)]));
  return `${path}${path.includes('?') ? '&' : '?'}${query.toString()}`;
}

async function readJsonInput(source: string, ctx: Context): Promise<unknown> {
  const content = source === STDIN ? await readStdin(ctx, '--input', 'give a file') : await readInputFile(source);
  try {
    return JSON.parse(content);
  } catch (error) {
    throw new UsageError(`--input ${source} is not valid JSON: ${(error as Error).message}`);
  }
}

// Read as is, not checked as a regular file first: `--input <(jq ...)` is a pipe.
async function readInputFile(path: string): Promise<string> {
  try {
    return await readTextFile(path);
  } catch (error) {
    throw new UsageError(`cannot read --input ${path}: ${fileErrorText(error)}`);
  }
}

async function printBody(response: ApiResponse, ctx: Context): Promise<void> {
  const body = response.body;
  if (body === undefined) return;
  const contentType = String(response.headers['content-type'] ?? '');
  if (typeof body !== 'string' || /[/+]json\b/i.test(contentType)) return ctx.output.data(body);
  // Text goes out as the server sent it, except to a terminal, which it must not drive.
  await writeText(ctx.io.stdout, ctx.io.stdoutIsTTY ? sanitizeText(body) : body);
}
