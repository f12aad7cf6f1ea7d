// tkt assign ID... USER: the everyday change of assignee, in bulk like close (contract section
// 10), with update's read-modify-write so no other field is touched.
import type { Command } from 'commander';
import type { CommandHost } from '../cli.js';
import { CONCURRENCY_HELP } from '../config/settings.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { assigneeChange, changeRequests } from '../tickets/change.js';
import { runIdCommand } from '../tickets/id-command.js';

export interface AssignOptions {
  /** The IDs (or "-") followed by the user, as typed. */
  args: string[];
  concurrency?: string | undefined;
  dryRun: boolean;
}

export function register(program: Command, host: CommandHost): void {
  program
    .command('assign')
    .description('Assign tickets to a technician')
    .argument('<id...>', 'ticket IDs, or - to read them from stdin, then the user')
    .option('--concurrency <n>', `tickets ${CONCURRENCY_HELP}`)
    .option('--dry-run', 'show what would be sent, send nothing')
    .addHelpText(
      'after',
      `
USER is a user ID, username or full name, or @me. Only the assignee changes: every other field
of each ticket is read and sent back as it is.

Examples:
  $ tkt assign 42 "Tom Tech"
  $ tkt assign 42 43 44 @me
  $ tkt list -q --view unassigned-tickets | tkt assign - ohaddad`,
    )
    .action(host.action((args, opts, ctx) => run({ args: args[0], concurrency: opts.concurrency, dryRun: opts.dryRun === true }, ctx), { graceful: true }));
}

export async function run(options: AssignOptions, ctx: Context): Promise<void> {
  const user = options.args.at(-1);
  if (options.args.length < 2 || user === undefined) {
    throw new UsageError('name the tickets, then the user: tkt assign ID... USER', { hint: 'e.g. tkt assign 42 "Tom Tech"' });
  }
  const { createLookups } = await import('../lookups/index.js');
  const change = await assigneeChange(createLookups(ctx), user, { flag: 'USER', noun: 'user' });
  await runIdCommand(ctx, {
    ids: options.args.slice(0, -1),
    concurrency: options.concurrency,
    dryRun: options.dryRun,
    verb: 'assigned',
    ...changeRequests(change),
  });
}
