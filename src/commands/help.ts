import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { HELP_TOPICS, renderHelpTopic, type HelpTopicName } from '../output/help-topics.js';
import { writeText } from '../output/write.js';

// As wide as every --help (README: help is laid out for 80 columns).
const TOPIC_WIDTH = 80;
const TOPIC_NAMES = Object.keys(HELP_TOPICS) as HelpTopicName[];

// Replaces commander's help command, which knows only commands (`tkt help exit-codes` printed the
// main help): `tkt help` also shows the README's reference tables (docs/cli.md section 10).
export function register(program: Program, host: CommandHost): void {
  program.helpCommand(false);
  const command = program
    .command('help')
    .description(`Show help for a command, or a topic: ${TOPIC_NAMES.join(', ')}`)
    .argument('[command-or-topic]')
    .addHelpText('after', `\nTopics:\n${TOPIC_NAMES.map((name) => `  ${name.padEnd(12)}${HELP_TOPICS[name].summary}`).join('\n')}`);
  host.action(command, ([subject], _opts, ctx) => run({ subject, program }, ctx), { readsProgram: true });
}

export interface HelpOptions {
  subject: string | undefined;
  /** The whole CLI, whose commands' help this prints. */
  program: Program;
}

export async function run(options: HelpOptions, ctx: Context): Promise<void> {
  const { subject, program } = options;
  if (subject !== undefined && Object.hasOwn(HELP_TOPICS, subject)) {
    await writeText(ctx.io.stdout, renderHelpTopic(HELP_TOPICS[subject as HelpTopicName], TOPIC_WIDTH));
    return;
  }
  const command = subject === undefined ? program : program.commands.find((candidate) => candidate.name() === subject || candidate.aliases().includes(subject));
  if (command === undefined) {
    throw new UsageError(`no command or help topic named "${subject}"`, {
      hint: `commands: tkt --help; topics: ${TOPIC_NAMES.join(', ')}`,
    });
  }
  // Commander writes help through the program's configured output (the same stdout).
  command.outputHelp();
}
