// The request of a command's change, sent as docs/cli.md section 8 asks: never once the run is
// stopped (a signal came before it left: nothing is done, exit 130 or 143), and once sent,
// awaited through a first signal (the command registers `graceful`), so that its outcome is told
// before the run ends as stopped (src/cli-run.ts); an answer that never comes is in doubt.
import type { ApiClient, ApiResponse, RequestPlan } from '../api/types.js';
import type { Context } from '../context/context.js';
import { StoppedBeforeSendingError } from '../errors.js';
import { breakLineAfterCtrlC } from '../output/io.js';

/**
 * Sends `plan` with `client` unless the run is stopped. With `inDoubt` (src/cmdutil/in-doubt.ts:
 * what a failure whose outcome is unknown means for it) it is a command's one change, whose
 * outcome, awaited after a Ctrl-C at a terminal, is told on a line of its own, not after the
 * "^C"; without, one ID of many, whose runner tells it.
 */
export function sendChange(
  run: Pick<Context, 'signal' | 'io'>,
  client: ApiClient,
  plan: RequestPlan,
  inDoubt?: (error: unknown) => never,
): Promise<ApiResponse> {
  if (run.signal.aborted) return Promise.reject(new StoppedBeforeSendingError(run.signal.reason));
  // One ID of many: the client's promise itself, not one more around it.
  if (inDoubt === undefined) return client.send(plan);
  return sendTold(run, client, plan, inDoubt);
}

async function sendTold(run: Pick<Context, 'signal' | 'io'>, client: ApiClient, plan: RequestPlan, inDoubt: (error: unknown) => never): Promise<ApiResponse> {
  const stopListening = breakLineAfterCtrlC(run.io, run.signal);
  try {
    return await client.send(plan).catch(inDoubt);
  } finally {
    stopListening();
  }
}
