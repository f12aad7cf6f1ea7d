import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export type ReadOptions = IdCommandOptions;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('read')
    .description('Mark tickets as read')
    .addArgument(idsArgument(program))
    .addOption(concurrencyOption(program, 'requests'))
    .addOption(dryRunOption(program))
    .addHelpText('after', '\nExamples:\n  $ tkt read 42\n  $ tkt read 42 43 44 --json\n  $ tkt list -q --all --view my-open-tickets | tkt read -');
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: ReadOptions, ctx: Context): Promise<void> {
  await runIdCommand(ctx, await checkIdOptions(ctx, options), {
    verb: 'marked read',
    plan: (id) => plans.markRead(id),
  });
}
