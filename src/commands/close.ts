import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { closureOf, type ClosureOptions } from '../bulk/closure.js';
import { labelActingUser } from '../prompts/acting-user.js';
import { beforeAnyId, checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { assertSingleStdinReader } from '../cmdutil/text-input.js';
import { alreadyClosedNote } from '../reading/unchanged.js';
import { attachOption, concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface CloseOptions extends IdCommandOptions, ClosureOptions {}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('close')
    .description('Close tickets')
    .addArgument(idsArgument(program))
    .option('--comments <text>', 'comments, or - to read stdin')
    .option('--closure-comments <text>', 'closure comments, or - to read stdin')
    .option('--acknowledge', 'send the closure e-mail to the requester and the CC list')
    .option('--closure-status <code>', 'closure status code (a number)')
    .option('--date <when>', 'closing date: ISO 8601 or -1d/-4h/-30m (default: now, set by the service)')
    .option('--by <user>', 'who closes: user ID, username or full name (default: you)')
    .addOption(attachOption(program, 'each ticket'))
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
Closing a ticket that is already closed succeeds and changes nothing. The requester gets
a closure e-mail only with --acknowledge.

Examples:
  $ tkt close 42
  $ tkt close 42 --acknowledge --closure-comments "Thanks for your patience"
  $ tkt list -q --all --view my-completed-tickets | tkt close - --concurrency 16`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: CloseOptions, ctx: Context): Promise<void> {
  assertSingleStdinReader({
    ids: options.ids,
    texts: [
      ['--comments', options.comments],
      ['--closure-comments', options.closureComments],
    ],
    paths: [['--attach', options.attach]],
  });
  const checked = await checkIdOptions(ctx, options);
  const planned = await beforeAnyId(ctx, options.ids, () => closureOf(options, ctx));
  await runIdCommand(ctx, checked, {
    verb: 'closed',
    plan: (id) => plans.closeTicket(id, planned.closure),
    forDryRun: (plan) => labelActingUser(plan, planned.closer),
    noteFor: alreadyClosedNote,
    uploads: planned.closure.files,
  });
}
