// What the shell scripts complete, read from the commander program itself so that a new
// command or option is completed without touching this folder.
import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { isLookupKind, type LookupKind } from '../lookups/types.js';
import { SETTINGS } from '../config/settings.js';
import { SORT_FIELDS } from '../tickets/list-filter.js';
import { kebabCase, LIST_TYPES } from '../tickets/list-query.js';

/** How an option's value is completed. */
export type ValueCompletion =
  | { type: 'lookup'; kind: LookupKind }
  | { type: 'words'; words: readonly string[] }
  /** The shell's own file-name completion. */
  | { type: 'files' };

export interface OptionSpec {
  short: string | undefined;
  long: string | undefined;
  description: string;
  /** undefined: a switch without a value. */
  value: ValueCompletion | undefined;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  description: string;
  options: OptionSpec[];
  /** Choices of the first positional argument, when it has fixed ones. */
  argumentWords: readonly string[];
  /** For a command with subcommands (config get KEY): the choices of each one's first argument. */
  subcommandWords: Readonly<Record<string, readonly string[]>>;
  /** Whether positional arguments are files (attach ID FILE...): other commands never offer files. */
  argumentFiles: boolean;
  /** What the positional arguments after the first name, when they end in a name (assign ID... USER). */
  argumentLookup: LookupKind | undefined;
}

export interface CompletionSpec {
  globalOptions: OptionSpec[];
  commands: CommandSpec[];
}

// Options that name a user without being called after a lookup kind.
const USER_OPTIONS: Readonly<Record<string, LookupKind>> = { by: 'assignee', 'as-requester': 'requester' };
// Commands whose IDs are followed by a name: `tkt assign 42 43 To<Tab>`.
const LOOKUP_ARGUMENTS: Readonly<Record<string, LookupKind>> = { assign: 'assignee' };

const VIEW_NAMES: readonly string[] = LIST_TYPES.map(kebabCase);
const SORT_WORDS: readonly string[] = [...SORT_FIELDS, ...SORT_FIELDS.map((name) => `-${name}`)];
// Only a value named as a file (`--attach <file>`, `--resume <report>`) completes file names;
// titles, numbers, dates, URLs and expressions are typed freely.
const FILE_VALUE = /<(file|files|report|path)>/;

function valueCompletion(option: Option): ValueCompletion | undefined {
  if (!option.required && !option.optional) return undefined;
  if (option.argChoices !== undefined) return { type: 'words', words: option.argChoices };
  const name = option.long?.replace(/^--/, '') ?? '';
  if (name === 'view') return { type: 'words', words: VIEW_NAMES };
  if (name === 'sort') return { type: 'words', words: SORT_WORDS };
  if (isLookupKind(name)) return { type: 'lookup', kind: name };
  const userKind = USER_OPTIONS[name];
  if (userKind !== undefined) return { type: 'lookup', kind: userKind };
  return FILE_VALUE.test(option.flags) ? { type: 'files' } : { type: 'words', words: [] };
}

// A `<key>` argument (config get|set|unset) names a setting.
const SETTING_KEYS: readonly string[] = SETTINGS.map((setting) => setting.key);

function subcommandWords(command: Command): Record<string, readonly string[]> {
  const words: Record<string, readonly string[]> = {};
  for (const sub of command.commands) {
    const first = sub.registeredArguments[0];
    const choices = first?.argChoices ?? (first?.name() === 'key' ? SETTING_KEYS : []);
    if (choices.length > 0) words[sub.name()] = choices;
  }
  return words;
}

function optionSpecs(command: Command): OptionSpec[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .map((option) => ({ short: option.short, long: option.long, description: option.description, value: valueCompletion(option) }));
}

export function completionSpec(program: Command): CompletionSpec {
  const help = program.createHelp();
  return {
    globalOptions: optionSpecs(program),
    commands: help
      .visibleCommands(program)
      .map((command) => ({
        name: command.name(),
        aliases: command.aliases(),
        description: command.description(),
        // A command with subcommands (auth, config) completes their names, then their options.
        options: [...optionSpecs(command), ...command.commands.flatMap(optionSpecs)].filter(
          (option, i, all) => option.long === undefined || all.findIndex((other) => other.long === option.long) === i,
        ),
        argumentWords: command.commands.length > 0 ? command.commands.map((sub) => sub.name()) : (command.registeredArguments[0]?.argChoices ?? []),
        subcommandWords: subcommandWords(command),
        argumentFiles: command.registeredArguments.some((argument) => /^files?$/.test(argument.name())),
        argumentLookup: LOOKUP_ARGUMENTS[command.name()],
      })),
  };
}
