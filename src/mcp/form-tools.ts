// The write tools that send a form, as `tkt create`, `tkt update` and `tkt reply` do: values by
// the field table's keys, checked and resolved to IDs by the same code (src/fields/), update's
// read-modify-write (src/bulk/change.ts), reply's defaults from the ticket (src/reading/mail.ts).
import { z } from 'zod';
import { plans } from '../api/plans.js';
import type { ApiResponse } from '../api/types.js';
import { dueMayMove, movedDueText, plannedUpdates, updateTicket, type MovedDue } from '../bulk/change.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { Context } from '../context/context.js';
import { UsageError, rethrowInDoubt } from '../errors.js';
import { dedupOptions } from '../dedup/options.js';
import { checkCreate, createEndpoint, createRequest, createdId, replacedDue, type ReplacedDue } from '../fields/created.js';
import { givenKeys, isRepeatable, type RawFieldValues } from '../fields/options.js';
import { checkFields, resolveFields, typedNames } from '../fields/values.js';
import { fieldsFor, requiredKeys, type TicketEndpoint, type TicketFieldSpec } from '../model/fields.js';
import { assertRecipients, lazyTicket, recipientList, ticketSubject } from '../reading/mail.js';
import { alreadyHeldNote } from '../reading/unchanged.js';
import { assertOneLine } from '../util/option-text.js';
import { WRITE, changeInDoubt, changeOutput, dryRunInput, dryRunOutput, fieldChangeOutput, unchangedOutput } from './change.js';
import { createWithKey, dedupKeyInput, dedupOutput } from './create-once.js';
import { defineTool, ticketIdInput, type ToolOutput } from './tool.js';

/** The fields a tool takes: all the endpoint's but files, since an assistant uploads nothing from this disk (README: Assistants). */
function formFields(endpoint: TicketEndpoint): TicketFieldSpec[] {
  return fieldsFor(endpoint).filter((spec) => spec.value.type !== 'files');
}

const ADDRESSES = 'e-mail addresses';

/**
 * A field's help where its value is no name and the argument's name does not say it all (an ID,
 * a date, the type, the addresses): the table's, but for the CLI's "repeatable". Names and people
 * are told once in the tool's description (NAMES_TAKEN), to keep tools/list small (README: Assistants).
 */
function helpOf(spec: TicketFieldSpec): string | undefined {
  const { value } = spec;
  if (value.type === 'text' && value.addresses !== undefined) return ADDRESSES;
  const selfNamed = value.type === 'text' && (spec.key === 'title' || spec.key === 'description');
  return value.type === 'lookup' || value.type === 'files' || selfNamed ? undefined : spec.description;
}

const NAMES_TAKEN = 'People and lookup values take names, usernames or IDs (see lookups); assignee also @me.';

/** A list argument, as every tool takes lists; one value is taken as a list of one. */
function listArgument<Item extends z.ZodType>(item: Item): z.ZodPreprocess<z.ZodArray<Item>> {
  return z.preprocess((value) => (Array.isArray(value) || value === undefined ? value : [value]), z.array(item));
}

/** A list of text, as addresses are given. */
function textList(): z.ZodPreprocess<z.ZodArray<z.ZodString>> {
  return listArgument(z.string());
}

/**
 * A value looked up by name or ID: an ID as `lookups` hands it out, a number, is taken as the CLI
 * takes it typed. A whole number, checked by refine: `.int()` would list its bounds in tools/list.
 * Anything else (a list of several) is refused saying what is taken, not zod's "Invalid input".
 */
export function nameOrId(): z.ZodUnion<[z.ZodString, z.ZodNumber]> {
  return z.union([z.string(), z.number().refine(Number.isInteger, 'expected an integer')], { error: 'expected one value: text or a whole number' });
}

type FieldArgument = z.ZodOptional<z.ZodType>;

/** Whether a field's value is an ID, a name or an ID, or a number (the ticket type's): integers are taken too. */
function takesNumbers(spec: TicketFieldSpec): boolean {
  return ['lookup', 'id', 'ids', 'ticketType'].includes(spec.value.type);
}

