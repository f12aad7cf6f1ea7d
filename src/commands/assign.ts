// tkt assign ID... USER: the everyday change of assignee, in bulk like close (docs/cli.md section
// 10), with update's read-modify-write so no other field is touched. USER left out is picked at a
// terminal (docs/cli.md, "Prompts").
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { assignRequest } from '../bulk/change.js';
import { runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { tktCommand } from '../config/session.js';
import { quotedValue, shellWord } from '../util/shell-word.js';
import { whyNothingIsAsked } from '../context/nothing-asked.js';
import type { Lookups } from '../lookups/types.js';
import { askAssignee } from '../prompts/acting-user.js';
import { ticketIdOf } from '../util/ids.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface AssignOptions extends Omit<IdCommandOptions, 'ids'> {
  /** The IDs (or "-") followed by the user, as typed; a lone ID leaves the user to be asked. */
  args: string[];
}

const USAGE = 'name the tickets, then the user: tkt assign ID... USER';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('assign')
    .description('Assign tickets to a technician')
    // commander takes no argument after a variadic one: the IDs hold the user too, and the usage
    // line says so.
    .addArgument(idsArgument(program, 'ticket IDs, or - to read them from stdin, then the user'))
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
  const typed = options.args.length > 1 ? options.args.at(-1) : undefined;
  const ids = typed === undefined ? options.args : options.args.slice(0, -1);
  if (typed !== undefined) assertOneWordUser(ctx, ids, typed);
  const { createLookups } = await import('../lookups/index.js');
  const lookups = createLookups(ctx);
  const user = typed ?? (await askUser(ctx, lookups, ids));
  // A picked user is an ID: the list is loaded already, so naming them costs nothing.
  const { assignee, ...request } = await assignRequest(lookups, user, {
    typed: { flag: 'USER', noun: 'user' },
    labels: options.dryRun === true || typed === undefined,
  });
  // "✓ #42 assigned to Tom Tech (tech)": who got the ticket, however they were typed.
  await runIdCommand(ctx, { ...options, ids }, { verb: `assigned to ${assignee}`, ...request });
}

/**
 * `tkt assign 1013 Omar Haddad`: the words before the user that are no ticket IDs are the start of
 * its name, typed without quotes; refused with the quoted line rather than looking up "Haddad".
 */
function assertOneWordUser(ctx: Context, ids: readonly string[], typed: string): void {
  let start = ids.length;
  while (start > 0 && ticketIdOf(ids[start - 1]!) === undefined && ids[start - 1]!.trim() !== '-') start--;
  if (start === ids.length) return;
  const name = [...ids.slice(start), typed].join(' ');
  const tickets = start === 0 ? 'ID' : ids.slice(0, start).map(shellWord).join(' ');
  throw new UsageError(`${JSON.stringify(ids.slice(start).join(' '))} is no ticket ID: is ${JSON.stringify(name)} the user?`, {
    hint: `quote a name with spaces: ${tktCommand(ctx, `assign ${tickets} ${quotedValue(name)}`)}`,
  });
}

/** The user for a lone ticket ID, picked at a terminal; else exit 2 saying what to add. */
async function askUser(ctx: Context, lookups: Lookups, ids: readonly string[]): Promise<string> {
  const [only] = ids;
  if (only?.trim() === '-') throw new UsageError(USAGE, { hint: `stdin holds the IDs: add the user after the -, e.g. ${tktCommand(ctx, 'assign - @me')}` });
  const id = ticketIdOf(only ?? '');
  // A lone word that is no ticket ID is a user without tickets.
  if (only === undefined || id === undefined) throw new UsageError(USAGE, { hint: `e.g. ${tktCommand(ctx, 'assign 42 "Tom Tech"')}` });
  if (!ctx.io.canPrompt) {
    const { reason, toBeAsked } = whyNothingIsAsked(ctx);
    throw new UsageError(`${USAGE} (${reason})`, {
      hint: `add the user after the IDs (a user ID, username, full name or @me), e.g. ${tktCommand(ctx, `assign ${shellWord(only)} @me`)}, or ${toBeAsked} to pick one`,
    });
  }
  return askAssignee(ctx, lookups, `Assign #${id} to`);
}
