// Aliases (tkt alias set|list|delete), as gh's: a name that stands for the start of a tkt command
// line, `$1`, `$2`... taking the alias's arguments before any option and the rest appended; or,
// starting with `!`, a shell command run by sh with the arguments as $1, $2... (README: Aliases).
// They are kept in the global settings and expanded before the command line is parsed
// (src/program.ts); a built-in command or its alias always wins.
import { once } from 'node:events';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { OperationError, UsageError } from '../errors.js';
import { settingsFileIn } from '../config/paths.js';
import type { ConfigStore } from '../config/types.js';
import { isObject } from '../util/json-object.js';
import { aliasProblem, expansionProblem, hiddenAliasProblem, startProblem } from './alias-help.js';
import { shellWord } from '../util/shell-word.js';
import { closestWord } from '../util/closest.js';
import { expansionWords, PLACEHOLDER } from './alias-words.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * What an alias stands for with its arguments: the tkt arguments, the expansion's words first,
 * then `spare` words of arguments that no placeholder took; or the shell command.
 */
export type Expansion = { kind: 'tkt'; argv: string[]; spare: number } | { kind: 'shell'; script: string; args: string[] };

type AliasStore = Pick<ConfigStore, 'getSettings' | 'dir'>;

/**
 * The saved aliases that can run; why each other cannot (aliasProblem), by name; and, as saved,
 * those named as a built-in command (`builtins`), which runs instead: saved by hand, or before
 * tkt had that command, as `alias set` refuses such a name.
 */
export interface SavedAliases {
  aliases: Record<string, string>;
  broken: Record<string, string>;
  /** The expansions of those of `broken` that cannot run for their first word (startProblem), by name. */
  startless: Record<string, string>;
  hidden: Record<string, unknown>;
}

/** The saved aliases; exit 1 naming the file when its `aliases` is no object of names (hand-edited). */
export function readAliases(config: AliasStore, builtins: readonly string[]): SavedAliases {
  const saved = aliasesObject(config.getSettings().aliases, config);
  const aliases: Record<string, string> = {};
  const broken: Record<string, string> = {};
  const startless: Record<string, string> = {};
  const hidden: Record<string, unknown> = {};
  for (const [name, expansion] of Object.entries(saved)) {
    const problem = aliasProblem(name, saved, builtins);
    if (builtins.includes(name)) hidden[name] = expansion;
    else if (problem === undefined) aliases[name] = expansion as string;
    else {
      broken[name] = problem;
      if (typeof expansion === 'string' && problem === startProblem(expansion, saved, builtins)) startless[name] = expansion.trim();
    }
  }
  return { aliases, broken, startless, hidden };
}

/**
 * `saved`, the settings' aliases, when it is an object (or absent: none); else exit 1 naming the
 * file, so that `alias set` never turns a hand-written list into something else.
 */
export function aliasesObject(saved: unknown, config: Pick<ConfigStore, 'dir'>): Record<string, unknown> {
  if (saved === undefined) return {};
  if (isObject(saved)) return saved;
  const file = settingsFileIn(config.dir);
  throw new OperationError(`the aliases in ${file} are not an object of names and expansions: ${JSON.stringify(saved)}`, {
    hint: `write them as "aliases": {"mine": "list --view my-open-tickets"} in its "settings", or remove "aliases"`,
  });
}

/**
 * Exit 2 when `name` is a saved alias that cannot run (readAliases), for running it or its help:
 * one that starts with no tkt command is named with its expansion and the line that mends it, as
 * `alias set` says it; any other with why, and the commands that mend it.
 */
export function assertAliasRuns(name: string, saved: SavedAliases, builtins: readonly string[], config: Pick<ConfigStore, 'dir'>): void {
  const { aliases, broken, startless } = saved;
  if (Object.hasOwn(startless, name)) checkExpansionStart(name, startless[name]!, { builtins, aliases, broken }, { saved: true });
  if (Object.hasOwn(broken, name))
    throw new UsageError(`alias ${name} in ${settingsFileIn(config.dir)} cannot run: ${broken[name]!}`, { hint: brokenAliasFix(name) });
}

