// `tkt resolve --dedup-key KEY`: the green build's side of a CI key, the open tickets of the key:
// with --requester only that requester's, told as a create tells its own (lookup.ts KeyTickets).
import type { Context } from '../context/context.js';
import { createLookups } from '../lookups/index.js';
import { KeyTickets, KeyedDetails, keyRequester, requestersOf, ticketsWithKey, warnWhenOnlyOwnTickets, type KeyedTicket } from './lookup.js';

/** The IDs of the key's open tickets (`requester`'s only, when given), oldest first. */
export async function openTicketIds(ctx: Context, key: string, requester: string | undefined): Promise<string[]> {
  const api = await ctx.api();
  // An unknown requester is exit 2 before the key is looked for.
  const own = requester === undefined ? undefined : new KeyTickets(api, await keyRequester(createLookups(ctx), requester), ctx.signal);
  await warnWhenOnlyOwnTickets(ctx, key, 'which stays open');
  const open = (await ticketsWithKey(api, key, ctx.signal)).filter((ticket) => !ticket.settled);
  // Another requester's ticket is not named (a CI log would name a stranger's ticket), as create does not.
  if (own !== undefined) return idsOf(await own.allOwn(open));
  await warnOfOtherRequesters(ctx, key, open);
  return idsOf(open);
}

const idsOf = (tickets: readonly KeyedTicket[]) => tickets.map((ticket) => String(ticket.id));

/**
 * Without --requester every open ticket of the key is resolved, whoever asked (the command line
 * without it keeps its meaning): when they have several requesters, one of them may have titled a
 * ticket of their own with the key, and is sent the build's details. Says whose tickets they are,
 * in one line, by ticket (the log may be public: no names). A requester the service does not tell is compared with nothing.
 */
async function warnOfOtherRequesters(ctx: Context, key: string, open: readonly KeyedTicket[]): Promise<void> {
  // One ticket has one requester: no detail is read for it.
  if (open.length < 2) return;
  const requesters = await requestersOf(new KeyedDetails(await ctx.api(), ctx.signal), open);
  if (requesters.length < 2) return;
  // Tickets only, grouped by requester: a CI job's log may be public, and the names are customers'.
  const whose = requesters.map(({ tickets }) => tickets.map((ticket) => `#${ticket.id}`).join(', ')).join('; ');
  await ctx.output.warning(`the open tickets of key ${key} have ${requesters.length} requesters (${whose}): give --requester to resolve only your job's\n`);
}
