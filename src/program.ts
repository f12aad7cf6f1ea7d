// The full CLI's entry (dist/main.js): a user alias expanded, then the command line read through
// the quick path (src/cmdutil/quick-parse.ts) or commander's program (src/commander-program.ts),
// inside the run's shell (src/cli-run.ts). A command line that starts with a command that has a
// bundle of its own comes here only when that bundle leaves it (src/command-bundle.ts).
import { runAction, type CommandAction, type LoadAhead, type ProcessLike } from './process-host.js';
import { loadCommands } from './commands/index.js';
import type { ArgvTable } from './cmdutil/argv-table.js';
import { quickParse, type QuickCommandLine } from './cmdutil/quick-parse.js';
import type { AliasCall } from './cmdutil/usage-errors.js';
import { builtinNames, commandCalled } from './commands/names.js';
import { registeredAction, runCommandLine, settleProcess } from './cli-run.js';
// Loaded with every run anyway (src/process-host.ts): a dynamic import of them would only make
// the bundle split them into chunks of their own.
import { createConfigStore } from './config/store.js';
import { defaultConfigDir } from './config/paths.js';

// For the build, which prepares every command's help and the command line's table (scripts/build-start.mjs).
export { loadCommands };
export const commanderProgram = () => import('./commander-program.js');
export const helpTopics = async () => (await import('./output/help-topics.js')).HELP_TOPICS;

/** A command line to run, and the alias it was expanded from, said with its usage errors and known to their hints. */
interface ExpandedLine {
  argv: string[];
  origin?: string;
  alias?: AliasCall;
}

/**
 * The command line with an alias (tkt alias) at its start replaced by its expansion, or the exit
 * code of a shell alias, which has run. A built-in command or its alias is never looked up.
 */
async function withAlias(argv: string[], proc: ProcessLike): Promise<ExpandedLine | number> {
  const [name, ...args] = argv;
  if (name === undefined || name.startsWith('-') || commandCalled(name) !== undefined) return { argv };
  const { aliasLine, assertAliasRuns, expandAlias, readAliases, runShellAlias, splitWords } = await import('./desk/aliases.js');
  const config = createConfigStore(defaultConfigDir(proc.env));
  const saved = readAliases(config, builtinNames());
  // One saved by hand or by an older tkt may not run: said why, with its expansion.
  assertAliasRuns(name, saved, builtinNames(), config);
  const { aliases } = saved;
  if (!Object.hasOwn(aliases, name)) return { argv };
  // Help for a tkt alias is `tkt help NAME`, its placeholders unfilled; a shell alias's script gets
  // every argument, --help too (README: Aliases).
  if (!aliases[name]!.startsWith('!') && asksForHelp(args)) return { argv: ['help', name] };
  const expansion = expandAlias(name, aliases[name]!, args);
  if (expansion.kind === 'shell') return runShellAlias(name, expansion.script, expansion.args, proc);
  // An unknown option or a bad value may be the alias's, not what was typed after it; a hint shows
  // the arguments to type, not the line they made.
  const expand = (other: readonly string[]) => aliasLine(name, aliases[name]!, other);
  return {
    argv: expansion.argv,
    origin: `(from alias ${name}: ${aliases[name]!})`,
    alias: { name, args, expand, words: splitWords(aliases[name]!), spare: expansion.spare },
  };
}

/** -h or --help among the arguments before "--", as commander finds it. */
const asksForHelp = (args: readonly string[]): boolean => {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '-h' || arg === '--help');
};

/** A command line read without commander, and the handler its command registers. */
interface QuickRun {
  line: QuickCommandLine;
  action: CommandAction;
}

/**
 * `argv` ready to run without building commander's program (docs/architecture.md, "The quick
 * path"), or undefined where commander must read it: the table cannot tell (help, the version,
 * errors), or the command's module registers its handler some other way.
 */
async function quickRun(argv: readonly string[], table: ArgvTable): Promise<QuickRun | undefined> {
  const line = quickParse(argv, table);
  if (line === undefined) return undefined;
  const name = commandCalled(line.command);
  const [loaded] = name === undefined ? [] : await loadCommands([name]);
  const action = loaded === undefined ? undefined : registeredAction(loaded.module);
  return action === undefined ? undefined : { line, action };
}

