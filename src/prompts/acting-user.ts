// Who acts: resolve's and close's --by USER (ID, username or full name from the technicians
// lookup, or @me), else the logged-in user; who `--assignee @me` is; and assign's USER when it is
// left out (picked at a terminal). A token that names no user (TKT_TOKEN without the claim) means
// asking at a terminal, else exit 2 (docs/cli.md section 4).
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import type { Lookups } from '../lookups/types.js';
import type { RawFieldValues } from '../fields/options.js';

const BY = { flag: '--by', noun: 'user' };

/** Asks for a technician; not optional, so askLookup always answers (with no list to offer, what was typed). */
async function askWho(ctx: Context, lookups: Lookups, message: string, offerMe = false): Promise<string> {
  const { askLookup } = await import('./fill.js');
  return (await askLookup(ctx, lookups, 'assignee', { message, search: true, offerMe }))!;
}

/** assign's USER when none was typed: a technician picked at a terminal, @me (returned as such) first. */
export function askAssignee(ctx: Context, lookups: Lookups, message: string): Promise<string> {
  return askWho(ctx, lookups, message, true);
}

/** The user who acts, for the form's SubmitBy/CloseBy; `action` says what they do, in user words ("resolves"). */
export async function resolveActingUser(ctx: Context, by: string | undefined, action: 'resolves' | 'closes'): Promise<string> {
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  if (by !== undefined) return String(await lookups.resolve('assignee', by, BY));
  const session = await ctx.session();
  if (session.userId !== undefined) return session.userId;
  if (!ctx.io.canPrompt) {
    throw new UsageError(`cannot tell who ${action} these tickets: the token carries no user ID`, { hint: 'pass --by USER (a user ID or username)' });
  }
  return askWho(ctx, lookups, `Who ${action} these tickets (--by)? The token names no user`);
}

/**
 * `--assignee @me` when the token names no user: at a terminal the answer replaces @me;
 * otherwise the values are left for the lookups, which refuse @me (exit 2). Returns `values`
 * itself when nothing was asked.
 */
export async function answerAssigneeMe(ctx: Context, lookups: Lookups, values: RawFieldValues): Promise<RawFieldValues> {
  const assignee = values.assignee;
  if (typeof assignee !== 'string' || assignee.trim().toLowerCase() !== '@me' || !ctx.io.canPrompt) return values;
  if ((await ctx.session()).userId !== undefined) return values;
  return { ...values, assignee: await askWho(ctx, lookups, 'Assignee: who is "--assignee @me"? The token names no user') };
}
