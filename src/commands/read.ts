import type { Command } from 'commander';
import { plans } from '../api/plans.js';
import type { CommandHost } from '../cli.js';
import { CONCURRENCY_HELP } from '../config/settings.js';
import type { Context } from '../context.js';
import { runIdCommand } from '../tickets/id-command.js';

export interface ReadOptions {
  ids: string[];
  concurrency?: string | undefined;
  dryRun: boolean;
}

export function register(program: Command, host: CommandHost): void {
  program
    .command('read')
    .description('Mark tickets as read')
    .argument('<id...>', 'ticket IDs, or - to read them from stdin (the first number on each line)')
    .option('--concurrency <n>', `requests ${CONCURRENCY_HELP}`)
    .option('--dry-run', 'print what would be marked, send nothing')
    .addHelpText('after', '\nExamples:\n  $ tkt read 42\n  $ tkt read 42 43 44 --json\n  $ tkt list -q --view my-open-tickets | tkt read -')
    .action(
      host.action((args, opts, ctx) => run({ ids: args[0], concurrency: opts.concurrency, dryRun: opts.dryRun === true }, ctx), { graceful: true }),
    );
}

export async function run(options: ReadOptions, ctx: Context): Promise<void> {
  await runIdCommand(ctx, {
    ids: options.ids,
    concurrency: options.concurrency,
    dryRun: options.dryRun,
    verb: 'marked read',
    plan: (id) => plans.markRead(id),
  });
}
