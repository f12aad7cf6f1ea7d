import { basename } from 'node:path';
import { plans } from '../api/plans.js';
import { field } from '../api/fields.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { fileNamesIn, nameList, printActionDone, skippedUploads, warnSkippedUploads } from '../tickets/action-output.js';
import { printDryRun } from '../tickets/dry-run.js';
import { assertReadableFiles } from '../tickets/text-input.js';
import { parseTicketId } from '../util/ids.js';
import { dryRunOption, idArgument } from './shared-options.js';

export interface AttachOptions {
  id: string;
  files: string[];
  dryRun?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('attach')
    .description('Attach files to a ticket')
    .addArgument(idArgument())
    .argument('<file...>', 'files to upload (streamed from disk)')
    .addOption(dryRunOption())
    .addHelpText(
      'after',
      `
The service keeps only file types on its allowed list and silently skips the others;
tkt tells you which were skipped when the service says so.

Examples:
  $ tkt attach 42 screenshot.png error.log
  $ tkt attach 42 ~/Downloads/*.pdf`,
    );
  host.action(command, ([id, files], opts, ctx) => run({ id, files, ...opts }, ctx));
}

export async function run(options: AttachOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id);
  await assertReadableFiles(options.files, 'attach');
  if (options.dryRun) return printDryRun(ctx, plans.addFiles(id, options.files));

  const response = await (await ctx.api()).send(plans.addFiles(id, options.files));
  const saved = fileNamesIn(field(response.body, 'saved', 'savedFiles', 'attached', 'uploaded'));
  const skipped = skippedUploads(response.body);
  if (saved === undefined && skipped === undefined) {
    await printActionDone(ctx, response.body, `✓ sent ${options.files.length} file(s) to #${id}: ${nameList(options.files.map((path) => basename(path)))}`);
    await ctx.output.note(`note: the service silently skips file types it does not allow; "tkt show ${id}" lists what it kept\n`);
    return;
  }
  const savedNames = saved ?? [];
  await printActionDone(ctx, response.body, `✓ attached ${savedNames.length} file(s) to #${id}${savedNames.length > 0 ? `: ${nameList(savedNames)}` : ''}`);
  await warnSkippedUploads(ctx, skipped);
}
