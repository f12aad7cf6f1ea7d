// The CLI as commander's program: the global options, the help, and the commands a run needs.
// It reads every command line the quick path leaves to it (src/program.ts): help, the version,
// errors, nested commands, and it is the one definition both paths read (docs/architecture.md,
// "The quick path"). Loaded only for such runs, and by the build.
import { Command, CommanderError, type CommandUnknownOpts } from '@commander-js/extra-typings';
import { createProcessHost, type ProcessLike, type RunState } from './process-host.js';
import { loadCommands, registerCommands, type LoadedCommand } from './commands/index.js';
import type { Program } from './commands/host.js';
import { argvTable, type ArgvTable } from './cmdutil/argv-table.js';
import { assertNoOptionTakenAsValue, type OptionFlags } from './cmdutil/flag-as-value.js';
import { builtinNames, commandCalled, type CommandName } from './commands/names.js';
import { ExitCode, UsageError } from './errors.js';
import { quotedValue, shellWord } from './util/shell-word.js';
import { HELP_WIDTH, helpForWidth, reflow, terminalColumns } from './output/reflow.js';
import { aliasHelpSection, aliasesOnFile } from './desk/alias-help.js';
import { assertNoIdsFromStdin, assertNoValueReadAsIds, explainUsageErrors, type AliasCall } from './cmdutil/usage-errors.js';
import { kebabCase, LIST_TYPES } from './listing/query.js';

const EXAMPLES = `
Examples:
  $ tkt login --url https://helpdesk.example.com -u jdoe
  $ tkt list --view my-overdue-tickets
  $ tkt show 42
  $ tkt create --title "Printer on fire" --description - --requester aberg \\
      --site "Head Office" --department IT --status Open < notes.txt
  $ tkt list -q --all --view my-completed-tickets | tkt close -
  $ tkt list --all --status open --assignee none --query 'length(@)'
  $ tkt sandbox            # a local emulator of the service, with demo data`;

const VERSION_FLAGS = '-V, --version';

/** The table of the command line's grammar (src/cmdutil/argv-table.ts) for `program`, every command registered. */
export const programArgvTable = (program: Program): ArgvTable => argvTable(program, VERSION_FLAGS);

/** The program with `commands` (loadCommands: every command, or the few a run needs) registered. */
export function buildProgram(proc: ProcessLike, state: RunState, commands: readonly LoadedCommand[]) {
  const program = createProgram(proc);
  registerCommands(program, createProcessHost(proc, state), commands);
  shareGlobalOptions(program);
  suggestShortOptionCase(program);
  return program;
}

/**
 * Global options stand before the command's word or anywhere after it (`tkt show 42 --json`),
 * and a value is never read as one (`reply --message "-q is the flag"`, `--message -q`; a value
 * that is a long option, `--comments --dry-run`, is refused: src/cmdutil/flag-as-value.ts):
 * the program reads them only before the word (positional options), and every command has
 * hidden copies of them, so that it reads the rest of the line in order, knowing which of its
 * own options take a value. runOptions (src/process-host.ts) takes a copy's value over the
 * program's where the copy was given.
 */
function shareGlobalOptions(program: Command) {
  const globals = program.options.filter((option) => option.flags !== VERSION_FLAGS);
  const share = (command: CommandUnknownOpts, named: string) => {
    // A command's own option of the same name wins (api's --input over --no-input): that global
    // option then stands before the command's word only.
    const own = new Set(command.options.map((option) => option.attributeName()));
    for (const option of globals.filter((global) => !own.has(global.attributeName()))) {
      command.addOption(command.createOption(option.flags, option.description).hideHelp());
    }
    if (named !== '') pointToGlobalOptions(command, named);
    if (command.commands.length > 0) command.enablePositionalOptions();
    command.commands.forEach((sub) => share(sub, named));
  };
  program.commands.forEach((command) => share(command, GLOBALS_NAMED_IN_HELP[command.name() as CommandName] ?? EVERY_COMMANDS_GLOBALS));
}

/**
 * The global options a command's help names, pointing to `tkt --help`, which lists them: they are
 * hidden copies in each command (above), so its help would not show them (gh shows them as
 * "inherited flags"). Those that apply there come first; none where no global option changes
 * anything. A subcommand's are its command's.
 */
