// What commander's usage errors leave out: what to type. Each error of the program and of its
// commands gets a suggestion or a hint from the command line as typed (README: usage errors): a
// value with spaces left unquoted, a global option misspelt after the command, a missing ID (a
// `#42` the shell read as a comment), an option before the command it belongs to, a ticket ID
// where a command was expected, a subcommand by another name, several IDs for update (a loop).
// Only commander reads such lines: the quick path leaves them to it (src/cmdutil/quick-parse.ts).
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../errors.js';
import { closestWord } from '../util/closest.js';
import { ticketIdOf, ticketSpansOf } from '../util/ids.js';
import { quotedValue, shellWord } from '../util/shell-word.js';
import { commandNamed, subcommandWords } from './command-tree.js';
import { wordsAfterValue, type OptionFlags } from './flag-as-value.js';
import { SECRET } from './secret-options.js';

/**
 * The alias (tkt alias) a command line was expanded from: its name, the arguments typed after
 * it, and the command line other arguments would make (undefined where they fill no line).
 */
export interface AliasCall {
  name: string;
  args: readonly string[];
  expand(args: readonly string[]): readonly string[] | undefined;
  /** The expansion's words as saved ($1, $2... unfilled), which start the line. */
  words: readonly string[];
  /** How many words of the line, right after the expansion's, are arguments that no placeholder took. */
  spare: number;
}

/** What the hints know beyond the program: the list views (`tkt list my-open-tickets`), the user's aliases (`tkt mien`), and the alias the line came from. */
export interface UsageWords {
  views: readonly string[];
  aliases: readonly string[];
  alias?: AliasCall | undefined;
}

/**
 * Words typed for a command that tkt names otherwise, the usual words of other CLIs (gh, docker):
 * the nearest spelling of `open` is reopen, a change, and of `new` view. A word for what is an
 * option of tkt (`search`, `version`) is said with it.
 */
const SUBCOMMAND_SYNONYMS: Readonly<Record<string, string>> = {
  rm: 'delete',
  remove: 'delete',
  del: 'delete',
  ls: 'list',
  new: 'create',
  add: 'create',
  take: 'pickup',
  edit: 'update',
  open: 'show',
  get: 'show',
  search: 'list --search',
  find: 'list --search',
  version: '--version',
};

/** A value that a quote hint may join words to: not a secret's, nor a number (`--concurrency 2 x`: x is no part of it). */
const textValue = (run: { option: string; value: string }) => !SECRET.test(run.option) && !/^\d+$/.test(run.value);

type Command = CommandUnknownOpts;

/** The command's words after tkt: `alias set`. */
const commandPath = (command: Command): string[] => (command.parent === null ? [] : [...commandPath(command.parent), command.name()]);

const flagsOf = (command: Command): OptionFlags[] =>
  command.options.map((option) => ({ short: option.short, long: option.long, takesValue: option.required || option.optional }));

/**
 * The first value of `argv` that has words after it that no option takes, as an unquoted value
 * with spaces leaves them (`--requester Anna Berg`), if `strays` start there; never a secret's.
 */
function unquotedValue(argv: readonly string[], options: readonly OptionFlags[], strays: readonly string[]) {
  const found = wordsAfterValue(argv, options).find((run) => run.after.length > 0 && run.after[0] === strays[0]);
  return found === undefined || !textValue(found) ? undefined : found;
}

type ValueRun = { option: string; value: string; after: readonly string[]; at: number };

/**
 * `quote a value with spaces: --requester "Anna Berg"`. Of an alias's line, what the user typed
 * instead: the arguments that made the value and the words after it, quoted into one (`tkt fixed
 * 1029 'toner extra'`); else where the words after the value come from (whereFrom).
 */
function quoteHint(run: ValueRun, argv: readonly string[], alias: AliasCall | undefined): string {
  const joined = [run.value, ...run.after].join(' ');
  if (alias === undefined) return `quote a value with spaces: ${run.option} ${quotedValue(joined)}`;
  const typed = typedArgumentsQuoted(run, alias);
  if (typed !== undefined) return `quote an argument with spaces: ${['tkt', alias.name, ...typed].map(shellWord).join(' ')}`;
  return whereFrom(run, argv, alias) ?? `quote a value with spaces in alias ${alias.name}: ${run.option} ${quotedValue(joined)}`;
}

