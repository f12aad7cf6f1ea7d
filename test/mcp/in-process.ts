// `tkt mcp`'s server run in the test's process, on in-memory streams, with the run's stop signal
// in the test's hand: a SIGTERM that comes at a chosen moment, before or after a given line; and
// the clock of the waits between retries, when the test moves it.
import { PassThrough } from 'node:stream';
import type { Clock } from '../../src/api/clock.js';
import type { GlobalOptions } from '../../src/config/globals.js';
import type { ToolName } from '../../src/mcp/catalog.js';
import { serve } from '../../src/mcp/server.js';
import type { Harness } from '../helpers/harness.js';
import { lineClient, type LineClient } from './mcp-process.js';

export interface InProcessMcp extends LineClient {
  /** What the server writes to: paused, it pushes back as a slow reader of stdout does. */
  output: PassThrough;
  /** Settles when the server is done: resolves when its input ended, rejects when it was stopped. */
  served: Promise<void>;
  /** The run's first signal, as SIGTERM gives it. */
  stop(): void;
  /** Closes the server's input, as an assistant that quits does. */
  endInput(): void;
}

export async function inProcessMcp(
  h: Harness,
  tools: readonly ToolName[],
  env: Record<string, string>,
  { globals = {}, clock }: { globals?: Partial<GlobalOptions>; clock?: Clock } = {},
): Promise<InProcessMcp> {
  const run = await h.context({ env, globals, ...(clock === undefined ? {} : { clock }) });
  const input = new PassThrough();
  // A small buffer, so that an answer not read yet pushes back at once.
  const output = new PassThrough({ highWaterMark: 64 });
  const served = serve({ ...run.ctx, io: { ...run.ctx.io, stdin: input, stdout: output } }, tools);
  // Looked at by the test when it expects the end; never an unhandled rejection meanwhile.
  served.catch(() => {});
  return { ...(await lineClient(input, output)), output, served, stop: () => run.abort.abort('SIGTERM'), endInput: () => input.end() };
}
