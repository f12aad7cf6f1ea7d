import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { parseTicketId } from '../util/ids.js';
import { idArgument, noBrowserOption } from './shared-options.js';

export interface BrowseOptions {
  id: string;
  /** false with -n/--no-browser: the URL is printed instead. */
  browser: boolean;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('browse')
    .description("Open a ticket's page in the web browser")
    .addArgument(idArgument(program))
    .addOption(noBrowserOption(program))
    .addHelpText(
      'after',
      `
The page is the web-url setting with {id} replaced by the ticket's ID. It opens with $BROWSER,
else xdg-open (open on macOS, start on Windows); with -n, or when nothing can open it, the URL
is printed. At a terminal, $BROWSER runs on it (a text browser such as w3m needs it) and tkt
waits for it to exit.

Examples:
  $ tkt config set web-url 'https://helpdesk.example.com/Ticket/Details/{id}'
  $ tkt browse 42
  $ tkt browse -n 42`,
    );
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx));
}

export async function run(options: BrowseOptions, ctx: Context): Promise<void> {
  const { browseTicket } = await import('../desk/browser.js');
  await browseTicket(ctx, parseTicketId(options.id, 'browse'), !options.browser);
}
