// What an `ID...` command prints (contract sections 3 and 5): a line per ID as it finishes,
// and one error at the end that main.ts turns into the summary line and the exit code.
//
// Human mode: successes on stdout ("✓ #12 closed"), failures on stderr ("✗ #13 not found
// (HTTP 404): ..."), so `tkt close - > done.txt` keeps exactly the IDs that worked.
// -q: successes print nothing; failures still go to stderr. --json: one JSON Line per ID on
// stdout, failures included. With a single ID the failure is told once, by the thrown error.
import type { IO } from '../context.js';
import { FilesSkippedError, InterruptedError, ItemFailedError, OperationError, TktError, exitCodeOf, failureReason } from '../errors.js';
import type { Output } from '../output/format.js';
import { NO_PROGRESS, createProgress } from '../output/progress.js';
import { sanitizeInline } from '../output/sanitize.js';
import { createStyle } from '../output/style.js';
import { writeText } from '../output/write.js';
import { nameList } from '../tickets/action-output.js';
import { skippedFilesError } from '../tickets/attachments.js';
import type { BulkResult, BulkRun } from './runner.js';

export type BulkVerb = 'marked read' | 'resolved' | 'closed' | 'picked up' | 'deleted' | 'assigned' | 'reopened';

export interface BulkReporterOptions {
  output: Output;
  /** Past tense, shown after the ID: "✓ #12 closed". */
  verb: BulkVerb;
  /** How many IDs the command was given; one ID follows the single-ID exit-code rule. */
  total: number;
  /** false: no progress bar (a dry run prints its plans as they come). */
  progress?: boolean;
}

export interface BulkReporter {
  /** Prints one finished ID; pass it as runBulk's onResult. Resolves when stdout can take more. */
  result(result: BulkResult): Promise<void>;
  /** Ends the report: resolves when everything succeeded, otherwise rejects with the error for main.ts. */
  finish(run: BulkRun): Promise<void>;
}

const NOT_STARTED = 'not started: interrupted';
// Past this many, a terminal gets the count of IDs not started, not every one.
const LISTED_IDS = 10;

function jsonLine(result: Pick<BulkResult, 'id' | 'ok' | 'status' | 'error' | 'body' | 'files'>): Record<string, unknown> {
  // Built key by key so the order is always id, ok, status, error, kept, skipped, body.
  const line: Record<string, unknown> = { id: result.id, ok: result.ok };
  if (result.status !== undefined) line.status = result.status;
  if (!result.ok) line.error = result.error ?? 'failed';
  if (result.files !== undefined) {
    line.kept = result.files.kept;
    line.skipped = result.files.skipped;
  }
  if (result.body !== undefined) line.body = result.body;
  return line;
}

/** A ticket changed, but some of the files sent with the change were not kept. */
const skippedFiles = (result: BulkResult): boolean => result.ok && (result.files?.skipped.length ?? 0) > 0;

function idList(ids: readonly number[]): string {
  return ids.map((id) => `#${id}`).join(', ');
}

export function createBulkReporter(io: IO, options: BulkReporterOptions): BulkReporter {
  const { output, verb, total } = options;
  const json = output.format === 'json';
  const quiet = output.format === 'quiet';
  const single = total === 1;
  const outStyle = createStyle(io.stdoutColor);
  const errStyle = createStyle(io.color);
  const progress = single || quiet || options.progress === false ? NO_PROGRESS : createProgress(io, { total, label: verb });

  async function humanLine(result: BulkResult): Promise<void> {
    if (result.ok) {
      const what = result.note === undefined ? verb : sanitizeInline(result.note);
      if (!quiet) await writeText(io.stdout, `${outStyle.green('✓')} #${result.id} ${what}\n`);
      // A failure of those files, told on stderr as failures are (with one ID, by the thrown error).
      if (skippedFiles(result) && !single) await writeText(io.stderr, `${errStyle.red('✗')} #${result.id}: the service did not keep ${nameList(result.files!.skipped)}\n`);
      return;
    }
    if (single) return; // the thrown error tells it, once
    const message = result.error === undefined ? '' : `: ${sanitizeInline(result.error)}`;
    await writeText(io.stderr, `${errStyle.red('✗')} #${result.id} ${failureReason(exitCodeOf(result.failure), result.status)}${message}\n`);
  }

  function singleFailure(result: BulkResult): TktError {
    return new ItemFailedError(`#${result.id} ${failureReason(exitCodeOf(result.failure), result.status)}`, result.failure, {
      details: result.error === undefined ? [] : [result.error],
    });
  }

  return {
    async result(result) {
      progress.tick(result.ok);
      // The line is written inside withLine (the bar lifted); only the wait for 'drain' is after.
      let written: Promise<void> | undefined;
      progress.withLine(() => {
        written = json ? output.line(jsonLine(result)) : humanLine(result);
      });
      await written;
    },

    async finish(run) {
      progress.done();
      const failed = run.results.filter((result) => !result.ok);
      if (run.interrupted) {
        if (json) for (const id of run.notStarted) await output.line(jsonLine({ id, ok: false, error: NOT_STARTED }));
        const succeeded = run.results.filter((result) => result.ok).map((result) => result.id);
        // A terminal gets the count of a long list; piped stderr and --json get every ID.
        const summarised = io.stderrIsTTY && run.notStarted.length > LISTED_IDS;
        const details = [
          ...(succeeded.length > 0 ? [`${verb}: ${idList(succeeded)}`] : []),
          ...(failed.length > 0 ? [`failed: ${idList(failed.map((result) => result.id))}`] : []),
          ...(run.notStarted.length > 0 ? [summarised ? `${run.notStarted.length} not started` : `not started: ${idList(run.notStarted)}`] : []),
        ];
        throw new InterruptedError(`interrupted: ${run.results.length} of ${total} done, ${run.notStarted.length} not started`, {
          details,
          ...(summarised ? { hint: 'to finish, run the command again for the IDs not started: --json lists them ("not started")' } : {}),
        });
      }
      const skipping = run.results.filter(skippedFiles);
      if (failed.length === 0 && skipping.length === 0) return;
      if (failed.length === 0) {
        if (single) throw skippedFilesError(skipping[0]!.files!, skipping[0]!.id, { named: true });
        throw new FilesSkippedError(`the service did not keep files sent to ${skipping.length} of ${total} tickets: ${idList(skipping.map((result) => result.id))}`, {
          hint: 'the service keeps only the file types it allows; --json lists the kept and skipped files of each ticket',
        });
      }
      if (single) throw singleFailure(failed[0]!);
      throw new OperationError(`${failed.length} of ${total} failed: ${idList(failed.map((result) => result.id))}`, {
        details: skipping.length > 0 ? [`files not kept on: ${idList(skipping.map((result) => result.id))}`] : [],
      });
    },
  };
}
