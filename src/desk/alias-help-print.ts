// `tkt help NAME` for a user's alias NAME (src/commands/help.ts): what it stands for, then the
// help of the command it runs.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { commandNamed, deepestCommand } from '../cmdutil/command-tree.js';
import type { Context } from '../context/context.js';
import { writeText } from '../output/write.js';
import { aliasHelpHeading } from './alias-help.js';

/**
 * What the alias `name` of `aliases` stands for, then the help of the command of `program` it
 * runs; `builtins` are the names of tkt's own commands (an alias cannot hide one).
 */
export async function printAliasHelp(
  ctx: Context,
  program: CommandUnknownOpts,
  alias: { name: string; aliases: Record<string, string>; builtins: readonly string[] },
): Promise<void> {
  const { name, aliases, builtins } = alias;
  const expansion = aliases[name]!;
  if (expansion.startsWith('!')) {
    await writeText(ctx.io.stdout, aliasHelpHeading(name, expansion));
    return;
  }
  const { checkExpansionStart, splitWords } = await import('./aliases.js');
  // One that could not run says so, as running it would.
  checkExpansionStart(name, expansion, { builtins, aliases }, { saved: true });
  await writeText(ctx.io.stdout, aliasHelpHeading(name, expansion));
  // The command's word: the first, or after the global options of one saved by an older tkt; then
  // the subcommands that follow it, as `tkt help config set` finds them.
  const words = splitWords(expansion);
  const start = words.findIndex((word) => commandNamed(program, word) !== undefined);
  if (start !== -1) deepestCommand(program, words.slice(start)).command.outputHelp();
}