const EVERY_COMMANDS_GLOBALS = '--json, -q, --query, --profile, --url, ...';
const GLOBALS_NAMED_IN_HELP: Partial<Record<CommandName, string>> = {
  // Their stdout is a protocol or a screen: --json, -q and --query are refused (exit 2).
  mcp: '--profile, --url, --timeout, --debug, ...',
  triage: '--profile, --url, --timeout, --debug, ...',
  // A service of its own: no URL, profile or time-out to choose.
  sandbox: '--json, -q, --query, ...',
  // A completion script and a help are the same whatever is given.
  completion: '',
  help: '',
  __complete: '',
};

/** `Global options (NAMED): tkt --help` on a line of its own under the command's options. */
function pointToGlobalOptions(command: CommandUnknownOpts, named: string) {
  command.configureHelp({
    ...command.configureHelp(),
    formatItemList: (heading, items, helper) =>
      items.length === 0 ? [] : [helper.styleTitle(heading), ...items, '', ...(heading === 'Options:' ? [`Global options (${named}): tkt --help`, ''] : [])],
  });
}

/**
 * Commander suggests a long option for a misspelt one, never a short one: the program's short
 * options typed in the other case (`-v` for `-V`, as other tools spell the version) get the same
 * "(Did you mean ...?)" line. Set on the program alone, once its commands have taken their copy
 * of its output settings: after a command's word, -V is no option.
 */
function suggestShortOptionCase(program: Command) {
  const shorts = new Set(program.options.flatMap((option) => option.short ?? []));
  program.configureOutput({
    outputError: (text, write) => {
      const letter = /^error: unknown option '-([a-zA-Z])'\n$/.exec(text)?.[1];
      const otherCase = letter === undefined ? undefined : `-${letter === letter.toLowerCase() ? letter.toUpperCase() : letter.toLowerCase()}`;
      write(otherCase !== undefined && shorts.has(otherCase) ? `${text}(Did you mean ${otherCase}?)\n` : text);
    },
  });
}

/**
 * Runs `argv` through commander, with the commands it needs registered. `onProgram` gets the
 * program's options (for the error lines) before anything can fail. `alias`: the alias `argv`
 * was expanded from, whose hints speak of the arguments typed after it.
 */
export async function runWithCommander(
  argv: string[],
  proc: ProcessLike,
  state: RunState,
  onProgram: (opts: () => Record<string, unknown>) => void,
  alias?: AliasCall,
) {
  const program = createProgram(proc);
  onProgram(() => program.opts());
  const aliases = aliasesOnFile(proc.env, builtinNames());
  checkNoAliasAfterOptions(argv, program, aliases);
  checkOptionsBeforeAliasName(argv, program, aliases);
  checkOptionsBeforeSavedText(argv, program, aliases);
  checkOneSavedText(argv, program, aliases);
  registerCommands(program, createProcessHost(proc, state), await loadCommands(commandsRun(argv, program, aliases)));
  shareGlobalOptions(program);
  suggestShortOptionCase(program);
  const line = quotedAliasExpansion(argv, program);
  explainUsageErrors(program, line, { views: LIST_TYPES.map(kebabCase), aliases: Object.keys(aliases), alias });
  program.hook('preAction', (_program, actionCommand) => {
    const flags = optionFlagsAbove(actionCommand);
    assertNoOptionTakenAsValue(line, flags);
    assertNoValueAsId(line.slice((commandWordIndex(line, program) ?? line.length) + 1), actionCommand, flags, alias);
    assertNoIdsFromStdin(line, actionCommand);
  });
  await program.parseAsync(line, { from: 'user' });
}

/**
 * An ID... command's IDs hold no word that follows an option's value and is no ID: an unquoted
 * value with spaces (src/cmdutil/usage-errors.ts). assign's last word is its user.
 */
function assertNoValueAsId(rest: readonly string[], command: CommandUnknownOpts, flags: readonly OptionFlags[], alias: AliasCall | undefined) {
  const [first] = command.registeredArguments;
  if (first?.name() !== 'id' || !first.variadic) return;
  const given = (command.processedArgs[0] ?? []) as string[];
  assertNoValueReadAsIds(rest, flags, command.name() === 'assign' ? given.slice(0, -1) : given, alias);
}

