// reply and forward: the message text, and the defaults they take from the ticket
// (subject from its title, recipient from its requester's e-mail).
import { plans } from '../api/plans.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { readTicket, type Ticket } from '../model/ticket.js';
import { addressListProblem, joinAddresses } from '../util/email.js';
import { asOneLine, nonBlank } from '../util/option-text.js';
import { missingText, readTextOption, type TextOptionWithFile } from '../cmdutil/text-input.js';

export interface MessageOptions {
  message?: string | undefined;
  messageFile?: string | undefined;
}

/** reply's and forward's --message / --message-file pair. */
export function messageOption(options: MessageOptions): TextOptionWithFile {
  return { flag: '--message', fileFlag: '--message-file', text: options.message, file: options.messageFile };
}

/** How the message is asked for in $EDITOR: its heading, such as "Reply to #1031: Mouse double-clicks" (ticketHeading). */
export type MessageHeading = () => Promise<string>;

/**
 * --message, --message-file, `-` for stdin, or $EDITOR at a terminal when none was given
 * (as `git commit` does). Without a terminal: exit 2 when `required`, else no message.
 */
export async function readMessage(ctx: Context, options: MessageOptions, required: boolean, heading: MessageHeading): Promise<string | undefined> {
  const option = messageOption(options);
  return messageOrAsk(ctx, option, await readTextOption(ctx, option), required, heading);
}

/** The message `given` by the options, else asked for in $EDITOR as readMessage does. */
export async function messageOrAsk(
  ctx: Context,
  option: TextOptionWithFile,
  given: string | undefined,
  required: boolean,
  heading: MessageHeading,
): Promise<string | undefined> {
  if (given !== undefined) return given;
  if (ctx.io.canPrompt) return ctx.prompter.editor({ message: await heading() });
  if (!required) return undefined;
  throw missingText(option);
}

/** --to and --cc as given (each repeatable; tkt mcp's to and cc once), each value one address or several. */
export interface RecipientOptions {
  to?: string | readonly string[] | undefined;
  cc?: string | readonly string[] | undefined;
}

const valuesOf = (given: string | readonly string[]): readonly string[] => (typeof given === 'string' ? [given] : given);

/** --to and --cc (each one address or several, separated by commas or semicolons): exit 2 for an empty one or one that is not an address. */
export function assertRecipients(options: RecipientOptions): void {
  const problems = (['to', 'cc'] as const).flatMap((name) =>
    valuesOf(options[name] ?? []).flatMap((text) => addressListProblem(`--${name}`, nonBlank(text, `--${name} is empty`)) ?? []),
  );
  if (problems.length > 0) throw new UsageError(problems[0]!, { details: problems.slice(1) });
}

/** Every address of a repeated --to or --cc, as the service takes them; undefined when not given. */
export function recipientList(given: string | readonly string[] | undefined): string | undefined {
  return given === undefined ? undefined : joinAddresses(valuesOf(given));
}

/** forward's --to (assertRecipients checked it), or asked at a terminal: a forward has no default recipient. */
export async function forwardRecipient(ctx: Context, to: readonly string[] | undefined): Promise<string> {
  if (to !== undefined) return joinAddresses(to);
  if (!ctx.io.canPrompt) throw new UsageError('missing --to', { hint: 'forward needs a recipient: --to EMAIL' });
  return ctx.prompter.input({
    message: 'Forward to (e-mail)',
    validate: (value) => (value.trim() === '' ? 'an address is needed' : (addressListProblem('--to', value) ?? true)),
  });
}

/** The subject a reply or forward takes from the ticket ("Re: <title>"): one line, though a title may hold line breaks. */
export function ticketSubject(prefix: 'Re' | 'Fwd', ticket: Ticket): string {
  return asOneLine(`${prefix}: ${ticket.title ?? ''}`);
}

/** Fetched only when the editor's heading or a default needs it, so `--to`, `--subject` and `--message` together cost no GET. */
export function lazyTicket(ctx: Context, id: number): () => Promise<Ticket> {
  let ticket: Promise<Ticket> | undefined;
  const fetch = async () => readTicket((await (await ctx.api()).send(plans.getTicket(id))).body);
  return () => (ticket ??= fetch());
}