/**
 * Where the words after `run`'s value come from, by their place in the alias's line (`argv` is
 * its end): the expansion's own words (the alias needs the quotes), its placeholders (which of
 * them), arguments that no placeholder took (appended). A word typed twice is told by its place,
 * not its text: `"b"` may fill $3 and be left over too. Undefined where the line is not the alias's.
 */
function whereFrom(run: ValueRun, argv: readonly string[], alias: AliasCall): string | undefined {
  const line = alias.expand(alias.args);
  if (line === undefined || line.length < argv.length) return undefined;
  const first = line.length - argv.length + run.at + 2;
  const own: string[] = [];
  const filled: string[] = [];
  const placeholders: string[] = [];
  const spare: string[] = [];
  run.after.forEach((word, index) => {
    const saved = alias.words[first + index];
    const taken = saved?.match(/\$\d+/g);
    if (saved === undefined) {
      if (first + index < alias.words.length + alias.spare) spare.push(word);
    } else if (taken === null || taken === undefined) own.push(word);
    else {
      filled.push(word);
      placeholders.push(...taken);
    }
  });
  const fill = (words: readonly string[]) => `${quotedValue(words.join(' '))} ${words.length === 1 ? 'fills' : 'fill'}`;
  const said = [
    ...(own.length > 0 ? [`quote a value with spaces in alias ${alias.name}: ${run.option} ${quotedValue([run.value, ...own].join(' '))}`] : []),
    ...(filled.length > 0 ? [`${fill(filled)} ${placeholders.join(', ')} of alias ${alias.name}, which stands after ${run.option}'s value`] : []),
    ...(spare.length > 0 ? [`${fill(spare)} no placeholder of alias ${alias.name}: the arguments left over are added after what it stands for`] : []),
  ];
  return said.length === 0 ? undefined : said.join('; ');
}

/**
 * The alias's arguments with a run of them joined into one, where that makes the line the quoted
 * value would (`run.value` and the words after it one word); undefined when no run does.
 */
function typedArgumentsQuoted(run: ValueRun, alias: AliasCall): string[] | undefined {
  const words = [run.value, ...run.after];
  const line = alias.expand(alias.args) ?? [];
  const sameWords = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((word, i) => word === b[i]);
  const wanted = line
    .map((_word, i) => i)
    .filter((i) => sameWords(line.slice(i, i + words.length), words))
    .map((i) => [...line.slice(0, i), words.join(' '), ...line.slice(i + words.length)]);
  for (let from = 0; from + run.after.length < alias.args.length; from++) {
    const to = from + run.after.length + 1;
    const args = [...alias.args.slice(0, from), alias.args.slice(from, to).join(' '), ...alias.args.slice(to)];
    const made = alias.expand(args);
    if (made !== undefined && wanted.some((other) => sameWords(made, other))) return args;
  }
  return undefined;
}

/**
 * Refuses the ID... command line where a word that is no ticket ID follows an option's value
 * (`resolve 1013 --details Replaced the mouse`): an unquoted value with spaces, not IDs.
 */
export function assertNoValueReadAsIds(argv: readonly string[], options: readonly OptionFlags[], ids: readonly string[], alias?: AliasCall): void {
  for (const run of wordsAfterValue(argv, options)) {
    const stray = run.after.filter((word) => ids.includes(word));
    if (stray.length === 0 || stray.every((word) => word === '-' || ticketSpansOf(word) !== undefined) || !textValue(run)) continue;
    throw new UsageError(`${run.option} took ${JSON.stringify(run.value)} only: ${JSON.stringify(run.after.join(' '))} would be read as ticket IDs`, {
      hint: quoteHint(run, argv, alias),
    });
  }
}

/** Commander's usage line of `command`, as a hint writes it: `tkt show ID`. */
function usageLine(command: Command): string {
  const usage = command
    .usage()
    .replace(/\[options\] ?/, '')
    .replace(/<([^>]+)>/g, (_, name: string) => name.toUpperCase())
    .replace(/\[([^\]]+)\]/g, (_, name: string) => (name === 'command' ? 'COMMAND' : `[${name.toUpperCase()}]`));
  return ['tkt', ...commandPath(command), usage].filter((word) => word !== '').join(' ');
}