/** The options of `command` and of the commands above it, the program's included. */
function optionFlagsAbove(command: CommandUnknownOpts): OptionFlags[] {
  const flags: OptionFlags[] = [];
  for (let level: CommandUnknownOpts | null = command; level !== null; level = level.parent) {
    flags.push(...level.options.map((option) => ({ short: option.short, long: option.long, takesValue: option.required })));
  }
  return flags;
}

/**
 * `tkt alias set NAME '-q list'`: the quoted word after NAME is the expansion, which `alias set`
 * checks (an option first is refused, with the line that puts it after the command), where
 * commander would take its first letter for tkt's -q (or -h) and the rest, "- list", for the
 * expansion. An option's word never holds a blank, so such a word is moved behind a "--"; the
 * options after it stay options.
 */
function quotedAliasExpansion(argv: string[], program: Command): string[] {
  const alias = commandWordIndex(argv, program);
  if (alias === undefined || argv[alias] !== 'alias') return argv;
  const set = commandWordIndex(argv, program, alias + 1);
  if (set === undefined || argv[set] !== 'set') return argv;
  const name = commandWordIndex(argv, program, set + 1);
  const at = name === undefined ? undefined : name + 1;
  const word = at === undefined ? undefined : argv[at];
  if (at === undefined || word === undefined || !word.startsWith('-') || !/\s/.test(word) || argv.includes('--', at)) return argv;
  return [...argv.slice(0, at), ...argv.slice(at + 1), '--', word];
}

/**
 * The `set` subcommands that save their last argument whole, what they call it, their own options
 * (no value), and the word its text starts with after NAME (KEY): an expansion's tkt command, a value's first word.
 */
const SAVED_TEXT: Readonly<Record<string, { what: string; own: readonly string[]; starts: (arg: string) => boolean }>> = {
  alias: { what: 'expansion', own: ['--clobber'], starts: (arg) => commandCalled(arg) !== undefined },
  config: { what: 'value', own: [], starts: (arg) => arg === '-' || !arg.startsWith('-') || /\s/.test(arg) },
};

/**
 * The words of a hinted `tkt alias set NAME ...` line, with --clobber (before any "--") when NAME
 * is one of `aliases`, those that can run: alias set replaces such an alias only with it, so that
 * the line works as it stands. Another set's line (config set) as it is.
 */
function withClobber(line: readonly string[], command: string, name: string, aliases: Readonly<Record<string, string>>): string[] {
  if (command !== 'alias' || !Object.hasOwn(aliases, name) || line.includes('--clobber')) return [...line];
  const end = line.indexOf('--');
  return end === -1 ? [...line, '--clobber'] : [...line.slice(0, end), '--clobber', ...line.slice(end)];
}

/**
 * `tkt alias set un list --profile adm`, `tkt config set editor code --wait`: a word or an option
 * after the expansion's (the value's) first word is exit 2 with the line that quotes them all,
 * where commander would take a global option for the run's own and save the rest: never a partial
 * save. After "--" every word is an argument; -h and the command's own options stay what they are.
 * A quoted expansion that starts with an option ('-q list') is refused by `alias set` itself.
 */
function checkOneSavedText(argv: readonly string[], program: Command, aliases: Readonly<Record<string, string>>) {
  const top = commandWordIndex(argv, program);
  const saved = top === undefined ? undefined : SAVED_TEXT[argv[top]!];
  const set = saved === undefined ? undefined : commandWordIndex(argv, program, top! + 1);
  if (saved === undefined || set === undefined || argv[set] !== 'set') return;
  const kept = (arg: string) => saved.own.includes(arg) || arg === '-h' || arg === '--help';
  let ended = false;
  const positions: number[] = [];
  let stray: number | undefined;
  for (let index = set + 1; index < argv.length && stray === undefined; index++) {
    const arg = argv[index]!;
    if (!ended && arg === '--') ended = true;
    else if (ended || arg === '-' || !arg.startsWith('-') || /\s/.test(arg)) {
      if (positions.length === 2) stray = index;
      positions.push(index);
    } else if (positions.length === 2 && !kept(arg)) stray = index;
    else if (program.options.find((option) => option.long === arg || option.short === arg)?.required === true) index++;
  }
  const value = positions[1];
  if (stray === undefined || value === undefined || argv[value]!.startsWith('-')) return;
  const after = argv.slice(value + 1);
  const end = after.indexOf('--');
  const own = after.filter((arg, index) => kept(arg) && (end === -1 || index < end));
  const rest = after.filter((arg, index) => index !== end && !own.includes(arg)).join(' ');
  const hinted = (words: readonly string[]) => withClobber(words, argv[top!]!, argv[positions[0]!]!, aliases).map(shellWord).join(' ');
  const quoted = `quote the ${saved.what}: tkt ${hinted([...argv.slice(0, value), `${argv[value]!} ${rest}`, ...own])}`;
  // A global option there may be the run's own (`config set editor vim --profile work`): it goes before the command.
  const strayWord = argv[stray];
  const global = strayWord !== undefined && program.options.some((option) => option.long === strayWord || option.short === strayWord);
  const moved = hinted([...after.filter((arg, index) => index !== end && !own.includes(arg)), ...argv.slice(0, value + 1), ...own]);
  throw new UsageError(`tkt ${argv[top!]} set takes the ${saved.what} as one argument: ${JSON.stringify(rest)} follows ${JSON.stringify(argv[value])}`, {
    hint: global ? `put tkt's own options before the command: tkt ${moved}; or, to save them in the ${saved.what}, ${quoted}` : quoted,
  });
}

