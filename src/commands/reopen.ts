// tkt reopen ID... [--status NAME]: back to an open status (default: the status named Open), in
// bulk like close (docs/cli.md section 10), with update's read-modify-write.
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { DEFAULT_REOPEN_STATUS, reopenRequest } from '../bulk/change.js';
import { checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface ReopenOptions extends IdCommandOptions {
  status?: string | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('reopen')
    .description('Re-open resolved or closed tickets')
    .addArgument(idsArgument(program))
    .option('--status <name>', `the status to set (name or ID; default: the status named ${DEFAULT_REOPEN_STATUS})`)
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
Only the status changes: every other field of each ticket is read and sent back as it is. A
ticket open in another status (In Progress) is refused: tkt update --status sets it.
The ticket is read back after; a change someone else undid meanwhile is sent once more,
then failed (README).

Examples:
  $ tkt reopen 42
  $ tkt reopen 43 44 --status "In Progress"
  $ tkt list -q --all --view my-completed-tickets --created-after -1d |
      tkt reopen -`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: ReopenOptions, ctx: Context): Promise<void> {
  const checked = await checkIdOptions(ctx, options);
  const { createLookups } = await import('../lookups/index.js');
  await runIdCommand(ctx, checked, {
    verb: 'reopened',
    ...(await reopenRequest(createLookups(ctx), options.status, { labels: options.dryRun === true })),
  });
}
