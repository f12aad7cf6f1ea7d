// The "Aliases:" section that ends `tkt --help` when the user has aliases (tkt alias), as git's
// help lists command aliases, and the line an alias's help starts with; and the aliases for commander's other answers (src/commander-program.ts). Both ways of printing that help use it: the CLI (src/program.ts)
// and the bin's first stop (src/fast-start.ts), which adds it to the help prepared at build time.
// So it reads the settings file itself, cheaply, and never fails: help must print whatever the
// file holds (a damaged file is reported by the commands that use the settings).
import { readFileSync } from 'node:fs';
import { defaultConfigDir, settingsFileIn } from '../config/paths.js';
import { isObject } from '../util/json-object.js';
import { parseJsonText } from '../util/json-text.js';
import { sanitizeInline } from '../output/sanitize.js';
import { expansionWords } from './alias-words.js';

/**
 * Why the alias `name` of `saved` (the file's aliases, written by hand or shared) cannot run, as
 * `tkt alias set` would refuse it: its expansion is not text, or is empty (expansionProblem), it
 * starts with its own name or leads into a loop of aliases (r1 -> r2 -> r1), which would expand
 * without end, or it starts with no tkt command (startProblem); undefined when it can. A word of `builtins` ends the chain: the command wins over an alias of its name.
 */
export function aliasProblem(name: string, saved: Readonly<Record<string, unknown>>, builtins: readonly string[]): string | undefined {
  const problem = expansionProblem(saved[name]);
  if (problem !== undefined) return problem;
  const loop = aliasLoop(name, saved, builtins);
  if (loop !== undefined) return loop.length === 2 ? 'it expands to itself' : `its expansion loops: ${loop.join(' -> ')}`;
  return startProblem(saved[name] as string, saved, builtins);
}

/**
 * Why a tkt alias's expansion does not start with a tkt command: it starts with another alias (an
 * alias is expanded once) or with a word that is no command; undefined for a shell alias, one
 * that starts with a command, or with an option (global options first, as an older tkt saved).
 */
export function startProblem(expansion: string, saved: Readonly<Record<string, unknown>>, builtins: readonly string[]): string | undefined {
  const text = expansion.trim();
  if (text.startsWith('!')) return undefined;
  const words = expansionWords(text);
  const first = Array.isArray(words) ? words[0] : undefined;
  if (first === undefined || builtins.includes(first) || (first.startsWith('-') && first !== '-')) return undefined;
  return Object.hasOwn(saved, first) ? `it starts with the alias ${first}, not a tkt command` : `it starts with ${JSON.stringify(first)}, no tkt command`;
}

/** Why an alias's expansion cannot run, whatever the other aliases: it is not text, or is empty; undefined when it may. */
export function expansionProblem(expansion: unknown): string | undefined {
  if (typeof expansion !== 'string') return `its expansion is not text (${JSON.stringify(expansion)})`;
  const text = expansion.trim();
  return text === '' || text === '!' ? 'its expansion is empty' : undefined;
}

/**
 * The aliases from `name` on, each the first word of the one before, up to one that comes again
 * (the loop); undefined when they reach a built-in command, a shell alias or a word that is no alias.
 */
function aliasLoop(name: string, saved: Readonly<Record<string, unknown>>, builtins: readonly string[]): string[] | undefined {
  const chain = [name];
  for (;;) {
    const expansion = saved[chain.at(-1)!];
    if (typeof expansion !== 'string' || expansion.trim().startsWith('!')) return undefined;
    const words = expansionWords(expansion.trim());
    const first = Array.isArray(words) ? words[0] : undefined;
    if (first === undefined || builtins.includes(first) || !Object.hasOwn(saved, first)) return undefined;
    if (chain.includes(first)) return [...chain, first];
    chain.push(first);
  }
}

/** Why a saved alias named as a built-in command cannot run. */
export const hiddenAliasProblem = (name: string): string => `the tkt command ${name} runs instead, as a built-in always wins`;

/** Every saved alias as the file has it, by name; none when the file, or its aliases, cannot be read. */
function savedAliasesOnFile(env: Record<string, string | undefined>): Record<string, unknown> {
  const dir = defaultConfigDir(env);
  if (dir === undefined) return {};
  try {
    // Read as the config store reads it (a BOM, an empty file).
    const settings = parseJsonText(readFileSync(settingsFileIn(dir), 'utf8'));
    const aliases: unknown = isObject(settings) && isObject(settings.settings) ? settings.settings.aliases : undefined;
    return isObject(aliases) ? aliases : {};
  } catch {
    return {};
  }
}

/** The saved aliases that can run (aliasProblem), by name; {} when the file is missing or unreadable. */
export function aliasesOnFile(env: Record<string, string | undefined>, builtins: readonly string[]): Record<string, string> {
  const saved = savedAliasesOnFile(env);
  return Object.fromEntries(Object.entries(saved).filter((entry): entry is [string, string] => aliasProblem(entry[0], saved, builtins) === undefined));
}

/**
 * The lines to add after the program's help: a blank line, "Aliases:" and each alias with its
 * expansion, laid out as the commands are, one that cannot run with why (one named as a command
 * of `builtins` too); '' when there are none.
 */
export function aliasHelpSection(env: Record<string, string | undefined>, builtins: readonly string[]): string {
  const saved = savedAliasesOnFile(env);
  const entries = Object.entries(saved).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return '';
  const width = Math.max(...entries.map(([name]) => sanitizeInline(name).length));
  const shown = (name: string, expansion: unknown) => {
    const problem = builtins.includes(name) ? hiddenAliasProblem(name) : aliasProblem(name, saved, builtins);
    return problem === undefined ? sanitizeInline(expansion as string) : `(cannot run: ${sanitizeInline(problem)}; see tkt alias list)`;
  };
  const rows = entries.map(([name, expansion]) => `  ${sanitizeInline(name).padEnd(width)}  ${shown(name, expansion)}`);
  return `\nAliases:\n${rows.join('\n')}`;
}

/** What `tkt help NAME` prints first for the alias NAME (src/desk/alias-help-print.ts): what it stands for. */
export function aliasHelpHeading(name: string, expansion: string): string {
  return expansion.startsWith('!')
    ? `${name} is an alias of a shell command, run by sh: ${sanitizeInline(expansion.slice(1))}\n`
    : // Unquoted: the expansion's own double quotes ("Fixed: $2") would nest in a pair around it.
      `${name} is an alias of: tkt ${sanitizeInline(expansion)}\n\n`;
}
