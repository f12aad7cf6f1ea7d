// What a single-ticket action (reply, forward, attach) prints once the service said yes:
// --json the response body as received, -q nothing, otherwise one short line; and which
// uploads the service skipped, when its answer says so.
import { field, isObject, stringField } from '../api/fields.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';

export function printActionDone(ctx: Context, body: unknown, humanLine: string): Promise<void> {
  return ctx.output.document(body, { human: () => `${humanLine}\n` });
}

/** File names in a list the service may send as strings or as objects with a name. */
export function fileNamesIn(list: unknown): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list
    .map((entry) => (typeof entry === 'string' ? entry : isObject(entry) ? stringField(entry, 'fileName', 'name', 'file') : undefined))
    .filter((name): name is string => name !== undefined);
}

/** The uploads the service says it skipped; undefined when its answer does not say (spec 4.11 promises no body). */
export function skippedUploads(body: unknown): string[] | undefined {
  return fileNamesIn(field(body, 'skipped', 'skippedFiles', 'rejected'));
}

/** File names on one line, comma-separated, each made safe for the terminal. */
export function nameList(names: readonly string[]): string {
  return names.map(sanitizeInline).join(', ');
}

/** A warning, not data: on stderr, and even with -q, since those files were not stored. */
export async function warnSkippedUploads(ctx: Context, skipped: readonly string[] | undefined): Promise<void> {
  if (skipped === undefined || skipped.length === 0) return;
  await ctx.output.warning(`the service skipped ${skipped.length} file(s) of a type it does not allow: ${nameList(skipped)}\n`);
}
