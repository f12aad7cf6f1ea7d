// A run that must know who acts (close's and resolve's --by, @me) and whose token names no user.
import { plans } from '../api/plans.js';
import type { Context } from '../context/context.js';
import { noUserIn, tokenUnreadable } from '../config/session.js';
import { ApiError, UsageError, type TktError } from '../errors.js';

/**
 * The error of a run that must know who `what` and whose token names no user: `cannot tell who
 * WHAT: why`, with `hint` (how to say who). A token tkt cannot read at all (masked in a CI log,
 * cut short) is shown to the service first: one it refuses is that refusal (exit 4, with the
 * login hint), as any other command's first request says, not a call for --by that would only
 * meet the same 401.
 */
export async function noUserError(ctx: Pick<Context, 'session' | 'api'>, what: string, hint: string): Promise<TktError> {
  const session = await ctx.session();
  if (tokenUnreadable(session)) {
    try {
      await (await ctx.api()).send(plans.appMetadata());
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return error;
      // Anything else (not reached, another failure) leaves the question of who acts as it was.
    }
  }
  return new UsageError(`cannot tell who ${what}: ${noUserIn(session)}`, { hint });
}
