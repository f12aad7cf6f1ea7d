// What one tool call works with (README, Assistants). A server runs for days: the login is read
// afresh from the config folder for every call (a `tkt login` or `tkt logout` counts from the
// next call; TKT_TOKEN stays as the environment gives it), and so are the lookups, through the
// cache the CLI keeps, with its expiry. A call stops starting requests once it is cancelled or
// the server is stopped: a change already sent is waited for, a read given up, none is sent after.
import type { ApiClient } from '../api/types.js';
import type { Context } from '../context/context.js';
import { freshLogin } from '../context/fresh-login.js';
import { InterruptedError } from '../errors.js';
import { createLookups, type LookupOptions } from '../lookups/index.js';
import type { ToolScope } from './tool.js';

/** What the calls of one server share: the lookups' fetches under way. */
export interface ServerShared {
  fetching: NonNullable<LookupOptions['fetching']>;
}

export function serverShared(): ServerShared {
  return { fetching: new Map() };
}

/** Why a call sends nothing more: the server was stopped (SIGINT, SIGTERM), else the client cancelled it. */
function stopWords(ctx: Context): string {
  return ctx.signal.aborted ? 'interrupted' : 'cancelled';
}

/**
 * A client that sends nothing once `signal` is aborted: the plan is refused before it leaves.
 * A read in flight when the client cancels the call is given up (nothing is lost, and no one
 * waits for its answer); a change already sent is awaited, and so is any request at a stop,
 * whose call is still answered.
 */
function stoppingClient(client: ApiClient, signal: AbortSignal, cancelled: AbortSignal, words: () => string): ApiClient {
  return {
    baseUrl: client.baseUrl,
    async send(plan) {
      if (signal.aborted) throw new InterruptedError(`${words()} before ${plan.method} ${plan.path} was sent`);
      try {
        return await client.send(plan, { signal: cancelled });
      } catch (error) {
        if (cancelled.aborted && error instanceof InterruptedError) throw new InterruptedError(`cancelled: ${plan.method} ${plan.path} given up`);
        throw error;
      }
    },
    // The client is the run's, closed with it: a call never closes it.
    dispose: async () => {},
  };
}

/**
 * The scope of one call: the server's Context with this call's login, and its signal aborted
 * when the server is stopped or the client cancels the call (`cancelled`).
 */
export function callScope(ctx: Context, shared: ServerShared, cancelled: AbortSignal): ToolScope {
  const signal = AbortSignal.any([ctx.signal, cancelled]);
  // A login of its own: read once per call, so that every request of the call goes with the same one.
  const login = freshLogin({ ...ctx, signal }).ctx;
  const callCtx: Context = {
    ...login,
    api: async () => stoppingClient(await login.api(), signal, cancelled, () => stopWords(ctx)),
  };
  return { ctx: callCtx, lookups: createLookups(callCtx, { fetching: shared.fetching, listPeople: true, cancelled }) };
}
