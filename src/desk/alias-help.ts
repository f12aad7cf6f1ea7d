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

/**
 * Why a saved alias (written by hand, or shared) cannot run, as `tkt alias set` would refuse it:
 * its expansion is not text, or is empty; undefined when it can.
 */
export function aliasProblem(expansion: unknown): string | undefined {
  if (typeof expansion !== 'string') return `its expansion is not text (${JSON.stringify(expansion)})`;
  const text = expansion.trim();
  return text === '' || text === '!' ? 'its expansion is empty' : undefined;
}

/** Why a saved alias named as a built-in command cannot run. */
export const hiddenAliasProblem = (name: string): string => `the tkt command ${name} runs instead, as a built-in always wins`;

/** Every saved alias as the file has it, by name; none when the file, or its aliases, cannot be read. */
function aliasEntriesOnFile(env: Record<string, string | undefined>): [string, unknown][] {
  const dir = defaultConfigDir(env);
  if (dir === undefined) return [];
  try {
    // Read as the config store reads it (a BOM, an empty file).
    const settings = parseJsonText(readFileSync(settingsFileIn(dir), 'utf8'));
    const aliases: unknown = isObject(settings) && isObject(settings.settings) ? settings.settings.aliases : undefined;
    return isObject(aliases) ? Object.entries(aliases) : [];
  } catch {
    return [];
  }
}

/** The saved aliases that can run (aliasProblem), by name; {} when the file is missing or unreadable. */
export function aliasesOnFile(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(aliasEntriesOnFile(env).filter((entry): entry is [string, string] => aliasProblem(entry[1]) === undefined));
}

/**
 * The lines to add after the program's help: a blank line, "Aliases:" and each alias with its
 * expansion, laid out as the commands are, one that cannot run with why (one named as a command
 * of `builtins` too); '' when there are none.
 */
export function aliasHelpSection(env: Record<string, string | undefined>, builtins: readonly string[]): string {
  const entries = aliasEntriesOnFile(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return '';
  const width = Math.max(...entries.map(([name]) => sanitizeInline(name).length));
  const shown = (name: string, expansion: unknown) => {
    const problem = builtins.includes(name) ? hiddenAliasProblem(name) : aliasProblem(expansion);
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
