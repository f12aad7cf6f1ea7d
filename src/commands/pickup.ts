import type { Command } from 'commander';
import { plans } from '../api/plans.js';
import type { CommandHost } from '../cli.js';
import { CONCURRENCY_HELP } from '../config/settings.js';
import type { Context } from '../context.js';
import { noteFromBody, runIdCommand } from '../tickets/id-command.js';

export interface PickupOptions {
  ids: string[];
  concurrency?: string | undefined;
  dryRun: boolean;
}

export function register(program: Command, host: CommandHost): void {
  program
    .command('pickup')
    .description('Assign tickets to yourself')
    .argument('<id...>', 'ticket IDs, or - to read them from stdin (first integer on each line)')
    .option('--concurrency <n>', `tickets ${CONCURRENCY_HELP}`)
    .option('--dry-run', 'show what would be sent, send nothing')
    .addHelpText(
      'after',
      `
A ticket already assigned to you is a success that changes nothing.

Examples:
  $ tkt pickup 42
  $ tkt list -q --view unassigned-tickets | tkt pickup -`,
    )
    .action(host.action((args, opts, ctx) => run({ ids: args[0], concurrency: opts.concurrency, dryRun: opts.dryRun === true }, ctx), { graceful: true }));
}

const ALREADY_ASSIGNED = /already\s+(assigned|picked)/i;

export async function run(options: PickupOptions, ctx: Context): Promise<void> {
  await runIdCommand(ctx, {
    ids: options.ids,
    concurrency: options.concurrency,
    dryRun: options.dryRun,
    verb: 'picked up',
    plan: (id) => plans.pickupTicket(id),
    noteFor: (response) => noteFromBody(response.body, ALREADY_ASSIGNED, 'already assigned to you, nothing changed'),
  });
}
