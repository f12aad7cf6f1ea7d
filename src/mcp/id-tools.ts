// The write tools that act on one ticket by ID, as `tkt pickup|resolve|close|assign|reopen|delete`
// do: the same plans, name resolution and "already ..." answers (src/bulk/, src/reading/).
import { z } from 'zod';
import { plans } from '../api/plans.js';
import { DEFAULT_REOPEN_STATUS, assignRequest, reopenRequest, type CommandNames } from '../bulk/change.js';
import { resolveActingUser } from '../prompts/acting-user.js';
import { closeUnchanged, pickupPlan, readFirst, resolveUnchanged } from '../bulk/ticket-state.js';
import { alreadyAssignedNote, alreadyClosedNote, alreadyResolvedNote } from '../reading/unchanged.js';
import { WRITE, WRITE_IDEMPOTENT, changeOne, changeOutput, dryRunInput, fieldChangeOutput, pickupOutput, ticketIdInput } from './change.js';
import { defineTool } from './tool.js';

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
  input: { ...ticketIdInput, details: z.string().describe('the resolution'), ...dryRunInput },
  output: changeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx }) {
    const submitBy = await resolveActingUser(ctx, undefined, 'resolves');
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
  input: { ...ticketIdInput, comments: z.string().optional(), ...dryRunInput },
  output: changeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx }) {
    const closeBy = await resolveActingUser(ctx, undefined, 'closes');
    const closure = { closeBy, comments: args.comments, files: [] };
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
  input: { ...ticketIdInput, status: z.string().optional(), ...dryRunInput },
  output: fieldChangeOutput,
  annotations: WRITE_IDEMPOTENT,
  async call(args, { ctx, lookups }) {
    const request = await reopenRequest(lookups, args.status, { labels: args.dry_run === true, named: TOOL_NAMES });
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