export interface RunOptions {
  /** The command line's table (dist/argv-table.json): without it, commander reads every command line. */
  argvTable?: ArgvTable | undefined;
  /** Context.loadAhead's loader (dist/load-ahead.json): without it, a long-running command loads as it goes. */
  loadAhead?: LoadAhead | undefined;
}

/** Runs tkt with `argv` (without node and script) and returns the exit code. */
export async function runCli(argv: string[], proc: ProcessLike, options: RunOptions = {}): Promise<number> {
  let commander: Awaited<ReturnType<typeof commanderProgram>> | undefined;
  let origin: string | undefined;
  return runCommandLine(proc, {
    argv,
    argvTable: options.argvTable,
    async run(state, programOptions) {
      state.loadAhead = options.loadAhead;
      const line = await withAlias(argv, proc);
      if (typeof line === 'number') return line;
      const { argv: expanded, alias } = line;
      origin = line.origin;
      const quick = options.argvTable === undefined ? undefined : await quickRun(expanded, options.argvTable);
      if (quick !== undefined) {
        programOptions(() => quick.line.programOpts);
        await runAction(proc, state, quick.action, quick.line);
      } else {
        commander = await commanderProgram();
        await commander.runWithCommander(expanded, proc, state, programOptions, alias);
      }
      return undefined;
    },
    printedErrorCode: (error) => commander?.commanderExitCode(error),
    usageOrigin: () => origin,
  });
}

/** dist/argv-table.json, which the build writes beside the bundle; undefined if it is missing. */
function builtArgvTable(): ArgvTable | undefined {
  try {
    return JSON.parse(process.getBuiltinModule('node:fs').readFileSync(new URL('argv-table.json', import.meta.url), 'utf8')) as ArgvTable;
  } catch {
    return undefined;
  }
}

/**
 * What the build lists in dist/load-ahead.json (scripts/build.mjs, docs/architecture.md
 * "Long-running commands"): for each long-running command, the files of dist/ it may import
 * later, and those of the prompts and of the proxy's client, paths from dist/.
 */
interface LoadAheadLists {
  commands: Record<string, string[]>;
  prompts: string[];
  proxy: string[];
}

/** What the build adds to a file of dist/ that imports others on first use: its import() calls, by the file each loads. */
interface LazyImporter {
  __tktLazyImports?: Record<string, () => Promise<unknown>>;
}

/**
 * Context.loadAhead in the bundle: loads the files of the command's list and makes, in each of
 * them and in main.js, their import() calls of those files. Node resolves an import() again, the
 * file's existence included, the first time each module makes it: a file merely loaded would
 * still be looked for when first imported.
 */
const loadAheadFromDist: LoadAhead = async (command, { prompts, proxy }) => {
  const url = new URL('load-ahead.json', import.meta.url);
  const lists = JSON.parse(process.getBuiltinModule('node:fs').readFileSync(url, 'utf8')) as LoadAheadLists;
  const files = lists.commands[command];
  // A command that asks without being listed would load as it goes, and break under an upgrade.
  if (files === undefined) throw new Error(`${url.pathname} has no list for tkt ${command}: add it to LONG_RUNNING (scripts/build.mjs)`);
  const wanted = new Set([...files, ...(prompts ? lists.prompts : []), ...(proxy ? lists.proxy : [])]);
  const modules = await Promise.all(['main.js', ...wanted].map(async (file) => (await import(new URL(file, url).href)) as LazyImporter));
  const calls = modules.flatMap((module) => Object.entries(module.__tktLazyImports ?? {}).filter(([target]) => wanted.has(target)));
  await Promise.all(calls.map(([, load]) => load()));
};

/** The bin's entry for the full CLI. */
export async function main(argv: string[]): Promise<void> {
  settleProcess(await runCli(argv, process, { argvTable: builtArgvTable(), loadAhead: loadAheadFromDist }));
}
