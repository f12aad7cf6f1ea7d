// `tkt create --from`: telling what happened. Each row's line as its answer comes (stdout for
// the tickets created, stderr for the rows that failed or are in doubt, --json one array), the
// files the service did not keep, and the end of the run: a summary line, or the error that
// says what stopped it or which rows need another look, with the `--resume` command to finish.
import { tktCommand } from '../config/session.js';
import { shellWord } from '../util/shell-word.js';
import type { GlobalOptions } from '../config/globals.js';
import { outputFlagWords } from '../output/flags.js';
import type { Context } from '../context/context.js';
import { nameList } from '../cmdutil/action-output.js';
import type { KeptFiles } from '../cmdutil/attachments.js';
import { replacedDueText, type ReplacedDue } from '../fields/created.js';
import { fileErrorText } from '../util/file-error.js';
import {
  FilesSkippedError,
  IN_DOUBT_CREATED,
  InterruptedError,
  ItemFailedError,
  OperationError,
  OutputAfterChangeError,
  type OutputFailedError,
  serviceUnreachable,
  serviceUnresponsive,
  stoppedHow,
} from '../errors.js';
import { STDIN } from '../cmdutil/text-input.js';
import { sanitizeInline } from '../output/sanitize.js';
import { createStyle, type Style } from '../output/style.js';
import type { ArrayPrinter } from '../output/types.js';
import { writeText } from '../output/write.js';
import type { CreateFromOptions } from './create-from-options.js';
import type { ReportEntry } from './report-file.js';
import { formatRanges, rangeLines, summaryLayout } from './ranges.js';
import { failureGroup, runCounts, unreachableHint, type BulkRun } from './runner.js';

/** A row's element of the --json array, as the report has it. */
export function rowJson(entry: ReportEntry): Record<string, unknown> {
  const line: Record<string, unknown> = { row: entry.row, ok: entry.ok };
  if (entry.inDoubt) line.inDoubt = true;
  if (entry.id !== undefined) line.id = entry.id;
  if (entry.status !== undefined) line.status = entry.status;
  if (entry.error !== undefined) line.error = entry.error;
  if (entry.skippedRow) line.skippedRow = true;
  return line;
}

/** The ticket a row created, as its line names it. */
const createdTicket = (entry: ReportEntry): string => (entry.id == null ? 'a ticket (the service named no ID)' : `#${entry.id}`);

/**
 * The line of a row that an earlier run created or left in doubt, which this run does not send:
 * a real run prints it, a dry run lists it.
 */
export function skippedRowLine(entry: ReportEntry, style: Style): string {
  return entry.inDoubt
    ? `${style.yellow('?')} row ${entry.row}: ${IN_DOUBT_CREATED}: sent in an earlier run, not sent again`
    : `- row ${entry.row} already created as ${createdTicket(entry)} (skipped)`;
}

export type RowPrinter = (entry: ReportEntry, files?: KeptFiles, due?: ReplacedDue) => Promise<void>;

/** Prints one row's line: into the --json array when there is one, else as text (-q: the new IDs only). */
export function rowPrinter(ctx: Context, jsonArray: ArrayPrinter | undefined): RowPrinter {
  const quiet = ctx.output.format === 'quiet';
  const outStyle = createStyle(ctx.io.stdoutColor);
  const errStyle = createStyle(ctx.io.color);
  return async (entry, files, due) => {
    if (jsonArray !== undefined) {
      await jsonArray.push([
        {
          ...rowJson(entry),
          ...(files === undefined ? {} : { kept: files.kept, skipped: files.skipped }),
          ...(due === undefined ? {} : { dueReplaced: { sent: due.sent, kept: due.kept?.toISOString() ?? null } }),
        },
      ]);
    } else if (entry.inDoubt) {
      const line = entry.skippedRow
        ? skippedRowLine(entry, errStyle)
        : `${errStyle.yellow('?')} row ${entry.row}: ${IN_DOUBT_CREATED}: ${sanitizeInline(entry.error ?? 'no answer')}`;
      await writeText(ctx.io.stderr, `${line}\n`);
    } else if (!entry.ok) {
      await writeText(ctx.io.stderr, `${errStyle.red('✗')} row ${entry.row}: ${sanitizeInline(entry.error ?? 'failed')}\n`);
    } else if (quiet) {
      // -q prints the new IDs only, ready for `| tkt close -`.
      if (entry.id != null && !entry.skippedRow) await writeText(ctx.io.stdout, `${entry.id}\n`);
    } else {
      const line = entry.skippedRow ? skippedRowLine(entry, outStyle) : `${outStyle.green('✓')} row ${entry.row}: created ${createdTicket(entry)}`;
      await writeText(ctx.io.stdout, `${line}\n`);
    }
    // The ticket is created; the files it did not keep are a failure of their own, on stderr.
    if (files !== undefined && files.skipped.length > 0 && jsonArray === undefined) {
      await writeText(ctx.io.stderr, `${errStyle.red('✗')} row ${entry.row}: the service did not keep ${nameList(files.skipped)}\n`);
    }
    if (due !== undefined && jsonArray === undefined) {
      await writeText(ctx.io.stderr, `${errStyle.yellow('!')} row ${entry.row}: created ${createdTicket(entry)}, but ${replacedDueText(due)}\n`);
    }
  };
}

