// `tkt create --from FILE`: many tickets from JSON Lines or CSV, one per row.
//
// Rows use the create options' names as columns (title, description, requester, site, ...;
// the repeatable ones, `tag`, `attach` and `cc`, take a JSON list too), and go through the same field
// table as `tkt create` (src/fields/options.ts). Every row is checked before the first request
// (create-from-check.ts), then rows are created with the bulk runner's bounded concurrency, and
// create-from-outcome.ts tells what became of them.
//
// The report (JSON Lines, default `<FILE>.report.jsonl`, or `create-from.report.jsonl` in the
// current folder for an input no folder holds: stdin, a device, a pipe) is written ahead: a row's "sending"
// line is on disk (fsync'ed) before its request leaves, its outcome line when the answer comes,
// so whatever stops the run (a crash, a second Ctrl-C, SIGTERM, kill -9) no ticket the service
// created is missing from it (docs/cli.md section 8):
//   {"row":3,"hash":"…","sending":true}
//   {"row":3,"hash":"…","ok":true,"id":123}
//   {"row":4,"hash":"…","ok":false,"status":400,"error":"…"}
//   {"row":5,"hash":"…","ok":false,"inDoubt":true,"error":"…"}
// A row sent without an answer (its "sending" line is the last, or the request was given up
// or timed out) is in doubt: the service may have created it. `--resume REPORT` skips the rows
// it shows as created and those in doubt, naming them, until the user settles each after looking:
// `--created ROW=ID` records one the service has, `--retry-in-doubt [ROWS]` sends again. A row
// is matched by number AND a hash of its content, so an edited file is refused rather than
// mis-resumed; failed rows may be fixed freely before resuming. An existing report is never
// overwritten: without --resume that would forget which tickets already exist.
import { stat } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { userSettings } from '../config/settings.js';
import { folderIfAny } from '../config/store-read.js';
import type { Context } from '../context/context.js';
import type { ApiClient, ApiResponse, UploadFile } from '../api/types.js';
import { keptFiles, type KeptFiles } from '../cmdutil/attachments.js';
import { InterruptedError, OperationError, OutputFailedError, StoppedBeforeSendingError, UsageError } from '../errors.js';
import { createProgress, noBar } from '../output/progress.js';
import { STDIN, assertSingleStdinReader, readStdin } from '../cmdutil/text-input.js';
import { fileErrorText } from '../util/file-error.js';
import { createEndpoint, createdId, replacedDue, type ReplacedDue } from '../fields/created.js';
import { printDryRunRows } from '../cmdutil/dry-run.js';
import { checkReportPath, lockReport, openReport, readReport, resumedRows, settleInDoubt, type ReportEntry, type ResumedRows } from './report-file.js';
import { detectFormat, readRows, type InputRow } from './rows.js';
import type { CreateFromOptions } from './create-from-options.js';
import { checkCreatedTickets, prepareRows } from './create-from-check.js';
import { attachFolder, type AttachFolder } from './attach-folder.js';
import { rowJson, rowPrinter, skippedRowLine, stoppedBeforeRows, tellDryRunOutcome, tellNoRows, tellOutcome } from './create-from-outcome.js';
import { createStyle } from '../output/style.js';
import { runBulk, type BulkResult } from './runner.js';
import { TooLargeInputError, notTextHint, readTextFile } from '../util/text-read.js';
import { shellWord } from '../util/shell-word.js';

/** The report's default where the input has no folder of its own: named after nothing it holds. */
const FOLDERLESS_REPORT = 'create-from.report.jsonl';

/**
 * The folder of a regular input file: its report goes beside it and its rows' attachments are
 * found there (unless --attach-dir). Stdin (`-`), a /dev or /proc path (/dev/stdin, `<(...)`'s /dev/fd/63) and a FIFO
 * have none that tkt may write to: undefined, for the current folder (README: Many tickets).
 */
