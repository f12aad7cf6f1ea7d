// `tkt create --dedup-key`: one open ticket per key (docs/cli.md section 12).
// Before creating, the tickets of the key are looked up: an open one gets this occurrence as a
// requester reply (or nothing, --on-existing skip); with --reopen a resolved or closed one is
// re-opened by that reply (never one closed as a duplicate: duplicate.ts); else a ticket is created.
// Jobs that fail at the same moment each create one, so after creating tkt looks again, and the
// newer ones give way to the oldest. What was done is told through a DedupTelling: printed by
// `tkt create`, answered by tkt mcp's create_ticket (src/mcp/create-once.ts).
import { plans } from '../api/plans.js';
import type { ApiClient, ApiResponse, UploadFile } from '../api/types.js';
import type { Context } from '../context/context.js';
import { checkKeptFiles } from '../cmdutil/attachments.js';
import { printDryRun, type PlannedRequest } from '../cmdutil/dry-run.js';
import { changeInDoubt, keyedCreateInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { StoppedBeforeSendingError } from '../errors.js';
import { requireCreatedId } from '../fields/created.js';
import { resolveActingUser } from '../prompts/acting-user.js';
import { duplicateComment, ticketToReopen } from './duplicate.js';
import { KeyTickets, olderFirst, ticketsWithKey, warnWhenCannotClose, warnWhenOnlyOwnTickets, type KeyRequester, type KeyedTicket } from './lookup.js';

export type DedupAction = 'created' | 'updated' | 'skipped' | 'reopened';
export const ON_EXISTING = ['reply', 'skip'] as const;
export type OnExisting = (typeof ON_EXISTING)[number];

export interface DedupCreate {
  key: string;
  onExisting: OnExisting;
  reopen: boolean;
  dryRun: boolean;
  /** The request that creates the ticket (its title ends with ` [KEY]`). */
  create: PlannedRequest;
  /** The requester reply that adds this occurrence to an existing ticket of the key. */
  reply(existing: KeyedTicket): PlannedRequest;
  /** The files both requests upload. */
  files: readonly UploadFile[];
  /** Whose tickets of the key this create may add to, re-open or close: the requester it creates for. */
  requester: KeyRequester;
}

interface Decision {
  action: DedupAction;
  /** The existing ticket acted on; none when creating. */
  target: KeyedTicket | undefined;
}

/** What to do, given the key's tickets (oldest first); only the requester's own count. */
async function decide(own: KeyTickets, tickets: readonly KeyedTicket[], spec: DedupCreate): Promise<Decision> {
  const open = await own.firstOwn(tickets.filter((ticket) => !ticket.settled));
  if (open !== undefined) return { action: spec.onExisting === 'skip' ? 'skipped' : 'updated', target: open };
  // The most recent history of the failure, never a duplicate tkt closed in a race.
  const settled = spec.reopen
    ? await ticketToReopen(
        own,
        tickets.filter((ticket) => ticket.settled),
      )
    : undefined;
  return settled === undefined ? { action: 'created', target: undefined } : { action: 'reopened', target: settled };
}

const VERB: Record<DedupAction, string> = { created: 'create a ticket', updated: 'update', skipped: 'skip', reopened: 'reopen' };

/** What a run did to which ticket, with the answer whose files are checked. */
export interface DedupDone {
  action: DedupAction;
  id: number;
  response: ApiResponse | undefined;
}

/** A dry run's decision: what it would do, to which existing ticket, and the request it would send (none for a skip). */
export interface DedupDecision {
  action: DedupAction;
  target: KeyedTicket | undefined;
  request: PlannedRequest | undefined;
}

/**
 * How a run of the key tells its outcome: `tkt create` prints it (printedOutcome), `tkt mcp`'s
 * create_ticket answers it. `done` is told as soon as a ticket is acted on, also when an error
 * follows: the ticket exists, and whoever retries must learn its ID.
 */
export interface DedupTelling {
  done(done: DedupDone, client: ApiClient): Promise<void>;
  decided(decision: DedupDecision): Promise<void>;
}

/** The CLI's telling: the document `{id, action, key}` (-q the ID), the files kept checked; a dry run's decision and request. */
function printedOutcome(ctx: Context, spec: DedupCreate): DedupTelling {
  return { done: (done, client) => report(ctx, client, spec, done), decided: (decision) => printDecision(ctx, spec, decision) };
}

/** What to do for the key, and doing it (or, in a dry run, telling what it would do) through `tell`. */
export async function createOnce(ctx: Context, spec: DedupCreate, tell: DedupTelling = printedOutcome(ctx, spec)): Promise<void> {
  const client = await ctx.api();
  await warnWhenOnlyOwnTickets(ctx, spec.key, 'so this may open a second one');
  const own = new KeyTickets(client, spec.requester, ctx.signal);
  const { action, target } = await decide(own, await ticketsWithKey(client, spec.key, ctx.signal), spec);
  if (action === 'created') await warnWhenCannotClose(ctx, spec.key);
  if (spec.dryRun) return tell.decided({ action, target, request: action === 'skipped' ? undefined : target === undefined ? spec.create : spec.reply(target) });
  // Each change goes through sendChange: none starts once the run is stopped (a signal during
  // the look-up creates nothing), and one in flight is awaited and told (docs/cli.md section 8).
  if (target !== undefined) {
    const response = action === 'skipped' ? undefined : await sendChange(ctx, client, spec.reply(target), changeInDoubt(ctx, target.id));
    return tell.done({ action, id: target.id, response }, client);
  }
  const response = await sendChange(ctx, client, spec.create, keyedCreateInDoubt(spec.key));
  const created: DedupDone = { action: 'created', id: Number(requireCreatedId(response, ctx)), response };
  // The ticket the service created is told whatever comes after: a failed look-up, a signal.
  let older: KeyedTicket | undefined;
  try {
    // Stopped while it was created: the look-up for a twin would be a new request.
    older = ctx.signal.aborted ? undefined : await olderOpenTicket(own, spec.key, created.id);
  } catch (error) {
    await tell.done(created, client);
    throw error;
  }
  return older === undefined ? tell.done(created, client) : giveWay(ctx, client, spec, tell, created, older);
}

/**
 * Another job created a ticket of the key first: the occurrence goes to that older one, then ours
 * is closed as its duplicate, so the key keeps one open ticket, whose ID is reported (-q). Should
 * the occurrence not reach the older one, ours keeps it and stays open, and is reported.
 */
async function giveWay(ctx: Context, client: ApiClient, spec: DedupCreate, tell: DedupTelling, created: DedupDone, older: KeyedTicket): Promise<void> {
  const twins = `#${created.id} duplicates #${older.id} (key ${spec.key}, created at the same moment)`;
  let updated: DedupDone;
  try {
    updated = { action: 'updated', id: older.id, response: await sendChange(ctx, client, spec.reply(older), changeInDoubt(ctx, older.id)) };
  } catch (error) {
    await tell.done(created, client);
    await ctx.output.warning(`${twins} and holds this occurrence: it was left open\n`);
    throw error;
  }
  try {
    const closeBy = await resolveActingUser(ctx, undefined, 'closes');
    await sendChange(ctx, client, plans.closeTicket(created.id, { closeBy, comments: duplicateComment(older.id, spec.key) }));
  } catch (error) {
    // Ours stays open; the script still learns the older one, which every later run of the key updates.
    await tell.done(updated, client);
    await ctx.output.warning(`${twins} and ${error instanceof StoppedBeforeSendingError ? 'was not closed' : 'could not be closed'}\n`);
    throw error;
  }
  return tell.done(updated, client);
}

/** The requester's oldest open ticket of the key that is older than ours, when another job made one too. */
async function olderOpenTicket(own: KeyTickets, key: string, ownId: number): Promise<KeyedTicket | undefined> {
  const tickets = await ticketsWithKey(own.api, key, own.signal);
  const ours = tickets.find((ticket) => ticket.id === ownId);
  // Ours not listed yet: only the IDs can tell which came first.
  const isOlder = (ticket: KeyedTicket) => (ours === undefined ? ticket.id < ownId : olderFirst(ticket, ours) < 0);
  return own.firstOwn(tickets.filter((ticket) => !ticket.settled && ticket.id !== ownId && isOlder(ticket)));
}

async function report(ctx: Context, client: ApiClient, spec: DedupCreate, done: DedupDone): Promise<void> {
  const { action, id, response } = done;
  await ctx.output.document({ id, action, key: spec.key }, { human: () => `${action} #${id}\n`, quiet: () => `${id}\n` });
  if (response !== undefined) await checkKeptFiles(ctx, client, id, spec.files, response);
}

/**
 * A dry run's decision. -q prints the ID of the ticket the run would add to, skip or reopen, and
 * nothing when it would create one (it has no ID yet): a script tells the two apart by the output
 * alone (README, CI: one ticket per failure).
 */
async function printDecision(ctx: Context, spec: DedupCreate, { action, target, request }: DedupDecision): Promise<void> {
  const members = { action, id: target?.id ?? null, key: spec.key };
  const line = `dry run: key ${spec.key}: would ${VERB[action]}${target === undefined ? '' : ` #${target.id}`}`;
  const quiet = target === undefined ? undefined : `${target.id}\n`;
  if (request === undefined) {
    await ctx.output.document({ dryRun: true, ...members }, { human: () => `${line} (nothing would be sent)\n`, quiet: () => quiet });
    return;
  }
  await printDryRun(ctx, request, { decision: { line, members, ...(quiet === undefined ? {} : { quiet }) } });
}
