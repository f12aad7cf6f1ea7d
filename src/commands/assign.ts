// tkt assign ID... USER: the everyday change of assignee, in bulk like close (docs/cli.md section
// 10), with update's read-modify-write so no other field is touched.
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { assigneeChange, changeRequest } from '../bulk/change.js';
import { runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { alreadyAssignedToNote } from '../reading/unchanged.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface AssignOptions extends Omit<IdCommandOptions, 'ids'> {
  /** The IDs (or "-") followed by the user, as typed. */
  args: string[];
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('assign')
    .description('Assign tickets to a technician')
    .addArgument(idsArgument(program, 'ticket IDs, or - to read them from stdin, then the user'))
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
USER is a user ID, username or full name, or @me. Only the assignee changes: every other field
of each ticket is read and sent back as it is.

Examples:
  $ tkt assign 42 "Tom Tech"
  $ tkt assign 42 43 44 @me
  $ tkt list -q --all --view unassigned-tickets | tkt assign - ohaddad`,
    );
  host.action(command, ([args], opts, ctx) => run({ args, ...opts }, ctx), { graceful: true });
}

export async function run(options: AssignOptions, ctx: Context): Promise<void> {
  const user = options.args.at(-1);
  if (options.args.length < 2 || user === undefined) {
    throw new UsageError('name the tickets, then the user: tkt assign ID... USER', { hint: 'e.g. tkt assign 42 "Tom Tech"' });
  }
  const { createLookups } = await import('../lookups/index.js');
  const change = await assigneeChange(createLookups(ctx), user, { typed: { flag: 'USER', noun: 'user' }, labels: options.dryRun === true });
  await runIdCommand(
    ctx,
    { ...options, ids: options.args.slice(0, -1) },
    {
      verb: 'assigned',
      ...changeRequest(change, alreadyAssignedToNote(user)),
    },
  );
}
