// Commands found by the words that name them in commander's tree of the program, as
// `tkt help config set` and the hints of usage errors find them.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';

type Command = CommandUnknownOpts;

/** The command right under `parent` that `word` names, by its name or one of its aliases. */
export const commandNamed = (parent: Command, word: string): Command | undefined =>
  parent.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));

/** The deepest command that `words`, from the first, name under `parent`, and how many words named it. */
export function deepestCommand(parent: Command, words: readonly string[]): { command: Command; depth: number } {
  let command = parent;
  let depth = 0;
  for (const word of words) {
    const next = commandNamed(command, word);
    if (next === undefined) break;
    command = next;
    depth++;
  }
  return { command, depth };
}

/** Every word that names a command right under `parent`: names and aliases. */
export const subcommandWords = (parent: Command): string[] => parent.commands.flatMap((sub) => [sub.name(), ...sub.aliases()]);
