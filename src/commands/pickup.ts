import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { alreadyAssignedNote } from '../reading/unchanged.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export type PickupOptions = IdCommandOptions;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('pickup')
    .description('Assign tickets to yourself')
    .addArgument(idsArgument(program))
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
A ticket already assigned to you is a success that changes nothing.

Examples:
  $ tkt pickup 42
  $ tkt list -q --all --view unassigned-tickets | tkt pickup -`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: PickupOptions, ctx: Context): Promise<void> {
  await runIdCommand(ctx, options, {
    verb: 'picked up',
    plan: (id) => plans.pickupTicket(id),
    noteFor: alreadyAssignedNote,
  });
}
