// `tkt resolve --dedup-key KEY`: the green build's side of a CI key, every open ticket of the key.
import type { Context } from '../context/context.js';
import { ticketsWithKey, warnWhenOnlyOwnTickets } from './lookup.js';

/** The IDs of the key's open tickets, oldest first. */
export async function openTicketIds(ctx: Context, key: string): Promise<string[]> {
  const api = await ctx.api();
  await warnWhenOnlyOwnTickets(ctx, key, 'which stays open');
  const tickets = await ticketsWithKey(api, key, ctx.signal);
  return tickets.filter((ticket) => !ticket.settled).map((ticket) => String(ticket.id));
}
