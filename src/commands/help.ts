import type { CommandHost, Program } from './host.js';
import { builtinNames } from './names.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { closestWord } from '../util/closest.js';
import { HELP_TOPICS, renderHelpTopic, type HelpTopicName } from '../output/help-topics.js';
import { writeText } from '../output/write.js';
import { aliasesOnFile } from '../desk/alias-help.js';
import { printAliasHelp } from '../desk/alias-help-print.js';
import { commandNamed, deepestCommand, subcommandWords } from '../cmdutil/command-tree.js';

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

export async function run(options: HelpOptions, ctx: Context): Promise<void> {
  const { subject, program } = options;
  const [first, ...rest] = subject;
  if (first !== undefined && rest.length === 0 && Object.hasOwn(HELP_TOPICS, first)) {
    await writeText(ctx.io.stdout, renderHelpTopic(HELP_TOPICS[first as HelpTopicName], TOPIC_WIDTH));
    return;
  }
  if (first !== undefined && rest.length === 0 && commandNamed(program, first) === undefined) {
    // The settings as the program's help reads them: a damaged file never stops a help.
    const aliases = aliasesOnFile(ctx.env, builtinNames());
    if (Object.hasOwn(aliases, first)) return printAliasHelp(ctx, program, { name: first, aliases });
    // One that cannot run says why, as running it would (a file that cannot be read: no alias).
    const { assertAliasRuns, readAliases } = await import('../desk/aliases.js');
    const saved = (() => {
      try {
        return readAliases(ctx.config, builtinNames());
      } catch {
        return undefined;
      }
    })();
    if (saved !== undefined) assertAliasRuns(first, saved, builtinNames(), ctx.config);
  }
  const { command, depth } = deepestCommand(program, subject);
  if (depth < subject.length) {
    // A run of `tkt help WORD` registers only the commands WORD names: the others by their names.
    const names = depth === 0 ? [...builtinNames(), ...TOPIC_NAMES] : subcommandWords(command);
    const meant = closestWord(subject[depth]!, names);
    const known = `commands: tkt --help; topics: ${TOPIC_NAMES.join(', ')}`;
    throw new UsageError(`no command or help topic named "${subject.join(' ')}"`, {
      hint: meant === undefined ? known : `did you mean "tkt help ${[...subject.slice(0, depth), meant].join(' ')}"? ${known}`,
    });
  }
  // Commander writes help through the program's configured output (the same stdout).
  command.outputHelp();
}