/** The command line with the option at `from` (and its value, `taken` words in all) moved to the end of the line. */
function movedLine(argv: readonly string[], from: number, taken: number): string {
  const moved = argv.slice(from, from + taken);
  return ['tkt', ...[...argv.slice(0, from), ...argv.slice(from + taken), ...moved].map(shellWord)].join(' ');
}

/** The hint for an unknown option of the program that is an option of a command later on the line. */
function optionOfLaterCommand(program: Command, argv: readonly string[], flag: string): string | undefined {
  const from = argv.indexOf(flag);
  const named = argv
    .slice(from + 1)
    .map((word) => commandNamed(program, word))
    .find((command) => command !== undefined);
  const option = named?.options.find((candidate) => candidate.long === flag || candidate.short === flag);
  if (named === undefined || option === undefined) return undefined;
  const where = `${flag} is an option of tkt ${named.name()}`;
  if (argv.some((word) => SECRET.test(word))) return `${where}: put it after ${named.name()}`;
  return `${where}: ${movedLine(argv, from, option.required || option.optional ? 2 : 1)}`;
}

/** The long options `command` knows, the global ones its hidden copies stand for included; not hidden ones of its own. */
function knownLongOptions(command: Command, program: Command): string[] {
  const globals = new Set(program.options.map((option) => option.flags));
  const longs = command.options.filter((option) => option.long !== undefined && (!option.hidden || globals.has(option.flags))).map((option) => option.long!);
  // commander keeps its help option apart from the others.
  return [...longs, '--help'];
}

function unknownOption(command: Command, program: Command, argv: readonly string[], message: string): string {
  const flag = /^error: unknown option '(.*)'/.exec(message)?.[1];
  if (flag === undefined || !flag.startsWith('--')) return message;
  const plain = `error: unknown option '${flag}'`;
  const later = command === program ? optionOfLaterCommand(program, argv, flag) : undefined;
  if (later !== undefined) return `${plain}\nhint: ${later}`;
  const meant = closestWord(flag.split('=')[0]!, knownLongOptions(command, program));
  return meant === undefined ? plain : `${plain}\n(Did you mean ${meant}?)`;
}

/** `argv` with the ticket ID typed as a command (`word`) made `show ID`. */
function showLine(argv: readonly string[], word: string, id: number): string {
  const at = argv.indexOf(word);
  return ['tkt', ...argv.slice(0, at).map(shellWord), 'show', String(id), ...argv.slice(at + 1).map(shellWord)].join(' ');
}

function unknownCommand(command: Command, program: Command, argv: readonly string[], message: string, words: UsageWords): string {
  const word = command.args[0] ?? '';
  const plain = `error: unknown command '${word}'`;
  const id = ticketIdOf(word);
  // The line as typed, its global options kept (--profile names the service): the ID as show's.
  if (command === program && id !== undefined) return `${plain}\nhint: to see ticket ${id}: ${showLine(argv, word, id)}`;
  // A user's alias is a command too where it can stand: the line's first word.
  const names = [...subcommandWords(command), ...(command === program ? words.aliases : [])];
  const synonym = SUBCOMMAND_SYNONYMS[word];
  // The usual word holds where its command is one of these (`alias rm`: delete) or, a program option, on the program.
  const holds = synonym !== undefined && (synonym.startsWith('--') ? command === program : names.includes(synonym.split(' ')[0]!));
  const meant = holds ? synonym : closestWord(word, names);
  return meant === undefined ? (command === program ? message : plain) : `${plain}\n(Did you mean ${meant}?)`;
}

/**
 * update's hint for several tickets (it changes one): a loop that runs `line`, its command line
 * with "$id" for the ID, once for each of `ids` as typed, or of those on stdin, one a line, as
 * `tkt list -q` prints them.
 */
function updateLoopHint(line: string, ids: readonly string[] | 'stdin'): string {
  const each = `do ${line}; done`;
  if (ids === 'stdin') return `for several, one a line on stdin: ... | while read -r id; ${each}`;
  return `update takes one ticket ID; for several: for id in ${ids.map(shellWord).join(' ')}; ${each}`;
}

/**
 * `argv` with the arguments of `command` (the words after its own that are no option nor an
 * option's value) made one, "$id": the line a loop runs for each ID.
 */