/**
 * An input with no rows (empty, blank lines, a CSV header alone), as an `ID...` command tells
 * stdin with no IDs: a note (left out with -q), exit 0; --json the empty array of rows.
 */
export async function tellNoRows(options: CreateFromOptions, ctx: Context): Promise<void> {
  if (ctx.output.format === 'json') await ctx.output.array().end();
  await ctx.output.note(`${options.file === STDIN ? 'stdin' : options.file} has no rows: nothing to do\n`);
}

const IN_DOUBT_ROWS = 'rows in doubt (the service may have created them)';
const REPLACED_DUE_ROWS = "rows whose due date the service's SLA replaced";

/**
 * The numbers of each kind of row under the error line, as ranges wrapped and, at a terminal,
 * cut short (summaryLayout), saying so.
 */
function rowLists(ctx: Context, reportPath: string, lists: readonly (readonly [label: string, rows: readonly number[]])[]): string[] {
  const layout = summaryLayout(ctx.io, '');
  let cut = false;
  const lines = lists.flatMap(([label, rows]) => {
    if (rows.length === 0) return [];
    const list = rangeLines(label, rows, layout);
    cut ||= list.cut;
    return list.lines;
  });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set inside flatMap above
  return cut ? [...lines, `(lists cut short: --json lists every row, and ${reportPath} every row sent)`] : lines;
}

/**
 * What to do about the rows in doubt: check them in the service, then settle each with the
 * resume command, `--created ROW=ID` for one it has, `--retry-in-doubt ROWS` for the others.
 */
function settleHint(resumeCommand: string, inDoubtRows: readonly number[]): string {
  const rows = formatRanges(inDoubtRows, '').replaceAll(', ', ',');
  return (
    `check the rows in doubt in the service, then record each one it has with "${resumeCommand} --created ROW=ID" ` +
    `and send again those it does not have with "${resumeCommand} --retry-in-doubt ${rows}" (both may go in one run)`
  );
}

/** The end of a run that left rows failed or in doubt (exit 1): how many, and what to do about them. */
function rowsToLookAt(
  rows: {
    file: string;
    reportPath: string;
    resumeCommand: string;
    rowCount: number;
    sentCount: number;
    failed: readonly number[];
    inDoubtRows: readonly number[];
  },
  details: string[],
): OperationError {
  const { failed, inDoubtRows, reportPath } = rows;
  const what = [
    ...(failed.length > 0 ? [`${failed.length} of ${rows.sentCount} rows failed`] : []),
    ...(inDoubtRows.length > 0 ? [`${inDoubtRows.length} of ${rows.rowCount} rows in doubt`] : []),
  ];
  const hints = [
    ...(failed.length > 0 ? [`fix the failed rows in ${rows.file}, then run again with --resume ${reportPath}`] : []),
    ...(inDoubtRows.length > 0 ? [settleHint(rows.resumeCommand, inDoubtRows)] : []),
  ];
  return new OperationError(what.join(', '), { details, hint: hints.join('; ') });
}

/**
 * Ends a dry run as the real run would end: rows an earlier run left in doubt are held back,
 * and the run fails (exit 1) naming them, as `ID...` dry runs fail an ID that cannot be planned.
 */
