// What the shell scripts complete, read from the commander program itself so that a new
// command or option is offered without touching this folder: a ticket field's value as the field
// table types it (tickets/fields.ts), any other option's as COMMAND_COMPLETIONS declares.
import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import { acceptsMe } from '../lookups/index.js';
import { ME, type LookupKind } from '../lookups/types.js';
import { SETTINGS } from '../config/settings.js';
import type { FieldValueType } from '../model/fields.js';
import { fieldOfOption } from '../fields/options.js';
import { LOOKUP_FILTERS, NO_ASSIGNEE, SORT_FIELDS } from '../listing/filter.js';
import { kebabCase, LIST_TYPES } from '../listing/query.js';
import { HELP_TOPICS } from '../output/help-topics.js';
import { ALL_COLLECTIONS } from '../lookups/collections.js';
import { ALIAS, TEMPLATE, type NameKind } from './complete.js';

/** How an option's value is completed. */
export type ValueCompletion =
  /** The names `tkt __complete KIND` prints at Tab time, beside fixed words (@me, none). */
  | { type: 'names'; kind: NameKind; words: readonly string[] }
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

export interface Positional {
  name: string;
  /** Takes every word from here on (`<id...>`). */
  variadic: boolean;
}

export interface CommandSpec {
  name: string;
  aliases: string[];
  description: string;
  options: OptionSpec[];
  /** The positional arguments as the command declares them (zsh completes options after them only when it knows them). */
  positionals: Positional[];
  /** Choices of the first positional argument, when it has fixed ones (a subcommand's name, help's subjects). */
  argumentWords: readonly string[];
  /** The names of a kind the first positional argument may also be, at Tab time (help's: the user's aliases). */
  argumentNames: NameKind | undefined;
  /** For a command with subcommands (config get KEY, templates show NAME): how each one's first argument completes. */
  subcommandArguments: Readonly<Record<string, ValueCompletion>>;
  /**
   * How the positional arguments after the first (the ID) complete, when they are files (attach
   * ID FILE...) or a name (assign ID... USER); other commands offer nothing there, never files.
   */
  argumentsAfterFirst: ValueCompletion | undefined;
}

export interface CompletionSpec {
  /** The program's options that work before the command and after it (tkt list --json). */
  globalOptions: OptionSpec[];
  /** The program's options that work before a command only (--version). */
  programOptions: OptionSpec[];
  commands: CommandSpec[];
}

// commander reads --version before a command only: `tkt close 1 --version` is an unknown option.
const BEFORE_COMMAND_ONLY: ReadonlySet<string | undefined> = new Set(['--version']);

/** A lookup kind's names; a person may also be ME, as the lookups take it. */
const lookup = (kind: LookupKind, ...extra: string[]): ValueCompletion => ({ type: 'names', kind, words: [...(acceptsMe(kind) ? [ME] : []), ...extra] });
const words = (list: readonly string[]): ValueCompletion => ({ type: 'words', words: list });
const FILES: ValueCompletion = { type: 'files' };
/** Typed freely: titles, numbers, dates, URLs, expressions. */
const TYPED = words([]);
const VIEWS = words(LIST_TYPES.map(kebabCase));
const TEMPLATES: ValueCompletion = { type: 'names', kind: TEMPLATE, words: [] };
const ALIASES: ValueCompletion = { type: 'names', kind: ALIAS, words: [] };
const SORTS = words([...SORT_FIELDS, ...SORT_FIELDS.map((name) => `-${name}`)]);

/** What a command's own options and arguments complete, beyond free text. */
interface CommandCompletion {
  /** By long flag. */
  options?: Readonly<Record<string, ValueCompletion>>;
  argumentsAfterFirst?: ValueCompletion;
  /** The first argument's words, given the names of the commands. */
  argumentWords?: (commands: readonly string[]) => readonly string[];
  /** The first argument's names of a kind, beside its words. */
  argumentNames?: NameKind;
  /** By subcommand: its first argument. */
  subcommandArguments?: Readonly<Record<string, ValueCompletion>>;
}

/** The global options' values beyond free text. */
const GLOBAL_COMPLETIONS: CommandCompletion = { options: { '--profile': { type: 'names', kind: 'profile', words: [] } } };

// Every option and argument that completes more than free text and is not a ticket field (those
// complete as the field table types them). Files only where tkt reads one; people as the command
// resolves them (--by among technicians, as tickets/acting-user.ts does).
// tkt list's filters, which tkt watch takes too.
const LIST_FILTERS = Object.fromEntries(LOOKUP_FILTERS.map((kind) => [`--${kind}`, kind === 'assignee' ? lookup(kind, NO_ASSIGNEE) : lookup(kind)]));

