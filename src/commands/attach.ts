import { basename } from 'node:path';
import type { Command } from 'commander';
import { field, isObject, stringField } from '../api/fields.js';
import type { CommandHost } from '../cli.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';
import { printActionDone } from '../tickets/action-output.js';
import { printDryRun } from '../tickets/dry-run.js';
import { assertReadableFiles } from '../tickets/text-input.js';
import { parseTicketId } from '../util/ids.js';

export interface AttachOptions {
  id: string;
  files: string[];
  dryRun: boolean;
}

export function register(program: Command, host: CommandHost): void {
  program
    .command('attach')
    .description('Attach files to a ticket')
    .argument('<id>', 'ticket ID')
    .argument('<file...>', 'files to upload (streamed from disk)')
    .option('--dry-run', 'show what would be sent, send nothing')
    .addHelpText(
      'after',
      `
The service keeps only file types on its allowed list and silently skips the others;
tkt tells you which were skipped when the service says so.

Examples:
  $ tkt attach 42 screenshot.png error.log
  $ tkt attach 42 ~/Downloads/*.pdf`,
    )
    .action(host.action((args, opts, ctx) => run({ id: args[0], files: args[1], dryRun: opts.dryRun === true }, ctx)));
}

/** File names in a list the service may send as strings or as objects with a name. */
function fileNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list
    .map((entry) => (typeof entry === 'string' ? entry : isObject(entry) ? stringField(entry, 'fileName', 'name', 'file') : undefined))
    .filter((name): name is string => name !== undefined);
}

/** The service's account of the upload, when its body gives one (spec 4.11 does not promise it). */
function uploadOutcome(body: unknown): { saved: string[]; skipped: string[] } | undefined {
  const saved = field(body, 'saved', 'savedFiles', 'attached', 'uploaded');
  const skipped = field(body, 'skipped', 'skippedFiles', 'rejected');
  if (!Array.isArray(saved) && !Array.isArray(skipped)) return undefined;
  return { saved: fileNames(saved), skipped: fileNames(skipped) };
}

function list(names: readonly string[]): string {
  return names.map(sanitizeInline).join(', ');
}

export async function run(options: AttachOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id);
  await assertReadableFiles(options.files, 'attach');
  if (options.dryRun) return printDryRun(ctx, { method: 'POST', path: `/api/TicketsApi/addfiles/${id}`, form: { fields: {}, files: options.files } });

  const response = await (await ctx.api()).addFiles(id, options.files);
  const outcome = uploadOutcome(response.body);
  if (outcome === undefined) {
    await printActionDone(ctx, response.body, `✓ sent ${options.files.length} file(s) to #${id}: ${list(options.files.map((path) => basename(path)))}`);
    if (!ctx.globals.quiet) await writeText(ctx.io.stderr, 'note: the service silently skips file types it does not allow; check with "tkt show ' + id + '"\n');
    return;
  }
  const saved = outcome.saved.length > 0 ? `: ${list(outcome.saved)}` : '';
  await printActionDone(ctx, response.body, `✓ attached ${outcome.saved.length} file(s) to #${id}${saved}`);
  // A warning, not data: stderr, and shown even with -q since those files were not stored.
  if (outcome.skipped.length > 0) {
    await writeText(ctx.io.stderr, `warning: the service skipped ${outcome.skipped.length} file(s) of a type it does not allow: ${list(outcome.skipped)}\n`);
  }
}
