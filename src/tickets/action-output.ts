// What a single-ticket action (reply, forward, attach) prints once the service said yes:
// --json the response body as received, -q nothing, otherwise one short line.
import type { Context } from '../context.js';
import { writeJson } from '../output/json.js';
import { writeText } from '../output/write.js';

export async function printActionDone(ctx: Context, body: unknown, humanLine: string): Promise<void> {
  if (ctx.globals.json) return writeJson(ctx.io.stdout, body);
  if (ctx.globals.quiet) return;
  return writeText(ctx.io.stdout, `${humanLine}\n`);
}
