// `tkt create --from`: checking the rows before anything is sent. Every row goes through the
// same field table as `tkt create` (src/fields/options.ts), its names resolved and its files
// found, in the attach folder (attach-folder.ts); one bad row and nothing is sent (exit 2, naming
// every bad row). The tickets --created records are read, to be the rows' (checkCreatedTickets).
import { asSent } from '../api/plans.js';
import type { UploadFile } from '../api/types.js';
import type { Context } from '../context/context.js';
import { ExitCode, UsageError, exitCodeOf } from '../errors.js';
import { tktCommand } from '../config/session.js';
import { LookupError } from '../lookups/index.js';
import type { Lookups } from '../lookups/types.js';
import { sanitizeInline } from '../output/sanitize.js';
import { checkCreate, createRequest, type CreateEndpoint } from '../fields/created.js';
import { unresolvedNames } from '../fields/values.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { InputRow } from './rows.js';
import type { ReportEntry } from './report-file.js';
import { currentTicket } from './ticket-state.js';
import { formatRanges } from './ranges.js';
import { confineAttachments, outsideHint, type AttachFolder, type ConfinedAttachments } from './attach-folder.js';

function rowLabel(row: InputRow): string {
  return row.line === undefined ? `row ${row.row}` : `row ${row.row} (line ${row.line})`;
}

// The field table's messages name options ("--title: ..."); in a file they are columns.
function asColumnMessage(message: string): string {
  return message.replace(/--([a-z]+)/g, '$1');
}

/**
 * The names no lookup matched, each once with the rows that use it: its candidates are listed
 * once under the bad rows, as `tkt create` lists them, not repeated for every row.
 */
class LookupMisses {
  private readonly misses = new Map<string, { error: LookupError; rows: number[] }>();

  add(error: LookupError, row: number): void {
    const miss = this.misses.get(error.message) ?? { error, rows: [] };
    miss.rows.push(row);
    this.misses.set(error.message, miss);
  }

  /** `unknown site "Mars" (rows 1-3):` and its candidates, for each name. */
  details(): string[] {
    return [...this.misses.values()].flatMap(({ error, rows }) => [
      `${asColumnMessage(error.message)} (${rows.length === 1 ? 'row' : 'rows'} ${formatRanges(rows, '')}):`,
      ...error.details.map((line) => `  ${line}`),
    ]);
  }

  /** `see "tkt metadata --collection sites" and "..."`, and how to name an ambiguous one. */
  hint(): string | undefined {
    const errors = [...this.misses.values()].map((miss) => miss.error);
    const listings = [...new Set(errors.flatMap((error) => (error.listedBy === undefined ? [] : [`"${error.listedBy}"`])))];
    const hints = [
      ...(listings.length === 0 ? [] : [`see ${listings.join(' and ')}`]),
      ...new Set(errors.flatMap((error) => (error.listedBy === undefined && error.hint !== undefined ? [error.hint] : []))),
    ];
    return hints.length === 0 ? undefined : hints.join('; ');
  }
}

function problemsOf(error: unknown, row: InputRow, misses: LookupMisses): string[] {
  if (!(error instanceof UsageError)) throw error;
  if (error instanceof LookupError) {
    misses.add(error, row.row);
    return [asColumnMessage(error.message)];
  }
  return error.details.length > 0 ? error.details.map(asColumnMessage) : [asColumnMessage(error.message)];
}

export interface PreparedRow {
  row: InputRow;
  request: PlannedRequest;
  /** The files the row attaches, found in the attach folder. */
  attach: readonly UploadFile[];
}

