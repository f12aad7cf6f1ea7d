// The command line's grammar as data, taken from commander's own definition of the CLI: what
// src/cmdutil/quick-parse.ts needs to read a command line exactly as commander would, without
// building the program. The build writes it next to the bundle (scripts/build-start.mjs); commander
// stays the one definition (docs/architecture.md, "The quick path").
import type { Argument, CommandUnknownOpts, Option } from '@commander-js/extra-typings';
import { collect } from '../util/option-text.js';

/** What happens to an option's value beyond storing it. */
export type ValueParse =
  | { kind: 'plain' }
  /** Repeatable: every value in order (src/util/option-text.ts collect). */
  | { kind: 'collect' }
  | { kind: 'choices'; choices: string[] }
  /** Anything else commander would do (print the version, a parser of unknown effect): the quick path steps aside. */
  | { kind: 'commander' };

export interface TableOption {
  short?: string;
  long?: string;
  /** The key of its value (commander's attributeName: --no-pager and --pager share `pager`). */
  attribute: string;
  value: 'none' | 'required' | 'optional';
  variadic: boolean;
  negate: boolean;
  /** JSON has no undefined: absent means none. */
  defaultValue?: unknown;
  presetArg?: unknown;
  parse: ValueParse;
  /** A command's copy of a global option (src/commander-program.ts): its value is not the command's own. */
  global?: true;
}

export interface TableArgument {
  required: boolean;
  variadic: boolean;
  defaultValue?: unknown;
  /** A parser or choices: the quick path steps aside for a command with such an argument. */
  parsed: boolean;
}

export interface TableCommand {
  /** Its name, then its aliases. */
  names: string[];
  options: TableOption[];
  arguments: TableArgument[];
  /** A short flag that is a digit (-1), here or in the program, makes commander read negative numbers as options. */
  digitShort: boolean;
}

export interface ArgvTable {
  /** The program's own (global) options. */
  options: TableOption[];
  /** A short flag of the program's that is a digit: commander then reads negative numbers as options. */
  digitShort: boolean;
  /** The commands the quick path may read: top-level ones without subcommands. */
  commands: TableCommand[];
}

/**
 * The table of `program` (every command registered). `versionFlags` names the program's version
 * option, which commander answers itself.
 */
export function argvTable(program: CommandUnknownOpts, versionFlags: string): ArgvTable {
  const options = program.options.map((option) => tableOption(option, option.flags === versionFlags));
  const programDigit = program.options.some(isDigitShort);
  // Program options from the environment or required: commander reads every command line.
  if (!quickReadable(program)) return { options, digitShort: programDigit, commands: [] };
  const commands = program.commands
    .filter((command) => command.commands.length === 0 && quickReadable(command))
    .map((command) => ({
      names: [command.name(), ...command.aliases()],
      options: command.options.map((option) => ({
        ...tableOption(option, false),
        ...(program.options.some((global) => global.flags === option.flags) ? { global: true as const } : {}),
      })),
      arguments: command.registeredArguments.map(tableArgument),
      digitShort: programDigit || command.options.some(isDigitShort),
    }));
  return { options, digitShort: programDigit, commands };
}

/** Options read from the environment or required to be given are commander's to check. */
function quickReadable(command: CommandUnknownOpts): boolean {
  return command.options.every((option) => option.envVar === undefined && !option.mandatory);
}

const isDigitShort = (option: Option) => option.short !== undefined && /^-\d$/.test(option.short);

function tableOption(option: Option, answeredByCommander: boolean): TableOption {
  return {
    ...(option.short === undefined ? {} : { short: option.short }),
    ...(option.long === undefined ? {} : { long: option.long }),
    attribute: option.attributeName(),
    value: option.required ? 'required' : option.optional ? 'optional' : 'none',
    variadic: option.variadic,
    negate: option.negate,
    ...(option.defaultValue === undefined ? {} : { defaultValue: asJson(option.defaultValue, option.flags) }),
    ...(option.presetArg === undefined ? {} : { presetArg: asJson(option.presetArg, option.flags) }),
    parse: answeredByCommander ? { kind: 'commander' } : valueParse(option),
  };
}

function valueParse(option: Option): ValueParse {
  if (option.parseArg === undefined) return { kind: 'plain' };
  if ((option.parseArg as unknown) === collect) return { kind: 'collect' };
  // commander's .choices() installs a parser of its own: the choices say what it accepts.
  if (option.argChoices !== undefined && !option.variadic) return { kind: 'choices', choices: [...option.argChoices] };
  return { kind: 'commander' };
}

function tableArgument(argument: Argument): TableArgument {
  return {
    required: argument.required,
    variadic: argument.variadic,
    ...(argument.defaultValue === undefined ? {} : { defaultValue: asJson(argument.defaultValue, argument.name()) }),
    parsed: argument.parseArg !== undefined,
  };
}

/** A value the table carries through JSON unchanged (a string, a number, a boolean, or an array of them). */
function asJson(value: unknown, owner: string): unknown {
  const plain = (item: unknown) => ['string', 'number', 'boolean'].includes(typeof item);
  if (plain(value) || (Array.isArray(value) && value.every(plain))) return value;
  throw new Error(`${owner}: a default or preset the quick path cannot carry (src/cmdutil/argv-table.ts)`);
}
