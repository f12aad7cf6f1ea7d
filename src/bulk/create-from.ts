// `tkt create --from FILE`: many tickets from JSON Lines or CSV, one per row.
//
// Rows use the create options' names as columns (title, description, requester, site, ...;
// `tag` and `attach` take several values separated by `;`), and go through the same field
// table as `tkt create` (src/fields/options.ts). Every row is checked, names resolved and
// files found before the first request: one bad row and nothing is sent (exit 2, naming
// every bad row). Then rows are created with the bulk runner's bounded concurrency.
//
// The report (JSON Lines, default `<FILE>.report.jsonl`) is written ahead: a row's "sending"
// line is on disk (fsync'ed) before its request leaves, its outcome line when the answer comes,
// so whatever stops the run (a crash, a second Ctrl-C, SIGTERM, kill -9) no ticket the service
// created is missing from it (docs/cli.md section 8):
//   {"row":3,"hash":"…","sending":true}
//   {"row":3,"hash":"…","ok":true,"id":123}
//   {"row":4,"hash":"…","ok":false,"status":400,"error":"…"}
//   {"row":5,"hash":"…","ok":false,"inDoubt":true,"error":"…"}
// A row sent without an answer (its "sending" line is the last, or the request was given up
// or timed out) is in doubt: the service may have created it. `--resume REPORT` skips the rows
// it shows as created and, unless --retry-in-doubt is given, those in doubt, naming them. A row
// is matched by number AND a hash of its content, so an edited file is refused rather than
// mis-resumed; failed rows may be fixed freely before resuming. An existing report is never
// overwritten: without --resume that would forget which tickets already exist.
import { shellWord, tktCommand } from '../config/session.js';
import { dirname, resolve } from 'node:path';
import { userSettings } from '../config/settings.js';
import type { Context } from '../context/context.js';
import type { ApiClient, ApiResponse } from '../api/types.js';
import { nameList } from '../cmdutil/action-output.js';
import { keptFiles, type KeptFiles } from '../cmdutil/attachments.js';
import { FilesSkippedError, InterruptedError, ItemFailedError, OperationError, UsageError, exitCodeOf, failureReason, stoppedHow } from '../errors.js';
import { LookupError } from '../lookups/index.js';
import type { Lookups } from '../lookups/types.js';
import { NO_PROGRESS, createProgress } from '../output/progress.js';
import { sanitizeInline } from '../output/sanitize.js';
import { createStyle } from '../output/style.js';
import { writeText } from '../output/write.js';
import type { RawFieldValues } from '../fields/options.js';
import { fileErrorText } from '../cmdutil/text-input.js';
import { checkCreate, createEndpoint, createRequest, createdId, type CreateEndpoint } from '../fields/created.js';
import { printDryRunRows, type PlannedRequest } from '../cmdutil/dry-run.js';
import { openReport, readReport, resumedRows, type ReportEntry, type ResumedRows } from './report-file.js';
import { detectFormat, readRows, type InputRow } from './rows.js';
import type { CreateFromOptions } from './create-from-options.js';
import { formatRanges, rangeLines, summaryLayout } from './ranges.js';
import { runBulk, runCounts, type BulkResult } from './runner.js';
import { readTextFile } from '../util/text-read.js';

function defaultReportPath(file: string): string {
  return `${file}.report.jsonl`;
}

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

interface PreparedRow {
  row: InputRow;
  request: PlannedRequest;
  /** The files the row attaches, found next to the input file. */
  attach: string[];
}

/** Checks one row as `tkt create` checks its options; returns its request (labelled for --dry-run), or every problem. */
async function prepareRow(
  row: InputRow,
  endpoint: CreateEndpoint,
  lookups: Lookups,
  options: { baseDir: string; dryRun: boolean },
  ctx: Context,
): Promise<PreparedRow | string[]> {
  // Attachments are found next to the input file, so the file works from any folder.
  const attach = row.values.attach;
  const values: RawFieldValues =
    attach === undefined
      ? row.values
      : { ...row.values, attach: (typeof attach === 'string' ? [attach] : attach).map((path) => resolve(options.baseDir, path)) };
  const { checked, badValues, unreadableFiles, missing } = await checkCreate(endpoint, values, ctx.now(), 'attach');
  const problems = [
    ...row.problems,
    ...(missing.length > 0 ? [`missing ${missing.map(asColumnMessage).join(', ')}`] : []),
    ...(badValues === undefined ? [] : problemsOf(badValues)),
    ...(unreadableFiles === undefined ? [] : problemsOf(unreadableFiles).map((problem) => `attach: ${problem}`)),
  ];
  if (problems.length > 0 || checked === undefined) return problems;
  try {
    const files = values.attach === undefined ? [] : typeof values.attach === 'string' ? [values.attach] : [...values.attach];
    return { row, request: await createRequest(endpoint, checked, lookups, { labels: options.dryRun }), attach: files };
  } catch (error) {
    return problemsOf(error);
  }
}

