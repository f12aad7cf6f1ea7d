// tkt reopen ID... [--status NAME]: back to an open status (default: the status named Open), in
// bulk like close (contract section 10), with update's read-modify-write.
import type { Command } from 'commander';
import type { CommandHost } from '../cli.js';
import { CONCURRENCY_HELP } from '../config/settings.js';
import type { Context } from '../context.js';
import { changeRequests, DEFAULT_REOPEN_STATUS, reopenChange } from '../tickets/change.js';
import { runIdCommand } from '../tickets/id-command.js';

export interface ReopenOptions {
  ids: string[];
  status?: string | undefined;
  concurrency?: string | undefined;
  dryRun: boolean;
}

export function register(program: Command, host: CommandHost): void {
  program
    .command('reopen')
    .description('Re-open resolved or closed tickets')
    .argument('<id...>', 'ticket IDs, or - to read them from stdin (first integer on each line)')
    .option('--status <name>', `the status to set (name or ID; default: the status named ${DEFAULT_REOPEN_STATUS})`)
    .option('--concurrency <n>', `tickets ${CONCURRENCY_HELP}`)
    .option('--dry-run', 'show what would be sent, send nothing')
    .addHelpText(
      'after',
      `
Only the status changes: every other field of each ticket is read and sent back as it is.

Examples:
  $ tkt reopen 42
  $ tkt reopen 42 43 --status "In Progress"
  $ tkt list -q --view my-completed-tickets --created-after -1d | tkt reopen -`,
    )
    .action(
      host.action((args, opts, ctx) => run({ ids: args[0], status: opts.status, concurrency: opts.concurrency, dryRun: opts.dryRun === true }, ctx), {
        graceful: true,
      }),
    );
}

export async function run(options: ReopenOptions, ctx: Context): Promise<void> {
  const { createLookups } = await import('../lookups/index.js');
  const change = await reopenChange(createLookups(ctx), options.status);
  await runIdCommand(ctx, {
    ids: options.ids,
    concurrency: options.concurrency,
    dryRun: options.dryRun,
    verb: 'reopened',
    ...changeRequests(change),
  });
}
