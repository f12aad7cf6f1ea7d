// tkt update ID: read-modify-write over POST update/{id} (docs/service.md 4.4). The update form may
// treat an absent field as "clear it", so the whole current ticket is sent back with the
// changes: a field the user did not name is never changed.
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { createLookups } from '../lookups/index.js';
import { answerAssigneeMe } from '../prompts/acting-user.js';
import { printDryRun, printUnchangedDryRun } from '../cmdutil/dry-run.js';
import { changeInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { detailLines } from '../output/reflow.js';
import { fieldsFor } from '../model/fields.js';
import { addFieldOptions, assertFieldsApply, flagOf, givenKeys, pickFieldValues, type RawFieldValues } from '../fields/options.js';
import { checkFields, resolveFields, typedNames } from '../fields/values.js';
import { dueMayMove, dueMayMoveText, heldNow, movedDueText, plannedUpdates, updateTicket } from '../bulk/change.js';
import type { HeldValue } from '../fields/update-form.js';
import type { UpdateAnswers } from '../prompts/fill.js';
import { sameId } from '../util/same-id.js';
import { alreadyHeldNote } from '../reading/unchanged.js';
import { tktCommand } from '../config/session.js';
import { parseTicketId } from '../util/ids.js';
import { dryRunOption, idArgument } from './shared-options.js';

export interface UpdateOptions {
  id: string;
  values: RawFieldValues;
  dryRun?: boolean | undefined;
}

const EXAMPLES = `
Only the options you name change; every other field keeps its current value. Lookup options
take a name or an ID; --assignee @me is you; --requester changes the ticket's requester.
With no option at a terminal, it asks which fields to change, each starting on the ticket's value
(Enter keeps it), then shows the changes, old → new, and asks "Update ticket #ID?".

Output: a confirmation line; --json {"id":N,"ok":true,"status":204} (the service answers with
no body); -q nothing. Values the ticket has already, every one given, send nothing:
"✓ #N already has every value given, nothing changed" (--json: a "note"), exit 0.

Examples:
  $ tkt update 42 --status "In Progress" --assignee @me
  $ tkt update 42 --priority critical --due +4h
  $ tkt update 42 --category Hardware --subcategory Printer --dry-run`;

export function register(program: Program, host: CommandHost): void {
  const base = program.command('update').description('Change fields of a ticket').addArgument(idArgument(program));
  const command = addFieldOptions(base, ['update']).addOption(dryRunOption(program)).addHelpText('after', EXAMPLES);
  // A signal while the update is sent lets its answer come and be told, then ends the run (cmdutil/send-change.ts).
  host.action(command, ([id], opts, ctx) => run({ ...opts, id, values: pickFieldValues(opts) }, ctx), { graceful: true });
}

export async function run(options: UpdateOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id, 'update');
  assertFieldsApply('update', options.values, 'tkt update');
  const lookups = createLookups(ctx);
  // No option at a terminal: offer the fields to change, as gh's edit commands do.
  let asked: (UpdateAnswers & { held: Record<string, HeldValue> }) | undefined;
  if (givenKeys(options.values).length === 0 && ctx.io.canPrompt) {
    // The ticket is read first: what it holds is said with each question and is where it starts,
    // and a ticket that does not exist asks nothing.
    const held = await heldNow(await ctx.api(), id);
    asked = { ...(await (await import('../prompts/fill.js')).askUpdateFields(ctx, lookups, held)), held };
    options = { ...options, values: asked.values };
  }
  if (givenKeys(options.values).length === 0) {
    throw new UsageError('nothing to update: name at least one field to change', {
      details: detailLines(
        `options: ${fieldsFor('update')
          .map((spec) => flagOf(spec.key))
          .join(' ')}`,
      ),
    });
  }
  // Checked before asking who @me is: bad input fails before any prompt.
  const checked = checkFields('update', options.values, ctx.now());
  const values = await answerAssigneeMe(ctx, lookups, options.values);
  // Only an answered @me changed the values since they were checked.
  const toResolve = values === options.values ? checked : checkFields('update', values, ctx.now());
  // Values chosen at the questions are shown back by name before they are sent, as create's are.
  const resolved = await resolveFields(toResolve, lookups, { labels: options.dryRun === true || asked !== undefined });
  const { labels, people } = resolved;
  let changes = resolved.form;
  if (asked !== undefined) {
    // A value kept at its question is no change (an option given is sent as asked, as before); but a
    // due date kept with a new priority is sent all the same, as --due is: the SLA would move it.
    const { held } = asked;
    const answered = changes.fields;
    const kept = (field: string) => sameId(held[field]?.answer, answered[field]);
    const newPriority = 'TicketPriorityId' in answered && !kept('TicketPriorityId');
    changes = { fields: Object.fromEntries(Object.entries(answered).filter(([field]) => !kept(field) || (newPriority && field === 'DueDate'))) };
    if (Object.keys(changes.fields).length === 0) return tellUnchanged(ctx, id, alreadyHeldNote('chosen'), options.dryRun);
  }

  const api = await ctx.api();
  if (options.dryRun) {
    const planned = await plannedUpdates(api, id, changes.fields, labels);
    const unchanged = planned[0]?.unchanged;
    if (unchanged !== undefined) return tellUnchanged(ctx, id, unchanged, true);
    for (const plan of planned) await printDryRun(ctx, plan);
    const due = dueMayMove(planned, '--due');
    if (due !== undefined) await ctx.output.note(`${due}\n`);
    return;
  }
  if (asked !== undefined) {
    const { changeSummary, confirmSummary } = await import('../cmdutil/form-summary.js');
    const { fields } = changes;
    // The due date the SLA of a new priority may move was the user's trouble: said before the question.
    const note = 'TicketPriorityId' in fields && !('DueDate' in fields) ? dueMayMoveText('a due date chosen with it') : undefined;
    const summary = (width: number | undefined) => changeSummary(fields, asked.was, { labels, people }, { width, note });
    await confirmSummary(ctx, summary, (on) => `Update ticket #${id}${on}?`, { nothing: 'changed' });
  }
  const change = { fields: changes.fields, labels: { ...typedNames(toResolve), ...labels } };
  const { response, movedDue } = await updateTicket(api, id, change, ctx, (plan) => sendChange(ctx, api, plan, changeInDoubt(ctx, id)));
  // The ticket held every value when read: nothing was sent, as --dry-run says it and update_ticket answers it.
  if (response === undefined) return tellUnchanged(ctx, id, alreadyHeldNote(asked === undefined ? 'given' : 'chosen'), false);
  // Said as every other change of a ticket is said (and as update's own "nothing changed"): "✓ #12 updated".
  await ctx.output.document(response.body ?? { id, ok: true, status: response.status }, {
    human: async () => {
      const [{ doneLine }, { createStyle }] = await Promise.all([import('../bulk/done-line.js'), import('../output/style.js')]);
      return doneLine({ id, ok: true }, 'updated', createStyle(ctx.io.stdoutColor).green('✓'));
    },
  });
  // Not an error: the update was made as asked; the due date it did not name moved, and -q users need to know too.
  if (movedDue !== undefined) {
    const keep = movedDue.was === undefined ? '' : `; to keep the old one, run "${tktCommand(ctx, `update ${id} --due ${movedDue.was.toISOString()}`)}"`;
    await ctx.output.warning(`ticket #${id}: ${movedDueText(movedDue)}${keep}\n`);
  }
}

/**
 * Ticket `id` has every value asked already: nothing was sent (nor would be, in a dry run), said
 * as assign and reopen say it: `✓ #42 already has ..., nothing changed`, a "note" in the JSON.
 */
async function tellUnchanged(ctx: Context, id: number, note: string, dryRun: boolean | undefined): Promise<void> {
  if (dryRun) return printUnchangedDryRun(ctx, id, note);
  const { createDonePrinter } = await import('../bulk/done-line.js');
  await createDonePrinter(ctx.io, ctx.output, 'updated')({ id, ok: true, note });
}
