import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { actingUser, cliActingWords, labelActingUser } from '../prompts/acting-user.js';
import { beforeAnyId, checkIdOptions, runIdCommand, type IdCommandOptions } from '../bulk/id-command.js';
import { givenIds } from '../bulk/ids.js';
import { assertSingleStdinReader, requiredText, STDIN } from '../cmdutil/text-input.js';
import { shellWord } from '../util/shell-word.js';
import { keepAskedText, keepTypedText, optionWords, resolutionDraftStem, type Resend } from '../cmdutil/drafts.js';
import { alreadyResolvedNote } from '../reading/unchanged.js';
import { readFirst, resolveSendsNothing, resolveUnchanged } from '../bulk/ticket-state.js';
import { resolutionHeading } from '../reading/ticket-heading.js';
import { lazyTicket } from '../reading/mail.js';
import type { Ticket } from '../model/ticket.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';
import { parseDedupKey } from '../dedup/key.js';
import { UsageError } from '../errors.js';
import { sameText, templateForEachTicket } from '../desk/templates.js';

export interface ResolveOptions extends IdCommandOptions {
  details?: string | undefined;
  detailsFile?: string | undefined;
  by?: string | undefined;
  dedupKey?: string | undefined;
  /** With dedupKey: only the key's tickets of this requester (user ID, username or full name). */
  requester?: string | undefined;
  /** A reply template (tkt templates) filled for each ticket: its text is the resolution notes. */
  template?: string | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('resolve')
    .description('Resolve tickets with resolution notes')
    .addArgument(idsArgument(program).argOptional())
    .option('--details <text>', 'resolution notes, or - to read stdin')
    .option('--details-file <file>', 'read the resolution notes from a file')
    .option('--template <name>', 'resolution notes from a reply template, filled for each ticket (tkt templates)')
    .option('--by <user>', 'resolver: user ID, username or full name (default: you)')
    .option('--dedup-key <key>', 'instead of IDs: every open ticket whose title ends with [KEY] (tkt create --dedup-key)')
    .option('--requester <user>', "with --dedup-key: only the key's tickets of this requester, as tkt create --dedup-key --requester counts them")
    .addOption(concurrencyOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
Resolving a ticket that is already resolved succeeds and changes nothing; a closed ticket is
refused (exit 1): reopen it first. For one ticket, this is said before the notes are asked for.

Examples:
  $ tkt resolve 42 --details "Replaced the toner"
  $ tkt resolve 42 43 44 --details-file notes.txt
  $ tkt list -q --all --view my-open-tickets |
      tkt resolve - --details "Fixed in 2.4"
  $ tkt resolve --dedup-key ci:main/unit-tests --requester ci-bot \\
      --details "Build 4712 is green"

With --dedup-key, give the --requester of the create: anyone may end the title of a ticket of
their own with the key, and without --requester theirs is resolved too and they are sent the
notes (a warning names such tickets).`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

export async function run(options: ResolveOptions, ctx: Context): Promise<void> {
  const key = options.dedupKey === undefined ? undefined : parseDedupKey(options.dedupKey);
  if (key === undefined && options.requester !== undefined)
    throw new UsageError('--requester goes with --dedup-key KEY', { hint: 'the resolver is --by; --requester picks the tickets of a key' });
  if (key === undefined && options.ids.length === 0)
    throw new UsageError("missing required argument 'id'", { hint: 'give ticket IDs, - for stdin, or --dedup-key KEY' });
  if (key !== undefined && options.ids.length > 0) throw new UsageError('give ticket IDs or --dedup-key, not both');
  assertSingleStdinReader({ ids: options.ids, texts: [['--details', options.details]], files: [['--details-file', options.detailsFile]] });
  if (options.template !== undefined && (options.details !== undefined || options.detailsFile !== undefined))
    throw new UsageError('--template cannot be used with --details or --details-file: the template is the resolution notes');
  const checked = await checkIdOptions(ctx, options);
  const findKeyed = async (): Promise<string[]> =>
    key === undefined ? options.ids : (await import('../dedup/resolve.js')).openTicketIds(ctx, key, options.requester);
  // Notes to be typed at the prompt or in the editor are asked for once the key's tickets are
  // known: the heading names them, and nobody writes notes for no ticket. Notes given by flag, or
  // missing where nobody can be asked, are checked before any request.
  const asksForText = ctx.io.canPrompt && options.template === undefined && options.details === undefined && options.detailsFile === undefined;
  const whose = options.requester === undefined ? '' : ` of requester ${options.requester}`;
  const nothingToResolve = () => ctx.output.note(`nothing to resolve: no open ticket${whose} has the key ${key}\n`);
  let ids = asksForText ? await findKeyed() : undefined;
  if (ids?.length === 0) return nothingToResolve();
  const unchanged = (ticket: Ticket, id: number) => resolveUnchanged(ticket, id, `run "tkt reopen ${id}", then resolve it`);
  // One ticket is read before its notes are asked for (its title heads the prompt): one resolved
  // or closed is told so, as with --details, and nobody writes notes for nothing.
  const typedIds = asksForText && key === undefined ? givenIds(options.ids) : undefined;
  const oneId = typedIds?.length === 1 ? typedIds[0] : undefined;
  const oneTicket = oneId === undefined ? undefined : lazyTicket(ctx, oneId);
  const ticket = await oneTicket?.();
  if (ticket !== undefined && resolveSendsNothing(ticket)) {
    // From the ticket just read: its note, or its refusal, is the outcome, and no request is sent.
    const plan = (id: number) => ({ ...plans.resolveTicket(id, { details: '', submitBy: '' }), unchanged: unchanged(ticket, id) });
    return runIdCommand(ctx, checked, { verb: 'resolved', plan });
  }
  const draft = { stem: resolutionDraftStem(ids ?? options.ids), was: 'your resolution notes were', resend: resendNotes(options) };
  const details =
    options.template === undefined
      ? await keepAskedText(ctx, draft, () =>
          requiredText(ctx, { flag: '--details', fileFlag: '--details-file', text: options.details, file: options.detailsFile }, () =>
            resolutionHeading(ctx, ids ?? options.ids, oneTicket),
          ),
        )
      : undefined;
  const detailsFor = details === undefined ? await templateForEachTicket(ctx, options.template!) : sameText(details);
  // Typed at the terminal: kept in drafts/ when a ticket is not resolved (README, Drafts).
  const typed = asksForText && details !== undefined ? { text: details, ...draft } : undefined;
  await keepTypedText(
    ctx,
    () => typed,
    async () => {
      const resolver = await beforeAnyId(ctx, ids ?? options.ids, () => actingUser(ctx, options.by, 'resolves', cliActingWords(ids ?? options.ids)));
      ids ??= await findKeyed();
      if (ids.length === 0) return nothingToResolve();
      await runIdCommand(
        ctx,
        { ...checked, ids },
        {
          verb: 'resolved',
          plan: readFirst(async (id) => plans.resolveTicket(id, { details: await detailsFor.text(id), submitBy: resolver.id }), unchanged),
          forDryRun: (plan) => labelActingUser(plan, resolver),
          noteFor: alreadyResolvedNote,
          prepare: (ids, concurrency) => detailsFor.prepare(ids, concurrency),
        },
      );
    },
  );
}

/**
 * The resolve that sends notes kept in drafts/ (README, Drafts): the tickets as given (the IDs,
 * the key, or - with the IDs on stdin again, which a command line cannot hold), with --by.
 */
function resendNotes(options: ResolveOptions): Resend {
  const tickets =
    options.dedupKey === undefined
      ? options.ids.map(shellWord)
      : optionWords([
          ['--dedup-key', options.dedupKey],
          ['--requester', options.requester],
        ]);
  const words = ['resolve', ...tickets, ...optionWords([['--by', options.by]])].join(' ');
  return { words, fileOption: '--details-file', ...(options.ids.includes(STDIN) ? { besides: 'the ticket IDs on stdin again' } : {}) };
}
