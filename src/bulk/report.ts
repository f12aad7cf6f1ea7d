// What an `ID...` command prints (docs/cli.md sections 3 and 5): a line per ID as it finishes,
// and one error at the end that main.ts turns into the summary line and the exit code.
//
// Human mode: successes on stdout ("✓ #12 closed"), failures on stderr ("✗ #13 not found
// (HTTP 404): ..."), so `tkt close - > done.txt` keeps exactly the IDs that worked.
// -q: successes print nothing; failures still go to stderr. --json: one JSON Line per ID on
// stdout, failures included. With a single ID the failure is told once, by the thrown error.
import { tktCommand, type RunPlace } from '../config/session.js';
import type { IO } from '../output/io.js';
import {
  ApiError,
  ExitCode,
  FilesSkippedError,
  IN_DOUBT,
  InterruptedError,
  ItemFailedError,
  OperationError,
  CHANGE_MADE_HINT,
  OutputAfterChangeError,
  OutputFailedError,
  TicketStateError,
  type TktError,
  exitCodeOf,
  serviceUnreachable,
  serviceUnresponsive,
  stoppedHow,
} from '../errors.js';
import type { Output } from '../output/types.js';
import { NOT_HELD, holdWrites } from '../output/held-writes.js';
import { createProgress, noBar } from '../output/progress.js';
import { sanitizeInline } from '../output/sanitize.js';
import { createStyle } from '../output/style.js';
import { flushed, writeText } from '../output/write.js';
import { createDonePrinter, doneLine, jsonLine, skippedFiles, type BulkVerb } from './done-line.js';
import { formatRanges, rangeLines, summaryLayout } from './ranges.js';
import { nameList } from '../cmdutil/action-output.js';
import { namingHint, skippedFilesError, type SentFiles } from '../cmdutil/attachments.js';
import { changeInDoubtHint } from '../cmdutil/in-doubt.js';
import { failureGroup, resultReason, runCounts, unreachableHint, type BulkResult, type BulkRun } from './runner.js';

export interface BulkReporterOptions {
  output: Output;
  /** Past tense, shown after the ID: "✓ #12 closed". */
  verb: BulkVerb;
  /** How many IDs the command was given; one ID follows the single-ID exit-code rule. */
  total: number;
  /** A dry run: no progress bar (its plans print as they come), and what succeeded was only planned. */
  dryRun?: boolean;
  /** The run's stop signal: its reason names the signal that stopped the run, for the summary. */
  stop?: AbortSignal;
  /** Where the run looked, for the command lines of hints. */
  run: RunPlace;
  /** The files each request uploaded (close --attach), for the hint of a file not kept. */
  sent?: SentFiles | undefined;
}

export interface BulkReporter {
  /** Prints one finished ID; pass it as runBulk's onResult. Resolves when stdout can take more. */
  result(result: BulkResult): Promise<void>;
  /** Ends the report: resolves when everything succeeded, otherwise rejects with the error for main.ts. */
  finish(run: BulkRun): Promise<void>;
}

// The summary's label; a line about one ID says IN_DOUBT, as every single change does.
const IN_DOUBT_LABEL = 'in doubt (may have been carried out)';

const NOT_STARTED = 'not started';

/** Every ID under the outcome it had, in this order: done, unchanged, failed by reason, in doubt, not started. */
function outcomes(run: BulkRun, verb: string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  const add = (label: string, id: number) => {
    const ids = groups.get(label);
    if (ids === undefined) groups.set(label, [id]);
    else ids.push(id);
  };
  const results = run.results;
  for (const result of results) if (result.ok && result.note === undefined) add(verb, result.id);
  for (const result of results) if (result.ok && result.note !== undefined) add(sanitizeInline(result.note), result.id);
  for (const result of results) if (!result.ok && !result.inDoubt) add(failureGroup(result), result.id);
  for (const result of results) if (result.inDoubt) add(IN_DOUBT_LABEL, result.id);
  for (const id of run.notStarted) add(NOT_STARTED, id);
  return groups;
}

const idList = (ids: readonly number[]): string => formatRanges(ids, '#');

/**
 * What to do about the failure that stopped a run: it is the login's or the way to the service,
 * not the tickets'. `rerun`: how to run again for the IDs not done, in the words of the run's mode.
 */
function stopHint(failure: unknown, rerun: string): string | undefined {
  if (exitCodeOf(failure) === ExitCode.permissionDenied) return 'this login lacks the permission, so every other ID would be refused too';
  if (serviceUnresponsive(failure)) return `the service answered no request meanwhile, so every other ID would time out too: once it answers, ${rerun}`;
  if (!serviceUnreachable(failure)) return undefined;
  return unreachableHint(failure, `the service could not be reached, so every other ID would fail too: once it can be, ${rerun}`);
}

// A text summary at a terminal cuts its lists short (summaryLayout): only a log or --json has every ID.
const CUT_SHORT = 'at a terminal their list is cut short (a log, 2>FILE, or --json has every ID)';

