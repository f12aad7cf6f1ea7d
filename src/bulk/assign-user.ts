// tkt assign ID... USER: how its words part into the tickets and the user, and the user picked at
// a terminal when it is left out (docs/cli.md, "Prompts").
import { tktCommand } from '../config/session.js';
import type { Context } from '../context/context.js';
import { whyNothingIsAsked } from '../context/nothing-asked.js';
import { UsageError } from '../errors.js';
import type { Lookups } from '../lookups/types.js';
import { askAssignee } from '../prompts/acting-user.js';
import { idSpansText, ticketSpans, ticketSpansOf } from '../util/ids.js';
import { quotedValue, shellWord } from '../util/shell-word.js';

const USAGE = 'name the tickets, then the user: tkt assign ID... USER';

/**
 * The IDs (or "-") and the user of assign's words as typed: the last word is the user, unless it
 * is the only one, which leaves the user to be asked (askUserToAssign).
 */
export function assignArguments(ctx: Context, args: string[]): { ids: string[]; user: string | undefined } {
  const user = args.length > 1 ? args.at(-1) : undefined;
  const ids = user === undefined ? args : args.slice(0, -1);
  if (user !== undefined) assertOneWordUser(ctx, ids, user);
  // A lone word that is no ticket ID is a user without tickets.
  else if (args.length === 0 || (args[0]!.trim() !== '-' && ticketSpansOf(args[0]!) === undefined))
    throw new UsageError(USAGE, { hint: `e.g. ${tktCommand(ctx, 'assign 42 "Tom Tech"')}` });
  return { ids, user };
}

/**
 * `tkt assign 1013 Omar Haddad`: the words before the user that are no ticket IDs are the start of
 * its name, typed without quotes; refused with the quoted line rather than looking up "Haddad".
 */
function assertOneWordUser(ctx: Context, ids: readonly string[], typed: string): void {
  let start = ids.length;
  while (start > 0 && ticketSpansOf(ids[start - 1]!) === undefined && ids[start - 1]!.trim() !== '-') start--;
  if (start === ids.length) return;
  const name = [...ids.slice(start), typed].join(' ');
  const tickets = start === 0 ? 'ID' : ids.slice(0, start).map(shellWord).join(' ');
  throw new UsageError(`${JSON.stringify(ids.slice(start).join(' '))} is no ticket ID: is ${JSON.stringify(name)} the user?`, {
    hint: `quote a name with spaces: ${tktCommand(ctx, `assign ${tickets} ${quotedValue(name)}`)}`,
  });
}

/** The user for a lone ticket ID, picked at a terminal; else exit 2 saying what to add. */
export async function askUserToAssign(ctx: Context, lookups: Lookups, ids: readonly string[]): Promise<string> {
  // assignArguments let through a lone ticket ID or "-".
  const only = ids[0]!;
  if (only.trim() === '-') throw new UsageError(USAGE, { hint: `stdin holds the IDs: add the user after the -, e.g. ${tktCommand(ctx, 'assign - @me')}` });
  if (!ctx.io.canPrompt) {
    const { reason, toBeAsked } = whyNothingIsAsked(ctx);
    throw new UsageError(`${USAGE} (${reason})`, {
      hint: `add the user after the IDs (a user ID, username, full name or @me), e.g. ${tktCommand(ctx, `assign ${shellWord(only)} @me`)}, or ${toBeAsked} to pick one`,
    });
  }
  return askAssignee(ctx, lookups, `Assign ${idSpansText(ticketSpans(only))} to`);
}
