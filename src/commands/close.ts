import { plans } from '../api/plans.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { resolveActingUser } from '../tickets/acting-user.js';
import { assertSingleStdinReader, runIdCommand } from '../tickets/id-command.js';
import { assertReadableFiles, readTextOption } from '../tickets/text-input.js';
import { parseWholeNumber } from '../util/ids.js';
import { parseWhen } from '../util/when.js';
import { attachOption, concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface CloseOptions {
  ids: string[];
  comments?: string | undefined;
  closureComments?: string | undefined;
  acknowledge?: boolean | undefined;
  closureStatus?: string | undefined;
  date?: string | undefined;
  by?: string | undefined;
  attach?: string[] | undefined;
  concurrency?: string | undefined;
  dryRun?: boolean | undefined;
}


export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('close')
    .description('Close tickets')
    .addArgument(idsArgument())
    .option('--comments <text>', 'comments, or - to read stdin')
    .option('--closure-comments <text>', 'closure comments, or - to read stdin')
    .option('--acknowledge', 'send the closure e-mail to the requester and the CC list')
    .option('--closure-status <code>', 'closure status code (a number)')
    .option('--date <when>', 'closing date: ISO 8601 or +3d/+4h/+30m (default: now, set by the service)')
    .option('--by <user>', 'who closes: user ID, username or full name (default: you)')
    .addOption(attachOption('each ticket'))
    .addOption(concurrencyOption())
    .addOption(dryRunOption())
    .addHelpText(
      'after',
      `
Closing a ticket that is already closed succeeds and changes nothing. The requester gets
a closure e-mail only with --acknowledge.

Examples:
  $ tkt close 42
  $ tkt close 42 --acknowledge --closure-comments "Thanks for your patience"
  $ tkt list -q --view my-completed-tickets | tkt close - --concurrency 16`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

function parseClosureStatus(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const status = parseWholeNumber(text, { min: 0 });
  if (status === undefined) throw new UsageError(`invalid --closure-status ${JSON.stringify(text)}: expected a numeric code`);
  return status;
}

function parseClosingDate(text: string | undefined, ctx: Context): string | undefined {
  if (text === undefined) return undefined;
  try {
    return parseWhen(text, ctx.now()).toISOString();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`--date: ${error.message}`);
    throw error;
  }
}

export async function run(options: CloseOptions, ctx: Context): Promise<void> {
  assertSingleStdinReader(options.ids, [['--comments', options.comments], ['--closure-comments', options.closureComments]]);
  const status = parseClosureStatus(options.closureStatus);
  const closingDate = parseClosingDate(options.date, ctx);
  const attach = options.attach ?? [];
  await assertReadableFiles(attach, '--attach');
  const comments = await readTextOption(ctx, { flag: '--comments', text: options.comments });
  const closureComments = await readTextOption(ctx, { flag: '--closure-comments', text: options.closureComments });
  const closeBy = await resolveActingUser(ctx, options.by, 'closes');
  const closure = { closeBy, acknowledged: options.acknowledge, comments, status, closureComments, closingDate, files: attach };
  await runIdCommand(ctx, {
    ids: options.ids,
    concurrency: options.concurrency,
    dryRun: options.dryRun,
    verb: 'closed',
    plan: (id) => plans.closeTicket(id, closure),
    // 204 closed; 200 is the service's "already closed, no action" (spec 4.7).
    noteFor: (response) => (response.status === 200 ? 'already closed, nothing changed' : undefined),
  });
}
