import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { nameList, printActionDone } from '../cmdutil/action-output.js';
import { keptFiles, keptLine, reportKeptFiles } from '../cmdutil/attachments.js';
import { printDryRun } from '../cmdutil/dry-run.js';
import { changeInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { assertSingleStdinReader } from '../cmdutil/text-input.js';
import { checkUploads } from '../cmdutil/upload-files.js';
import { uploadProgress } from '../output/upload-progress.js';
import { parseTicketId } from '../util/ids.js';
import { nonBlank } from '../util/option-text.js';
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
    .argument('<file...>', 'files to upload (streamed from disk); FILE#NAME sends FILE as NAME')
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
The service keeps only file types on its allowed list and silently skips the others:
tkt names each file it skipped and exits 1 (--json: the names on stderr, see README).

A file goes under its own name: <(command) as 63, /dev/stdin as stdin, which have no
extension to allow. FILE#NAME sends it as NAME, a plain file name (the part after the
last #); a file whose own name holds # is sent whole. --dry-run shows the names.

Examples:
  $ tkt attach 42 screenshot.png error.log
  $ tkt attach 42 ~/Downloads/*.pdf
  $ ps aux | tkt attach 42 /dev/stdin#processes.txt
  $ tkt attach 42 <(df -h)#disk.txt`,
    );
  // A signal during the upload lets its answer come and be told, then ends the run (cmdutil/send-change.ts).
  // At a terminal, the wait notice says how far the files are sent, then what the run waits for.
  host.action(command, ([id, files], opts, ctx) => run({ id, files, ...opts }, ctx), { graceful: true, uploadProgress });
}

export async function run(options: AttachOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id, 'attach');
  // An empty argument is an unset variable, named as an empty --attach is, not a file that cannot be read.
  for (const file of options.files) nonBlank(file, 'FILE is empty');
  assertSingleStdinReader({ paths: [['', options.files]] });
  const uploads = await checkUploads(options.files, 'attach');
  if (options.dryRun) return printDryRun(ctx, plans.addFiles(id, uploads));

  const client = await ctx.api();
  const response = await sendChange(ctx, client, plans.addFiles(id, uploads), changeInDoubt(ctx, id));
  const files = await keptFiles(client, id, uploads, response);
  const sent = `✓ sent ${uploads.length} file(s) to #${id}: ${nameList(uploads.map((upload) => upload.name))}`;
  // Nothing kept, nothing to report as done: the error that follows says it.
  if (files === undefined || files.kept.length > 0) await printActionDone(ctx, response.body, files === undefined ? sent : `✓ ${keptLine(files, id)}`);
  else await ctx.output.document(response.body);
  await reportKeptFiles(ctx, id, files, { uploads, as: 'arguments' });
}