/** The commands that mend or remove a saved alias that cannot run. */
export function brokenAliasFix(name: string): string {
  return `tkt alias set ${name} 'COMMAND ...', or tkt alias delete ${name}`;
}

/**
 * What a saved alias named as a built-in command (readAliases) is said with: the command runs
 * instead, and the commands that keep it under another name, or remove it.
 */
export function hiddenAliasText(name: string, expansion: unknown): string {
  const keep =
    expansionProblem(expansion) === undefined ? `keep it under another name: tkt alias set NAME ${shellWord((expansion as string).trim())}, then ` : '';
  return `${hiddenAliasProblem(name)}: ${keep}tkt alias delete ${name}`;
}

/**
 * What an expansion may start with: the built-in commands and their aliases; and the saved
 * aliases, which it may not start with: those that can run, and why each other cannot (readAliases).
 */
export interface KnownWords {
  builtins: readonly string[];
  aliases: Readonly<Record<string, string>>;
  broken?: Readonly<Record<string, string>>;
  /** The help topics (`tkt help formatting`), which a new alias may not be named either: their help would win. */
  topics?: readonly string[];
}

/** Checks NAME and EXPANSION for `tkt alias set`: exit 2 when the name is a built-in or a help topic, or the expansion is empty, unbalanced or does not start with a tkt command. */
export function checkAlias(name: string, expansion: string, known: KnownWords): void {
  if (!NAME.test(name))
    throw new UsageError(`invalid alias name ${JSON.stringify(name)}: ASCII letters, digits, "-" and "_", starting with a letter or digit, e.g. mine`);
  if (known.builtins.includes(name)) throw new UsageError(`"${name}" is a tkt command: an alias cannot shadow it`, { hint: 'choose another name' });
  if (known.topics?.includes(name) === true) throw new UsageError(`"${name}" is a tkt help topic: an alias cannot shadow it`, { hint: 'choose another name' });
  const text = expansion.trim();
  if (text === '' || text === '!') throw new UsageError(`alias ${name} needs an expansion, e.g. 'list --view my-open-tickets'`);
  if (!text.startsWith('!') && splitWords(text)[0] === name) throw new UsageError(`alias ${name} would expand to itself`);
  checkExpansionStart(name, text, known, { saved: false });
}

/**
 * Exit 2 when the tkt alias `name` does not start with a built-in command (or a command's
 * alias), as gh refuses an expansion that is no gh command: an unknown word, another alias (an
 * alias is expanded once; one that cannot run is said with why), an option (the command goes
 * first, global options after it). A saved alias (written by hand, or by an older tkt) is named
 * with its expansion, and one that starts with an option is let run: global options may stand
 * before the command's word. A hinted `alias set` line has --clobber when `name` is a saved alias
 * that can run, as alias set asks for it.
 */
export function checkExpansionStart(name: string, expansion: string, known: KnownWords, { saved }: { saved: boolean }): void {
  if (expansion.startsWith('!')) return;
  const words = splitWords(expansion);
  const [first] = words;
  if (first === undefined || known.builtins.includes(first)) return;
  const details = saved ? [`${name}: ${expansion}`] : [];
  const setLine = (text: string) => aliasSetLine(name, text, known);
  if (first.startsWith('-') && first !== '-') {
    if (saved) return;
    const at = words.findIndex((word) => known.builtins.includes(word));
    const reordered = at === -1 ? `COMMAND ${expansion}` : joinWords([...words.slice(at), ...words.slice(0, at)]);
    throw new UsageError(`alias ${name} must start with a tkt command, not the option ${first}`, {
      hint: `global options go after the command: ${setLine(reordered)}`,
    });
  }
  if (Object.hasOwn(known.aliases, first)) {
    const target = known.aliases[first]!;
    throw new UsageError(`alias ${name} must start with a tkt command: "${first}" is an alias`, { details, hint: aliasTargetHint(name, words, target, known) });
  }
  if (known.broken !== undefined && Object.hasOwn(known.broken, first))
    throw new UsageError(`alias ${name} must start with a tkt command: "${first}" is an alias that cannot run (${known.broken[first]!})`, {
      details,
      hint: saved ? `tkt --help lists the commands; or remove it: tkt alias delete ${name}` : 'tkt --help lists the commands',
    });
  // "lsit --view ...": a misspelt command, not a shell command.
  const meant = closestWord(first, known.builtins);
  throw new UsageError(`alias ${name} must start with a tkt command: ${JSON.stringify(first)} is none`, {
    details,
    hint:
      meant === undefined
        ? `tkt --help lists the commands; for a shell command: ${setLine(`!${expansion}`)}`
        : `did you mean ${meant}? ${setLine(joinWords([meant, ...words.slice(1)]))}`,
  });
}

