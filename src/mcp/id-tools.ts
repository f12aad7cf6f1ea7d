// The write tools that act on one ticket by ID, as `tkt pickup|resolve|close|assign|reopen|delete`
// do: the same plans, name resolution and "already ..." answers (src/bulk/, src/reading/).
import { z } from 'zod';
import { plans } from '../api/plans.js';
import { DEFAULT_REOPEN_STATUS, assignRequest, reopenRequest, type CommandNames } from '../bulk/change.js';
import { resolveActingUser, type ActingWords } from '../prompts/acting-user.js';
import { closingDateOf } from '../bulk/closure.js';
import { closeUnchanged, pickupPlan, readFirst, resolveUnchanged } from '../bulk/ticket-state.js';
import { alreadyAssignedNote, alreadyClosedNote, alreadyResolvedNote } from '../reading/unchanged.js';
import { WRITE, WRITE_IDEMPOTENT, changeOne, changeOutput, dryRunInput, fieldChangeOutput, pickupOutput } from './change.js';
import { nameOrId } from './form-tools.js';
import { defineTool, ticketIdInput } from './tool.js';

/**
 * resolve's and close's `by`, as `--by`: who acts when not you (a token that names no user needs
 * it). Users' IDs are text, as lookups gives them. Found in the call's lookups, as assign's `user`
 * is: a name that matches several people lists them, as the assistant has no terminal to go to.
 */
const byInput = { by: z.string().optional() };
/** A name or an ID as the CLI's option has it typed: an ID given as a number becomes its digits. */
const typed = (value: string | number | undefined): string | undefined => (value === undefined ? undefined : String(value));
const TOOL_WORDS: ActingWords = { tickets: 'this ticket', typed: { flag: 'by', noun: 'user' }, hint: 'pass "by": USER (a user ID or username)' };

export const pickupTicket = defineTool({
  name: 'pickup_ticket',
  title: 'Pick up a ticket',
  description: 'Assign a ticket to yourself.',
  input: { ...ticketIdInput, ...dryRunInput },
  output: pickupOutput,
  annotations: WRITE_IDEMPOTENT,
  call(args, { ctx }) {
    const me = async () => (await ctx.session()).userId;
    return changeOne(ctx, args.id, { verb: 'picked up', plan: pickupPlan(me), noteFor: alreadyAssignedNote }, args.dry_run);
  },
});

export const resolveTicket = defineTool({
  name: 'resolve_ticket',
  title: 'Resolve a ticket',
  description: 'Resolve a ticket with resolution details, as you.',
  input: { ...ticketIdInput, details: z.string().describe('the resolution'), ...byInput, ...dryRunInput },
  output: changeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx, lookups }) {
    const submitBy = await resolveActingUser(ctx, args.by, 'resolves', TOOL_WORDS, lookups);
    return changeOne(
      ctx,
      args.id,
      {
        verb: 'resolved',
        plan: readFirst(
          (id) => plans.resolveTicket(id, { details: args.details, submitBy }),
          (ticket, id) => resolveUnchanged(ticket, id, 'call reopen_ticket, then resolve_ticket'),
        ),
        noteFor: alreadyResolvedNote,
      },
      args.dry_run,
    );
  },
});

export const closeTicket = defineTool({
  name: 'close_ticket',
  title: 'Close a ticket',
  description: 'Close a ticket, as you, with optional comments.',
  input: {
    ...ticketIdInput,
    // The service publishes no difference between the two texts (docs/service.md 4.7): the close's
    // conversation entry holds both, comments first, and so does the closure e-mail.
    comments: z.string().optional().describe('the closing note: in the conversation, and the e-mail with acknowledge'),
    closure_comments: z.string().optional().describe("the form's own ClosureComments, logged after comments"),
    acknowledge: z.boolean().optional().describe('send the closure e-mail to the requester and CC'),
    // Bounded as tkt close --closure-status is: 0 to Number.MAX_SAFE_INTEGER (int()'s maximum).
    closure_status: z.number().int().min(0).optional().describe('closure status code'),
    // As tkt close --date: a date ahead is taken too.
    date: z.string().optional().describe('closing date: ISO 8601 or -1d/-4h/+3d; default now'),
    ...byInput,
    ...dryRunInput,
  },
  output: changeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx, lookups }) {
    // As `tkt close` makes it (src/bulk/closure.ts), but for what a tool cannot take: stdin, files.
    const closingDate = args.date === undefined ? undefined : closingDateOf(args.date, ctx.now(), 'date');
    const closeBy = await resolveActingUser(ctx, args.by, 'closes', TOOL_WORDS, lookups);
    const closure = {
      closeBy,
      acknowledged: args.acknowledge,
      comments: args.comments,
      status: args.closure_status,
      closureComments: args.closure_comments,
      closingDate,
      files: [],
    };
    return changeOne(
      ctx,
      args.id,
      { verb: 'closed', plan: readFirst((id) => plans.closeTicket(id, closure), closeUnchanged), noteFor: alreadyClosedNote },
      args.dry_run,
    );
  },
});

export const assignTicket = defineTool({
  name: 'assign_ticket',
  title: 'Assign a ticket',
  description: 'Assign a ticket to a technician (name, username, ID or @me).',
  input: { ...ticketIdInput, user: z.string(), ...dryRunInput },
  output: fieldChangeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx, lookups }) {
    const { assignee, ...request } = await assignRequest(lookups, args.user, { typed: { flag: 'user', noun: 'user' }, labels: args.dry_run === true });
    return changeOne(ctx, args.id, { verb: `assigned to ${assignee}`, ...request }, args.dry_run);
  },
});

const TOOL_NAMES: CommandNames = { resolveOrClose: 'resolve_ticket or close_ticket', setStatus: 'update_ticket with status' };

export const reopenTicket = defineTool({
  name: 'reopen_ticket',
  title: 'Reopen a ticket',
  description: `Set a resolved or closed ticket back to a status (default ${DEFAULT_REOPEN_STATUS}).`,
  input: { ...ticketIdInput, status: nameOrId().optional(), ...dryRunInput },
  output: fieldChangeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx, lookups }) {
    const request = await reopenRequest(lookups, typed(args.status), { labels: args.dry_run === true, named: TOOL_NAMES });
    return changeOne(ctx, args.id, { verb: 'reopened', ...request }, args.dry_run);
  },
});

export const deleteTicket = defineTool({
  name: 'delete_ticket',
  title: 'Delete a ticket',
  description: 'Delete a ticket. Destructive: confirm with the user first; try dry_run.',
  input: { ...ticketIdInput, ...dryRunInput },
  output: changeOutput,
  annotations: { ...WRITE, destructiveHint: true },
  call: (args, { ctx }) => changeOne(ctx, args.id, { verb: 'deleted', plan: readFirst(plans.deleteTicket, () => undefined) }, args.dry_run),
});
