import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { fieldsOption } from '../output/flags.js';
import { parseTicketId, wholeNumberOption } from '../util/ids.js';
import { idArgument, noBrowserOption } from './shared-options.js';
import { mayPage, pageText, pagerTroubleText } from '../output/pager.js';
import { writeText } from '../output/write.js';
import { isUnquotedPath } from '../util/shell-status.js';
import { TICKET_MEMBER_ALIASES } from '../model/ticket.js';

export interface ShowOptions {
  id: string;
  markRead?: boolean | undefined;
  /** --comments N as typed: the last N conversation entries. */
  comments?: string | undefined;
  /** false with --no-pager. */
  pager: boolean;
  /** --web: the ticket's page in the browser instead (tkt browse). */
  web?: boolean | undefined;
  /** false with -n/--no-browser: with --web, the URL printed. */
  browser?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('show')
    .alias('view')
    .description('Show a ticket: details, description, resolution, conversation and attachments')
    .addArgument(idArgument(program))
    .option('--mark-read', 'also mark the ticket as read')
    .option('--comments <n>', 'only the last N conversation entries')
    .option('--no-pager', 'print straight to the terminal, without the pager')
    .option('-w, --web', "open the ticket's page in the web browser instead (tkt browse)")
    .addOption(noBrowserOption(program))
    .addOption(fieldsOption(program))
    .addHelpText(
      'after',
      `\nAt a terminal the ticket is wrapped to its width and paged through "tkt config get pager"\n($PAGER, default less -FRX); never under CI, with --no-input, or at a terminal that\nreports no size.\n\nExamples:\n  $ tkt show 42\n  $ tkt view 42 --mark-read\n  $ tkt show 42 --comments 3 --no-pager\n  $ tkt show 42 --fields id,title,dueDate\n  $ tkt show 42 --query status.status --raw`,
    );
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx));
}

export async function run(options: ShowOptions, ctx: Context): Promise<void> {
  const id = parseTicketId(options.id, 'show');
  if (options.web) {
    const { browseTicket } = await import('../desk/browser.js');
    return browseTicket(ctx, id, options.browser === false);
  }
  const comments = options.comments === undefined ? undefined : wholeNumberOption('--comments', options.comments, { min: 0 });
  const api = await ctx.api();
  const ticket = (await api.send(plans.getTicket(id))).body;
  const render = async () => {
    const [{ renderTicketDetail }, { createLookups }] = await Promise.all([import('../reading/detail.js'), import('../lookups/index.js')]);
    return renderTicketDetail(ticket, {
      lookups: createLookups(ctx),
      now: ctx.now(),
      color: ctx.io.stdoutColor,
      width: ctx.io.stdoutIsTTY ? ctx.io.size().columns : undefined,
      comments,
    });
  };
  if (options.pager && ctx.output.format === 'human' && mayPage(ctx.io, ctx.globals, ctx.env)) {
    const { effectiveSetting, pagerNamed, settingSpec, unquotedSettingHint, userSettings } = await import('../config/settings.js');
    const text = await render();
    const pager = userSettings(ctx).pager;
    const trouble = await ctx.lendTerminal(() => pageText(text, pager, ctx.io.stdout, ctx.env));
    const spec = settingSpec('pager');
    const setting = effectiveSetting(ctx, spec);
    // A path with spaces, given unquoted, that sh split and named only the first word of: how to quote it.
    const quoteIt = trouble === 'not run' && isUnquotedPath(pager) ? unquotedSettingHint(ctx, spec, setting) : undefined;
    // One that failed (a bad option, PAGER=false) or could not run (sh's "nope: not found" names
    // neither tkt nor the pager setting): said by tkt, and the ticket printed directly, so nothing is lost.
    if (trouble !== undefined) {
      const hint = quoteIt === undefined ? '' : `hint: ${quoteIt}\n`;
      await ctx.output.warning(`${pagerTroubleText(pagerNamed(setting), trouble)}: the ticket is printed instead\n${hint}`);
      await writeText(ctx.io.stdout, text);
    }
  } else {
    await ctx.output.document(ticket, { human: render, aliases: TICKET_MEMBER_ALIASES });
  }
  // After the ticket is printed: reading it is what marks it read.
  if (options.markRead) await api.send(plans.markRead(id));
}
