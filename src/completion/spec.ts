// What the shell scripts complete, read from the commander program itself so that a new
// command or option is offered without touching this folder: a ticket field's value as the field
// table types it (tickets/fields.ts), any other option's as COMMAND_COMPLETIONS declares.
import type { CommandUnknownOpts as Command, Option } from '@commander-js/extra-typings';
import type { LookupKind } from '../lookups/types.js';
import { SETTINGS } from '../config/settings.js';
import { fieldOfOption, type FieldValueType } from '../tickets/fields.js';
import { LOOKUP_FILTERS, SORT_FIELDS } from '../tickets/list-filter.js';
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
  /** Whether the positional arguments after the first (the ID) are files (attach ID FILE...): other commands never offer files. */
  argumentFiles: boolean;
  /** What the positional arguments after the first name, when they end in a name (assign ID... USER). */
  argumentLookup: LookupKind | undefined;
}

export interface CompletionSpec {
  globalOptions: OptionSpec[];
  commands: CommandSpec[];
}

const lookup = (kind: LookupKind): ValueCompletion => ({ type: 'lookup', kind });
const words = (list: readonly string[]): ValueCompletion => ({ type: 'words', words: list });
const FILES: ValueCompletion = { type: 'files' };
/** Typed freely: titles, numbers, dates, URLs, expressions. */
const TYPED = words([]);
const VIEWS = words(LIST_TYPES.map(kebabCase));
const SORTS = words([...SORT_FIELDS, ...SORT_FIELDS.map((name) => `-${name}`)]);

/** What a command's own options and arguments complete, beyond free text. */
interface CommandCompletion {
  /** By long flag. */
  options?: Readonly<Record<string, ValueCompletion>>;
  argumentFiles?: true;
  argumentLookup?: LookupKind;
}

// Every option and argument that completes more than free text and is not a ticket field (those
// complete as the field table types them). Files only where tkt reads one; people as the command
// resolves them (--by among technicians, as tickets/acting-user.ts does).
const COMMAND_COMPLETIONS: Readonly<Record<string, CommandCompletion>> = {
  list: {
    options: {
      '--view': VIEWS,
      '--sort': SORTS,
      '--requester': lookup('requester'),
      ...Object.fromEntries(LOOKUP_FILTERS.map((kind) => [`--${kind}`, lookup(kind)])),
    },
  },
  triage: { options: { '--view': VIEWS } },
  reopen: { options: { '--status': lookup('status') } },
  close: { options: { '--by': lookup('assignee'), '--attach': FILES } },
  resolve: { options: { '--by': lookup('assignee'), '--details-file': FILES } },
  reply: { options: { '--as-requester': lookup('requester'), '--message-file': FILES, '--attach': FILES } },
  forward: { options: { '--message-file': FILES, '--attach': FILES } },
  create: { options: { '--description-file': FILES, '--from': FILES, '--report': FILES, '--resume': FILES } },
  api: { options: { '--input': FILES } },
  sandbox: { options: { '--data': FILES } },
  // attach ID FILE...
  attach: { argumentFiles: true },
  // assign ID... USER: `tkt assign 42 43 To<Tab>`.
  assign: { argumentLookup: 'assignee' },
};

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

function subcommandWords(command: Command): Record<string, readonly string[]> {
  const bySubcommand: Record<string, readonly string[]> = {};
  for (const sub of command.commands) {
    const first = sub.registeredArguments[0];
    const choices = first?.argChoices ?? (first?.name() === 'key' ? SETTING_KEYS : []);
    if (choices.length > 0) bySubcommand[sub.name()] = choices;
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
  const help = program.createHelp();
  return {
    globalOptions: optionSpecs(program, {}),
    commands: help.visibleCommands(program).map((command) => {
      const declared = COMMAND_COMPLETIONS[command.name()] ?? {};
      return {
        name: command.name(),
        aliases: command.aliases(),
        description: command.description(),
        // A command with subcommands (auth, config) completes their names, then their options.
        options: [...optionSpecs(command, declared), ...command.commands.flatMap((sub) => optionSpecs(sub, declared))].filter(
          (option, i, all) => option.long === undefined || all.findIndex((other) => other.long === option.long) === i,
        ),
        argumentWords: command.commands.length > 0 ? command.commands.map((sub) => sub.name()) : (command.registeredArguments[0]?.argChoices ?? []),
        subcommandWords: subcommandWords(command),
        argumentFiles: declared.argumentFiles === true,
        argumentLookup: declared.argumentLookup,
      };
    }),
  };
}