/**
 * The first `~` (starting a word or a value after =) or `$VAR` in a tkt expansion, which sh would
 * expand and tkt keeps as it is (README: Aliases); undefined for none, and for a `!` alias, whose
 * shell expands them. `$1`, `$2`... are the alias's own placeholders.
 */
export function shellOnlyWord(expansion: string): string | undefined {
  if (expansion.startsWith('!')) return undefined;
  return /(?:^|[\s=])(~)/.exec(expansion)?.[1] ?? /\$(?:[A-Za-z_]\w*|\{[^}]*\})/.exec(expansion)?.[0];
}

/** The command line that saves `text` as the alias `name`: with --clobber when it replaces one of `known` that can run, which alias set asks for. */
function aliasSetLine(name: string, text: string, known: KnownWords): string {
  return `tkt alias set ${name} ${shellWord(text)}${Object.hasOwn(known.aliases, name) ? ' --clobber' : ''}`;
}

/**
 * The way out for the tkt alias `name` (`words`) that starts with another alias, whose expansion
 * is `target`: what that one stands for, when it is a tkt command (so that `alias set` takes it);
 * else (r1 -> r2 -> nosuch; or a new r1 -> r2 -> r1), removing `name`.
 */
function aliasTargetHint(name: string, words: readonly string[], target: string, known: KnownWords): string {
  if (target.startsWith('!')) return `a shell command can run it: ${aliasSetLine(name, `!tkt ${joinWords(words)} "$@"`, known)}`;
  const targetWords = expansionWords(target);
  const [first, ...rest] = words;
  if (Array.isArray(targetWords) && known.builtins.includes(targetWords[0] ?? ''))
    return `use what ${first} stands for: ${aliasSetLine(name, [target, ...(rest.length === 0 ? [] : [joinWords(rest)])].join(' '), known)}`;
  return `what ${first} stands for does not start with a tkt command either: remove ${name} with tkt alias delete ${name}`;
}

