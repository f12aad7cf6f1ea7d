import type { CommandHost, Program } from './host.js';
import { builtinNames } from './names.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { closestWord } from '../util/closest.js';
import { HELP_TOPICS, renderHelpTopic, type HelpTopicName } from '../output/help-topics.js';
import { writeText } from '../output/write.js';
import { aliasHelpHeading, aliasesOnFile } from '../desk/alias-help.js';

// As wide as every --help (README: help is laid out for 80 columns).
const TOPIC_WIDTH = 80;
const TOPIC_NAMES = Object.keys(HELP_TOPICS) as HelpTopicName[];

// Replaces commander's help command, which knows only commands (`tkt help exit-codes` printed the
// main help): `tkt help` also shows the README's reference tables (docs/cli.md section 10), a
// nested command's help (`tkt help config set`) and what a user alias stands for.
export function register(program: Program, host: CommandHost): void {
  program.helpCommand(false);
  const command = program
    .command('help')
    .description(`Show help for a command, or a topic: ${TOPIC_NAMES.join(', ')}`)
    .argument('[command-or-topic...]')
    .addHelpText('after', `\nTopics:\n${TOPIC_NAMES.map((name) => `  ${name.padEnd(12)}${HELP_TOPICS[name].summary}`).join('\n')}`);
  host.action(command, ([subject], _opts, ctx) => run({ subject, program }, ctx), { readsProgram: true });
}

export interface HelpOptions {
  /** The words after `help`: none (the program's help), a topic, a command and its subcommands, or an alias. */
  subject: readonly string[];
  /** The whole CLI, whose commands' help this prints. */
  program: Program;
}

type Command = Program['commands'][number];

const commandNamed = (parent: Program | Command, word: string) =>
  parent.commands.find((candidate) => candidate.name() === word || candidate.aliases().includes(word));

/** The deepest command that `words`, from the first, name under `parent`, and how many words named it. */
function deepestCommand(parent: Program | Command, words: readonly string[]): { command: Program | Command; depth: number } {
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

export async function run(options: HelpOptions, ctx: Context): Promise<void> {
  const { subject, program } = options;
  const [first, ...rest] = subject;
  if (first !== undefined && rest.length === 0 && Object.hasOwn(HELP_TOPICS, first)) {
    await writeText(ctx.io.stdout, renderHelpTopic(HELP_TOPICS[first as HelpTopicName], TOPIC_WIDTH));
    return;
  }
  if (first !== undefined && rest.length === 0 && commandNamed(program, first) === undefined) {
    // The settings as the program's help reads them: a damaged file never stops a help.
    const aliases = aliasesOnFile(ctx.env);
    if (Object.hasOwn(aliases, first)) return aliasHelp(first, aliases, program, ctx);
  }
  const { command, depth } = deepestCommand(program, subject);
  if (depth < subject.length) {
    // A run of `tkt help WORD` registers only the commands WORD names: the others by their names.
    const names = depth === 0 ? [...builtinNames(), ...TOPIC_NAMES] : command.commands.flatMap((sub) => [sub.name(), ...sub.aliases()]);
    const meant = closestWord(subject[depth]!, names);
    const known = `commands: tkt --help; topics: ${TOPIC_NAMES.join(', ')}`;
    throw new UsageError(`no command or help topic named "${subject.join(' ')}"`, {
      hint: meant === undefined ? known : `did you mean "tkt help ${[...subject.slice(0, depth), meant].join(' ')}"? ${known}`,
    });
  }
  // Commander writes help through the program's configured output (the same stdout).
  command.outputHelp();
}

/** What the alias `name` stands for, then the help of the command it runs. */
async function aliasHelp(name: string, aliases: Record<string, string>, program: Program, ctx: Context): Promise<void> {
  const expansion = aliases[name]!;
  if (expansion.startsWith('!')) {
    await writeText(ctx.io.stdout, aliasHelpHeading(name, expansion));
    return;
  }
  const { checkExpansionStart, splitWords } = await import('../desk/aliases.js');
  // One that could not run says so, as running it would.
  checkExpansionStart(name, expansion, { builtins: builtinNames(), aliases }, { saved: true });
  await writeText(ctx.io.stdout, aliasHelpHeading(name, expansion));
  // The command's word: the first, or after the global options of one saved by an older tkt; then
  // the subcommands that follow it, as `tkt help config set` finds them.
  const words = splitWords(expansion);
  const start = words.findIndex((word) => commandNamed(program, word) !== undefined);
  if (start !== -1) deepestCommand(program, words.slice(start)).command.outputHelp();
}
