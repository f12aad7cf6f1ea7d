// What a single-ticket action (reply, forward, attach) prints once the service said yes:
// --json the response body as received, -q nothing, otherwise one short line.
import type { Context } from '../context/context.js';
import { sanitizeInline } from '../output/sanitize.js';

export function printActionDone(ctx: Context, body: unknown, humanLine: string): Promise<void> {
  return ctx.output.document(body, { human: () => `${humanLine}\n` });
}

/** File names on one line, comma-separated, each made safe for the terminal. */
export function nameList(names: readonly string[]): string {
  return names.map(sanitizeInline).join(', ');
}
