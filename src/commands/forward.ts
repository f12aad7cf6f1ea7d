import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { sanitizeInline } from '../output/sanitize.js';
import { printActionDone } from '../cmdutil/action-output.js';
import { checkKeptFiles } from '../cmdutil/attachments.js';
import { keepAskedText, keepTypedText, optionWords } from '../cmdutil/drafts.js';
import { printDryRun } from '../cmdutil/dry-run.js';
import { changeInDoubt } from '../cmdutil/in-doubt.js';
import { sendChange } from '../cmdutil/send-change.js';
import { assertRecipients, forwardRecipient, lazyTicket, readMessage, recipientList, ticketSubject } from '../reading/mail.js';
import { ticketHeading } from '../reading/ticket-heading.js';
import { assertSingleStdinReader } from '../cmdutil/text-input.js';
import { checkUploads } from '../cmdutil/upload-files.js';
import { parseTicketId } from '../util/ids.js';
import { assertOneLine } from '../util/option-text.js';
import { attachOption, dryRunOption, idArgument, recipientsOption } from './shared-options.js';

export interface ForwardOptions {
  id: string;
  to?: string[] | undefined;
  cc?: string[] | undefined;
  subject?: string | undefined;
  message?: string | undefined;
  messageFile?: string | undefined;
  /** Keep it as a draft (HasDraft). */
  draft?: boolean | undefined;
  attach?: string[] | undefined;
  dryRun?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('forward')
    .description('Forward a ticket by e-mail')
    .addArgument(idArgument(program))
    .addOption(recipientsOption(program, '--to <email>', 'recipient (required)'))
    .addOption(recipientsOption(program, '--cc <emails>', 'CC addresses'))
    .option('--subject <text>', 'subject (default: "Fwd: <ticket title>")')
    .option('--message <text>', 'a message, or - to read stdin (default: $EDITOR at a terminal)')
    .option('--message-file <file>', 'read the message from a file')
    .option('--draft', 'save it as a draft instead of sending')
    .addOption(attachOption(program))
    .addOption(dryRunOption(program))
    .addHelpText(
      'after',
      `
Examples:
  $ tkt forward 42 --to vendor@example.com --message "Can you look at this?"
  $ tkt forward 42 --to vendor@example.com --cc lead@example.com --attach a.log
  $ tkt forward 42 --to vendor@example.com --draft --message-file draft.txt`,
    );
  // A signal while the forward is sent lets its answer come and be told, then ends the run (cmdutil/send-change.ts).
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx), { graceful: true });
}

export async function run(options: ForwardOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id, 'forward');
  assertRecipients(options);
  assertOneLine(options.subject, '--subject', 'a subject');
  assertSingleStdinReader({ texts: [['--message', options.message]], files: [['--message-file', options.messageFile]], paths: [['--attach', options.attach]] });
  const attach = await checkUploads(options.attach ?? [], '--attach');
  const to = await forwardRecipient(ctx, options.to);
  const ticket = lazyTicket(ctx, id);
  // Sent again with the options given and the recipient, maybe typed at the prompt: the same forward (README, Drafts).
  const given = optionWords([
    ['--to', to],
    ['--cc', options.cc],
    ['--subject', options.subject],
    ['--draft', options.draft],
    ['--attach', options.attach],
  ]);
  const draft = { stem: `forward-${id}`, was: 'your message was', resend: { words: ['forward', id, ...given].join(' '), fileOption: '--message-file' } };
  const message = await keepAskedText(ctx, draft, () => readMessage(ctx, options, false, async () => ticketHeading('Forward', id, await ticket())));
  // Typed in $EDITOR: kept in drafts/ if it is not sent (README, Drafts).
  const typed = options.message === undefined && options.messageFile === undefined && message !== undefined;

  const sent = await keepTypedText(
    ctx,
    () => (typed ? { text: message, ...draft } : undefined),
    async () => {
      const client = await ctx.api();
      const subject = options.subject ?? ticketSubject('Fwd', await ticket());
      const plan = plans.forwardTicket(id, { subject, to, cc: recipientList(options.cc), message, draft: options.draft, files: attach });
      if (options.dryRun) return void (await printDryRun(ctx, plan));
      return { client, subject, response: await sendChange(ctx, client, plan, changeInDoubt(ctx, id)) };
    },
  );
  if (sent === undefined) return;
  const { client, subject, response } = sent;
  const done = options.draft ? `saved a draft forward of #${id}` : `forwarded #${id}`;
  await printActionDone(ctx, response.body, `✓ ${done} to ${sanitizeInline(to)}: ${sanitizeInline(subject)}`);
  await checkKeptFiles(ctx, client, id, attach, response);
}
