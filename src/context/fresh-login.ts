// The login read from the config folder when a request needs it, not once for the run: a command
// that runs for hours or days (tkt mcp, tkt triage) sees a `tkt login` or `tkt logout` made
// meanwhile in another shell. TKT_TOKEN stays as the environment gave the run.
import { resolveSession } from '../config/session.js';
import type { Session } from '../config/types.js';
import type { Context } from './context.js';

export interface FreshLogin {
  /** `ctx` with this login's session() and api(). */
  ctx: Context;
  /** Forgets the login read: the next session() or api() reads it again. */
  readAgain(): void;
}

export function freshLogin(ctx: Context): FreshLogin {
  let session: Promise<Session> | undefined;
  const loginCtx: Context = {
    ...ctx,
    // Read once until readAgain, so that the requests in between go with the same login.
    session: () => (session ??= Promise.resolve().then(() => resolveSession({ globals: ctx.globals, env: ctx.env, config: ctx.config, now: ctx.now() }))),
    api: async () => await ctx.apiFor(await loginCtx.session()),
  };
  return {
    ctx: loginCtx,
    readAgain: () => {
      session = undefined;
    },
  };
}
