// tkt update ID: read-modify-write over POST update/{id} (spec 4.4). The update form may
// treat an absent field as "clear it", so the whole current ticket is sent back with the
// changes: a field the user did not name is never changed.
import { plans } from '../api/plans.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import type { FormValue } from '../api/types.js';
import { OperationError, UsageError } from '../errors.js';
import { createLookups } from '../lookups/index.js';
import { answerAssigneeMe } from '../tickets/acting-user.js';
import { printDryRun } from '../tickets/dry-run.js';
import { addFieldOptions, assertFieldsApply, fieldsFor, flagOf, givenKeys, pickFieldValues, type RawFieldValues } from '../tickets/fields.js';
import { checkFields, resolveFields } from '../tickets/field-values.js';
import { mergeUpdateForm } from '../tickets/update-form.js';
import { formatDate } from '../output/time.js';
import { dateField } from '../tickets/summary.js';
import { parseTicketId } from '../util/ids.js';
import { dryRunOption, idArgument } from './shared-options.js';

// The service may store the due date to the second or the minute.
const DUE_TOLERANCE_MS = 60_000;

export interface UpdateOptions {
  id: string;
  values: RawFieldValues;
  dryRun?: boolean | undefined;
}

const EXAMPLES = `
Only the options you name change; every other field keeps its current value. Lookup options
take a name or an ID; --assignee @me is you; --requester changes the ticket's requester.

Output: a confirmation line; --json {"id":N,"ok":true,"status":204} (the service answers with
no body); -q nothing.

Examples:
  $ tkt update 42 --status "In Progress" --assignee @me
  $ tkt update 42 --priority critical --due +4h
  $ tkt update 42 --category Hardware --subcategory Printer --dry-run`;

export function register(program: Program, host: CommandHost): void {
  const base = program.command('update').description('Change fields of a ticket').addArgument(idArgument());
  const command = addFieldOptions(base, ['update']).addOption(dryRunOption()).addHelpText('after', EXAMPLES);
  host.action(command, ([id], opts, ctx) => run({ ...opts, id, values: pickFieldValues(opts) }, ctx));
}

export async function run(options: UpdateOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id);
  assertFieldsApply('update', options.values, 'tkt update');
  const lookups = createLookups(ctx);
  // No option at a terminal: offer the fields to change, as gh's edit commands do.
  if (givenKeys(options.values).length === 0 && ctx.io.canPrompt) {
    options = { ...options, values: await (await import('../prompts/fill.js')).askUpdateFields(ctx, lookups) };
  }
  if (givenKeys(options.values).length === 0) {
    throw new UsageError('nothing to update: name at least one field to change', {
      details: [`options: ${fieldsFor('update').map((spec) => flagOf(spec.key)).join(' ')}`],
    });
  }
  // Checked before asking who @me is: bad input fails before any prompt.
  const checked = checkFields('update', options.values, ctx.now());
  const values = await answerAssigneeMe(ctx, lookups, options.values);
  // Only an answered @me changed the values since they were checked.
  const toResolve = values === options.values ? checked : checkFields('update', values, ctx.now());
  const { form: changes, labels } = await resolveFields(toResolve, lookups, { labels: options.dryRun === true });

  // A priority change makes the service recompute the due date from the SLA (spec 4.4): a due
  // date sent with it would be lost, so it goes in a second update, once the priority is set.
  const { DueDate: dueDate, ...firstChanges } = changes.fields;
  const dueAfterPriority = dueDate !== undefined && 'TicketPriorityId' in changes.fields;

  const api = await ctx.api();
  const current = await api.getTicket(id);
  const fields = mergeUpdateForm(id, current.body, dueAfterPriority ? firstChanges : changes.fields);
  if (options.dryRun) {
    await printDryRun(ctx, { ...plans.updateTicket(id, { fields }), labels, changed: new Set(Object.keys(dueAfterPriority ? firstChanges : changes.fields)) });
    if (dueAfterPriority) await printDryRun(ctx, { ...plans.updateTicket(id, { fields: { ...fields, DueDate: dueDate } }), changed: new Set(['DueDate']) });
    return;
  }
  const response = await api.send(plans.updateTicket(id, { fields }));
  if (dueAfterPriority) await setDueAfterPriority(id, dueDate, ctx);
  await ctx.output.document(response.body ?? { id, ok: true, status: response.status }, { human: () => `Updated ticket #${id}\n` });
}

/** The second update of `--priority P --due WHEN`; says so when the service still keeps its own. */
async function setDueAfterPriority(id: number, due: FormValue, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const afterPriority = await api.getTicket(id);
  await api.send(plans.updateTicket(id, { fields: mergeUpdateForm(id, afterPriority.body, { DueDate: due }) }));
  const kept = dateField((await api.getTicket(id)).body, 'dueDate', 'due', 'dueOn');
  const wanted = new Date(String(due));
  if (kept !== undefined && Math.abs(kept.getTime() - wanted.getTime()) < DUE_TOLERANCE_MS) return;
  throw new OperationError(`ticket #${id}: the priority changed, but the service keeps the due date ${kept === undefined ? 'empty' : formatDate(kept)}, not ${formatDate(wanted)}`, {
    details: ['the service sets the due date from the SLA of the priority, and did not take the one given'],
    hint: `try "tkt update ${id} --due ..." alone; if the SLA still wins, the due date is the service's to set`,
  });
}
