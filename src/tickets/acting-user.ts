// Who resolves or closes (SubmitBy, CloseBy): --by USER (ID, username or full name from the
// technicians lookup, or @me), else the logged-in user.
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';

export async function resolveActingUser(ctx: Context, by: string | undefined, field: string): Promise<string> {
  if (by !== undefined) {
    const { createLookups } = await import('../lookups/index.js');
    return String(await createLookups(ctx).resolve('assignee', by));
  }
  const session = await ctx.session();
  if (session.userId === undefined) {
    throw new UsageError(`cannot tell who you are for ${field}: the token carries no user ID`, { hint: 'pass --by USER (a user ID or username)' });
  }
  return session.userId;
}
