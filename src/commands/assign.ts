// tkt assign ID... USER: the everyday change of assignee, in bulk like close (docs/cli.md section
// 10), with update's read-modify-write so no other field is touched. USER left out is picked at a
// terminal (docs/cli.md, "Prompts").
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { assignArguments, askUserToAssign } from '../bulk/assign-user.js';
import { assignRequest } from '../bulk/change.js';
import { beforeAnyId, checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface AssignOptions extends Omit<IdCommandOptions, 'ids'> {
  /** The IDs (or "-") followed by the user, as typed; a lone ID leaves the user to be asked. */
  args: string[];
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('assign')
    .description('Assign tickets to a technician')
    // commander takes no argument after a variadic one: the IDs hold the user too, and the usage
    // line says so.
    .addArgument(idsArgument(program, 'ticket IDs or ranges (1001-1010), or - to read them from stdin, then the user'))
    .usage('[options] <id...> [user]')
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
USER is a user ID, username or full name, or @me; left out at a terminal, it is
picked from the technicians. Only the assignee changes: every other field of
each ticket but its status is read and sent back as it is (the status is left
out, so a close meanwhile stays). The ticket is read back after; a change that
someone else undid meanwhile is sent once more, then failed (README).

Examples:
  $ tkt assign 42 "Tom Tech"
  $ tkt assign 42 43 44 @me
  $ tkt assign 42
  $ tkt list -q --all --view unassigned-tickets | tkt assign - ohaddad`,
    );
  host.action(command, ([args], opts, ctx) => run({ args, ...opts }, ctx), { graceful: true });
}

export async function run(options: AssignOptions, ctx: Context): Promise<void> {
  const { ids, user: typed } = assignArguments(ctx, options.args);
  const checked = await checkIdOptions(ctx, { ...options, ids });
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  const { assignee, ...request } = await beforeAnyId(ctx, ids, async () => {
    const user = typed ?? (await askUserToAssign(ctx, lookups, ids));
    // A picked user is an ID: the list is loaded already, so naming them costs nothing.
    return assignRequest(lookups, user, {
      typed: { flag: 'USER', noun: 'user' },
      labels: options.dryRun === true || typed === undefined,
    });
  });
  // "✓ #42 assigned to Tom Tech (tech)": who got the ticket, however they were typed.
  await runIdCommand(ctx, checked, { verb: `assigned to ${assignee}`, ...request });
}
