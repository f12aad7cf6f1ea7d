// Reads a command line the way commander 14 does (its parseOptions, _parseCommand and
// _processArguments, mirrored step for step), from the grammar commander's definition gave the
// table (src/cmdutil/argv-table.ts), so that a run of one command needs neither commander nor the
// program built. Whatever commander would answer itself (help, the version, an error, an unknown
// command or option) is left to it: the parse returns undefined, and the run goes on through
// commander, which then says what it always said (docs/architecture.md, "The quick path").
import type { ArgvTable, TableArgument, TableCommand, TableOption } from './argv-table.js';
import { collect } from '../util/option-text.js';
import { optionTakenAsValue, wordsAfterValue } from './flag-as-value.js';

export interface QuickCommandLine {
  /** The command's name (not the alias typed). */
  command: string;
  /** Its arguments as commander hands them to the action: one entry per declared argument. */
  args: unknown[];
  /** Its own options, as the host hands them over (commandOptions, src/process-host.ts: without the global ones' copies). */
  opts: Record<string, unknown>;
  /** Its options and the global ones, as runOptions (src/process-host.ts) merges commander's. */
  runOptions: Record<string, unknown>;
  /** The program's options alone, as commander's program.opts(). */
  programOpts: Record<string, unknown>;
}

/** Thrown inside the parse where commander would do something of its own. */
class LeftToCommander extends Error {}

/** `argv` (without node and the script) read as commander reads it, or undefined where commander must read it. */
export function quickParse(argv: readonly string[], table: ArgvTable): QuickCommandLine | undefined {
  try {
    return parse(argv, table);
  } catch (error) {
    if (error instanceof LeftToCommander) return undefined;
    throw error;
  }
}

/**
 * The word of `argv` that names its command, found after the program's options as commander
 * finds it, if `isCommand` takes it; undefined where the line has none or commander must read the
 * program's options (the version). The bin's loader picks a command's bundle by it
 * (src/bundle-loader.ts), which then parses the whole line.
 */
export function commandWord(argv: readonly string[], program: ProgramGrammar, isCommand: (word: string) => boolean): string | undefined {
  try {
    const word = programPart(argv, program, (arg) => isCommand(arg)).top.operands[0];
    return word !== undefined && isCommand(word) ? word : undefined;
  } catch (error) {
    if (error instanceof LeftToCommander) return undefined;
    throw error;
  }
}

/** What reading the program's options takes from the table. */
export type ProgramGrammar = Pick<ArgvTable, 'options' | 'digitShort'>;

/**
 * The program's options read up to the command's word: the program reads its options before
 * that word only (positional options); the command has copies of them for the rest of the line
 * (src/commander-program.ts).
 */
function programPart(argv: readonly string[], grammar: ProgramGrammar, isCommand: (arg: string) => boolean) {
  const program = new OptionValues(grammar.options);
  const top = parseOptions(argv, program, { leaf: false, digitShort: grammar.digitShort, isCommand });
  return { program, top };
}

function parse(argv: readonly string[], table: ArgvTable): QuickCommandLine {
  const commandAt = (arg: string) => table.commands.find((candidate) => candidate.names.includes(arg));
  const { program, top } = programPart(argv, table, (arg) => commandAt(arg) !== undefined);
  const name = top.operands[0];
  const command = name === undefined ? undefined : commandAt(name);
  if (command === undefined) throw new LeftToCommander();
  // The full CLI refuses such a line with its reason.
  const flags = [...table.options, ...command.options].map((option) => ({ ...option, takesValue: option.value === 'required' }));
  if (optionTakenAsValue(argv, flags) !== undefined) throw new LeftToCommander();
  // An ID... command's word after an option's value may be an unquoted value's: the full CLI checks.
  if (command.arguments[0]?.variadic === true && wordsAfterValue(top.unknown, flags).some((run) => run.after.length > 0)) throw new LeftToCommander();
  const own = new OptionValues(command.options);
  const parsed = parseOptions(top.unknown, own, { leaf: true, digitShort: command.digitShort });
  if (parsed.unknown.length > 0) throw new LeftToCommander();
  const args = processArguments(command, [...top.operands.slice(1), ...parsed.operands]);
  // "-" for a command's one ID (`update -`): the full CLI refuses it with a loop over stdin's IDs.
  if (command.arguments[0]?.variadic === false && typeof args[0] === 'string' && args[0].trim() === '-') throw new LeftToCommander();
  const globals = new Set(command.options.filter((option) => option.global).map((option) => option.attribute));
  const opts = Object.fromEntries(Object.entries(own.values).filter(([attribute]) => !globals.has(attribute)));
  return { command: command.names[0]!, args, opts, runOptions: { ...own.values, ...program.values, ...own.given() }, programOpts: program.values };
}

/** One command's option values, with defaults set as commander's addOption sets them. */
class OptionValues {
  readonly values: Record<string, unknown> = {};
  /** Attributes still holding their default (commander compares by identity; the table's values are shared). */
  private readonly defaulted = new Set<string>();

  constructor(readonly options: readonly TableOption[]) {
    options.forEach((option, index) => {
      if (option.negate) {
        // --no-foo defaults foo to true, unless a --foo was defined before it.
        const positive = option.long?.replace(/^--no-/, '--');
        if (!options.slice(0, index).some((earlier) => earlier.short === positive || earlier.long === positive)) {
          this.setDefault(option.attribute, option.defaultValue === undefined ? true : option.defaultValue);
        }
      } else if (option.defaultValue !== undefined) {
        this.setDefault(option.attribute, option.defaultValue);
      }
    });
  }

