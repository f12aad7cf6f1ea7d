// The pager Enter opens, run with the terminal lent to it, and what the status line says when
// it cannot show the ticket. Apart from app.ts (Ink) so that the tests' effect runner pages
// through it too.
import type { Context } from '../context/context.js';
import { effectiveSetting, pagerNamed, settingSpec, unquotedSettingHint } from '../config/settings.js';
import { pageText, pagerTroubleText, type PagerTrouble } from '../output/pager.js';
import { isUnquotedPath } from '../util/shell-status.js';
import type { TerminalHolder } from '../util/terminal-handoff.js';

// The default pager, `less -FRX`, suits `tkt show` at the prompt but not a full-screen program:
// F quits at once on a ticket that fits, X prints it into the shell's own screen. Here less
// keeps the colours, stays until q and clears up; -+F -+X also undo them when $LESS has them.
// A configured less is run as it is, but never with -F, from $LESS or its command line (pageText's `stays`).
const TRIAGE_DEFAULT_PAGER = 'less -R -+F -+X';

/**
 * The pager Enter opens (the one the user configured, else less over the whole screen), and what
 * to say when it cannot be run or fails: where it came from, so the advice is the one that changes it.
 */
function triagePager(ctx: Context): { command: string; trouble: (trouble: PagerTrouble) => string } {
  const spec = settingSpec('pager');
  const pager = effectiveSetting(ctx, spec);
  if (pager.source === 'default') {
    return {
      command: TRIAGE_DEFAULT_PAGER,
      trouble: (trouble) =>
        trouble === 'not run' ? 'less could not be run: install it, or set a pager with "tkt config set pager"' : pagerTroubleText('less', trouble),
    };
  }
  const command = String(pager.value);
  return {
    command,
    trouble: (trouble) => {
      const text = pagerTroubleText(pagerNamed(pager), trouble);
      // A path with spaces, given unquoted, that sh split and looked for the first word of: how to quote it, as tkt show says.
      const quoteIt = trouble === 'not run' && isUnquotedPath(command) ? unquotedSettingHint(ctx, spec, pager) : undefined;
      return quoteIt === undefined ? text : `${text}; ${quoteIt}`;
    },
  };
}

/** Shows `text` in the pager, lent the terminal by `holder`; why not, when it could not be run or failed. */
export async function pageInTriage(ctx: Context, text: string, holder?: TerminalHolder): Promise<string | undefined> {
  const pager = triagePager(ctx);
  const trouble = await ctx.lendTerminal(() => pageText(text, pager.command, ctx.io.stdout, ctx.env, { stays: true }), holder);
  return trouble === undefined ? undefined : pager.trouble(trouble);
}
