// The shape every `ID...` command shares (docs/cli.md section 7): IDs from the arguments or
// stdin, checked before any request; bounded concurrency over the run's one client (one
// keep-alive pool); a line per ID, a summary and the exit code from the bulk reporter;
// Ctrl-C stops starting new IDs. Commands supply only what one ID sends.
import type { ApiClient, ApiResponse, UploadFile } from '../api/types.js';
import type { BulkReporter } from './report.js';
import type { BulkOutcome, BulkRun } from './runner.js';
import type { BulkVerb } from './done-line.js';
import { userSettings } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { keptFiles } from '../cmdutil/attachments.js';
import { breakLineAfterCtrlC } from '../output/io.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';
import { InterruptedError, OutputFailedError, TktError, UsageError, whatHappened } from '../errors.js';
import { spanIds, ticketSpansOf } from '../util/ids.js';
import { givenIds } from './ids.js';
import type { DryRunDecision, PlannedRequest } from '../cmdutil/dry-run.js';
import { sendChange } from '../cmdutil/send-change.js';

export type KeepChange = <T>(client: ApiClient, id: number, attempt: () => Promise<T>, sent: (outcome: T) => boolean) => Promise<T>;

/** What every ID... command takes, as typed. */
export interface IdCommandOptions {
  /** The ID arguments, or a lone "-" for stdin. */
  ids: string[];
  /** undefined for the default-concurrency setting. */
  concurrency?: string | undefined;
  dryRun?: boolean | undefined;
}

/** The options as runIdCommand takes them: --concurrency read. */
export type CheckedIdOptions<T extends IdCommandOptions = IdCommandOptions> = Omit<T, 'concurrency'> & { concurrency: number };

/**
 * What every ID command does first: --concurrency (else the default-concurrency setting) read, so
 * that a bad value is a usage error before anything is asked, typed, looked up or sent.
 */
export async function checkIdOptions<T extends IdCommandOptions>(ctx: Context, options: T): Promise<CheckedIdOptions<T>> {
  givenIds(options.ids);
  const { parseConcurrency } = await import('./runner.js');
  return { ...options, concurrency: parseConcurrency(options.concurrency ?? String(userSettings(ctx).defaultConcurrency)) };
}

/** What one ID... command does to each ticket. */
export interface IdCommandSpec {
  verb: BulkVerb;
  /**
   * What one ID sends (src/api/plans.ts): sent as it is, and printed by --dry-run. A change
   * made by read-modify-write reads the ticket through `api` to plan it, in a dry run too.
   */
  plan(id: number, api: Context['api']): PlannedRequest | Promise<PlannedRequest>;
  /**
   * What a dry run shows of a plan beyond what is sent: whose ID a field carries. Applied to dry
   * runs only, so that a run of many IDs makes nothing per ID that it does not send.
   */
  forDryRun?(plan: PlannedRequest): PlannedRequest;
  /**
   * A read-modify-write's check (keptChange, src/bulk/change.ts): runs `attempt` (plan and send),
   * and once sent (`sent`) reads the ticket back to notice a concurrent writer's update undoing it.
   */
  keep?: KeepChange;
  /** Why a success changed nothing, when the answer says so ("already closed"). */
  noteFor?(response: ApiResponse): string | undefined;
  /**
   * Runs once the IDs are known and before any is planned, in a dry run too, with the run's
   * --concurrency: what stops the whole run here (a template's missing value) stops a dry run
   * the same way, with the same error and exit code.
   */
  prepare?(ids: readonly number[], concurrency: number): Promise<void>;
  /** Runs once the IDs are known and before anything is sent (delete's confirmation), with the run's --concurrency; not in a dry run. */
  beforeSend?(ids: readonly number[], concurrency: number): Promise<void>;
  /** Files each request uploads (close --attach): each ID's result says which the service kept. */
  uploads?: readonly UploadFile[];
}

