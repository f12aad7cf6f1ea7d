// `tkt create --from`: checking the rows before anything is sent. Every row goes through the
// same field table as `tkt create` (src/fields/options.ts), its names resolved and its files
// found; one bad row and nothing is sent (exit 2, naming every bad row).
import { resolve } from 'node:path';
import type { UploadFile } from '../api/types.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { LookupError } from '../lookups/index.js';
import type { Lookups } from '../lookups/types.js';
import { sanitizeInline } from '../output/sanitize.js';
import { checkCreate, createRequest, type CreateEndpoint } from '../fields/created.js';
import { unresolvedNames } from '../fields/values.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { InputRow } from './rows.js';

function rowLabel(row: InputRow): string {
  return row.line === undefined ? `row ${row.row}` : `row ${row.row} (line ${row.line})`;
}

// The field table's messages name options ("--title: ..."); in a file they are columns.
function asColumnMessage(message: string): string {
  return message.replace(/--([a-z]+)/g, '$1');
}

function problemsOf(error: unknown): string[] {
  if (!(error instanceof UsageError)) throw error;
  // A lookup miss carries its candidate list as details: too long to repeat for every row.
  return error.details.length > 0 && !(error instanceof LookupError) ? error.details.map(asColumnMessage) : [asColumnMessage(error.message)];
}

export interface PreparedRow {
  row: InputRow;
  request: PlannedRequest;
  /** The files the row attaches, found next to the input file. */
  attach: readonly UploadFile[];
}

/** Checks one row as `tkt create` checks its options; returns its request (labelled for --dry-run), or every problem. */
async function prepareRow(
  row: InputRow,
  endpoint: CreateEndpoint,
  lookups: Lookups,
  options: { baseDir: string; dryRun: boolean },
  ctx: Context,
): Promise<PreparedRow | string[]> {
  if (row.unreadable) return row.problems;
  // Attachments are found next to the input file, so the file works from any folder.
  const { checked, badValues, unreadableFiles, missing } = await checkCreate(endpoint, row.values, ctx.now(), 'attach', { filesIn: options.baseDir });
  // The names of a row with bad values are resolved too: the file is fixed in one round.
  const unknownNames = await unresolvedNames(checked, lookups);
  const problems = [
    ...row.problems,
    ...(missing.length > 0 ? [`missing ${missing.map(asColumnMessage).join(', ')}`] : []),
    ...(badValues === undefined ? [] : problemsOf(badValues)),
    ...(unreadableFiles === undefined ? [] : problemsOf(unreadableFiles).map((problem) => `attach: ${problem}`)),
    ...unknownNames.flatMap(problemsOf),
  ];
  if (problems.length > 0) return problems;
  try {
    const request = await createRequest(endpoint, checked, lookups, { labels: options.dryRun });
    return { row, request, attach: request.form?.files ?? [] };
  } catch (error) {
    return problemsOf(error);
  }
}

/**
 * Checks every row to send before the first create: a bad row must not leave half a file sent.
 * Returns their requests, or throws a UsageError naming every bad row.
 */
export async function prepareRows(
  pending: readonly InputRow[],
  /** `folder`: where the rows' attachments are, the input file's; undefined: the current folder (stdin, a pipe). */
  options: { file: string; folder: string | undefined; rowCount: number; endpoint: CreateEndpoint; dryRun: boolean },
  ctx: Context,
): Promise<PreparedRow[]> {
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  const baseDir = resolve(options.folder ?? '.');
  const prepared: PreparedRow[] = [];
  const bad: string[] = [];
  for (const row of pending) {
    const result = await prepareRow(row, options.endpoint, lookups, { baseDir, dryRun: options.dryRun }, ctx);
    if (Array.isArray(result)) bad.push(`${rowLabel(row)}: ${result.map((problem) => sanitizeInline(problem)).join('; ')}`);
    else prepared.push(result);
  }
  if (bad.length > 0) {
    throw new UsageError(`${bad.length} of ${options.rowCount} rows in ${options.file} are not valid; nothing was sent`, { details: bad });
  }
  return prepared;
}
