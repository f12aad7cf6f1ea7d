// tkt triage [--view VIEW]: the technician's full-screen queue (README, Triage). The
// screen and its terminal UI library live in src/triage/, loaded only by this command.
import { tktCommand } from '../config/session.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { chosenListType, kebabCase, parseListType } from '../listing/query.js';
import { keyHelpLines } from '../triage/keys.js';
import { wholeNumberOption } from '../util/ids.js';
import { intervalMs, MIN_INTERVAL_SECONDS } from '../watch/interval.js';

export interface TriageOptions {
  view?: string | undefined;
  interval?: string | undefined;
}

/** Test-only: the --interval in milliseconds, for the tmux test that must not wait 10 s (README, Triage). */
const TEST_INTERVAL_VARIABLE = 'TKT_TEST_TRIAGE_INTERVAL_MS';

/** The queue triage opens without --view or a default-view setting: yours and nobody's. */
const TRIAGE_DEFAULT_VIEW = 'MyOpenOrUnassigned';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('triage')
    .description('Work through a view full-screen: navigate, read and act on tickets with single keys')
    .option('--view <view>', `the view to open (see tkt list --help); default: the default-view setting, else ${kebabCase(TRIAGE_DEFAULT_VIEW)}`)
    .option('--interval <seconds>', `read the view again every SECONDS (at least ${MIN_INTERVAL_SECONDS}) and mark the rows that changed`)
    .addHelpText(
      'after',
      `
Keys (tkt triage needs a terminal):
${keyHelpLines().join('\n')}

With a screen reader or a braille display, TKT_SCREEN_READER=1 keeps the terminal's
cursor on the highlighted row, or where text is typed (README: Screen readers).

Examples:
  $ tkt triage
  $ tkt triage --view unassigned-tickets
  $ tkt triage --interval 30`,
    );
  // Graceful: a SIGTERM closes the screen and gives the terminal back rather than exiting under it.
  host.action(command, (_args, opts, ctx) => run(opts, ctx), { graceful: true, awaitsReads: true, saysWaiting: false });
}

export async function run(options: TriageOptions, ctx: Context): Promise<void> {
  const interval = options.interval === undefined ? undefined : wholeNumberOption('--interval', options.interval, { min: MIN_INTERVAL_SECONDS });
  const view = chosenListType(options.view, ctx) ?? parseListType(TRIAGE_DEFAULT_VIEW);
  ctx.output.assertNoDataOutput(
    'tkt triage is interactive',
    `for the view's tickets as data: ${tktCommand(ctx, `list --view ${kebabCase(view)} --all --json`)} (or -q for their IDs)`,
  );
  if (!ctx.io.canPrompt || !ctx.io.stdoutIsTTY) {
    throw new UsageError('tkt triage needs a terminal: stdin, stdout and stderr must all be one (and neither --no-input nor CI set)', {
      hint: `in scripts use ${tktCommand(ctx, `list --view ${kebabCase(view)}`)} and the ID commands (tkt pickup, tkt resolve...)`,
    });
  }
  if (!ctx.io.cursorControl) {
    throw new UsageError('tkt triage needs a terminal that can draw a screen: TERM is dumb (as in Emacs M-x shell)', {
      hint: `run it in a terminal emulator (in Emacs: M-x term or vterm), or use ${tktCommand(ctx, `list --view ${kebabCase(view)}`)} and the ID commands`,
    });
  }
  // A screen kept open for hours, through upgrades of tkt (Context.loadAhead).
  await ctx.loadAhead();
  const { runTriage } = await import('../triage/app.js');
  await runTriage(ctx, { view, intervalMs: interval === undefined ? undefined : intervalMs(interval, ctx, TEST_INTERVAL_VARIABLE) });
}
