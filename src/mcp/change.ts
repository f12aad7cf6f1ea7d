// How every write tool sends its change: one ID through the ID runner (src/bulk/runner.ts), so a
// failure is classified as `tkt close 42` classifies it (in doubt when the change may have been
// made), an "already closed" answer is a success that changed nothing, a change the ticket
// already has (assign, reopen) is one too and sends nothing, and a dry run answers with the very
// plan a real call would send, or with its note when it would send nothing.
import { z } from 'zod';
import type { ApiResponse } from '../api/types.js';
import { runBulk, type BulkOutcome } from '../bulk/runner.js';
import type { KeepChange } from '../bulk/id-command.js';
import { plannedJson, type PlannedRequest } from '../cmdutil/dry-run.js';
import type { Context } from '../context/context.js';
import { InterruptedError, OperationError, TktError, rethrowInDoubt } from '../errors.js';
import { defined } from './summary.js';
import { cut } from './text.js';
import type { ToolAnnotations, ToolOutput } from './tool.js';

export const dryRunInput = { dry_run: z.boolean().optional().describe('answer with the request it would send; send nothing') };
export const ticketIdInput = { id: z.number().int().positive().describe('ticket ID') };

/** The structured answer of every write tool. */
export const changeOutput = {
  id: z.union([z.number(), z.string()]).optional(),
  changed: z.boolean().optional(),
  note: z.string().optional(),
  dry_run: z.boolean().optional(),
  requests: z.array(z.record(z.string(), z.unknown())).optional(),
  /** pickup_ticket: whom the ticket was taken from. */
  previous_assignee: z.string().optional(),
};

export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const WRITE_IDEMPOTENT: ToolAnnotations = { ...WRITE, idempotentHint: true };

/**
 * A dry run's answer: the plans, as `--dry-run --json` prints them, whole in the structured
 * content; the text a preview of each, bounded as ticket texts are (a long reply is not sent twice).
 */
export function dryRunOutput(id: number | undefined, planned: readonly PlannedRequest[]): ToolOutput {
  const requests = planned.map(plannedJson);
  const lines = requests.map((request) =>
    cut(
      `${String(request.method)} ${String(request.path)} ${JSON.stringify(request.fields ?? request.json ?? {})}`,
      'the structured content has the whole request',
    ),
  );
  return { structured: defined({ id, dry_run: true, changed: false, requests }), text: `Dry run: nothing was sent. It would send:\n${lines.join('\n')}` };
}

export interface ChangeSpec {
  /** "closed", "picked up": what the ticket was. */
  verb: string;
  plan(id: number, api: Context['api']): PlannedRequest | Promise<PlannedRequest>;
  noteFor?(response: ApiResponse): string | undefined;
  /** A read-modify-write's check for a concurrent writer (src/bulk/change.ts keptChange). */
  keep?: KeepChange;
  /** Whom the change took the ticket from (pickup of another's ticket), known once planned. */
  from?(): string | undefined;
}

/** A catch for the request of a change of ticket `id`: in doubt as the CLI says it, else the failure as it came. */
export function changeInDoubt(id: number): (error: unknown) => never {
  return rethrowInDoubt({ ticket: `#${id}`, hint: 'read the ticket (get_ticket) before trying again' });
}

/** Sends one ticket's change, or with `dryRun` only plans it. */
export async function changeOne(ctx: Context, id: number, spec: ChangeSpec, dryRun: boolean | undefined): Promise<ToolOutput> {
  if (dryRun) {
    const plan = await spec.plan(id, () => ctx.api());
    // As `--dry-run` says it: the ticket already has the change, and a real call would send nothing.
    if (plan.unchanged === undefined) return withFrom(dryRunOutput(id, [plan]), spec.from?.(), true);
    return {
      structured: { id, dry_run: true, changed: false, note: plan.unchanged },
      text: `Dry run: ticket #${id}: ${plan.unchanged}; nothing would be sent.`,
    };
  }
  const client = await ctx.api();
  const run = await runBulk(
    [id],
    async (ticket) => {
      const attempt = async (): Promise<BulkOutcome> => {
        const plan = await spec.plan(ticket, () => ctx.api());
        // The ticket already has the change (assign_ticket to its assignee): nothing to send.
        if (plan.unchanged !== undefined) return { note: plan.unchanged };
        const response = await client.send(plan);
        const note = spec.noteFor?.(response);
        return { status: response.status, ...(note === undefined ? {} : { note }) };
      };
      return spec.keep === undefined ? attempt() : spec.keep(client, ticket, attempt, (outcome) => outcome.status !== undefined);
    },
    { concurrency: 1, signal: ctx.signal },
  );
  const result = run.results[0];
  if (result === undefined) throw new InterruptedError();
  if (!result.ok) {
    if (result.failure instanceof TktError) changeInDoubt(id)(result.failure);
    throw new OperationError(result.error ?? 'failed');
  }
  const changed = result.note === undefined;
  const output = { structured: defined({ id, changed, note: result.note }), text: changed ? `Ticket #${id} ${spec.verb}.` : `Ticket #${id}: ${result.note}.` };
  return changed ? withFrom(output, spec.from?.(), false) : output;
}

/** A change that took the ticket from someone says whom, in the text and as `previous_assignee`. */
function withFrom(output: ToolOutput, from: string | undefined, dryRun: boolean): ToolOutput {
  if (from === undefined) return output;
  const text = dryRun ? `${output.text}\nIt would take the ticket from ${from}.` : output.text.replace(/\.$/, ` (it was assigned to ${from}).`);
  return { structured: { ...output.structured, previous_assignee: from }, text };
}