export function tellDryRunOutcome(
  plan: { options: CreateFromOptions; reportPath: string; rowCount: number; planned: number; heldInDoubt: readonly number[] },
  ctx: Context,
): void {
  if (plan.heldInDoubt.length === 0) return;
  const resumeCommand = tktCommand(ctx, resumeWords(plan.options, plan.reportPath, ctx.globals));
  throw rowsToLookAt({ ...plan, file: plan.options.file, resumeCommand, sentCount: plan.planned, failed: [], inDoubtRows: plan.heldInDoubt }, [
    `would send ${plan.planned} (nothing was sent)`,
    ...rowLists(ctx, plan.reportPath, [[IN_DOUBT_ROWS, plan.heldInDoubt]]),
  ]);
}

/**
 * The words of `tkt create` that go on where this run stopped: the file, the options that change
 * what is sent and where (--integration: another endpoint, which takes other columns; --attach-dir:
 * the files the rows attach) or how much at once (--concurrency), then the report to resume from,
 * then the output options given (--json, -q...: a script reads the resumed run as it read this
 * one); tktCommand adds the profile and --url. Not --retry-in-doubt nor --created: the rows this
 * run leaves in doubt are to be checked first.
 */
function resumeWords(options: CreateFromOptions, reportPath: string | undefined, globals: GlobalOptions): string {
  return [
    'create --from',
    shellWord(options.file),
    ...(options.integration ? ['--integration'] : []),
    ...(options.attachDir === undefined ? [] : ['--attach-dir', shellWord(options.attachDir)]),
    ...(options.concurrency === undefined ? [] : ['--concurrency', String(options.concurrency)]),
    ...(reportPath === undefined ? [] : ['--resume', shellWord(reportPath)]),
    ...outputFlagWords(globals),
  ].join(' ');
}

/**
 * A run stopped while it resolved its rows' names, before it wrote a report or sent a row: every
 * row is left, and the same command (its --resume, if it had one) goes on.
 */
export function stoppedBeforeRows(
  options: CreateFromOptions,
  rows: readonly number[],
  ctx: Pick<Context, 'signal' | 'session' | 'globals' | 'env'>,
): InterruptedError {
  return new InterruptedError(`${stoppedHow(ctx.signal.reason)}: nothing was sent`, {
    details: [`rows not started: ${formatRanges(rows, '')}`],
    hint: `to finish: ${tktCommand(ctx, resumeWords(options, options.resume, ctx.globals))}`,
  });
}

/** What a sending run left to tell once its last answer is recorded. */
export interface CreateFromOutcome {
  options: CreateFromOptions;
  reportPath: string;
  /** Rows in the file, and of them the ones this run sent. */
  rowCount: number;
  sentCount: number;
  /** Rows an earlier run created, or left in doubt, and this run did not send. */
  skippedCount: number;
  heldInDoubt: readonly number[];
  run: BulkRun;
  rowsWithSkippedFiles: readonly number[];
  /** Rows created with the SLA's due date in place of theirs. */
  rowsWithReplacedDue: readonly number[];
  /** Why the report could not be written, which stopped the run; undefined if it could. */
  reportFailure: unknown;
  /** stdout failing (a full disk), which stopped the run; undefined if every row's line was printed. */
  printFailure?: OutputFailedError | undefined;
}

/**
 * Ends the run: throws the error that tells what went wrong (the report unwritable, interrupted,
 * stopped at a refusal, rows failed or in doubt, files not kept), else prints the summary line.
 */