/**
 * `tkt alias set --limit 5 x list`: an option before NAME that is neither tkt's own (the run's)
 * nor alias set's (--clobber) is one of the expansion's command, which alias set takes without a
 * word of complaint from commander (it allows unknown options): exit 2 with the line that saves it
 * in the quoted expansion, after its words, where commander would take "5" for the name, or
 * count the words wrong. NAME is the word before the expansion's start: a tkt command, or a quoted
 * expansion (a word with a blank, as an option's never is, a name's cannot be).
 */
function checkOptionsBeforeAliasName(argv: readonly string[], program: Command, aliases: Readonly<Record<string, string>>) {
  const alias = commandWordIndex(argv, program);
  const set = alias === undefined || argv[alias] !== 'alias' ? undefined : commandWordIndex(argv, program, alias + 1);
  if (set === undefined || argv[set] !== 'set') return;
  const isOption = (arg: string) => arg.startsWith('-') && arg !== '-' && !/\s/.test(arg);
  const globalOption = (arg: string) => program.options.find((option) => option.long === arg.split('=')[0] || option.short === arg);
  const kept = (arg: string) => SAVED_TEXT.alias!.own.includes(arg) || arg === '-h' || arg === '--help';
  let stray: number | undefined;
  for (let index = set + 1; index < argv.length && stray === undefined; index++) {
    const arg = argv[index]!;
    if (arg === '--' || !isOption(arg)) return;
    const global = globalOption(arg);
    if (global === undefined && !kept(arg)) stray = index;
    else if (global?.required === true && !arg.includes('=')) index++;
  }
  if (stray === undefined) return;
  const starts = (arg: string) => /\s/.test(arg) || commandCalled(arg) !== undefined;
  let start: number | undefined;
  for (let index = stray + 2; index < argv.length && argv[index] !== '--' && start === undefined; index++) {
    if (starts(argv[index]!) && !isOption(argv[index - 1]!)) start = index;
  }
  const typed = argv.slice(set + 1, start === undefined ? argv.length : start - 1);
  // tkt's own options (with their values) and alias set's are taken where they stand; the rest are the expansion's.
  const before: string[] = [];
  const moved: string[] = [];
  for (let index = 0; index < typed.length; index++) {
    const arg = typed[index]!;
    const global = globalOption(arg);
    if (isOption(arg) && (global !== undefined || kept(arg))) {
      before.push(arg);
      if (global?.required === true && !arg.includes('=') && index + 1 < typed.length) before.push(typed[++index]!);
    } else if (isOption(arg) || moved.length > 0) moved.push(arg);
  }
  const said = `${JSON.stringify(argv[stray])} is no option of tkt alias set: an alias's options go in its expansion, after the command`;
  // No expansion seen (`tkt alias set --limit 5 x`): which words are the option's is unknown.
  if (start === undefined) throw new UsageError(said, { hint: `quote the expansion: tkt alias set NAME 'COMMAND ... ${argv[stray]!} ...'` });
  const after = argv.slice(start + 1);
  const end = after.indexOf('--');
  const own = after.filter((arg, index) => kept(arg) && (end === -1 || index < end));
  const words = after.filter((arg, index) => index !== end && !own.includes(arg)).map(expansionWord);
  const expansion = [argv[start]!, ...words, ...moved.map(expansionWord)].join(' ');
  const line = withClobber([...argv.slice(0, set + 1), ...before, argv[start - 1]!, expansion, ...own], 'alias', argv[start - 1]!, aliases);
  throw new UsageError(said, { hint: `quote the expansion: tkt ${line.map(shellWord).join(' ')}` });
}

