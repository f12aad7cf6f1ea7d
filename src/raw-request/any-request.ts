// `tkt api`: the request built from -F typed fields, -f string fields or an --input JSON body,
// as `gh api` builds its own, and the answer printed as the service sent it.
import { header } from '../api/answer.js';
import { printsAsJson } from '../api/body.js';
import { plans, TICKETS_PATH } from '../api/plans.js';
import type { ApiResponse, FormScalar, FormValue, RequestPlan } from '../api/types.js';
import type { Context } from '../context/context.js';
import { ApiError, FailedBeforeOutputClosedError, OutputClosedError, OutputFailedError, UsageError, type TktError } from '../errors.js';
import { sanitizeText } from '../output/sanitize.js';
import { STDIN, readStdinText } from '../cmdutil/text-input.js';
import { nonBlank } from '../util/option-text.js';
import { fileErrorText } from '../util/file-error.js';
import { checkUploads } from '../cmdutil/upload-files.js';
import { notTextHint, readTextFile } from '../util/text-read.js';

export interface AnyRequestInput {
  method: string;
  /** Relative to the base URL, starting with /. */
  path: string;
  /** `-F key=value`: true/false/null and integers typed, `@file` uploads the file. */
  typedFields: readonly string[];
  /** `-f key=value`: always a string. */
  rawFields: readonly string[];
  /** A JSON file sent as the body, or `-` for stdin. */
  input?: string | undefined;
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// The service's only file field (register, update, reply... all take `Uploads`).
export const FILE_FIELD = 'Uploads';

type FieldValue = string | number | boolean | null;
interface ParsedField {
  key: string;
  /** `key[]=v`: the values collect into an array (repeated form fields in multipart). */
  array: boolean;
  value: FieldValue;
  /** `@path` or `@path#name`: the file to upload (README: Naming an upload). */
  file?: string;
}

/** The request, checked before anything is sent (exit 2 for bad input). */
export async function planAnyRequest(options: AnyRequestInput, ctx: Context): Promise<RequestPlan> {
  const method = options.method.toUpperCase();
  if (!METHODS.includes(method)) {
    throw new UsageError(`invalid method ${JSON.stringify(options.method)}`, { hint: `use one of ${METHODS.join(', ')}` });
  }
  if (!options.path.startsWith('/')) {
    throw new UsageError(`invalid path ${JSON.stringify(options.path)}: it must start with /`, { hint: `e.g. ${TICKETS_PATH}/42` });
  }
  // A URL drops a line break or a tab without a word (curl and gh refuse them too): what is sent
  // would not be what was typed.
  if (CONTROL_CHARACTERS.test(options.path)) {
    throw new UsageError(`invalid path ${JSON.stringify(options.path)}: a path cannot hold control characters`, {
      hint: 'percent-encode each (a line break is %0A, a tab %09)',
    });
  }
  const fields = [...options.typedFields.map((f) => parseField(f, true)), ...options.rawFields.map((f) => parseField(f, false))];
  const files = fields.filter((field) => field.file !== undefined);
  const uploads = await checkUploads(
    files.map((field) => field.file!),
    '-F',
  );

  const fieldsInQuery = method === 'GET' || method === 'HEAD' || options.input !== undefined;
  if (fieldsInQuery && files.length > 0) {
    throw new UsageError('@file uploads need a request body', { hint: 'use POST without --input' });
  }
  if (options.input !== undefined) {
    return plans.anyRequest(method, withQuery(options.path, fields), { json: await readJsonInput(options.input, ctx) });
  }
  if (fieldsInQuery || fields.length === 0) return plans.anyRequest(method, withQuery(options.path, fields));
  if (files.length > 0) {
    return plans.anyRequest(method, options.path, {
      form: { fields: toForm(fields.filter((field) => field.file === undefined)), files: uploads },
    });
  }
  return plans.anyRequest(method, options.path, { json: toJson(fields) });
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

/** The body of --input: empty or only whitespace is said so, as for every text option (README: Text values), not as bad JSON. */
async function readJsonInput(source: string, ctx: Context): Promise<unknown> {
  const content = source === STDIN ? await readStdinText(ctx, '--input', 'give a file') : nonBlank(await readInputFile(source), `--input ${source} is empty`);
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
    throw new UsageError(`cannot read --input ${path}: ${fileErrorText(error)}`, { hint: notTextHint(error) });
  }
}

/**
 * Sends the request and prints the answer's body, a success's or an error's (as gh api does): JSON
 * as data (a success's with --query applied), text as it came (cleaned for a terminal).
 */
export async function sendAndPrint(plan: RequestPlan, ctx: Context): Promise<void> {
  const api = await ctx.api();
  let response: ApiResponse;
  try {
    response = await api.send(plan);
  } catch (error) {
    throw error instanceof ApiError ? await printErrorAnswer(error, ctx) : error;
  }
  const { body } = response;
  await printBody(body, printsAsJson({ body, problem: undefined }, header(response.headers, 'content-type')), ctx, (json) => ctx.output.data(json));
}

/**
 * An error answer's body, on stdout as a success's is (as gh api prints it: `| jq .errors` reads
 * the service's words whole, where the error line sums them up), but whole: a --query was
 * written for the success's shape. Returns the failure to throw: it came first, so a stdout
 * closed or failing on the body neither hides it nor changes its exit code. The body was cleared
 * of the token and anything credential-shaped as it was read (src/api/exchange.ts).
 */
async function printErrorAnswer(failure: ApiError, ctx: Context): Promise<TktError> {
  if (failure.body === undefined) return failure;
  try {
    await printBody(failure.body, failure.bodyIsJson, ctx, (json) => ctx.output.wholeData(json));
  } catch (error) {
    if (!(error instanceof OutputClosedError || error instanceof OutputFailedError)) throw error;
  }
  return new FailedBeforeOutputClosedError(failure.message, { details: failure.details, hint: failure.hint, cause: failure });
}

async function printBody(body: unknown, asJson: boolean, ctx: Context, printJson: (json: unknown) => Promise<void>): Promise<void> {
  if (body === undefined) return;
  if (asJson || typeof body !== 'string') return printJson(body);
  // Text goes out as the server sent it, except to a terminal, which it must not drive.
  await ctx.output.text(ctx.io.stdoutIsTTY ? sanitizeText(body) : body);
}
