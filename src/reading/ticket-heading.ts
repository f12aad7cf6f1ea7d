// How a text written about a ticket names it, in the editor's file and the prompts:
// "Reply to #1031: Mouse double-clicks" (triage's reply, tkt reply, forward and resolve).
import type { Context } from '../context/context.js';
import { STDIN } from '../cmdutil/text-input.js';
import { sanitizeInline } from '../output/sanitize.js';
import type { Ticket } from '../model/ticket.js';
import { idSpansText, ticketSpans } from '../util/ids.js';
import { lazyTicket } from './mail.js';

/** `action` (e.g. "Reply to"), then the ticket's number and its title, escaped as all server text. */
export function ticketHeading(action: string, id: number, ticket: Ticket): string {
  return `${action} #${id}: ${sanitizeInline(ticket.title ?? '')}`;
}

/**
 * resolve's details prompt: "Resolution details for #1031: Mouse double-clicks" for one ticket
 * (its title read for it, by `read` when the caller has read it), "Resolution details for #1031,
 * #1032" for several.
 */
export async function resolutionHeading(ctx: Context, ids: readonly string[], read?: () => Promise<Ticket>): Promise<string> {
  // IDs still to be read from stdin are named by nobody yet.
  if (ids.includes(STDIN)) return 'Resolution details';
  const action = 'Resolution details for';
  // Ranges as typed (`resolve 1001-1010`): "#1001-1010", not ten IDs.
  const spans = ids.flatMap(ticketSpans);
  const [only] = spans;
  if (spans.length === 1 && only!.first === only!.last) return ticketHeading(action, only!.first, await (read ?? lazyTicket(ctx, only!.first))());
  return `${action} ${idSpansText(spans)}`;
}
