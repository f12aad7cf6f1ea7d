// What triage's single keys do to one ticket, through the code the commands use: the request
// plans of src/api/plans.ts (pickup, read, resolve, close, reply), the change requests of `tkt
// assign` and `tkt reopen` with update's read-modify-write (bulk/change.ts: nothing sent to a
// ticket that already has the change), and the commands' ways
// of finding who acts, the requester's e-mail and the reply's subject. No request is written here.
import { tktCommand } from '../config/session.js';
import { plans } from '../api/plans.js';
import type { RequestPlan } from '../api/types.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import type { Lookups } from '../lookups/types.js';
import { readTicket } from '../model/ticket.js';
import { resolveActingUser } from '../prompts/acting-user.js';
import { assignRequest, DEFAULT_REOPEN_STATUS, reopenRequest } from '../bulk/change.js';
import { openInBrowser, ticketWebUrl, unquotedBrowserHint } from '../desk/browser.js';
import { alreadyAssignedNote, alreadyClosedNote, alreadyResolvedNote } from '../reading/unchanged.js';
import { ticketSubject } from '../reading/mail.js';
import { resolveUnchanged } from '../bulk/ticket-state.js';
import { asOneLine } from '../util/option-text.js';
import { keyFor } from './keys.js';
import type { IdCommandSpec } from '../bulk/id-command.js';
import type { PlannedRequest } from '../cmdutil/dry-run.js';
import type { ActionOutcome } from './events.js';

export interface TicketActions {
  pickUp(id: number): Promise<string>;
  markRead(id: number): Promise<string>;
  /** The ticket's page in the browser (tkt browse); with no way to open it, its URL, as not done. */
  browse(id: number): Promise<ActionOutcome>;
  /**
   * The ticket as it is now (one GET) and what resolve would answer for it without sending, by tkt
   * resolve's rule: "already resolved, nothing changed"; a closed one is refused (thrown).
   */
  checkResolve(id: number): Promise<{ ticket: unknown; unchanged: string | undefined }>;
  resolve(id: number, details: string): Promise<string>;
  close(id: number): Promise<string>;
  /** `user` as `tkt assign` takes it: a user ID, username or full name. */
  assign(id: number, user: string): Promise<string>;
  reopen(id: number): Promise<string>;
  /** An e-mail reply to the requester, "Re: <title>" unless a template gave the subject, as `tkt reply ID` sends it. */
  reply(id: number, ticket: unknown, message: string, templateSubject?: string): Promise<string>;
}

/** What an action did: `done`, or the note its command prints for a ticket it left unchanged. */
const saying = (id: number, unchanged: string | undefined, done: string) => (unchanged === undefined ? done : `#${id} ${unchanged}`);

/**
 * `ctx` must not prompt (triage owns the terminal): a token without a user ID is then an error
 * that says to use the command with --by, instead of a question. Each action takes its client
 * from `ctx` when it starts: the login may have been read again since the last (app.ts).
 */
export function createTicketActions(ctx: Context, lookups: Lookups): TicketActions {
  /** Sent with the login as it is when the action runs. */
  const send = async (plan: RequestPlan) => await (await ctx.api()).send(plan);
  /** `tkt assign`'s and `tkt reopen`'s change: not sent to a ticket that already has it (the plan says so). */
  const sendChange = async (id: number, request: Pick<IdCommandSpec, 'plan' | 'keep'>): Promise<PlannedRequest> => {
    const client = await ctx.api();
    const attempt = async () => {
      const plan = await request.plan(id, async () => client);
      if (plan.unchanged === undefined) await client.send(plan);
      return plan;
    };
    return request.keep === undefined ? attempt() : request.keep(client, id, attempt, (plan) => plan.unchanged === undefined);
  };
  const checkResolve = async (id: number) => {
    const ticket = (await send(plans.getTicket(id))).body;
    // The service would move a closed ticket back to Resolved and e-mail its requester again.
    const unchanged = resolveUnchanged(readTicket(ticket), id, `${keyFor('reopen')} reopens it, then ${keyFor('resolve')} resolves it`);
    return { ticket, unchanged };
  };
  return {
    async pickUp(id) {
      return saying(id, alreadyAssignedNote(await send(plans.pickupTicket(id))), `picked up #${id}`);
    },
    async markRead(id) {
      await send(plans.markRead(id));
      return `marked #${id} read`;
    },
    async browse(id) {
      const url = ticketWebUrl(ctx, id);
      if (await openInBrowser(url, ctx)) return `opened ${url} in the browser`;
      // A $BROWSER path with spaces, given unquoted: the hint tkt browse gives, after the URL, as triage's hints follow their line.
      const quoteIt = unquotedBrowserHint(ctx.env);
      return { notDone: `no browser to open it: ${url}${quoteIt === undefined ? '' : `; ${quoteIt}`}` };
    },
    checkResolve,
    async resolve(id, details) {
      if (details.trim() === '') throw new UsageError('the service needs resolution notes: nothing was sent');
      // Read again as the notes are sent, as tkt resolve reads it then: it may have been closed
      // while they were written (s read it before asking for them).
      const { unchanged } = await checkResolve(id);
      if (unchanged !== undefined) return saying(id, unchanged, `resolved #${id}`);
      const submitBy = await resolveActingUser(ctx, undefined, 'resolves');
      return saying(id, alreadyResolvedNote(await send(plans.resolveTicket(id, { details, submitBy }))), `resolved #${id}`);
    },
    async close(id) {
      const closeBy = await resolveActingUser(ctx, undefined, 'closes');
      return saying(id, alreadyClosedNote(await send(plans.closeTicket(id, { closeBy, acknowledged: false }))), `closed #${id}`);
    },
    async assign(id, user) {
      const { assignee, ...request } = await assignRequest(lookups, user, { labels: true });
      const plan = await sendChange(id, request);
      return saying(id, plan.unchanged, `assigned #${id} to ${assignee}`);
    },
    async reopen(id) {
      const plan = await sendChange(id, await reopenRequest(lookups, undefined, { labels: true }));
      return saying(id, plan.unchanged, `reopened #${id} (${plan.labels?.TicketStatusId ?? DEFAULT_REOPEN_STATUS})`);
    },
    async reply(id, ticket, message, templateSubject) {
      const { requesterEmail: to } = readTicket(ticket);
      // One line, as tkt reply's: a title may hold line breaks, and so a template filled with it.
      const subject = templateSubject === undefined ? ticketSubject('Re', readTicket(ticket)) : asOneLine(templateSubject);
      if (to === undefined) throw new UsageError(`ticket #${id} has no requester e-mail: reply with ${tktCommand(ctx, `reply ${id} --to EMAIL`)}`);
      await send(plans.replyTicket(id, { subject, to, message }));
      return `replied to #${id} (to ${to})`;
    },
  };
}