const COMMAND_COMPLETIONS: Readonly<Record<string, CommandCompletion>> = {
  list: {
    options: {
      '--view': VIEWS,
      '--sort': SORTS,
      '--requester': lookup('requester'),
      ...LIST_FILTERS,
    },
  },
  triage: { options: { '--view': VIEWS } },
  watch: {
    options: {
      '--view': VIEWS,
      '--requester': lookup('requester'),
      '--state': FILES,
      ...LIST_FILTERS,
    },
  },
  reopen: { options: { '--status': lookup('status') } },
  close: { options: { '--by': lookup('assignee'), '--attach': FILES } },
  resolve: { options: { '--by': lookup('assignee'), '--requester': lookup('requester'), '--details-file': FILES, '--template': TEMPLATES } },
  reply: { options: { '--as-requester': lookup('requester'), '--message-file': FILES, '--attach': FILES, '--template': TEMPLATES } },
  forward: { options: { '--message-file': FILES, '--attach': FILES } },
  create: { options: { '--description-file': FILES, '--from': FILES, '--report': FILES, '--resume': FILES, '--attach-dir': FILES } },
  api: { options: { '--input': FILES } },
  sandbox: { options: { '--data': FILES } },
  metadata: { options: { '--collection': words(ALL_COLLECTIONS) } },
  templates: { subcommandArguments: { show: TEMPLATES, edit: TEMPLATES } },
  // alias delete NAME; alias set NAME too, where a name already saved is the one --clobber replaces.
  alias: { subcommandArguments: { set: ALIASES, delete: ALIASES } },
  // help COMMAND, help TOPIC or help ALIAS.
  help: { argumentWords: (commands) => [...commands, ...Object.keys(HELP_TOPICS)], argumentNames: ALIAS },
  // attach ID FILE...
  attach: { argumentsAfterFirst: FILES },
  // assign ID... USER: `tkt assign 42 43 To<Tab>`.
  assign: { argumentsAfterFirst: lookup('assignee') },
};

/** How a command's first positional argument completes: its words, and the names of its kind at Tab time. */
export function firstArgumentCompletion(command: CommandSpec): ValueCompletion {
  return command.argumentNames === undefined ? words(command.argumentWords) : { type: 'names', kind: command.argumentNames, words: command.argumentWords };
}

/** How a ticket field's value completes, as the field table types it. */
function fieldCompletion(value: FieldValueType): ValueCompletion {
  if (value.type === 'lookup') return lookup(value.kind);
  if (value.type === 'files') return FILES;
  return TYPED;
}

function valueCompletion(option: Option, declared: CommandCompletion): ValueCompletion | undefined {
  if (!option.required && !option.optional) return undefined;
  if (option.argChoices !== undefined) return words(option.argChoices);
  const field = fieldOfOption(option);
  if (field !== undefined) return fieldCompletion(field.value);
  return (option.long === undefined ? undefined : declared.options?.[option.long]) ?? TYPED;
}

// A `<key>` argument (config get|set|unset) names a setting.
const SETTING_KEYS: readonly string[] = SETTINGS.map((setting) => setting.key);

function subcommandArguments(command: Command, declared: CommandCompletion): Record<string, ValueCompletion> {
  const bySubcommand: Record<string, ValueCompletion> = {};
  for (const sub of command.commands) {
    const first = sub.registeredArguments[0];
    const choices = first?.argChoices ?? (first?.name() === 'key' ? SETTING_KEYS : []);
    const value = declared.subcommandArguments?.[sub.name()] ?? (choices.length > 0 ? words(choices) : undefined);
    if (value !== undefined) bySubcommand[sub.name()] = value;
  }
  return bySubcommand;
}

function optionSpecs(command: Command, declared: CommandCompletion): OptionSpec[] {
  return command
    .createHelp()
    .visibleOptions(command)
    .map((option) => ({ short: option.short, long: option.long, description: option.description, value: valueCompletion(option, declared) }));
}

export function completionSpec(program: Command): CompletionSpec {
  const visible = program.createHelp().visibleCommands(program);
  const commandNames = visible.map((command) => command.name());
  const programWide = optionSpecs(program, GLOBAL_COMPLETIONS);
  return {
    globalOptions: programWide.filter((option) => !BEFORE_COMMAND_ONLY.has(option.long)),
    programOptions: programWide.filter((option) => BEFORE_COMMAND_ONLY.has(option.long)),
    commands: visible.map((command) => {
      const declared = COMMAND_COMPLETIONS[command.name()] ?? {};
      return {
        name: command.name(),
        aliases: command.aliases(),
        description: command.description(),
        // A command with subcommands (auth, config) completes their names, then their options.
        options: [...optionSpecs(command, declared), ...command.commands.flatMap((sub) => optionSpecs(sub, declared))].filter(
          (option, i, all) => option.long === undefined || all.findIndex((other) => other.long === option.long) === i,
        ),
        positionals: command.registeredArguments.map((argument) => ({ name: argument.name(), variadic: argument.variadic })),
        argumentWords:
          command.commands.length > 0
            ? command.commands.map((sub) => sub.name())
            : (command.registeredArguments[0]?.argChoices ?? declared.argumentWords?.(commandNames) ?? []),
        argumentNames: declared.argumentNames,
        subcommandArguments: subcommandArguments(command, declared),
        argumentsAfterFirst: declared.argumentsAfterFirst,
      };
    }),
  };
}