/** Checks one row as `tkt create` checks its options; returns its request (labelled for --dry-run), or every problem. */
async function prepareRow(
  row: InputRow,
  attach: ConfinedAttachments,
  endpoint: CreateEndpoint,
  lookups: Lookups,
  options: { folder: AttachFolder; dryRun: boolean; misses: LookupMisses },
  ctx: Context,
): Promise<PreparedRow | string[]> {
  const problemsIn = (error: unknown) => problemsOf(error, row, options.misses);
  if (row.unreadable) return row.problems;
  // Attachments are found in the attach folder (the input file's by default), so the file works
  // from any folder; a file refused there is not even looked at.
  const values = attach.problems.length === 0 ? row.values : { ...row.values, attach: attach.admitted };
  const { checked, badValues, unreadableFiles, missing } = await checkCreate(endpoint, values, ctx.now(), 'attach', { filesIn: options.folder.path });
  // The names of a row with bad values are resolved too: the file is fixed in one round.
  const unknownNames = await unresolvedNames(checked, lookups);
  const problems = [
    ...row.problems,
    ...(missing.length > 0 ? [`missing ${missing.map(asColumnMessage).join(', ')}`] : []),
    ...(badValues === undefined ? [] : problemsIn(badValues)),
    ...attach.problems,
    ...(unreadableFiles === undefined ? [] : problemsIn(unreadableFiles).map((problem) => `attach: ${problem}`)),
    ...unknownNames.flatMap(problemsIn),
  ];
  if (problems.length > 0) return problems;
  try {
    const request = await createRequest(endpoint, checked, lookups, { labels: options.dryRun });
    return { row, request, attach: request.form?.files ?? [] };
  } catch (error) {
    return problemsIn(error);
  }
}

/**
 * Checks every row to send before the first create: a bad row must not leave half a file sent.
 * Returns their requests, or throws a UsageError naming every bad row.
 */
export async function prepareRows(
  pending: readonly InputRow[],
  /** `folder`: where the rows' attachments are found and must stay. */
  options: { file: string; folder: AttachFolder; rowCount: number; endpoint: CreateEndpoint; dryRun: boolean },
  ctx: Context,
): Promise<PreparedRow[]> {
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  const prepared: PreparedRow[] = [];
  const bad: string[] = [];
  const misses = new LookupMisses();
  let outside = false;
  for (const row of pending) {
    const attach = await confineAttachments(row.values.attach, options.folder);
    outside ||= attach.outside;
    const result = await prepareRow(row, attach, options.endpoint, lookups, { folder: options.folder, dryRun: options.dryRun, misses }, ctx);
    if (Array.isArray(result)) bad.push(`${rowLabel(row)}: ${result.map((problem) => sanitizeInline(problem)).join('; ')}`);
    else prepared.push(result);
  }
  if (bad.length > 0) {
    const hints = [misses.hint(), ...(outside ? [outsideHint(options.folder)] : [])].filter((hint) => hint !== undefined);
    throw new UsageError(`${bad.length} of ${options.rowCount} rows in ${options.file} are not valid; nothing was sent`, {
      details: [...bad, ...misses.details().map((line) => sanitizeInline(line))],
      hint: hints.length === 0 ? undefined : hints.join('; '),
    });
  }
  return prepared;
}

/**
 * The tickets `--created ROW=ID` names, read before anything is recorded (a dry run reads them
 * too): each must exist and carry its row's title, else the report would link the row to another
 * ticket, or to none, for good. One that does not is exit 2, nothing recorded, naming the row's
 * title to look for.
 */
export async function checkCreatedTickets(recorded: readonly ReportEntry[], rows: readonly InputRow[], ctx: Context): Promise<void> {
  if (recorded.length === 0) return;
  const client = await ctx.api();
  const problems: string[] = [];
  for (const entry of recorded) {
    const title = String(rows[entry.row - 1]?.values.title ?? '');
    const rowTitle = `row ${entry.row}'s title is ${JSON.stringify(sanitizeInline(title))}`;
    const ticket = await currentTicket(client, entry.id!).catch((error: unknown) => {
      if (exitCodeOf(error) === ExitCode.notFound) return undefined;
      throw error;
    });
    if (ticket === undefined) problems.push(`--created ${entry.row}=${entry.id}: ticket #${entry.id} does not exist; ${rowTitle}`);
    // The row's title went out composed (plans.ts), whatever form the file holds it in.
    else if (asSent(ticket.title ?? '').trim() !== asSent(title).trim()) {
      problems.push(`--created ${entry.row}=${entry.id}: ticket #${entry.id} is ${JSON.stringify(sanitizeInline(ticket.title ?? ''))}; ${rowTitle}`);
    }
  }
  if (problems.length === 0) return;
  throw new UsageError(problems.length === 1 ? problems[0]! : `--created: ${problems.length} tickets are not their rows'; nothing was recorded`, {
    details: problems.length === 1 ? ['nothing was recorded'] : problems,
    hint: `find each row's ticket by its title ("${tktCommand(ctx, 'list --search TITLE')}"), then give --created ROW=ID again`,
  });
}