/** Words joined into an expansion that splitWords reads back as they are. */
function joinWords(words: readonly string[]): string {
  return words.map((word) => (word !== '' && !/[\s'"\\]/.test(word) ? word : `"${word.replace(/["\\]/g, '\\$&')}"`)).join(' ');
}

/** The words of an expansion (expansionWords); exit 2 for a quote left open. */
export function splitWords(text: string): string[] {
  const words = expansionWords(text);
  if (!Array.isArray(words)) throw new UsageError(`unbalanced ${words.unbalanced} in the alias ${JSON.stringify(text)}`);
  return words;
}

/**
 * The arguments of a tkt alias: `words` fill $1, $2... and are those before the first option (a lone
 * "-", stdin, is a word) and those after "--"; from the first option on, the others are `options`,
 * appended as they come. So an option never becomes a placeholder's text (README: Aliases).
 */
function aliasArguments(args: readonly string[]): { words: string[]; options: string[]; afterEnd: number } {
  const end = args.indexOf('--');
  const beforeEnd = end === -1 ? args : args.slice(0, end);
  const firstOption = beforeEnd.findIndex((arg) => arg.startsWith('-') && arg !== '-');
  const leading = firstOption === -1 ? beforeEnd : beforeEnd.slice(0, firstOption);
  const trailing = end === -1 ? [] : args.slice(end + 1);
  return { words: [...leading, ...trailing], options: beforeEnd.slice(leading.length), afterEnd: leading.length };
}

/** What the alias called `name` with `args` stands for: the tkt arguments, or the shell command. */
export function expandAlias(name: string, expansion: string, args: readonly string[]): Expansion {
  // A shell alias gets every argument as is, as git's and gh's do: its script decides what they are.
  if (expansion.startsWith('!')) return { kind: 'shell', script: expansion.slice(1), args: [...args] };
  const { words, options, afterEnd } = aliasArguments(args);
  const used = new Set<number>();
  const argv = splitWords(expansion).map((word) =>
    word.replace(PLACEHOLDER, (_whole, digits: string) => {
      const position = Number(digits);
      if (position < 1 || position > words.length)
        throw new UsageError(`alias ${name} needs an argument for $${digits} (it got ${words.length})`, {
          details: [`${name}: ${expansion}`],
          hint: 'the arguments for $1, $2... go before any option (or after --)',
        });
      used.add(position);
      return words[position - 1]!;
    }),
  );
  // Words no placeholder took stay words: those before the options, and those after "--" behind a "--" again.
  const unused = (from: number, to: number) => words.slice(from, to).filter((_word, index) => !used.has(from + index + 1));
  const spare = unused(0, afterEnd);
  const ended = unused(afterEnd, words.length);
  return { kind: 'tkt', argv: [...argv, ...spare, ...options, ...(ended.length > 0 ? ['--', ...ended] : [])], spare: spare.length };
}

/** The command line the tkt alias `name` makes of `args`; undefined when they cannot fill it. */
export function aliasLine(name: string, expansion: string, args: readonly string[]): string[] | undefined {
  try {
    const made = expandAlias(name, expansion, args);
    return made.kind === 'tkt' ? made.argv : undefined;
  } catch (error) {
    if (error instanceof UsageError) return undefined;
    throw error;
  }
}

interface Streams {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
}

/** A stream's file descriptor, so that the shell gets the terminal itself; a pipe for other streams (tests). */
const stdioOf = (stream: Readable | Writable): number | 'pipe' => {
  const fd = (stream as { fd?: unknown }).fd;
  return typeof fd === 'number' ? fd : 'pipe';
};

/** The variable that tells a `!` alias's shell how many shell aliases it runs inside, itself included. */
const ALIAS_DEPTH = 'TKT_ALIAS_DEPTH';

/** How many `!` aliases may run one inside another (through tkt runs) before tkt refuses one. */
const ALIAS_DEPTH_LIMIT = 10;

/**
 * Runs a `!` alias with sh, the arguments as $1, $2...; its exit code is tkt's. Exit 2 for one run
 * inside ALIAS_DEPTH_LIMIT others already: one that runs itself (`!tkt loopy`) would start
 * processes without end (README: Aliases).
 */
export async function runShellAlias(name: string, script: string, args: readonly string[], streams: Streams): Promise<number> {
  const said = streams.env[ALIAS_DEPTH]?.trim() ?? '';
  const depth = /^\d+$/.test(said) ? Number(said) : 0;
  if (depth >= ALIAS_DEPTH_LIMIT)
    throw new UsageError(`alias ${name} is a shell alias run inside ${depth} others (${ALIAS_DEPTH}=${said}): it may run itself without end`, {
      hint: `see what it runs: tkt help ${name}`,
    });
  const { spawn } = await import('node:child_process');
  const child = spawn('sh', ['-c', script, name, ...args], {
    stdio: [stdioOf(streams.stdin), stdioOf(streams.stdout), stdioOf(streams.stderr)],
    env: { ...streams.env, [ALIAS_DEPTH]: String(depth + 1) },
  });
  if (child.stdin !== null) streams.stdin.pipe(child.stdin);
  child.stdout?.pipe(streams.stdout, { end: false });
  child.stderr?.pipe(streams.stderr, { end: false });
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  if (child.stdin !== null) streams.stdin.unpipe(child.stdin);
  // As a shell reports a command a signal ended: 128 + its number.
  return code ?? 128 + (signal === null ? 0 : osConstants.signals[signal]);
}
