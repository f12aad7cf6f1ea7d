// The write tools that send a form, as `tkt create`, `tkt update` and `tkt reply` do: values by
// the field table's keys, checked and resolved to IDs by the same code (src/fields/), update's
// read-modify-write (src/bulk/change.ts), reply's defaults from the ticket (src/reading/mail.ts).
import { z } from 'zod';
import { plans } from '../api/plans.js';
import type { ApiResponse } from '../api/types.js';
import { plannedUpdates, updateTicket } from '../bulk/change.js';
import { outcomeUnknown } from '../bulk/runner.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { Context } from '../context/context.js';
import { OperationError, UsageError } from '../errors.js';
import { checkCreate, createEndpoint, createRequest, createdId } from '../fields/created.js';
import { flagOf, givenKeys, type RawFieldValues } from '../fields/options.js';
import { checkFields, resolveFields } from '../fields/values.js';
import { fieldsFor, requiredKeys, type TicketEndpoint } from '../model/fields.js';
import { assertRecipients, lazyTicket, recipientList } from '../reading/mail.js';
import { WRITE, changeOutput, dryRunInput, dryRunOutput, ticketIdInput } from './change.js';
import { defineTool, type ToolOutput } from './tool.js';

// The fields an assistant sets: text, the date and the names people use; the rest stays with the CLI.
const FORM_KEYS = [
  'title',
  'description',
  'requester',
  'site',
  'department',
  'status',
  'priority',
  'category',
  'subcategory',
  'item',
  'group',
  'assignee',
  'due',
] as const;
type FormKey = (typeof FORM_KEYS)[number];
const DESCRIBED: Partial<Record<FormKey, string>> = { due: 'ISO 8601, or +3d / -4h from now', assignee: 'name, username, ID or @me' };

/** The input shape of an endpoint's fields: required ones required, as the field table says. */
function fieldInput(endpoint: TicketEndpoint, { allOptional }: { allOptional: boolean }) {
  const taken = new Set(fieldsFor(endpoint).map((spec) => spec.key));
  const needed = new Set(allOptional ? [] : requiredKeys(endpoint));
  const shape: Partial<Record<FormKey, z.ZodOptional<z.ZodString> | z.ZodString>> = {};
  for (const key of FORM_KEYS.filter((name) => taken.has(name))) {
    const field = DESCRIBED[key] === undefined ? z.string() : z.string().describe(DESCRIBED[key]);
    shape[key] = needed.has(key) ? field : field.optional();
  }
  return shape as Record<FormKey, z.ZodOptional<z.ZodString>>;
}

function valuesOf(args: Partial<Record<FormKey, string | undefined>>): RawFieldValues {
  return Object.fromEntries(FORM_KEYS.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]));
}

/** Sends a request that has no ticket ID to go by (a create): a failure after it may have left is in doubt. */
async function sendNew(ctx: Context, request: PlannedRequest): Promise<ApiResponse> {
  try {
    return await (await ctx.api()).send(request);
  } catch (error) {
    if (!outcomeUnknown(error)) throw error;
    throw new OperationError(`in doubt: ${error instanceof Error ? error.message : String(error)}`, {
      hint: 'the ticket may have been created: look for it (list_tickets with search) before trying again',
    });
  }
}

const CREATE_ENDPOINT = createEndpoint(false);

export const createTicket = defineTool({
  name: 'create_ticket',
  title: 'Create a ticket',
  description: 'Create a ticket. People and lookup values take names or IDs (see lookups).',
  input: { ...fieldInput(CREATE_ENDPOINT, { allOptional: false }), ...dryRunInput },
  output: changeOutput,
  annotations: WRITE,
  async call(args, { ctx, lookups }): Promise<ToolOutput> {
    const values = valuesOf(args);
    const { badValues, missing } = await checkCreate(CREATE_ENDPOINT, values, ctx.now(), 'attach');
    if (badValues !== undefined) throw badValues;
    if (missing.length > 0) throw new UsageError(`missing: ${missing.map((flag) => flag.replace(/^--/, '')).join(', ')}`);
    const request = await createRequest(CREATE_ENDPOINT, checkFields(CREATE_ENDPOINT, values, ctx.now()), lookups, { labels: args.dry_run === true });
    if (args.dry_run) return dryRunOutput(undefined, [request]);
    const response = await sendNew(ctx, request);
    const id = createdId(response);
    return {
      structured: { ...(id === undefined ? {} : { id: Number(id) }), changed: true },
      text: id === undefined ? 'Created a ticket; the service named no ID.' : `Created ticket #${id}.`,
    };
  },
});

export const updateTicketTool = defineTool({
  name: 'update_ticket',
  title: 'Update a ticket',
  description: 'Change fields of a ticket; the others keep their values.',
  input: { ...ticketIdInput, ...fieldInput('update', { allOptional: true }), ...dryRunInput },
  output: changeOutput,
  annotations: WRITE,
  async call(args, { ctx, lookups }): Promise<ToolOutput> {
    const values = valuesOf(args);
    if (givenKeys(values).length === 0) {
      throw new UsageError('nothing to update: name at least one field to change', {
        details: [
          `fields: ${fieldsFor('update')
            .map((spec) => flagOf(spec.key).replace(/^--/, ''))
            .filter((key) => (FORM_KEYS as readonly string[]).includes(key))
            .join(', ')}`,
        ],
      });
    }
    const { form } = await resolveFields(checkFields('update', values, ctx.now()), lookups, { labels: false });
    const api = await ctx.api();
    if (args.dry_run)
      return dryRunOutput(
        args.id,
        (await plannedUpdates(api, args.id, form.fields)).map(({ plan }) => plan),
      );
    await updateTicket(api, args.id, form.fields, ctx);
    return { structured: { id: args.id, changed: true }, text: `Updated ticket #${args.id}: ${givenKeys(values).join(', ')}.` };
  },
});

export const replyToTicket = defineTool({
  name: 'reply_to_ticket',
  title: 'Reply to a ticket',
  description: 'E-mail a reply on a ticket; to defaults to the requester, subject to Re: the title.',
  input: { ...ticketIdInput, message: z.string(), to: z.string().optional(), cc: z.string().optional(), subject: z.string().optional(), ...dryRunInput },
  output: changeOutput,
  annotations: WRITE,
  async call(args, { ctx }): Promise<ToolOutput> {
    assertRecipients(args);
    const client = await ctx.api();
    const ticket = lazyTicket(ctx, args.id);
    const subject = args.subject ?? `Re: ${(await ticket()).title ?? ''}`;
    const to = recipientList(args.to) ?? (await ticket()).requesterEmail;
    if (to === undefined) throw new UsageError(`ticket #${args.id} has no requester e-mail: pass to`);
    const plan = plans.replyTicket(args.id, { subject, to, cc: recipientList(args.cc), message: args.message, files: [] });
    if (args.dry_run) return dryRunOutput(args.id, [plan]);
    await client.send(plan);
    return { structured: { id: args.id, changed: true }, text: `Replied to #${args.id}, to ${JSON.stringify(to)}.` };
  },
});
