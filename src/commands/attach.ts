import { plans } from '../api/plans.js';
import { uploadName } from '../api/upload-name.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { nameList, printActionDone } from '../cmdutil/action-output.js';
import { keptFiles, keptLine, reportKeptFiles } from '../cmdutil/attachments.js';
import { printDryRun } from '../cmdutil/dry-run.js';
import { changeInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { assertReadableFiles, assertSingleStdinReader } from '../cmdutil/text-input.js';
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
    .addArgument(idArgument(program))
    .argument('<file...>', 'files to upload (streamed from disk)')
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
The service keeps only file types on its allowed list and silently skips the others:
tkt names each file it skipped and exits 1 (--json: the names on stderr, see README).

Examples:
  $ tkt attach 42 screenshot.png error.log
  $ tkt attach 42 ~/Downloads/*.pdf`,
    );
  // A signal during the upload lets its answer come and be told, then ends the run (cmdutil/send-change.ts).
  host.action(command, ([id, files], opts, ctx) => run({ id, files, ...opts }, ctx), { graceful: true });
}

export async function run(options: AttachOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id);
  assertSingleStdinReader({ paths: [['', options.files]] });
  await assertReadableFiles(options.files, 'attach');
  if (options.dryRun) return printDryRun(ctx, plans.addFiles(id, options.files));

  const client = await ctx.api();
  const response = await sendChange(ctx, client, plans.addFiles(id, options.files), changeInDoubt(ctx, id));
  const files = await keptFiles(client, id, options.files, response);
  const sent = `✓ sent ${options.files.length} file(s) to #${id}: ${nameList(options.files.map(uploadName))}`;
  // Nothing kept, nothing to report as done: the error that follows says it.
  if (files === undefined || files.kept.length > 0) await printActionDone(ctx, response.body, files === undefined ? sent : `✓ ${keptLine(files, id)}`);
  else await ctx.output.document(response.body);
  await reportKeptFiles(ctx, id, files);
}
