import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { alreadyAssignedNote } from '../reading/unchanged.js';
import { pickupPlan } from '../bulk/ticket-state.js';
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
Each ticket is read first (one GET more per ID, in a dry run too). A ticket
already assigned to you is a success that changes nothing, with nothing sent;
one another technician holds is taken from them, and the line names them.

Examples:
  $ tkt pickup 42
  $ tkt list -q --all --view unassigned-tickets | tkt pickup -`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: PickupOptions, ctx: Context): Promise<void> {
  // Each ticket is read first, as pickup_ticket reads it: one yours already is left alone, and
  // one another technician holds says whom it is taken from.
  const me = async () => (await ctx.session()).userId;
  await runIdCommand(ctx, await checkIdOptions(ctx, options), { verb: 'picked up', plan: pickupPlan(me), noteFor: alreadyAssignedNote });
}
