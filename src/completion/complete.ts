// `tkt __complete KIND`: what the completion scripts run on every Tab press, from the full CLI or
// (src/completion/entry.ts) from its own light bundle: the config folder and the lookup cache,
// never the network.
import type { IO } from '../output/io.js';
import type { ConfigReader } from '../config/types.js';
import { createLookups, type LookupContext } from '../lookups/index.js';
import { isLookupKind, type LookupKind } from '../model/fields.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';
import { templateNames } from '../desk/templates.js';
import { expansionWords, PLACEHOLDER } from '../desk/alias-words.js';
import { aliasProblem } from '../desk/alias-help.js';
import { isObject } from '../util/json-object.js';

/** The profiles of the config folder, for `--profile`. */
const PROFILE = 'profile';

/** The user's aliases (tkt alias), offered where a command goes and where an alias's NAME is taken. */
export const ALIAS = 'alias';

/** `alias:NAME`: the words the alias NAME stands for, which the completion scripts complete after. */
const ALIAS_WORDS = 'alias:';

/** The reply templates of the config folder (tkt templates), for their NAME and --template. */
export const TEMPLATE = 'template';

/** What `tkt __complete KIND` names: a lookup kind, the profiles, the aliases or the templates. */
export type NameKind = LookupKind | typeof PROFILE | typeof ALIAS | typeof TEMPLATE;

/**
 * What listing names uses of a run: the full CLI passes its context, the light entry
 * (src/completion/entry.ts) builds just this, with a config folder it only reads.
 */
export type NamesContext = Omit<LookupContext, 'config' | 'api'> & { config: ConfigReader };

/** What `tkt __complete` uses of a run in the full CLI. */
export type CompletionContext = NamesContext & { io: Pick<IO, 'stdout'> };

/**
 * What an alias's arguments complete after, one word a line: `tkt ALIAS WORDS` completes as `tkt
 * <these> WORDS`. The words a placeholder takes (and an option right before one, whose value it
 * is) are left out: the arguments typed after the alias are what fill them. `!` for a shell
 * alias, whose script decides what its arguments are; nothing for no alias or an unbalanced one.
 */
function aliasWords(name: string, ctx: NamesContext, builtins: readonly string[]): string[] {
  const expansion = textAliases(ctx, builtins)[name]?.trim();
  if (expansion === undefined) return [];
  if (expansion.startsWith('!')) return ['!'];
  const words = expansionWords(expansion);
  if (!Array.isArray(words)) return [];
  const filled = (word: string | undefined) => word !== undefined && word.search(PLACEHOLDER) !== -1;
  return words.filter((word, i) => !filled(word) && !(word.startsWith('-') && !word.includes('=') && filled(words[i + 1])));
}

/**
 * The saved aliases that can run; one that cannot (hand-edited: no text, empty, a loop) completes
 * as nothing (tkt alias list says why). `builtins`, tkt's command names, end a loop's chain.
 */
function textAliases(ctx: NamesContext, builtins: readonly string[]): Record<string, string> {
  const saved = ctx.config.getSettings().aliases;
  if (!isObject(saved)) return {};
  return Object.fromEntries(Object.entries(saved).filter((entry): entry is [string, string] => aliasProblem(entry[0], saved, builtins) === undefined));
}

async function namesOf(kind: string, ctx: NamesContext, builtins: readonly string[]): Promise<string[]> {
  if (kind === PROFILE) return ctx.config.profileNames();
  if (kind === ALIAS) return Object.keys(textAliases(ctx, builtins)).sort();
  if (kind.startsWith(ALIAS_WORDS)) return aliasWords(kind.slice(ALIAS_WORDS.length), ctx, builtins);
  if (kind === TEMPLATE) return templateNames(ctx);
  if (!isLookupKind(kind)) return [];
  const cacheOnly: LookupContext = {
    ...ctx,
    // It fetches nothing, so it has nothing to keep. The reader is the prototype: its `dir` may
    // be a getter (no config folder), which a copy would call.
    config: Object.assign(Object.create(ctx.config) as ConfigReader, { writeCache: async () => {} }),
    globals: { ...ctx.globals, refresh: false },
    api: () => Promise.reject(new Error('completion never contacts the service')),
  };
  const entries = await createLookups(cacheOnly).entries(kind);
  return [...new Set(entries.flatMap((entry) => [entry.name, ...entry.aliases]))];
}

/**
 * The names of one kind, one per line: a lookup kind's names (and aliases, e.g. usernames) from
 * the cache, the profiles, the aliases, an alias's words (alias:NAME) or the templates. It never makes a request and never fails: nothing cached, not
 * logged in, an unreadable config folder or an unknown kind all give nothing. `builtins` are
 * tkt's command names (src/commands/names.ts), which win over an alias of theirs.
 */
export async function namesText(kind: string, ctx: NamesContext, builtins: readonly string[]): Promise<string> {
  try {
    return (await namesOf(kind, ctx, builtins)).map((name) => `${sanitizeInline(name)}\n`).join('');
  } catch {
    // Nothing cached, no session, an unreadable config folder: no suggestions.
    return '';
  }
}

/** `tkt __complete KIND` in the full CLI: namesText on the run's stdout. */
export async function printNames(kind: string, ctx: CompletionContext, builtins: readonly string[]): Promise<void> {
  await writeText(ctx.io.stdout, await namesText(kind, ctx, builtins));
}
