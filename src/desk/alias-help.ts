// The "Aliases:" section that ends `tkt --help` when the user has aliases (tkt alias), as git's
// help lists command aliases, and the line an alias's help starts with; and the aliases for commander's other answers (src/commander-program.ts). Both ways of printing that help use it: the CLI (src/program.ts)
// and the bin's first stop (src/fast-start.ts), which adds it to the help prepared at build time.
// So it reads the settings file itself, cheaply, and never fails: help must print whatever the
// file holds (a damaged file is reported by the commands that use the settings).
import { readFileSync } from 'node:fs';
import { defaultConfigDir, settingsFileIn } from '../config/paths.js';
import { isObject } from '../util/json-object.js';
import { sanitizeInline } from '../output/sanitize.js';

/** The saved aliases whose expansion is text, by name; {} when the file is missing or unreadable. */
export function aliasesOnFile(env: Record<string, string | undefined>): Record<string, string> {
  try {
    const settings: unknown = JSON.parse(readFileSync(settingsFileIn(defaultConfigDir(env)), 'utf8'));
    const aliases: unknown = isObject(settings) && isObject(settings.settings) ? settings.settings.aliases : undefined;
    if (!isObject(aliases)) return {};
    return Object.fromEntries(Object.entries(aliases).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return {};
  }
}

/**
 * The lines to add after the program's help: a blank line, "Aliases:" and each alias with its
 * expansion, laid out as the commands are; '' when there are none.
 */
export function aliasHelpSection(env: Record<string, string | undefined>): string {
  const aliases = aliasesOnFile(env);
  const names = Object.keys(aliases).sort();
  if (names.length === 0) return '';
  const width = Math.max(...names.map((name) => sanitizeInline(name).length));
  const rows = names.map((name) => `  ${sanitizeInline(name).padEnd(width)}  ${sanitizeInline(aliases[name]!)}`);
  return `\nAliases:\n${rows.join('\n')}`;
}

/** What `tkt help NAME` prints first for the alias NAME (src/commands/help.ts): what it stands for. */
export function aliasHelpHeading(name: string, expansion: string): string {
  return expansion.startsWith('!')
    ? `${name} is an alias of a shell command, run by sh: ${sanitizeInline(expansion.slice(1))}\n`
    : `${name} is an alias of "tkt ${sanitizeInline(expansion)}"\n\n`;
}
