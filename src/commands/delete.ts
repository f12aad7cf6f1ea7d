import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface DeleteOptions extends IdCommandOptions {
  yes?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('delete')
    .description('Delete tickets (soft delete)')
    .addArgument(idsArgument(program))
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
At a terminal tkt asks before deleting; in scripts and CI, --yes is required.

Examples:
  $ tkt delete 42
  $ tkt delete 42 43 --yes
  $ tkt list -q --all --search "test ticket" | tkt delete - --yes`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: DeleteOptions, ctx: Context): Promise<void> {
  await runIdCommand(ctx, await checkIdOptions(ctx, options), {
    verb: 'deleted',
    plan: (id) => plans.deleteTicket(id),
    // Loaded on use: the question is only for a terminal.
    beforeSend: options.yes ? undefined : async (ids) => (await import('../prompts/confirm-delete.js')).confirmDelete(ids, ctx),
  });
}
