// The close comment tkt leaves on its own ticket when another job's older ticket of the key won
// the race, and how --reopen recognises such a ticket afterwards. A list item carries no close
// comment (docs/service.md 4.1), the ticket's conversation does (4.2, 4.7): that is one read.
import { InterruptedError } from '../errors.js';
import type { ConversationEntry } from '../model/ticket.js';
import type { KeyTickets, KeyedTicket } from './lookup.js';

export function duplicateComment(originalId: number, key: string): string {
  return `Duplicate of #${originalId} (the same failure, key ${key}, reported at the same moment)`;
}

// At the start of the close comment, or of one of its lines (a service may join it with the
// closure comments), markup before it aside: a mention further in is no verdict.
const DUPLICATE_OF = /^(?:\s|<[^>]*>)*Duplicate of #(\d+)\b/m;
// Entry types vary by service ("Close", "Closed", "Closure"); an entry without one may be the close.
const CLOSE_TYPE = /clos/i;

/** The ticket this one was closed as a duplicate of, when its latest close entry says so. */
export function duplicateOf(conversation: readonly ConversationEntry[]): number | undefined {
  const close = conversation.findLast((entry) => !entry.draft && (entry.type === undefined || CLOSE_TYPE.test(entry.type)));
  const match = DUPLICATE_OF.exec(close?.message ?? '');
  return match === null ? undefined : Number(match[1]);
}

/**
 * The settled ticket of the key that --reopen re-opens: the latest one of this run's requester not
 * closed as a duplicate, or the original a duplicate names when that carries the key and is of the
 * requester too (where the occurrences went). Each candidate's detail is read, newest first: one
 * read, and one more to follow a duplicate, unless duplicates of keyless tickets come first.
 */
export async function ticketToReopen(own: KeyTickets, settled: readonly KeyedTicket[]): Promise<KeyedTicket | undefined> {
  const byId = new Map(settled.map((ticket) => [ticket.id, ticket]));
  for (const candidate of [...settled].reverse()) {
    // A stopped run starts no new read (docs/cli.md section 8).
    if (own.signal.aborted) throw new InterruptedError();
    if (!(await own.owns(candidate))) continue;
    const original = duplicateOf((await own.detail(candidate.id)).conversation);
    if (original === undefined) return candidate;
    const followed = byId.get(original);
    if (followed !== undefined && followed !== candidate && (await own.owns(followed))) return followed;
  }
  return undefined;
}