async function inputFolder(file: string): Promise<string | undefined> {
  if (file === STDIN) return undefined;
  const path = resolve(file);
  if (/^\/(dev|proc)\//.test(path)) return undefined;
  const info = await stat(path).catch(() => undefined);
  return info?.isFile() === true ? dirname(path) : undefined;
}

/** Rows to a part, for the `split -l` of a file too large to read: a part well within the limit. */
const SPLIT_ROWS = 100000;

/**
 * How to import a file larger than tkt reads: in parts, each with its own --from and report. A
 * CSV part needs the header row, which `split` gives the first part alone.
 */
function splitHint(file: string): string {
  const stem = `${file.replace(/\.[^./]*$/, '')}.part-`;
  const lines = `split -l ${SPLIT_ROWS} ${shellWord(file)} ${shellWord(stem)}`;
  const csv =
    `a CSV part needs the header row, which split gives only the first: tail -n +2 ${shellWord(file)} | split -l ${SPLIT_ROWS} - ${shellWord(stem)} && ` +
    `for part in ${shellWord(stem)}*; do { head -n 1 ${shellWord(file)}; cat "$part"; } > "$part.csv" && rm "$part"; done (a quoted cell with a line break in it must not be cut: --dry-run checks each part)`;
  const intro = 'split it and import each part with its own --from (each gets its own report)';
  const extension = extname(file).toLowerCase();
  if (extension === '.csv') return `${intro}; ${csv}`;
  if (extension === '.jsonl' || extension === '.ndjson') return `${intro}: ${lines}`;
  return `${intro}: JSON Lines with ${lines} (a JSON array: make it JSON Lines first, jq -c '.[]'); ${csv}`;
}

async function readInput(file: string, ctx: Context): Promise<string> {
  if (file === STDIN) return readStdin(ctx, '--from', 'give a file');
  try {
    return await readTextFile(file, { signal: ctx.signal });
  } catch (error) {
    if (error instanceof InterruptedError) throw error;
    throw new UsageError(`--from: cannot read ${file}: ${fileErrorText(error)}`, {
      hint: error instanceof TooLargeInputError ? splitHint(file) : notTextHint(error),
    });
  }
}

function numericId(text: string | undefined): number | null {
  return text === undefined ? null : Number(text);
}

export async function runCreateFrom(options: CreateFromOptions, ctx: Context): Promise<void> {
  const endpoint = createEndpoint(options.integration);
  const text = await readInput(options.file, ctx);
  const rows = readRows(text, detectFormat(options.file, text), endpoint);
  // Rows read from stdin: a row attaching stdin (/dev/stdin) would find it read, whatever it is
  // (Node 26 closes a file read as stdin to its end: its path leads nowhere after).
  if (options.file === STDIN) {
    assertSingleStdinReader({
      files: [['--from', STDIN]],
      paths: rows.map((row) => [`row ${row.row} attach`, typeof row.values.attach === 'string' ? [row.values.attach] : row.values.attach]),
    });
  }
  const folder = await inputFolder(options.file);
  const attachIn = await attachFolder(options.attachDir, folder, folderIfAny(ctx.config));

  const reportPath = options.report ?? options.resume ?? (folder === undefined ? FOLDERLESS_REPORT : `${options.file}.report.jsonl`);
  const appendToResumed = options.resume !== undefined && resolve(reportPath) === resolve(options.resume);
  await checkReportPath(reportPath, appendToResumed);
  // Held until the run ends: the report it reads and the one it writes, each once.
  const locked = appendToResumed || options.resume === undefined ? [reportPath] : [options.resume, reportPath];
  const releases: (() => void)[] = [];
  try {
    for (const path of locked) releases.push(await lockReport(path));
    await createRows(rows, attachIn, reportPath, appendToResumed, options, ctx);
  } finally {
    for (const release of releases) release();
  }
}

async function createRows(
  rows: readonly InputRow[],
  attachIn: AttachFolder,
  reportPath: string,
  appendToResumed: boolean,
  options: CreateFromOptions,
  ctx: Context,
): Promise<void> {
  const endpoint = createEndpoint(options.integration);
  const resumed: ResumedRows =
    options.resume === undefined
      ? { created: new Map(), inDoubt: new Map() }
      : resumedRows(await readReport(options.resume), rows, options.resume, options.file);
  // Rows in doubt are not sent again unless asked: the service may have created them.
  const { created, heldInDoubt, recorded } = settleInDoubt(resumed, options, options.resume ?? reportPath);
  // No rows (a nightly import on a quiet day) is nothing to do, once the command line and a
  // --resume report are found to fit: no report is written for it.
  if (rows.length === 0) return tellNoRows(options, ctx);
  await checkCreatedTickets(recorded, rows, ctx);
  const pending = rows.filter((row) => !created.has(row.row) && !heldInDoubt.has(row.row));
  const prepared = await prepareRows(pending, { file: options.file, folder: attachIn, rowCount: rows.length, endpoint, dryRun: options.dryRun }, ctx).catch(
    (error: unknown) => {
      // Stopped while names were looked up (no lookup starts after a signal): no row was sent.
      if (error instanceof StoppedBeforeSendingError)
        throw stoppedBeforeRows(
          options,
          pending.map((row) => row.row),
          ctx,
        );
      throw error;
    },
  );
  // A row's file that is stdin too (attach /dev/stdin, where stdin is a file of the attach folder)
  // would find it read. Checked on the paths the rows send, found in the attach folder.
  assertSingleStdinReader({
    files: [['--from', options.file], ...prepared.flatMap((item) => item.attach.map((file) => [`row ${item.row.row} attach`, file.path] as const))],
  });

  const quiet = ctx.output.format === 'quiet';
  const skippedEntries = [...created.values(), ...heldInDoubt.values()]
    .sort((a, b) => a.row - b.row)
    .map((entry): ReportEntry => ({ ...entry, skippedRow: true }));
  // --dry-run: what each row would send, nothing sent, no report written.
  // It tells each row as the real run would, and ends as it would: exit 1 for rows held in doubt.
  if (options.dryRun) {
    const style = createStyle(ctx.io.stdoutColor);
    await printDryRunRows(
      ctx,
      prepared.map((item) => ({ row: item.row.row, request: item.request })),
      skippedEntries.map((entry) => ({ row: entry.row, line: skippedRowLine(entry, style), json: rowJson(entry) })),
    );
    tellDryRunOutcome({ options, reportPath, rowCount: rows.length, planned: prepared.length, heldInDoubt: [...heldInDoubt.keys()] }, ctx);
    return;
  }

  const report = await openReport(reportPath, appendToResumed);
  // --json is one document (docs/cli.md section 3): an array streamed row by row, closed even when rows fail.
  const jsonArray = ctx.output.format === 'json' ? ctx.output.array() : undefined;
  // Why a row's line could not be printed (stdout closed by its reader: `| head -1`); undefined if every one was.
  let printFailure: unknown;
  try {
    // A separate report keeps the whole story: the rows created earlier are copied into it
    // (those --created records among them); the resumed report gets what --created records.
    for (const entry of appendToResumed ? recorded : skippedEntries) await report.append(entry);
    const print = rowPrinter(ctx, jsonArray);
    for (const entry of skippedEntries) await print(entry);

    const rowsByNumber = new Map(prepared.map((item) => [item.row.row, item]));
    const newIds = new Map<number, string | undefined>();
    const api = await ctx.api();
    // Stops new creates on Ctrl-C, when the report cannot be written (a ticket created without
    // a record could be created twice by a later --resume), and when a row's line cannot be
    // printed: the rows not sent stay for --resume (README: Many tickets).
    const stop = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stop.signal]);
    let reportFailure: unknown;
    const progress = quiet ? noBar(ctx.io) : createProgress(ctx.io, { total: prepared.length, label: 'created' });
    const rowsWithSkippedFiles: number[] = [];
    const replacedDues = new Map<number, ReplacedDue>();
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
      if ((result.files?.skipped.length ?? 0) > 0) rowsWithSkippedFiles.push(result.id);
      // Once the output is gone, the answers still in flight go to the report alone: a failed
      // print must not stop the recording of the rows after it.
      if (printFailure !== undefined) return;
      try {
        let printed = Promise.resolve();
        progress.withLine(() => (printed = print(entry, result.files, replacedDues.get(result.id))));
        await printed;
      } catch (error) {
        printFailure = error;
        stop.abort();
      }
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
        const due = await replacedDue(api, item.request, response, id);
        if (due !== undefined) replacedDues.set(row, due);
        return { status: response.status, ...(await filesKept(api, id, item.attach, response)) };
      },
      {
        concurrency: options.concurrency ?? userSettings(ctx).defaultConcurrency,
        signal,
        // Awaited by the row's lane: a slow or closed stdout is met before that lane's next create.
        onResult: record,
      },
    );
    progress.done();
    // Every answer is recorded; the output that failed is not written to again.
    if (printFailure !== undefined && !(printFailure instanceof OutputFailedError)) throw printFailure;

    await tellOutcome(
      {
        options,
        reportPath,
        rowCount: rows.length,
        sentCount: prepared.length,
        skippedCount: skippedEntries.length,
        heldInDoubt: [...heldInDoubt.keys()],
        run,
        rowsWithSkippedFiles,
        rowsWithReplacedDue: [...replacedDues.keys()].sort((a, b) => a - b),
        reportFailure,
        printFailure,
      },
      jsonArray,
      ctx,
    );
  } finally {
    await report.close();
    if (printFailure === undefined) await jsonArray?.end();
  }
}

/**
 * Which of a created row's files the service kept. The ticket exists whatever this finds: a
 * read-back that fails leaves the files unknown rather than failing the row, which --resume
 * would then create again.
 */
async function filesKept(api: ApiClient, id: string | undefined, uploads: readonly UploadFile[], response: ApiResponse): Promise<{ files?: KeptFiles }> {
  if (uploads.length === 0 || id === undefined) return {};
  try {
    const files = await keptFiles(api, Number(id), uploads, response);
    return files === undefined ? {} : { files };
  } catch {
    return {};
  }
}