async function readInput(file: string): Promise<string> {
  try {
    return await readTextFile(file);
  } catch (error) {
    throw new UsageError(`--from: cannot read ${file}: ${fileErrorText(error)}`);
  }
}

function entryLine(entry: ReportEntry): Record<string, unknown> {
  const line: Record<string, unknown> = { row: entry.row, ok: entry.ok };
  if (entry.inDoubt) line.inDoubt = true;
  if (entry.id !== undefined) line.id = entry.id;
  if (entry.status !== undefined) line.status = entry.status;
  if (entry.error !== undefined) line.error = entry.error;
  if (entry.skipped) line.skipped = true;
  return line;
}

function numericId(text: string | undefined): number | null {
  return text === undefined ? null : Number(text);
}

export async function runCreateFrom(options: CreateFromOptions, ctx: Context): Promise<void> {
  const endpoint = createEndpoint(options.integration);
  const text = await readInput(options.file);
  const rows = readRows(text, detectFormat(options.file, text), endpoint);
  if (rows.length === 0) throw new UsageError(`${options.file} has no rows`);

  const resumed: ResumedRows =
    options.resume === undefined
      ? { created: new Map(), inDoubt: new Map() }
      : resumedRows(await readReport(options.resume), rows, options.resume, options.file);
  const { created } = resumed;
  // Rows in doubt are not sent again unless asked: the service may have created them.
  const heldInDoubt = options.retryInDoubt ? new Map<number, ReportEntry>() : resumed.inDoubt;
  const pending = rows.filter((row) => !created.has(row.row) && !heldInDoubt.has(row.row));

  // Every row is checked before the first create: a bad row must not leave half a file sent.
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  const baseDir = dirname(resolve(options.file));
  const prepared: PreparedRow[] = [];
  const bad: string[] = [];
  for (const row of pending) {
    const result = await prepareRow(row, endpoint, lookups, { baseDir, dryRun: options.dryRun }, ctx);
    if (Array.isArray(result)) bad.push(`${rowLabel(row)}: ${result.map((problem) => sanitizeInline(problem)).join('; ')}`);
    else prepared.push(result);
  }
  if (bad.length > 0) {
    throw new UsageError(`${bad.length} of ${rows.length} rows in ${options.file} are not valid; nothing was sent`, { details: bad });
  }

  const json = ctx.output.format === 'json';
  const quiet = ctx.output.format === 'quiet';
  const skippedEntries = [...created.values(), ...heldInDoubt.values()]
    .sort((a, b) => a.row - b.row)
    .map((entry): ReportEntry => ({ ...entry, skipped: true }));
  // --dry-run: what each row would send, nothing sent, no report written.
  if (options.dryRun) {
    const skipped = skippedEntries.map((entry) => `row ${entry.row}: already created as ${entry.id == null ? 'a ticket' : `#${entry.id}`} (skipped)`);
    await printDryRunRows(
      ctx,
      prepared.map((item) => ({ row: item.row.row, request: item.request })),
      skipped,
    );
    return;
  }

  const reportPath = options.report ?? options.resume ?? defaultReportPath(options.file);
  const appendToResumed = options.resume !== undefined && resolve(reportPath) === resolve(options.resume);
  const report = await openReport(reportPath, appendToResumed);
  // --json is one document (docs/cli.md section 3): an array streamed row by row, closed even when rows fail.
  const jsonArray = json ? ctx.output.array() : undefined;
  try {
    // A separate report keeps the whole story: the rows created earlier are copied into it.
    if (!appendToResumed) for (const entry of skippedEntries) await report.append(entry);
    const outStyle = createStyle(ctx.io.stdoutColor);
    const errStyle = createStyle(ctx.io.color);
    const print = async (entry: ReportEntry, files?: KeptFiles): Promise<void> => {
      if (jsonArray !== undefined) {
        await jsonArray.push([{ ...entryLine(entry), ...(files === undefined ? {} : { kept: files.kept, skipped: files.skipped }) }]);
      } else if (entry.inDoubt) {
        const when = entry.skipped ? 'sent in an earlier run, not sent again' : sanitizeInline(entry.error ?? 'no answer');
        await writeText(ctx.io.stderr, `${errStyle.yellow('?')} row ${entry.row}: in doubt (the service may have created it): ${when}\n`);
      } else if (!entry.ok) {
        await writeText(ctx.io.stderr, `${errStyle.red('✗')} row ${entry.row}: ${sanitizeInline(entry.error ?? 'failed')}\n`);
      } else if (quiet) {
        // -q prints the new IDs only, ready for `| tkt close -`.
        if (entry.id != null && !entry.skipped) await writeText(ctx.io.stdout, `${entry.id}\n`);
      } else {
        const id = entry.id == null ? 'a ticket (the service named no ID)' : `#${entry.id}`;
        await writeText(
          ctx.io.stdout,
          entry.skipped ? `- row ${entry.row} already created as ${id} (skipped)\n` : `${outStyle.green('✓')} row ${entry.row}: created ${id}\n`,
        );
      }
      // The ticket is created; the files it did not keep are a failure of their own, on stderr.
      if (files !== undefined && files.skipped.length > 0 && jsonArray === undefined) {
        await writeText(ctx.io.stderr, `${errStyle.red('✗')} row ${entry.row}: the service did not keep ${nameList(files.skipped)}\n`);
      }
    };
    for (const entry of skippedEntries) await print(entry);

    const rowsByNumber = new Map(prepared.map((item) => [item.row.row, item]));
    const newIds = new Map<number, string | undefined>();
    const api = await ctx.api();
    // Stops new creates on Ctrl-C, and also when the report cannot be written: a ticket
    // created without a record could be created twice by a later --resume.
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    let reportFailure: unknown;
    const progress = quiet ? NO_PROGRESS : createProgress(ctx.io, { total: prepared.length, label: 'created' });
    let recording = Promise.resolve();
    const rowsWithSkippedFiles: number[] = [];
    const record = async (result: BulkResult) => {
      const item = rowsByNumber.get(result.id)!;
      const entry: ReportEntry = result.ok
        ? { row: result.id, hash: item.row.hash, ok: true, id: numericId(newIds.get(result.id)) }
        : {
            row: result.id,
            hash: item.row.hash,
            ok: false,
            ...(result.inDoubt ? { inDoubt: true as const } : {}),
            ...(result.status === undefined ? {} : { status: result.status }),
            error: result.error ?? 'failed',
          };
      if (reportFailure === undefined) {
        try {
          await report.append(entry);
        } catch (error) {
          reportFailure = error;
          stop.abort();
        }
      }
      progress.tick(entry.ok);
      let printed = Promise.resolve();
      if ((result.files?.skipped.length ?? 0) > 0) rowsWithSkippedFiles.push(result.id);
      progress.withLine(() => (printed = print(entry, result.files)));
      await printed;
    };

    const run = await runBulk(
      prepared.map((item) => item.row.row),
      async (row) => {
        const item = rowsByNumber.get(row)!;
        // Written ahead: on disk before the request leaves, or the request does not leave.
        try {
          await report.append({ row, hash: item.row.hash, sending: true });
        } catch (error) {
          reportFailure ??= error;
          stop.abort();
          throw new OperationError(`not sent: cannot write the report: ${fileErrorText(error)}`);
        }
        const response = await api.send(item.request);
        const id = createdId(response);
        newIds.set(row, id);
        return { status: response.status, ...(await filesKept(api, id, item.attach, response)) };
      },
      {
        concurrency: options.concurrency ?? userSettings(ctx).defaultConcurrency,
        signal,
        onResult: (result) => {
          recording = recording.then(() => record(result));
        },
      },
    );
    await recording;
    progress.done();

    const failed = run.results.filter((result) => !result.ok && !result.inDoubt).map((result) => result.id);
    const inDoubtNow = run.results.filter((result) => result.inDoubt).map((result) => result.id);
    const inDoubtRows = [...inDoubtNow, ...heldInDoubt.keys()];
    const createdNow = run.results.length - failed.length - inDoubtNow.length;
    const { stoppedBy } = run;
    const resumeCommand = tktCommand(ctx, `create --from ${shellWord(options.file)} --resume ${shellWord(reportPath)}`);
    if (reportFailure !== undefined) {
      throw new OperationError(`stopped: cannot write the report ${reportPath}: ${fileErrorText(reportFailure)}`, {
        details: [`created ${createdNow} of ${prepared.length}; the last ones may be missing from the report`],
      });
    }
    if (run.interrupted || stoppedBy !== undefined) {
      const why =
        stoppedBy === undefined
          ? `not started: ${stoppedHow(ctx.signal.reason)}`
          : `not started: the run stopped at row ${stoppedBy.id} (${failureReason(exitCodeOf(stoppedBy.failure), stoppedBy.status)})`;
      // --json lists every row not started; the report has none of them, so --resume sends them.
      for (const row of run.notStarted) await jsonArray?.push([{ row, ok: false, notStarted: true, error: why }]);
    }
    const layout = summaryLayout(ctx.io, '');
    let cut = false;
    const listed = (label: string, numbers: readonly number[]): string[] => {
      if (numbers.length === 0) return [];
      const list = rangeLines(label, numbers, layout);
      cut ||= list.cut;
      return list.lines;
    };
    const details = [
      `created ${createdNow}; every row sent is recorded in ${reportPath}`,
      ...listed('failed rows', failed),
      ...listed('rows in doubt (the service may have created them)', inDoubtRows),
      ...listed('rows not started', run.notStarted),
      ...listed('rows whose files the service did not keep', rowsWithSkippedFiles),
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- set by listed() above
      ...(cut ? [`(lists cut short: --json lists every row, and ${reportPath} every row sent)`] : []),
    ];
    if (run.interrupted) {
      throw new InterruptedError(`${stoppedHow(ctx.signal.reason)}: ${runCounts(run, prepared.length, ' rows')}`, {
        details,
        hint: `to finish: ${resumeCommand}`,
      });
    }
    if (stoppedBy !== undefined) {
      const notStarted = run.notStarted.length > 0 ? `; ${run.notStarted.length} of ${prepared.length} rows not started` : '';
      // Exits as the refusal does (4 or 5); a 401 gets main.ts's login hint, so this is a detail.
      throw new ItemFailedError(
        `stopped at row ${stoppedBy.id}: ${failureReason(exitCodeOf(stoppedBy.failure), stoppedBy.status)}${notStarted}`,
        stoppedBy.failure,
        {
          details: [...details, `to finish once that is fixed: ${resumeCommand}`],
        },
      );
    }
    if (failed.length > 0 || inDoubtRows.length > 0) {
      const what = [
        ...(failed.length > 0 ? [`${failed.length} of ${prepared.length} rows failed`] : []),
        ...(inDoubtRows.length > 0 ? [`${inDoubtRows.length} of ${rows.length} rows in doubt`] : []),
      ];
      throw new OperationError(what.join(', '), {
        details,
        hint:
          failed.length > 0
            ? `fix the failed rows in ${options.file}, then run again with --resume ${reportPath}`
            : `check the rows in doubt in the service, then run again with --resume ${reportPath} (and --retry-in-doubt for the ones it does not have)`,
      });
    }
    if (rowsWithSkippedFiles.length > 0) {
      throw new FilesSkippedError(
        `the service did not keep files of ${rowsWithSkippedFiles.length} of ${prepared.length} rows: ${formatRanges(rowsWithSkippedFiles, 'row ')}`,
        {
          details: [`created ${createdNow}; every row sent is recorded in ${reportPath}`],
          hint: 'the service keeps only the file types it allows; --json lists the kept and skipped files of each row',
        },
      );
    }
    if (!json && !quiet) {
      const skippedNote = skippedEntries.length > 0 ? `, ${skippedEntries.length} skipped as already created` : '';
      await writeText(ctx.io.stderr, `created ${createdNow} ticket${createdNow === 1 ? '' : 's'}${skippedNote}; report: ${reportPath}\n`);
    }
  } finally {
    await jsonArray?.end();
    await report.close();
  }
}

/**
 * Which of a created row's files the service kept. The ticket exists whatever this finds: a
 * read-back that fails leaves the files unknown rather than failing the row, which --resume
 * would then create again.
 */
async function filesKept(api: ApiClient, id: string | undefined, paths: readonly string[], response: ApiResponse): Promise<{ files?: KeptFiles }> {
  if (paths.length === 0 || id === undefined) return {};
  try {
    const files = await keptFiles(api, Number(id), paths, response);
    return files === undefined ? {} : { files };
  } catch {
    return {};
  }
}