function lineForEachId(argv: readonly string[], command: Command): string {
  const takesValue = new Set(flagsOf(command).flatMap((flag) => (flag.takesValue ? [flag.short, flag.long] : [])));
  const words: string[] = [];
  let ended = false;
  let argument = 0;
  for (let index = 0; index < argv.length; index++) {
    const word = argv[index]!;
    if (!ended && word.length > 1 && word.startsWith('-')) {
      ended = word === '--';
      words.push(shellWord(word));
      if (takesValue.has(word) && index + 1 < argv.length) words.push(shellWord(argv[++index]!));
      continue;
    }
    // The first is the command's own word, the second its ticket ID; the others are left out.
    argument++;
    if (argument === 1) words.push(shellWord(word));
    else if (argument === 2) words.push('"$id"');
  }
  return ['tkt', ...words].join(' ');
}

/** `tkt update -`: update changes one ticket and reads no IDs from stdin; the hint loops over those on stdin. */
export function assertNoIdsFromStdin(argv: readonly string[], command: Command): void {
  if (commandPath(command).join(' ') !== 'update' || command.args[0]?.trim() !== '-') return;
  throw new UsageError('update takes one ticket ID, not "-" (IDs from stdin)', { hint: updateLoopHint(lineForEachId(argv, command), 'stdin') });
}

function excessArguments(command: Command, argv: readonly string[], message: string, words: UsageWords): string {
  const expected = command.registeredArguments.length;
  const strays = command.args.slice(expected);
  // A line with a password on it is said as commander says it: a stray word may be part of it.
  if (argv.some((word) => SECRET.test(word))) return `${message}\nhint: usage: ${usageLine(command)}`;
  const said = `${message.replace(/\.$/, '')}: ${strays.map((word) => JSON.stringify(word)).join(' ')}`;
  const path = commandPath(command).join(' ');
  const unquoted = unquotedValue(argv, flagsOf(command), strays);
  if (unquoted !== undefined) return `${said}\nhint: ${quoteHint(unquoted, argv, words.alias)}`;
  // `tkt update 1031 priority high`: an option's name without its dashes.
  const [stray] = strays;
  if (flagsOf(command).some((flag) => flag.long === `--${stray}`)) {
    const at = argv.lastIndexOf(stray!);
    return `${said}\nhint: an option starts with --: ${['tkt', ...argv.map((word, index) => (index === at ? `--${word}` : word)).map(shellWord)].join(' ')}`;
  }
  if (path === 'alias set') {
    const [name, ...expansion] = command.args;
    return `${said}\nhint: quote the expansion: tkt alias set ${shellWord(name!)} ${shellWord(expansion.join(' '))}`;
  }
  if (path === 'list' && words.views.includes(strays[0]!)) return `${said}\n(Did you mean --view ${strays[0]}?)`;
  if (path === 'list') return `${said}\nhint: tkt list takes options only, e.g. tkt list --search ${shellWord(strays.join(' '))}`;
  if (path === 'update' && command.args.every((word) => ticketIdOf(word) !== undefined))
    return `${said}\nhint: ${updateLoopHint(lineForEachId(argv, command), command.args)}`;
  return `${said}\nhint: usage: ${usageLine(command)}`;
}

function missingArgument(command: Command, message: string): string {
  const ids = message.includes("missing required argument 'id'");
  // `tkt show #42`: the shell took "#42" and the rest of the line for a comment.
  const hash = ids ? "; write '#42' in quotes: the shell drops an unquoted #42 and the rest of the line" : '';
  return `${message}\nhint: usage: ${usageLine(command)}${hash}`;
}

/**
 * Gives every usage error of `program` and its commands, raised reading `argv`, a suggestion or
 * a hint. The lines stay commander's: the error, then "(Did you mean ...?)" or the hint, then
 * "(add --help for usage)".
 */
export function explainUsageErrors(program: Command, argv: readonly string[], words: UsageWords): void {
  const explain = (command: Command) => {
    const raise = command.error.bind(command);
    command.error = (message, options) => {
      const explained = {
        'commander.unknownOption': () => unknownOption(command, program, argv, message),
        'commander.unknownCommand': () => unknownCommand(command, program, argv, message, words),
        'commander.excessArguments': () => excessArguments(command, argv, message, words),
        'commander.missingArgument': () => missingArgument(command, message),
      }[options?.code ?? ''];
      return raise(explained === undefined ? message : explained(), options);
    };
    command.commands.forEach(explain);
  };
  explain(program);
}