/** A word typed on the command line as an alias's expansion holds it: quoted where it has a blank or a quote. */
function expansionWord(word: string): string {
  return word !== '' && !/[\s'"\\]/.test(word) ? word : quotedValue(word);
}

/**
 * `tkt alias set x -q list`, `tkt config set editor -q vi`: options between NAME (KEY) and the
 * saved text (the expansion from its tkt command on, the value) are exit 2 with the line that
 * saves them in it, after its first word, where commander would take tkt's own for the run's and
 * save the rest; as options after the saved text are (checkOneSavedText), moving tkt's own before
 * the command is offered first. Options before NAME are the command's and the run's: no text has
 * started (another command's, before an alias's NAME, are checkOptionsBeforeAliasName's).
 */
function checkOptionsBeforeSavedText(argv: readonly string[], program: Command, aliases: Readonly<Record<string, string>>) {
  const top = commandWordIndex(argv, program);
  const saved = top === undefined ? undefined : SAVED_TEXT[argv[top]!];
  const set = saved === undefined ? undefined : commandWordIndex(argv, program, top! + 1);
  const name = set === undefined || argv[set] !== 'set' ? undefined : commandWordIndex(argv, program, set + 1);
  if (saved === undefined || name === undefined) return;
  const kept = (arg: string) => saved.own.includes(arg) || arg === '-h' || arg === '--help';
  const takesValue = (arg: string | undefined) =>
    arg !== undefined && program.options.find((option) => option.long === arg || option.short === arg)?.required === true;
  let start: number | undefined;
  for (let index = name + 1; index < argv.length && start === undefined; index++) {
    // After "--" every word is the text's.
    if (argv[index] === '--') return;
    if (saved.starts(argv[index]!)) start = index;
    else if (takesValue(argv[index])) index++;
  }
  const between = argv.slice(name + 1, start);
  if (start === undefined || !between.some((arg) => arg.startsWith('-') && arg !== '-' && !kept(arg))) return;
  const options = between.filter((arg) => !kept(arg));
  const after = argv.slice(start + 1);
  const end = after.indexOf('--');
  const own = [...between.filter(kept), ...after.filter((arg, index) => kept(arg) && (end === -1 || index < end))];
  const words = [argv[start]!, ...after.filter((arg, index) => index !== end && !own.includes(arg))];
  const head = argv.slice(0, name + 1);
  const hinted = (line: readonly string[]) => withClobber(line, argv[top!]!, argv[name]!, aliases).map(shellWord).join(' ');
  const quoted = `quote the ${saved.what}: tkt ${hinted([...head, [...words, ...options].join(' '), ...own])}`;
  // Only tkt's own options (and their values) may be the run's: they go before the command.
  const global = options.every((arg, index) => program.options.some((option) => option.long === arg || option.short === arg) || takesValue(options[index - 1]));
  const moved = hinted([...options, ...head, words.join(' '), ...own]);
  throw new UsageError(
    `tkt ${argv[top!]} set takes the ${saved.what} as one argument: ${JSON.stringify(options.join(' '))} comes before ${JSON.stringify(argv[start])}`,
    {
      hint: global ? `put tkt's own options before the command: tkt ${moved}; or, to save them in the ${saved.what}, ${quoted}` : quoted,
    },
  );
}

/**
 * An alias is read only as the command line's first word (src/program.ts): one after global
 * options is exit 2 saying so, with the line that runs it (its arguments first, as placeholders
 * take them), where commander would say "unknown command".
 */
function checkNoAliasAfterOptions(argv: readonly string[], program: Command, aliases: Readonly<Record<string, string>>) {
  const index = commandWordIndex(argv, program);
  const name = index === undefined ? undefined : argv[index]!;
  if (index === undefined || index === 0 || name === undefined || commandCalled(name) !== undefined || !Object.hasOwn(aliases, name)) return;
  const after = argv.slice(index + 1);
  const end = after.includes('--') ? after.indexOf('--') : after.length;
  const line = [name, ...after.slice(0, end), ...argv.slice(0, index), ...after.slice(end)];
  throw new UsageError(`${name} is an alias: global options go after it`, {
    details: [`${name}: ${aliases[name]!}`],
    hint: `tkt ${line.map(shellWord).join(' ')}`,
  });
}

/** The program with its global options and help, and no command yet. */
function createProgram(proc: ProcessLike) {
  const program = new Command('tkt');
  // Commander gives the help of a command called without one of its own (`tkt config`) as an
  // error's, its usage then its text after: it is the help asked for, as `tkt` alone gives the
  // program's (exit 0, stdout). The run ends with it: nothing else goes through writeErr after.
  let helpAsError = false;
  return program
    .description('Command-line client for the help-desk ticketing service')
    .version(TKT_VERSION, VERSION_FLAGS, 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--url <url>', 'base URL of the service (env TKT_URL)')
    .option('--profile <name>', 'settings profile (env TKT_PROFILE)')
    .option('--json', 'print the API response as JSON')
    .option('-q, --quiet', 'print only the essentials (IDs)')
    .option('--query <expr>', 'JMESPath expression applied to the JSON output (implies --json)')
    .option('--raw', 'with --query: strings without quotes, arrays one element per line')
    .option('--no-input', 'never prompt (also when CI is set)')
    .option('--no-color', 'disable colour (also NO_COLOR)')
    .option('--timeout <seconds>', 'per-request time-out in seconds', '30')
    .option('--debug', 'HTTP trace on stderr (credentials redacted)')
    .addOption(program.createOption('--refresh', 'refetch cached lookups'))
    .option('--allow-http', 'accept plain http to a non-local host (tkt login saves it for the profile)')
    .enablePositionalOptions()
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      // The text after a command's options (addHelpText) is written as prose: laid out here.
      writeOut: (text) => writeHelp(proc, text),
      writeErr: (text) => ((helpAsError ||= text.startsWith('Usage: ')) ? writeHelp(proc, text) : proc.stderr.write(text)),
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
    })
    .addHelpText('after', EXAMPLES)
    .addHelpText('after', () => aliasHelpSection(proc.env, builtinNames()));
}

