// `tkt create --dedup-key`: one open ticket per key (docs/cli.md section 12).
// Before creating, the tickets of the key are looked up: an open one gets this occurrence as a
// requester reply (or nothing, --on-existing skip); with --reopen a resolved or closed one is
// re-opened by that reply (never one closed as a duplicate: duplicate.ts); else a ticket is created.
// Jobs that fail at the same moment each create one, so after creating tkt looks again, and the
// newer ones give way to the oldest.
import { plans } from '../api/plans.js';
import type { ApiClient, ApiResponse, UploadFile } from '../api/types.js';
import type { Context } from '../context/context.js';
import { checkKeptFiles } from '../cmdutil/attachments.js';
import { printDryRun, type PlannedRequest } from '../cmdutil/dry-run.js';
import { changeInDoubt, keyedCreateInDoubt } from '../cmdutil/in-doubt.js';
import { requireCreatedId } from '../fields/created.js';
import { resolveActingUser } from '../prompts/acting-user.js';
import { duplicateComment, ticketToReopen } from './duplicate.js';
import { olderFirst, ticketsWithKey, warnWhenOnlyOwnTickets, type KeyedTicket } from './lookup.js';

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
}

interface Decision {
  action: DedupAction;
  /** The existing ticket acted on; none when creating. */
  target: KeyedTicket | undefined;
}

/** What to do, given the key's tickets (oldest first). */
async function decide(client: ApiClient, tickets: readonly KeyedTicket[], spec: DedupCreate): Promise<Decision> {
  const open = tickets.find((ticket) => !ticket.settled);
  if (open !== undefined) return { action: spec.onExisting === 'skip' ? 'skipped' : 'updated', target: open };
  // The most recent history of the failure, never a duplicate tkt closed in a race.
  const settled = spec.reopen ? await ticketToReopen(client, tickets) : undefined;
  return settled === undefined ? { action: 'created', target: undefined } : { action: 'reopened', target: settled };
}

const VERB: Record<DedupAction, string> = { created: 'create a ticket', updated: 'update', skipped: 'skip', reopened: 'reopen' };

export async function createOnce(ctx: Context, spec: DedupCreate): Promise<void> {
  const client = await ctx.api();
  await warnWhenOnlyOwnTickets(ctx, spec.key, 'so this may open a second one');
  const { action, target } = await decide(client, await ticketsWithKey(client, spec.key, ctx.signal), spec);
  if (spec.dryRun) return printDecision(ctx, spec, action, target);
  if (target !== undefined) {
    const response = action === 'skipped' ? undefined : await client.send(spec.reply(target)).catch(changeInDoubt(ctx, target.id));
    return report(ctx, client, spec, { action, id: target.id, response });
  }
  const response = await client.send(spec.create).catch(keyedCreateInDoubt(spec.key));
  const id = Number(requireCreatedId(response, ctx));
  const older = await olderOpenTicket(client, spec.key, id, ctx.signal);
  if (older === undefined) return report(ctx, client, spec, { action: 'created', id, response });
  // Another job created one first: ours is closed as its duplicate, the occurrence goes there.
  try {
    const closeBy = await resolveActingUser(ctx, undefined, 'closes');
    await client.send(plans.closeTicket(id, { closeBy, comments: duplicateComment(older.id, spec.key) }));
  } catch (error) {
    // Ours stays open: the script learns its ID, and why there are two.
    await report(ctx, client, spec, { action: 'created', id, response });
    await ctx.output.warning(`#${id} duplicates #${older.id} (key ${spec.key}, created at the same moment) and could not be closed\n`);
    throw error;
  }
  return report(ctx, client, spec, { action: 'updated', id: older.id, response: await client.send(spec.reply(older)).catch(changeInDoubt(ctx, older.id)) });
}

/** The oldest open ticket of the key that is older than ours, when another job made one too. */
async function olderOpenTicket(client: ApiClient, key: string, ownId: number, signal: AbortSignal): Promise<KeyedTicket | undefined> {
  const tickets = await ticketsWithKey(client, key, signal);
  const own = tickets.find((ticket) => ticket.id === ownId);
  // Ours not listed yet: only the IDs can tell which came first.
  const isOlder = (ticket: KeyedTicket) => (own === undefined ? ticket.id < ownId : olderFirst(ticket, own) < 0);
  return tickets.find((ticket) => !ticket.settled && ticket.id !== ownId && isOlder(ticket));
}

async function report(
  ctx: Context,
  client: ApiClient,
  spec: DedupCreate,
  done: { action: DedupAction; id: number; response: ApiResponse | undefined },
): Promise<void> {
  const { action, id, response } = done;
  await ctx.output.document({ id, action, key: spec.key }, { human: () => `${action} #${id}\n`, quiet: () => `${id}\n` });
  if (response !== undefined) await checkKeptFiles(ctx, client, id, spec.files, response);
}

async function printDecision(ctx: Context, spec: DedupCreate, action: DedupAction, target: KeyedTicket | undefined): Promise<void> {
  const members = { action, id: target?.id ?? null, key: spec.key };
  const line = `dry run: key ${spec.key}: would ${VERB[action]}${target === undefined ? '' : ` #${target.id}`}`;
  if (action === 'skipped') {
    await ctx.output.document({ dryRun: true, ...members }, { human: () => `${line} (nothing would be sent)\n`, quiet: () => `${target!.id}\n` });
    return;
  }
  await printDryRun(ctx, action === 'created' ? spec.create : spec.reply(target!), { decision: { line, members } });
}
