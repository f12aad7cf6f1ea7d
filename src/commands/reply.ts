import { plans } from '../api/plans.js';
import type { RequestPlan } from '../api/types.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { printActionDone } from '../cmdutil/action-output.js';
import { checkKeptFiles } from '../cmdutil/attachments.js';
import { keepAskedText, keepTypedText, optionWords, replyDraftStem } from '../cmdutil/drafts.js';
import { printDryRun } from '../cmdutil/dry-run.js';
import { changeInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { assertRecipients, lazyTicket, messageOption, messageOrAsk, recipientList, ticketSubject } from '../reading/mail.js';
import { assertSingleStdinReader, readTextOption } from '../cmdutil/text-input.js';
import { checkUploads } from '../cmdutil/upload-files.js';
import { ticketHeading } from '../reading/ticket-heading.js';
import { parseTicketId } from '../util/ids.js';
import { asOneLine, assertOneLine, nonBlank } from '../util/option-text.js';
import { attachOption, dryRunOption, idArgument, recipientsOption } from './shared-options.js';

export interface ReplyOptions {
  id: string;
  message?: string | undefined;
  messageFile?: string | undefined;
  to?: string[] | undefined;
  cc?: string[] | undefined;
  subject?: string | undefined;
  attach?: string[] | undefined;
  /** Reply as this requester (reqreply), which may re-open a resolved or closed ticket. */
  asRequester?: string | undefined;
  /** A reply template (tkt templates): its text is the message, its subject the subject. */
  template?: string | undefined;
  dryRun?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('reply')
    .description('Reply to a ticket by e-mail (or, with --as-requester, as its requester)')
    .addArgument(idArgument(program))
    .option('--message <text>', 'the message, or - to read stdin (default: $EDITOR at a terminal)')
    .option('--message-file <file>', 'read the message from a file')
    .addOption(recipientsOption(program, '--to <email>', "recipient (default: the requester's e-mail)"))
    .addOption(recipientsOption(program, '--cc <emails>', 'CC addresses'))
    .option('--subject <text>', 'subject (default: the template\'s, else "Re: <ticket title>")')
    .option('--template <name>', 'the message from a reply template, filled for the ticket (tkt templates)')
    .addOption(attachOption(program))
    .option('--as-requester <user>', 'post the reply as this requester (user ID, username or full name); re-opens a resolved or closed ticket')
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
Examples:
  $ tkt reply 42 --message "The new toner is on its way"
  $ tkt reply 42 --message-file answer.txt --cc lead@example.com --attach a.pdf
  $ git log -1 --format=%B | tkt reply 42 --message -
  $ tkt reply 42 --as-requester aberg --message "Still broken after the fix"`,
    );
  // A signal while the reply is sent lets its answer come and be told, then ends the run (cmdutil/send-change.ts).
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx), { graceful: true });
}

export async function run(options: ReplyOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id, 'reply');
  const asRequester = options.asRequester === undefined ? undefined : nonBlank(options.asRequester, '--as-requester is empty').trim();
  if (asRequester !== undefined) {
    const foreign = (['to', 'cc'] as const).filter((name) => options[name] !== undefined);
    if (foreign.length > 0)
      throw new UsageError(`${foreign.map((name) => `--${name}`).join(', ')} cannot be used with --as-requester: a requester reply is not an e-mail`);
  }
  assertRecipients(options);
  assertOneLine(options.subject, '--subject', 'a subject');
  if (options.template !== undefined && (options.message !== undefined || options.messageFile !== undefined))
    throw new UsageError('--template cannot be used with --message or --message-file: the template is the message');
  const templates = await import('../desk/templates.js');
  const template = options.template === undefined ? undefined : await templates.readTemplate(ctx, options.template);
  if (template !== undefined) await templates.warnAboutFrontMatter(ctx, template);
  assertSingleStdinReader({ texts: [['--message', options.message]], files: [['--message-file', options.messageFile]], paths: [['--attach', options.attach]] });
  const attach = await checkUploads(options.attach ?? [], '--attach');
  // The message options are read before the requester is looked up, so an empty message is
  // refused before any request; the editor opens only once the requester is known.
  const messageOptions = messageOption(options);
  const messageGiven = await readTextOption(ctx, messageOptions);
  // A user ID, username or full name, as everywhere; the requester-reply endpoint takes the username.
  const requesterUsername =
    asRequester === undefined
      ? undefined
      : await (await import('../lookups/index.js')).createLookups(ctx).username('requester', asRequester, { flag: '--as-requester', noun: 'user' });
  const ticket = lazyTicket(ctx, id);
  const filled = template === undefined ? undefined : await templates.fillForTicket(ctx, template, await ticket());
  // Sent again with the options given, the same reply (README, Drafts).
  const given = optionWords([
    ['--as-requester', asRequester],
    ['--to', options.to],
    ['--cc', options.cc],
    ['--subject', options.subject],
    ['--attach', options.attach],
  ]);
  const draft = { stem: replyDraftStem(id), was: 'your message was', resend: { words: ['reply', id, ...given].join(' '), fileOption: '--message-file' } };
  const message =
    filled?.body ??
    (await keepAskedText(ctx, draft, () => messageOrAsk(ctx, messageOptions, messageGiven, true, async () => ticketHeading('Reply to', id, await ticket()))));
  // Typed in $EDITOR: kept in drafts/ if it is not sent (README, Drafts).
  const typed = filled === undefined && messageGiven === undefined && message !== undefined ? { text: message, ...draft } : undefined;

  const sent = await keepTypedText(
    ctx,
    () => typed,
    async () => {
      const client = await ctx.api();
      const subject = options.subject ?? (filled?.subject === undefined ? ticketSubject('Re', await ticket()) : asOneLine(filled.subject));
      let plan: RequestPlan;
      let who: string;
      if (requesterUsername !== undefined) {
        plan = plans.requesterReply(id, { username: requesterUsername, subject, message, files: attach });
        who = `as ${requesterUsername}`;
      } else {
        const to = recipientList(options.to) ?? (await ticket()).requesterEmail;
        if (to === undefined) throw new UsageError(`ticket #${id} has no requester e-mail: pass --to`);
        plan = plans.replyTicket(id, { subject, to, cc: recipientList(options.cc), message, files: attach });
        who = `to ${to}`;
      }
      if (options.dryRun) return void (await printDryRun(ctx, plan));
      return { client, subject, who, response: await sendChange(ctx, client, plan, changeInDoubt(ctx, id)) };
    },
  );
  if (sent === undefined) return;
  const { client, subject, who, response } = sent;
  await printActionDone(ctx, response.body, `✓ replied to #${id} ${sanitizeInline(who)}: ${sanitizeInline(subject)}`);
  await checkKeptFiles(ctx, client, id, attach, response);
}