/**
 * Runs `step`, a command's work before any of its IDs is sent (who acts, the token, a
 * confirmation). --json has a line for every ID (docs/cli.md section 3): when `step` fails, but
 * for a usage error, each ID typed (not those still on stdin, unread) gets its line, not
 * started, saying why.
 */
export async function beforeAnyId<T>(ctx: Context, ids: readonly (string | number)[], step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    // A usage error (exit 2) is the command line's, said before anything else: no line per ID.
    if (ctx.output.format === 'json' && error instanceof TktError && !(error instanceof InterruptedError) && !(error instanceof UsageError)) {
      const { jsonLine } = await import('./done-line.js');
      const why = `not started: ${sanitizeInline(whatHappened(error))}`;
      const known = ids.flatMap((id) => (typeof id === 'number' ? [id] : spanIds(ticketSpansOf(id) ?? [])));
      for (const id of new Set(known)) await ctx.output.line(jsonLine({ id, ok: false, notStarted: true, error: why }));
    }
    throw error;
  }
}

export async function runIdCommand(ctx: Context, options: CheckedIdOptions, spec: IdCommandSpec): Promise<void> {
  // Loaded on use: command files stay light for `tkt --help`.
  const [{ collectIds }, { runBulk }, { createDonePrinter, skippedFiles }] = await Promise.all([
    import('./ids.js'),
    import('./runner.js'),
    import('./done-line.js'),
  ]);
  const { concurrency } = options;
  // Typed IDs end with Ctrl-D, which a person at a terminal may not guess: a run that waits for them says so.
  const typed = options.ids.includes('-') && ctx.io.stdinIsTTY && ctx.io.stderrIsTTY;
  if (typed) await writeText(ctx.io.stderr, 'reading ticket IDs from the terminal, one a line; Ctrl-D to end\n');
  // A Ctrl-C among the IDs typed: the run's summary starts under the terminal's "^C", not after it.
  const stopListening = typed ? breakLineAfterCtrlC(ctx.io, ctx.signal) : undefined;
  const ids = await collectIds(options.ids, () => ctx.io.stdin, ctx.signal).finally(stopListening);
  // Stopped while stdin was read: nothing is prepared, asked or sent, each ID read is reported not started.
  const stopped = ctx.signal.aborted;
  if (ids.length === 0) {
    // `tkt list -q --all --view X | tkt close -` on a day with nothing to close succeeds; stopped
    // before any ID came, the run says only that it was interrupted (src/cli-run.ts, exit 130).
    if (!stopped) await ctx.output.note('no ticket IDs on stdin: nothing to do\n');
    return;
  }
  const beforeAny = <T>(step: () => Promise<T>): Promise<T> => beforeAnyId(ctx, ids, step);
  if (!stopped) await beforeAny(async () => spec.prepare?.(ids, concurrency));
  const reporterFor = async (dryRun: boolean): Promise<BulkReporter> => {
    const { createBulkReporter } = await import('./report.js');
    const sent = spec.uploads === undefined || spec.uploads.length === 0 ? undefined : { uploads: spec.uploads, as: '--attach' as const };
    return createBulkReporter(ctx.io, { output: ctx.output, verb: spec.verb, total: ids.length, dryRun, stop: ctx.signal, run: ctx, sent });
  };
  if (options.dryRun) {
    // Planned as a real run plans them, several at once (a read-modify-write reads each ticket),
    // printed in the IDs' order; one that cannot be planned is reported as a real run reports a
    // failed ID, and the others still print.
    const { printDryRun, printUnchangedDryRun } = await import('../cmdutil/dry-run.js');
    const planned = new Map<number, PlannedRequest>();
    const reporter = await reporterFor(true);
    const planOne = async (id: number): Promise<BulkOutcome> => {
      const plan = await spec.plan(id, () => ctx.api());
      planned.set(id, spec.forDryRun?.(plan) ?? plan);
      return {};
    };
    const run = await runBulk(ids, planOne, { concurrency, signal: ctx.signal });
    const failed = new Map(run.results.filter((result) => !result.ok).map((result) => [result.id, result]));
    for (const id of ids) {
      const plan = planned.get(id);
      const failure = failed.get(id);
      // The ticket already has the change: a real run sends nothing, and says so.
      if (plan?.unchanged !== undefined) await printUnchangedDryRun(ctx, id, plan.unchanged);
      else if (plan !== undefined) await printDryRun(ctx, plan, { idLine: id, decision: takenFrom(id, plan.previousAssignee) });
      else if (failure !== undefined) await reporter.result(failure);
    }
    await reporter.finish(run);
    return;
  }
  if (!stopped) await beforeAny(async () => spec.beforeSend?.(ids, concurrency));
  const client = await beforeAny(() => ctx.api());
  // Every ID's line carries the service's body when it sent one (docs/cli.md section 3).
  const sendOnce = async (id: number): Promise<BulkOutcome> => {
    const planned = spec.plan(id, () => ctx.api());
    // Most plans are made at once: no promise to wait for (a bulk run makes one per ID).
    const plan = planned instanceof Promise ? await planned : planned;
    // The ticket already has the change (reopen of an open ticket): nothing to send.
    if (plan.unchanged !== undefined) return { note: plan.unchanged };
    // Not once the run is stopped: a signal while the ticket was read leaves this ID not started.
    const response = await sendChange(ctx, client, plan);
    const note = spec.noteFor?.(response);
    const files = spec.uploads === undefined || spec.uploads.length === 0 ? undefined : await keptFiles(client, id, spec.uploads, response);
    // Absent members are left undefined (runner.ts keeps only those set): no spread per ID.
    // A ticket the service says was yours after all was taken from no one.
    return { status: response.status, body: response.body, note, files, previousAssignee: note === undefined ? plan.previousAssignee : undefined };
  };
  const sendOne = (id: number): Promise<BulkOutcome> =>
    spec.keep === undefined
      ? sendOnce(id)
      : spec.keep(
          client,
          id,
          () => sendOnce(id),
          (outcome) => outcome.status !== undefined,
        );
  if (ids.length === 1) {
    // One ID that succeeds prints its line and nothing else: the bulk reporter (progress,
    // summaries) is loaded only to tell a failure, a Ctrl-C or files not kept, as for many IDs.
    // With no progress bar to redraw the line, its outcome after a Ctrl-C starts a line of its own.
    const stopListening = breakLineAfterCtrlC(ctx.io, ctx.signal);
    let run = await runBulk(ids, sendOne, { concurrency, signal: ctx.signal }).finally(stopListening);
    // A full stdout: what was done is told on stderr by the reporter, as for many IDs, and not written again.
    const printing = async (print: () => Promise<void>): Promise<BulkRun> => {
      try {
        await print();
        return run;
      } catch (error) {
        if (!(error instanceof OutputFailedError)) throw error;
        return { ...run, outputFailure: error };
      }
    };
    const [result] = run.results;
    if (result?.ok && !run.interrupted && !skippedFiles(result)) {
      run = await printing(() => createDonePrinter(ctx.io, ctx.output, spec.verb)(result));
      if (run.outputFailure === undefined) return;
    }
    const reporter = await reporterFor(false);
    if (run.outputFailure === undefined)
      run = await printing(async () => {
        for (const each of run.results) await reporter.result(each);
      });
    await reporter.finish(run);
    return;
  }
  const reporter = await reporterFor(false);
  const run = await runBulk(ids, sendOne, {
    concurrency,
    signal: ctx.signal,
    onResult: (result) => reporter.result(result),
  });
  await reporter.finish(run);
}

/** A dry run's line first when the change would take the ticket from someone (pickup): whom, also as `previousAssignee`. */
function takenFrom(id: number, from: string | undefined): DryRunDecision | undefined {
  if (from === undefined) return undefined;
  return { line: `dry run: #${id} is assigned to ${sanitizeInline(from)}: it would be taken from them`, members: { previousAssignee: from } };
}