  find(arg: string): TableOption | undefined {
    return this.options.find((option) => option.short === arg || option.long === arg);
  }

  /** commander's handleOptionValue for a value from the command line (undefined for a flag, null for an optional value left out). */
  set(option: TableOption, given: string | null | undefined): void {
    let value: unknown = given == null && option.presetArg !== undefined ? option.presetArg : given;
    const previous = this.values[option.attribute];
    if (value !== null && option.parse.kind !== 'plain') value = parseValue(option, value, previous);
    else if (value !== null && option.variadic) {
      value = this.defaulted.has(option.attribute) || !Array.isArray(previous) ? [value] : [...(previous as unknown[]), value];
    }
    if (value == null) value = option.negate ? false : option.value === 'none' || option.value === 'optional' ? true : '';
    this.values[option.attribute] = value;
    this.defaulted.delete(option.attribute);
  }

  /** The values given on the command line (commander's source 'cli'). */
  given(): Record<string, unknown> {
    return Object.fromEntries(Object.entries(this.values).filter(([attribute]) => !this.defaulted.has(attribute)));
  }

  private setDefault(attribute: string, value: unknown): void {
    this.values[attribute] = Array.isArray(value) ? [...(value as unknown[])] : value;
    this.defaulted.add(attribute);
  }
}

function parseValue(option: TableOption, value: unknown, previous: unknown): unknown {
  switch (option.parse.kind) {
    case 'collect':
      return collect(value as string, previous as string[] | undefined);
    case 'choices':
      if (typeof value !== 'string' || !option.parse.choices.includes(value)) throw new LeftToCommander();
      return value;
    default:
      throw new LeftToCommander();
  }
}

const maybeOption = (arg: string) => arg.length > 1 && arg[0] === '-';

/**
 * commander's parseOptions: the options of one command consumed, the rest sorted into operands
 * and unknown. With `isCommand` (positional options), the first word that is a command ends it.
 */
function parseOptions(args: readonly string[], values: OptionValues, level: { leaf: boolean; digitShort: boolean; isCommand?: (arg: string) => boolean }) {
  const operands: string[] = [];
  const unknown: string[] = [];
  let dest = operands;
  const negativeNumber = (arg: string) => /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/.test(arg) && !level.digitShort;
  let activeVariadic: TableOption | undefined;
  let activeGroup: string | undefined;
  let i = 0;
  while (i < args.length || activeGroup !== undefined) {
    const arg = activeGroup ?? args[i++]!;
    activeGroup = undefined;
    if (arg === '--') {
      if (dest === unknown) dest.push(arg);
      dest.push(...args.slice(i));
      break;
    }
    if (activeVariadic !== undefined && (!maybeOption(arg) || negativeNumber(arg))) {
      values.set(activeVariadic, arg);
      continue;
    }
    activeVariadic = undefined;
    if (maybeOption(arg)) {
      const option = values.find(arg);
      if (option !== undefined) {
        if (option.value === 'required') {
          const value = args[i++];
          // commander: "option ... argument missing"
          if (value === undefined) throw new LeftToCommander();
          values.set(option, value);
        } else if (option.value === 'optional') {
          let value: string | null = null;
          if (i < args.length && (!maybeOption(args[i]!) || negativeNumber(args[i]!))) value = args[i++]!;
          values.set(option, value);
        } else {
          values.set(option, undefined);
        }
        activeVariadic = option.variadic ? option : undefined;
        continue;
      }
    }
    // -abc: the first letter's option, then the rest as a group (or its value).
    if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
      const option = values.find(`-${arg[1]}`);
      if (option !== undefined) {
        if (option.value !== 'none') values.set(option, arg.slice(2));
        else {
          values.set(option, undefined);
          activeGroup = `-${arg.slice(2)}`;
        }
        continue;
      }
    }
    // --name=value
    if (/^--[^=]+=/.test(arg)) {
      const index = arg.indexOf('=');
      const option = values.find(arg.slice(0, index));
      if (option !== undefined && option.value !== 'none') {
        values.set(option, arg.slice(index + 1));
        continue;
      }
    }
    // An unknown option: it and what follows are the subcommand's to read.
    if (dest === operands && maybeOption(arg) && !(level.leaf && negativeNumber(arg))) dest = unknown;
    if (level.isCommand !== undefined && operands.length === 0 && unknown.length === 0 && level.isCommand(arg)) {
      operands.push(arg);
      unknown.push(...args.slice(i));
      break;
    }
    dest.push(arg);
  }
  return { operands, unknown };
}

/** commander's _checkNumberOfArguments and _processArguments. */
function processArguments(command: TableCommand, args: readonly string[]): unknown[] {
  const declared: readonly TableArgument[] = command.arguments;
  if (declared.some((argument) => argument.parsed)) throw new LeftToCommander();
  // Too few (a required one missing), or too many without a variadic last.
  if (declared.some((argument, index) => argument.required && args[index] == null)) throw new LeftToCommander();
  if (!declared.at(-1)?.variadic && args.length > declared.length) throw new LeftToCommander();
  return declared.map((argument, index) => {
    if (argument.variadic) return index < args.length ? args.slice(index) : (argument.defaultValue ?? []);
    return index < args.length ? args[index] : argument.defaultValue;
  });
}