export function createBulkReporter(io: IO, options: BulkReporterOptions): BulkReporter {
  const { output, verb, total } = options;
  const json = output.format === 'json';
  const quiet = output.format === 'quiet';
  const single = total === 1;
  const printDone = createDonePrinter(io, output, verb);
  const errStyle = createStyle(io.color);
  const progress = single || quiet || options.dryRun ? noBar(io) : createProgress(io, { total, label: verb });
  const doneLabel = options.dryRun ? 'planned (dry run)' : verb;
  // Many IDs' lines to a pipe or a file go out a batch at a time (held-writes.ts); a line on
  // stderr lets the held ones go first, so that `> log 2>&1` keeps the order they finished in.
  const held = single || options.dryRun || io.stdoutIsTTY ? NOT_HELD : holdWrites(io.stdout);
  const toStderr = (line: string): Promise<void> => {
    held.release();
    return writeText(io.stderr, line);
  };
  const showCommand = `"${tktCommand(options.run, 'show ID')}"`;
  // After a hint that says to run again: a change in doubt may have been made, and is looked at first.
  const inDoubtFirst = (run: BulkRun): string =>
    run.results.some((result) => result.inDoubt)
      ? `; look at those ${json ? 'marked "inDoubt"' : 'in doubt'} first (${showCommand}): they may have been carried out`
      : '';
  /**
   * How to finish a run that stopped early: run again for the IDs `which` (not started; or not
   * done, those that failed as the run stopped too), where the run's own output names them: its
   * JSON Lines mark those not started; a text summary lists them, unless it cut their list short.
   */
  function rerunHint(run: BulkRun, notStartedCut: boolean, which: 'not started' | 'not done'): string {
    const those = which === 'not started' ? 'them' : 'those not started';
    const where = json ? `: --json marks ${those} "notStarted"` : notStartedCut ? `: ${CUT_SHORT}` : ', listed above';
    return `run again for the IDs ${which}${where}${inDoubtFirst(run)}`;
  }
  /** The hint of an interrupted run: to finish it, or, with every ID started, to look at those in doubt. */
  function finishHint(run: BulkRun, notStartedCut: boolean): string | undefined {
    if (run.notStarted.length > 0) return `to finish, ${rerunHint(run, notStartedCut, 'not started')}`;
    const inDoubt = run.results.filter((result) => result.inDoubt);
    if (inDoubt.length === 0) return undefined;
    return single
      ? changeInDoubtHint(options.run, inDoubt[0]!.id)
      : `look at the IDs in doubt (${showCommand}) before running them again: they may have been carried out`;
  }

  async function humanLine(result: BulkResult): Promise<void> {
    if (result.ok) {
      await printDone(result);
      // A failure of those files, told on stderr as failures are (with one ID, by the thrown error).
      if (skippedFiles(result) && !single) await toStderr(`${errStyle.red('✗')} #${result.id}: the service did not keep ${nameList(result.files!.skipped)}\n`);
      return;
    }
    if (single) return; // the thrown error tells it, once
    const what = sanitizeInline(result.error ?? resultReason(result));
    const line = result.inDoubt ? `${errStyle.yellow('?')} #${result.id} ${IN_DOUBT}: ${what}` : `${errStyle.red('✗')} #${result.id} ${what}`;
    await toStderr(`${line}\n`);
  }

  // One ID's failure is the `error:` line; under it the service's words, else the request it
  // answered (the URL names the server), else what happened.
  function singleFailure(result: BulkResult): TktError {
    const { failure } = result;
    // Its message names the ticket and why, in one line; its hint says the way on.
    if (failure instanceof TicketStateError) return new ItemFailedError(failure.message, failure);
    const detail =
      failure instanceof ApiError ? (failure.serverMessages.length > 0 ? failure.serverMessages.join('; ') : `${failure.method} ${failure.url}`) : result.error;
    return new ItemFailedError(`#${result.id} ${result.inDoubt ? IN_DOUBT : resultReason(result)}`, failure, {
      details: detail === undefined ? [] : [detail],
      ...(result.inDoubt ? { hint: changeInDoubtHint(options.run, result.id) } : {}),
    });
  }

  /** The summary under the `error:` line: each outcome's IDs as ranges (see summaryLayout). */
  function summary(run: BulkRun): string[] {
    return summaryOf(run).details;
  }

  /** The summary, and whether it cut the list of the IDs not started short (at a terminal). */
  function summaryOf(run: BulkRun): { details: string[]; notStartedCut: boolean } {
    const layout = summaryLayout(io, '#');
    const details: string[] = [];
    let cut = false;
    let notStartedCut = false;
    for (const [label, ids] of outcomes(run, doneLabel)) {
      const list = rangeLines(label, ids, layout);
      details.push(...list.lines);
      cut ||= list.cut;
      if (label === NOT_STARTED) notStartedCut = list.cut;
    }
    if (cut) details.push('(lists cut short: --json prints a line for every ID)');
    return { details, notStartedCut };
  }

  /**
   * stdout failed (a full disk) with IDs done: each outcome is told on stderr, the run exits 1,
   * and nobody runs it again to see what it did. A closed stdout ends the run quietly (cli-run.ts).
   */
  function outputFailed(failure: unknown, run: BulkRun): unknown {
    if (!(failure instanceof OutputFailedError) || options.dryRun) return failure;
    const skipping = run.results.filter(skippedFiles).map((result) => result.id);
    return new OutputAfterChangeError(`${failure.message}: ${runCounts(run, total, '', doneLabel)}`, {
      // The files the service did not keep, which the lost lines would have named.
      details: [...summary(run), ...(skipping.length > 0 ? [`files not kept on: ${idList(skipping)}`] : [])],
      hint: single
        ? CHANGE_MADE_HINT
        : `only the output failed: do not run the command again for the tickets ${doneLabel}${run.notStarted.length > 0 ? '; to finish, run it for those not started' : ''}`,
      cause: failure,
    });
  }

  // The first JSON Line whose --query failed: every ID's line is still told (on stderr), then the run fails with it.
  let queryFailure: OutputAfterChangeError | undefined;
  const printJson = async (result: BulkResult): Promise<void> => {
    try {
      await output.line(jsonLine(result), result.ok ? { human: () => doneLine(result, verb) } : {});
    } catch (error) {
      if (!(error instanceof OutputAfterChangeError)) throw error;
      queryFailure ??= error;
    }
  };

  return {
    async result(result) {
      progress.tick(result.ok);
      // The line is written inside withLine (the bar lifted); only the wait for 'drain' is after.
      let written: Promise<void> | undefined;
      progress.withLine(() => {
        if (json || (result.ok && !quiet)) held.hold();
        written = json ? printJson(result) : humanLine(result);
      });
      // A reader that cannot keep up gets the held lines at once: the lane waits for it, not for the timer.
      if (io.stdout.writableNeedDrain) held.release();
      await written;
    },

    async finish(run) {
      held.release();
      progress.done();
      // The lines let go now may fail as the ones before them did not (a disk that fills).
      const failure =
        run.outputFailure ??
        (await flushed(io.stdout).then(
          () => undefined,
          (error: unknown) => error,
        ));
      if (failure !== undefined) throw outputFailed(failure, run);
      const { stoppedBy } = run;
      const how = stoppedHow(options.stop?.reason);
      if (json) {
        const why = stoppedBy === undefined ? `not started: ${how}` : `not started: the run stopped at #${stoppedBy.id} (${failureGroup(stoppedBy)})`;
        for (const id of run.notStarted) await output.line(jsonLine({ id, ok: false, notStarted: true, error: why }));
      }
      const failed = run.results.filter((result) => !result.ok);
      if (run.interrupted) {
        const { details, notStartedCut } = summaryOf(run);
        const hint = finishHint(run, notStartedCut);
        throw new InterruptedError(`${how}: ${runCounts(run, total)}`, { details, ...(hint === undefined ? {} : { hint }) });
      }
      const skipping = run.results.filter(skippedFiles);
      // Failures of IDs say more than a --query that failed on the lines of the others.
      if (failed.length === 0 && queryFailure !== undefined) throw queryFailure;
      if (failed.length === 0 && skipping.length === 0) {
        // A person at a terminal gets the count the lines leave to be added up (the bar is
        // erased, and absent without colour); scripts and logs see no change.
        if (!single && !json && !quiet && io.stderrIsTTY) await toStderr(`${runCounts(run, total, '', doneLabel)}\n`);
        return;
      }
      if (failed.length === 0) {
        if (single) throw skippedFilesError(skipping[0]!.files!, skipping[0]!.id, { named: true, run: options.run, sent: options.sent });
        throw new FilesSkippedError(
          `the service did not keep files sent to ${skipping.length} of ${total} tickets: ${idList(skipping.map((result) => result.id))}`,
          {
            hint:
              namingHint(skipping[0]!.files!, skipping[0]!.id, options) ??
              'the service keeps only the file types it allows; --json lists the kept and skipped files of each ticket',
          },
        );
      }
      if (single) throw singleFailure(failed[0]!);
      const { details, notStartedCut } = summaryOf(run);
      if (stoppedBy !== undefined) {
        const notStarted = run.notStarted.length > 0 ? `; ${run.notStarted.length} of ${total} not started` : '';
        // Exits as the refusal does (4 or 5; 1 for a service not reached); a 401 gets main.ts's login hint.
        throw new ItemFailedError(`stopped at #${stoppedBy.id}: ${failureGroup(stoppedBy)}${notStarted}`, stoppedBy.failure, {
          details,
          hint: stopHint(stoppedBy.failure, rerunHint(run, notStartedCut, 'not done')),
        });
      }
      const inDoubt = failed.filter((result) => result.inDoubt).length;
      const counts = [
        ...(failed.length > inDoubt ? [`${failed.length - inDoubt} of ${total} failed`] : []),
        ...(inDoubt > 0 ? [`${inDoubt} of ${total} in doubt`] : []),
      ];
      if (skipping.length > 0) details.push(`files not kept on: ${idList(skipping.map((result) => result.id))}`);
      throw new OperationError(counts.join(', '), { details });
    },
  };
}
