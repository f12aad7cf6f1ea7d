// Who resolves or closes (SubmitBy, CloseBy): --by USER (ID, username or full name from the
// technicians lookup, or @me), else the logged-in user. A token that names no user (TKT_TOKEN
// without the claim) means asking at a terminal, else exit 2 (contract section 4).
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { resolveLookupOption } from './lookup-option.js';

const BY = { flag: '--by', noun: 'user' };

export async function resolveActingUser(ctx: Context, by: string | undefined, field: string): Promise<string> {
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  if (by !== undefined) return String(await resolveLookupOption(lookups, 'assignee', by, BY));
  const session = await ctx.session();
  if (session.userId !== undefined) return session.userId;
  if (!ctx.io.canPrompt) {
    throw new UsageError(`cannot tell who you are for ${field}: the token carries no user ID`, { hint: 'pass --by USER (a user ID or username)' });
  }
  const { askLookup } = await import('../prompts/fill.js');
  // Not optional, so askLookup always answers: a technician's ID, or (with no list to offer) what was typed.
  const answer = await askLookup(ctx, lookups, 'assignee', { message: `${field}: act as which user (--by)? The token names none`, search: true });
  return answer!;
}