export async function tellOutcome(outcome: CreateFromOutcome, jsonArray: ArrayPrinter | undefined, ctx: Context): Promise<void> {
  const { run, reportPath, sentCount, rowsWithSkippedFiles, rowsWithReplacedDue } = outcome;
  const failed = run.results.filter((result) => !result.ok && !result.inDoubt).map((result) => result.id);
  const inDoubtNow = run.results.filter((result) => result.inDoubt).map((result) => result.id);
  const inDoubtRows = [...inDoubtNow, ...outcome.heldInDoubt];
  const createdNow = run.results.length - failed.length - inDoubtNow.length;
  const { stoppedBy } = run;
  const resumeCommand = tktCommand(ctx, resumeWords(outcome.options, reportPath, ctx.globals));
  if (outcome.reportFailure !== undefined) {
    throw new OperationError(`stopped: cannot write the report ${reportPath}: ${fileErrorText(outcome.reportFailure)}`, {
      details: [`created ${createdNow} of ${sentCount}; the last ones may be missing from the report`],
    });
  }
  const details = [
    `created ${createdNow}; every row sent is recorded in ${reportPath}`,
    ...rowLists(ctx, reportPath, [
      ['failed rows', failed],
      [IN_DOUBT_ROWS, inDoubtRows],
      ['rows not started', run.notStarted],
      ['rows whose files the service did not keep', rowsWithSkippedFiles],
      [REPLACED_DUE_ROWS, rowsWithReplacedDue],
    ]),
  ];
  // The rows created are made: told here, since their lines are lost, and the report has them.
  if (outcome.printFailure !== undefined) {
    throw new OutputAfterChangeError(`stopped: ${outcome.printFailure.message}`, {
      details,
      hint: `only the output failed: do not run the command again${run.notStarted.length > 0 ? `; to send the rows not started: ${resumeCommand}` : ''}`,
      cause: outcome.printFailure,
    });
  }
  if (run.interrupted || stoppedBy !== undefined) {
    const why =
      stoppedBy === undefined
        ? `not started: ${stoppedHow(ctx.signal.reason)}`
        : `not started: the run stopped at row ${stoppedBy.id} (${failureGroup(stoppedBy)})`;
    // --json lists every row not started; the report has none of them, so --resume sends them.
    for (const row of run.notStarted) await jsonArray?.push([{ row, ok: false, notStarted: true, error: why }]);
  }
  if (run.interrupted) {
    throw new InterruptedError(`${stoppedHow(ctx.signal.reason)}: ${runCounts(run, sentCount, ' rows')}`, {
      details,
      hint: `to finish: ${resumeCommand}`,
    });
  }
  if (stoppedBy !== undefined) {
    const notStarted = run.notStarted.length > 0 ? `; ${run.notStarted.length} of ${sentCount} rows not started` : '';
    const message = `stopped at row ${stoppedBy.id}: ${failureGroup(stoppedBy)}${notStarted}`;
    // The service not reached, or answering nothing: the rows are not at fault, and the way on is to wait for it.
    if (serviceUnreachable(stoppedBy.failure)) {
      throw new ItemFailedError(message, stoppedBy.failure, {
        details,
        hint: unreachableHint(stoppedBy.failure, `the service could not be reached, so no other row was sent: once it can be, finish with "${resumeCommand}"`),
      });
    }
    if (serviceUnresponsive(stoppedBy.failure)) {
      throw new ItemFailedError(message, stoppedBy.failure, {
        details,
        hint: `the service answered no request meanwhile, so no other row was sent: once it answers, finish with "${resumeCommand}"`,
      });
    }
    // Exits as the refusal does (4 or 5); a 401 gets main.ts's login hint, so this is a detail.
    throw new ItemFailedError(message, stoppedBy.failure, {
      details: [...details, `to finish once that is fixed: ${resumeCommand}`],
    });
  }
  if (failed.length > 0 || inDoubtRows.length > 0) {
    throw rowsToLookAt({ ...outcome, file: outcome.options.file, resumeCommand, failed, inDoubtRows }, details);
  }
  if (rowsWithSkippedFiles.length > 0) {
    throw new FilesSkippedError(
      `the service did not keep files of ${rowsWithSkippedFiles.length} of ${sentCount} rows: ${formatRanges(rowsWithSkippedFiles, 'row ')}`,
      {
        details: [`created ${createdNow}; every row sent is recorded in ${reportPath}`],
        hint: 'the service keeps only the file types it allows; --json lists the kept and skipped files of each row',
      },
    );
  }
  if (rowsWithReplacedDue.length > 0) {
    throw new OperationError(
      `the service set its own due date (its SLA) on ${rowsWithReplacedDue.length} of ${sentCount} rows: ${formatRanges(rowsWithReplacedDue, 'row ')}`,
      {
        details: [`created ${createdNow}; every row sent is recorded in ${reportPath}`],
        hint: `to keep the dates given, run "${tktCommand(ctx, 'update ID --due WHEN')}" for each: an update that leaves the priority keeps the due date; --json has both dates of each row`,
      },
    );
  }
  if (ctx.output.format !== 'json' && ctx.output.format !== 'quiet') {
    const skippedNote = outcome.skippedCount > 0 ? `, ${outcome.skippedCount} skipped as already created` : '';
    await writeText(ctx.io.stderr, `created ${createdNow} ticket${createdNow === 1 ? '' : 's'}${skippedNote}; report: ${reportPath}\n`);
  }
}