/** The input shape of an endpoint's fields, by the field table: a list where the option repeats, required ones required. */
function fieldInput(endpoint: TicketEndpoint, { allOptional }: { allOptional: boolean }): Record<string, FieldArgument> {
  const needed = new Set(allOptional ? [] : requiredKeys(endpoint));
  const entries = formFields(endpoint).map((spec) => {
    const one = takesNumbers(spec) ? nameOrId() : z.string();
    const value = isRepeatable(spec.value) ? listArgument(one) : one;
    const help = helpOf(spec);
    const described = help === undefined ? value : value.describe(help);
    return [spec.key, needed.has(spec.key) ? described : described.optional()];
  });
  // Typed as optional throughout: checkCreate names a missing required field as the CLI does.
  return Object.fromEntries(entries) as Record<string, FieldArgument>;
}

/** The arguments as the CLI's options have them typed: IDs given as numbers become their digits. */
function valuesOf(endpoint: TicketEndpoint, args: Readonly<Record<string, unknown>>): RawFieldValues {
  return Object.fromEntries(
    formFields(endpoint).flatMap((spec) => {
      const value = args[spec.key] as string | number | (string | number)[] | undefined;
      return value === undefined ? [] : [[spec.key, Array.isArray(value) ? value.map(String) : String(value)]];
    }),
  );
}

/** Sends a request that has no ticket ID to go by (a create): a failure after it may have left is in doubt. */
async function sendNew(ctx: Context, request: PlannedRequest): Promise<ApiResponse> {
  return (await ctx.api()).send(request).catch(rethrowInDoubt({ hint: 'look for it (list_tickets with search) before trying again' }));
}

const CREATE_ENDPOINT = createEndpoint(false);

/** replacedDueText for an assistant: times in UTC ISO 8601, as every tool gives them, and the call that keeps the date given. */
function replacedDueNote(due: ReplacedDue, id: string | undefined): string {
  const sent = new Date(due.sent).toISOString();
  return `the service set its due date to ${due.kept?.toISOString() ?? 'none'} (its SLA), not ${sent}; update_ticket with id ${id} and due ${JSON.stringify(sent)} keeps yours (an update that leaves the priority keeps the due date)`;
}

/** movedDueText for an assistant, in UTC ISO 8601, with the call that puts the due date back. */
function movedDueNote(due: MovedDue, id: number): string {
  const keep = due.was === undefined ? '' : `; update_ticket with id ${id} and due ${JSON.stringify(due.was.toISOString())} puts it back`;
  return `${movedDueText(due, (date) => date.toISOString())}${keep}`;
}

export const createTicket = defineTool({
  name: 'create_ticket',
  title: 'Create a ticket',
  description: `Create a ticket. ${NAMES_TAKEN}`,
  input: { ...fieldInput(CREATE_ENDPOINT, { allOptional: false }), ...dedupKeyInput, ...dryRunInput },
  output: { ...changeOutput, ...dedupOutput },
  annotations: WRITE,
  async call(args, { ctx, lookups }): Promise<ToolOutput> {
    // The key is checked first, as tkt create checks it; the title then ends with " [KEY]".
    const dedup = dedupOptions({ dedupKey: args.dedup_key });
    const values = dedup.withKey(valuesOf(CREATE_ENDPOINT, args));
    const { checked, badValues, missing } = await checkCreate(CREATE_ENDPOINT, values, ctx.now(), 'attach');
    if (badValues !== undefined) throw badValues;
    if (missing.length > 0) throw new UsageError(`missing: ${missing.map((flag) => flag.replace(/^--/, '')).join(', ')}`);
    const request = await createRequest(CREATE_ENDPOINT, checked, lookups, { labels: args.dry_run === true });
    if (dedup.key !== undefined) {
      const create = { endpoint: CREATE_ENDPOINT, values, create: request, dryRun: args.dry_run === true };
      return createWithKey(ctx, lookups, { ...dedup, key: dedup.key }, create);
    }
    if (args.dry_run) return dryRunOutput(undefined, [request]);
    const response = await sendNew(ctx, request);
    const id = createdId(response);
    // Not an error: the ticket exists, and an assistant told of a failure may create it again.
    const due = await replacedDue(await ctx.api(), request, response, id);
    const note = due === undefined ? undefined : replacedDueNote(due, id);
    return {
      structured: { ...(id === undefined ? {} : { id: Number(id) }), changed: true, ...(note === undefined ? {} : { note }) },
      text: id === undefined ? 'Created a ticket; the service named no ID.' : `Created ticket #${id}.${note === undefined ? '' : ` But ${note}.`}`,
    };
  },
});

