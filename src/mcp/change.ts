// How every write tool sends its change: one ID through the ID runner (src/bulk/runner.ts), so a
// failure is classified as `tkt close 42` classifies it (in doubt when the change may have been
// made), an "already closed" answer is a success that changed nothing, a change the ticket
// already has (assign, reopen, update) is one too and sends nothing, and a dry run answers with
// the very plan a real call would send, or with its note when it would send nothing.
import { z } from 'zod';
import type { ApiResponse } from '../api/types.js';
import { runBulk, type BulkOutcome } from '../bulk/runner.js';
import type { KeepChange } from '../bulk/id-command.js';
import { labelledValue, plannedJson, type PlannedRequest } from '../cmdutil/dry-run.js';
import type { Context } from '../context/context.js';
import { InterruptedError, OperationError, TktError, rethrowInDoubt } from '../errors.js';
import { defined } from './summary.js';
import { cut } from './text.js';
import type { ToolAnnotations, ToolOutput } from './tool.js';

export const dryRunInput = { dry_run: z.boolean().optional().describe('send nothing; answer what it would send') };

/** The structured answer of every write tool. */
export const changeOutput = {
  id: z.union([z.number(), z.string()]).optional(),
  changed: z.boolean().optional(),
  note: z.string().optional(),
  dry_run: z.boolean().optional(),
  requests: z.array(z.record(z.string(), z.unknown())).optional(),
};

// Declared only by the tools that answer them: each member of an output schema is paid for in
// tools/list by every tool that has it (README: Assistants, the budget).
/**
 * update, assign, reopen: their dry run's fields that would change, {"TicketPriorityId": "1 (Low)
 * -> 3 (High)"}, and update's real call the fields it changed, ["TicketPriorityId"]; left untyped
 * in the schema, which costs a record's typing in every such tool.
 */
export const fieldChangeOutput = { ...changeOutput, changes: z.unknown().optional() };
/** pickup: whom the ticket was taken from. */
export const pickupOutput = { ...changeOutput, previous_assignee: z.string().optional() };

export const WRITE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };
export const WRITE_IDEMPOTENT: ToolAnnotations = { ...WRITE, idempotentHint: true };

/**
 * A dry run's answer: the plans, as `--dry-run --json` prints them, whole in the structured
 * content; the text a preview of each, bounded as ticket texts are (a long reply is not sent twice).
 * A change made from the ticket as read (update, assign, reopen) says first what it changes, from
 * and to, named as `--dry-run` names them. Every request answered so changes the ticket: one
 * that would not is answered with its note instead (unchangedOutput).
 */
export function dryRunOutput(id: number | undefined, planned: readonly PlannedRequest[]): ToolOutput {
  const requests = planned.map(plannedJson);
  const lines = requests.map((request) =>
    cut(
      `${String(request.method)} ${String(request.path)} ${JSON.stringify(request.fields ?? request.json ?? {})}`,
      'the structured content has the whole request',
    ),
  );
  const read = planned.filter((plan) => plan.changed !== undefined);
  const changes = read.length === 0 ? undefined : changesOf(read);
  const said =
    changes === undefined
      ? ''
      : `It would change:\n${Object.entries(changes)
          .map(([field, fromTo]) => `  ${field}: ${fromTo}`)
          .join('\n')}\n`;
  return {
    structured: defined({ id, dry_run: true, changed: true, changes, requests }),
    text: `Dry run: nothing was sent. ${said}It would send:\n${lines.join('\n')}`,
  };
}

/** The fields the plans mark changed, "what the ticket holds -> what is sent", IDs with their names. */
function changesOf(planned: readonly PlannedRequest[]): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const plan of planned) {
    const fields = plan.form?.fields ?? {};
    for (const field of plan.changed ?? []) {
      const to = cut(labelledValue(fields[field], plan.labels?.[field]), 'see requests');
      changes[field] = `${plan.was?.[field] ?? 'empty'} -> ${to}`;
    }
  }
  return changes;
}

export interface ChangeSpec {
  /** "closed", "picked up": what the ticket was. */
  verb: string;
  plan(id: number, api: Context['api']): PlannedRequest | Promise<PlannedRequest>;
  noteFor?(response: ApiResponse): string | undefined;
  /** A read-modify-write's check for a concurrent writer (src/bulk/change.ts keptChange). */
  keep?: KeepChange;
}

/** A catch for the request of a change of ticket `id`: in doubt as the CLI says it, else the failure as it came. */
export function changeInDoubt(id: number): (error: unknown) => never {
  return rethrowInDoubt({ ticket: `#${id}`, hint: 'read the ticket (get_ticket) before trying again' });
}

/**
 * The answer of a change ticket `id` has already, `note` saying so ("already open, nothing
 * changed"): nothing was sent, or in a dry run nothing would be.
 */
export function unchangedOutput(id: number, note: string, dryRun: boolean): ToolOutput {
  if (dryRun) return { structured: { id, dry_run: true, changed: false, note }, text: `Dry run: ticket #${id}: ${note}; nothing would be sent.` };
  return { structured: { id, changed: false, note }, text: `Ticket #${id}: ${note}.` };
}

/** Sends one ticket's change, or with `dryRun` only plans it. */
export async function changeOne(ctx: Context, id: number, spec: ChangeSpec, dryRun: boolean | undefined): Promise<ToolOutput> {
  if (dryRun) {
    const plan = await spec.plan(id, () => ctx.api());
    // As `--dry-run` says it: the ticket already has the change, and a real call would send nothing.
    if (plan.unchanged === undefined) return withFrom(dryRunOutput(id, [plan]), plan.previousAssignee, true);
    return unchangedOutput(id, plan.unchanged, true);
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
        return note === undefined ? { status: response.status, previousAssignee: plan.previousAssignee } : { status: response.status, note };
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
  if (result.note !== undefined) return unchangedOutput(id, result.note, false);
  return withFrom({ structured: { id, changed: true }, text: `Ticket #${id} ${spec.verb}.` }, result.previousAssignee, false);
}

/** A change that took the ticket from someone says whom, in the text and as `previous_assignee`. */
function withFrom(output: ToolOutput, from: string | undefined, dryRun: boolean): ToolOutput {
  if (from === undefined) return output;
  const text = dryRun ? `${output.text}\nIt would take the ticket from ${from}.` : output.text.replace(/\.$/, ` (it was assigned to ${from}).`);
  return { structured: { ...output.structured, previous_assignee: from }, text };
}