const writeHelp = (proc: ProcessLike, text: string) => proc.stdout.write(helpForWidth(reflow(text, HELP_WIDTH), terminalColumns(proc.stdout)));

/**
 * The commands a run of `argv` needs registered: the one it invokes, and for `tkt help NAME`
 * NAME's too (every command for an alias's NAME). Every command (undefined) where the run needs the whole CLI (the program's help,
 * an unknown command's suggestions, the completion scripts) or the command's word cannot be told
 * for sure: commander then sees what it always saw.
 */
function commandsRun(argv: readonly string[], program: Command, aliases: Readonly<Record<string, string>>): CommandName[] | undefined {
  const index = commandWordIndex(argv, program);
  const name = index === undefined ? undefined : commandCalled(argv[index]!);
  if (index === undefined || name === undefined || name === 'completion') return undefined;
  if (name !== 'help') return [name];
  const subject = argv.slice(index + 1).find((arg) => !arg.startsWith('-'));
  if (subject === undefined) return undefined;
  const named = commandCalled(subject);
  if (named !== undefined) return ['help', named];
  // An alias's help is its command's, whichever that is.
  return Object.hasOwn(aliases, subject) ? undefined : ['help'];
}

/**
 * Where the command's word stands in `argv`: after the global options before it and their values
 * (from `start`: a subcommand's word, or its first argument). Undefined for no word, `--`, or an
 * option the program does not know (bundled short flags too).
 */
function commandWordIndex(argv: readonly string[], program: Command, start = 0): number | undefined {
  for (let index = start; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '-' || !arg.startsWith('-')) return index;
    const option = program.options.find((candidate) => candidate.long === arg.split('=')[0] || candidate.short === arg);
    if (option === undefined) return undefined;
    const next = argv[index + 1];
    if (!arg.includes('=') && (option.required || (option.optional && next !== undefined && !next.startsWith('-')))) index++;
  }
  return undefined;
}

/**
 * The exit code of an error commander raised (help, the version, a usage error), which it has
 * printed itself; undefined for any other error.
 */
export function commanderExitCode(error: unknown): number | undefined {
  if (!(error instanceof CommanderError)) return undefined;
  const clean = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
  return clean.includes(error.code) ? ExitCode.ok : ExitCode.usage;
}