export const updateTicketTool = defineTool({
  name: 'update_ticket',
  title: 'Update a ticket',
  description: `Change fields of a ticket; the others keep their values. ${NAMES_TAKEN}`,
  input: { ...ticketIdInput, ...fieldInput('update', { allOptional: true }), ...dryRunInput },
  output: fieldChangeOutput,
  annotations: WRITE,
  async call(args, { ctx, lookups }): Promise<ToolOutput> {
    const values = valuesOf('update', args);
    if (givenKeys(values).length === 0) {
      throw new UsageError('nothing to update: name at least one field to change', {
        details: [
          `fields: ${formFields('update')
            .map((spec) => spec.key)
            .join(', ')}`,
        ],
      });
    }
    const checked = checkFields('update', values, ctx.now());
    const { form, labels } = await resolveFields(checked, lookups, { labels: args.dry_run === true });
    const api = await ctx.api();
    if (args.dry_run) {
      const planned = await plannedUpdates(api, args.id, form.fields, labels);
      const unchanged = planned[0]?.unchanged;
      if (unchanged !== undefined) return unchangedOutput(args.id, unchanged, true);
      const output = dryRunOutput(args.id, planned);
      const due = dueMayMove(planned, 'an update_ticket call with due');
      return due === undefined ? output : { ...output, text: `${output.text}\nNote: ${due}.` };
    }
    const { response, changed, movedDue } = await updateTicket(api, args.id, { fields: form.fields, labels: typedNames(checked) }, ctx).catch(
      changeInDoubt(args.id),
    );
    // As its dry run says it, and as tkt update: values the ticket holds already are no change, and nothing was sent.
    if (response === undefined) {
      const output = unchangedOutput(args.id, alreadyHeldNote(), false);
      return { ...output, structured: { ...output.structured, changes: [] } };
    }
    const note = movedDue === undefined ? undefined : movedDueNote(movedDue, args.id);
    return {
      structured: { id: args.id, changed: true, changes: changed, ...(note === undefined ? {} : { note }) },
      text: `Updated ticket #${args.id}: ${formFields('update')
        .filter((spec) => changed.includes(spec.formField))
        .map((spec) => spec.key)
        .join(', ')}.${note === undefined ? '' : ` But ${note}.`}`,
    };
  },
});

export const replyToTicket = defineTool({
  name: 'reply_to_ticket',
  title: 'Reply to a ticket',
  description: 'E-mail a reply on a ticket; to defaults to the requester, subject to Re: the title.',
  input: {
    ...ticketIdInput,
    message: z.string(),
    to: textList().optional().describe(`${ADDRESSES}; default: the requester's`),
    cc: textList().optional().describe(ADDRESSES),
    subject: z.string().optional(),
    ...dryRunInput,
  },
  output: changeOutput,
  annotations: WRITE,
  async call(args, { ctx }): Promise<ToolOutput> {
    assertRecipients(args);
    assertOneLine(args.subject, 'subject', 'a subject');
    const client = await ctx.api();
    const ticket = lazyTicket(ctx, args.id);
    const subject = args.subject ?? ticketSubject('Re', await ticket());
    const to = recipientList(args.to) ?? (await ticket()).requesterEmail;
    if (to === undefined) throw new UsageError(`ticket #${args.id} has no requester e-mail: pass to`);
    const plan = plans.replyTicket(args.id, { subject, to, cc: recipientList(args.cc), message: args.message, files: [] });
    if (args.dry_run) return dryRunOutput(args.id, [plan]);
    await client.send(plan).catch(changeInDoubt(args.id));
    return { structured: { id: args.id, changed: true }, text: `Replied to #${args.id}, to ${JSON.stringify(to)}.` };
  },
});
