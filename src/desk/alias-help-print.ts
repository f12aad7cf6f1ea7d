// `tkt help NAME` for a user's alias NAME (src/commands/help.ts): what it stands for, then the
// help of the command it runs.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { commandNamed, deepestCommand } from '../cmdutil/command-tree.js';
import type { Context } from '../context/context.js';
import { writeText } from '../output/write.js';
import { aliasHelpHeading } from './alias-help.js';

/**
 * What the alias `name` of `aliases` (those that can run) stands for, then the help of the
 * command of `program` it runs.
 */
export async function printAliasHelp(ctx: Context, program: CommandUnknownOpts, alias: { name: string; aliases: Record<string, string> }): Promise<void> {
  const { name, aliases } = alias;
  const expansion = aliases[name]!;
  if (expansion.startsWith('!')) {
    await writeText(ctx.io.stdout, aliasHelpHeading(name, expansion));
    return;
  }
  const { splitWords } = await import('./aliases.js');
  await writeText(ctx.io.stdout, aliasHelpHeading(name, expansion));
  // The command's word: the first, or after the global options of one saved by an older tkt; then
  // the subcommands that follow it, as `tkt help config set` finds them.
  const words = splitWords(expansion);
  const start = words.findIndex((word) => commandNamed(program, word) !== undefined);
  if (start !== -1) deepestCommand(program, words.slice(start)).command.outputHelp();
}
