// User settings (`tkt config`): editor, pager, default view, default concurrency, web URL.
//
// Where they are kept, as gh does with its per-host overrides: `tkt config set KEY VALUE`
// saves for every profile; `tkt --profile NAME config set KEY VALUE` saves for that profile
// only, over the global value. What tkt uses (docs/cli.md section 1: environment first, then saved
// settings): editor = $VISUAL, $EDITOR, the active profile's, the global one, vi; pager =
// $PAGER, then the same, then "less -FRX"; default view and concurrency have no variable.
import type { GlobalOptions } from './globals.js';
import { UsageError } from '../errors.js';
import { closestWord } from '../util/closest.js';
import { wholeNumberOption } from '../util/ids.js';
import { squash } from '../util/option-text.js';
import { commandNamed, unquotedPathHint, unquotedVariableHint } from '../util/shell-status.js';
import { settingsFileIn } from './paths.js';
import { existingProfileName, tktCommand } from './session.js';
import type { ConfigStore, SavedSettings } from './types.js';

/** What `tkt config` reads and writes (aliases have a command of their own). */
export type SettingName = Exclude<keyof SavedSettings, 'aliases'>;

export interface SettingSpec {
  /** As typed in `tkt config`: editor, pager, default-view, default-concurrency. */
  key: string;
  name: SettingName;
  description: string;
  /** Variables that win over the saved value, first set wins. */
  env: readonly string[];
  fallback: string | number | undefined;
  /** What its value is called in a hint: `tkt config set default-view NAME`. */
  valueName: string;
  /** The value to save, or a UsageError (exit 2) saying what is expected. */
  parse(text: string): string | number;
}

const MAX_CONCURRENCY = 32;
// Measured with bench/close-vs-curl.mjs: 8 closed 1,000 tickets 10-30% sooner than 4, and 12 or
// 16 gained little more. 8 is what `xargs -P 8` scripts and browsers (6 per host) already ask of a
// service; changes are never retried, so a default that provoked 429s would fail tickets.
/** Requests at once for the ID... commands and create --from, unless --concurrency or the setting says otherwise (README: why 8). */
const DEFAULT_CONCURRENCY = 8;
/** The --concurrency help of every command that takes it. */
export const CONCURRENCY_HELP = `at once (1-${MAX_CONCURRENCY}; default: the default-concurrency setting, else ${DEFAULT_CONCURRENCY})`;

/** A setting that may not be empty; `expected`: what it takes, with examples of its own kind. */
function nonEmpty(key: string, expected: string) {
  return (text: string): string => {
    const value = text.trim();
    if (value === '') throw new UsageError(`${key} needs ${expected}`);
    return value;
  };
}

/** The `{id}` of the web-url setting, replaced by a ticket's ID. */
export const WEB_URL_ID = '{id}';

function parseWebUrl(text: string): string {
  const value = text.trim();
  const example = `e.g. "https://helpdesk.example.com/Ticket/Details/${WEB_URL_ID}"`;
  if (!value.includes(WEB_URL_ID)) throw new UsageError(`web-url needs ${WEB_URL_ID} where the ticket's ID goes, ${example}`);
  let url: URL | undefined;
  try {
    url = new URL(value.replaceAll(WEB_URL_ID, '1'));
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new UsageError(`web-url must be an http(s) URL, ${example}`);
  return value;
}

export const SETTINGS: readonly SettingSpec[] = [
  {
    key: 'editor',
    valueName: 'COMMAND',
    name: 'editor',
    description: 'command that edits long text (descriptions, replies)',
    env: ['VISUAL', 'EDITOR'],
    fallback: 'vi',
    parse: nonEmpty('editor', 'a command, e.g. "nano" or "code --wait"'),
  },
  {
    key: 'pager',
    valueName: 'COMMAND',
    name: 'pager',
    description: 'command that pages long output (tkt show)',
    env: ['PAGER'],
    fallback: 'less -FRX',
    parse: nonEmpty('pager', 'a command, e.g. "less -R" or "more"'),
  },
  {
    key: 'default-view',
    valueName: 'NAME',
    name: 'defaultView',
    description: 'view tkt list shows without --view, e.g. my-open-tickets',
    env: [],
    fallback: undefined,
    // `tkt config set` checks it against the list types (tickets/list-query.ts, a layer above this one).
    parse: nonEmpty('default-view', 'a view, e.g. "my-open-tickets"'),
  },
  {
    key: 'default-concurrency',
    valueName: 'N',
    name: 'defaultConcurrency',
    description: `requests at once for commands over several IDs (1-${MAX_CONCURRENCY})`,
    env: [],
    fallback: DEFAULT_CONCURRENCY,
    parse: (text) => wholeNumberOption('default-concurrency', text, { min: 1, max: MAX_CONCURRENCY }),
  },
  {
    key: 'web-url',
    valueName: 'URL',
    name: 'webUrl',
    description: "a ticket's web page, {id} for its ID (tkt browse)",
    env: [],
    fallback: undefined,
    parse: parseWebUrl,
  },
];

/** The setting `key` names (any case, kebab or camel); exit 2 listing the keys otherwise. */
export function settingSpec(key: string): SettingSpec {
  const found = SETTINGS.find((spec) => squash(spec.key) === squash(key));
  if (found !== undefined) return found;
  const keys = SETTINGS.map((spec) => spec.key);
  // As a misspelt command or template is offered: the one meant.
  const meant = closestWord(key, keys);
  throw new UsageError(`unknown setting ${JSON.stringify(key)}`, {
    details: [`settings: ${keys.join(', ')}`],
    hint: meant === undefined ? undefined : `did you mean ${meant}?`,
  });
}

export type SettingSource = 'env' | 'profile' | 'global' | 'default';

export interface EffectiveSetting {
  value: string | number | undefined;
  source: SettingSource;
  /** The variable it came from, with source "env". */
  variable?: string;
}

interface SettingsContext {
  config: ConfigStore;
  env: Readonly<Record<string, string | undefined>>;
  globals: GlobalOptions;
}

/** One setting as tkt will use it, and where it came from. */
export function effectiveSetting(ctx: SettingsContext, spec: SettingSpec): EffectiveSetting {
  for (const variable of spec.env) {
    const value = ctx.env[variable]?.trim();
    if (value) return { value, source: 'env', variable };
  }
  const profileValue = ctx.config.getSettings(existingProfileName(ctx))[spec.name];
  if (profileValue !== undefined) return { value: profileValue, source: 'profile' };
  const globalValue = ctx.config.getSettings()[spec.name];
  if (globalValue !== undefined) return { value: globalValue, source: 'global' };
  return { value: spec.fallback, source: 'default' };
}

/** Checks a setting's text as `tkt config set` does: the value, or a UsageError saying what is expected. */
export type SettingParser = (text: string) => string | number;

/**
 * Why a saved value (hand-edited, or shared) fails `parse`, the check `tkt config set` makes;
 * undefined when it passes. The reason without the key and value the caller names itself.
 */
export function savedValueProblem(spec: SettingSpec, value: unknown, parse: SettingParser = spec.parse): { reason: string; details: string[] } | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return { reason: `not text or a number (${JSON.stringify(value)})`, details: [] };
  try {
    parse(String(value));
    return undefined;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const quoted = JSON.stringify(String(value));
    // "invalid default-concurrency "0": expected...", "web-url needs...", "unknown view "x"": the key and value are said before it.
    const reason = error.message
      .replace(`invalid ${spec.key} ${quoted}: `, '')
      .replace(new RegExp(`^${spec.key} `), '')
      .replace(` ${quoted}`, '');
    return { reason, details: error.details };
  }
}

/** Where a saved setting is kept: the settings file, and the profile when it is a profile's own. */
export function savedSettingPlace(ctx: SettingsContext, source: SettingSource): string {
  const file = settingsFileIn(ctx.config.dir);
  return source === 'profile' ? `${file} (profile ${existingProfileName(ctx)})` : file;
}

/**
 * The value of a setting as tkt uses it: a saved one checked by `parse` (the setting's own, or a
 * stricter one of a layer above), as `tkt config set` checks it; exit 2 naming the setting, its
 * value and the file otherwise, never an option the user did not type.
 */
export function settingValue(ctx: SettingsContext, spec: SettingSpec, parse: SettingParser = spec.parse): string | number | undefined {
  const setting = effectiveSetting(ctx, spec);
  if (setting.source !== 'profile' && setting.source !== 'global') return setting.value;
  const problem = savedValueProblem(spec, setting.value, parse);
  if (problem === undefined) return parse(String(setting.value));
  throw new UsageError(`${spec.key} ${JSON.stringify(setting.value)} in ${savedSettingPlace(ctx, setting.source)}: ${problem.reason}`, {
    details: problem.details,
    hint: savedSettingFix(ctx, spec, setting.source),
  });
}

/** The commands that replace or remove a saved value where it is kept (a profile's own, or the global one). */
export function savedSettingFix(ctx: SettingsContext, spec: SettingSpec, source: SettingSource): string {
  const forProfile = source === 'profile' ? ` --profile ${existingProfileName(ctx)}` : '';
  return `tkt config set ${spec.key} ${spec.valueName}${forProfile}, or tkt config unset ${spec.key}${forProfile}`;
}

/** The settings other commands read, each checked when it is read (settingValue): a bad one fails only the commands that use it. */
export interface UserSettings {
  pager: string;
  defaultConcurrency: number;
  /** The web-url template, `{id}` not yet replaced; undefined when not set. */
  webUrl: string | undefined;
}

/** The typed settings other commands read (pager for show, ...; the editor: editorChoice). */
export function userSettings(ctx: SettingsContext): UserSettings {
  const value = (name: SettingName) =>
    settingValue(
      ctx,
      SETTINGS.find((spec) => spec.name === name)!,
    );
  return {
    get pager() {
      return String(value('pager'));
    },
    get defaultConcurrency() {
      return Number(value('defaultConcurrency'));
    },
    get webUrl() {
      const template = value('webUrl');
      return template === undefined ? undefined : String(template);
    },
  };
}

/** The pager as messages name it, with where it was chosen: `the pager "most" ($PAGER)`. */
export function pagerNamed(setting: EffectiveSetting): string {
  const from = setting.source === 'env' ? `$${setting.variable}` : setting.source === 'default' ? 'the default' : '"tkt config get pager"';
  return `the pager ${commandNamed(String(setting.value))} (${from})`;
}

/**
 * How to quote a command setting (editor, pager) that is a program's path with spaces, given
 * unquoted (isUnquotedPath), where it was set; undefined for the default, which is none.
 */
export function unquotedSettingHint(ctx: SettingsContext, spec: SettingSpec, setting: EffectiveSetting): string | undefined {
  const command = String(setting.value);
  if (setting.source === 'default') return undefined;
  if (setting.source === 'env') return unquotedVariableHint(setting.variable!, command);
  const where = setting.source === 'profile' ? `the ${spec.key} setting of profile ${existingProfileName(ctx)}` : `the ${spec.key} setting`;
  return unquotedPathHint(command, where, (quoted) => tktCommand(ctx, `config set ${spec.key} ${quoted}`));
}

/** The editor tkt runs, and what to tell the user when it cannot run. */
export interface EditorChoice {
  command: string;
  /** Where the command was chosen and how to change that: never another editor to guess at. */
  hint: string;
  /** The hint when the command is a program's path with spaces, given unquoted, that sh split (isUnquotedPath): how to quote it there. */
  unquotedHint?: string;
}

/** The editor setting as userSettings reads it ($VISUAL, $EDITOR, the profile's, the global one, vi), with its hint. */
export function editorChoice(ctx: SettingsContext): EditorChoice {
  const spec = settingSpec('editor');
  const setting = effectiveSetting(ctx, spec);
  const { source, variable } = setting;
  const value = settingValue(ctx, spec);
  const setCommand = `"${tktCommand(ctx, 'config set editor COMMAND')}"`;
  const hints: Record<SettingSource, string> = {
    env: `$${variable} names it: set $${variable} to an editor installed here, or unset it to use the editor setting`,
    profile: `the editor setting of profile ${existingProfileName(ctx)} names it: change it with ${setCommand}, or set $EDITOR`,
    global: `the editor setting names it: change it with ${setCommand}, or set $EDITOR`,
    default: `no editor is set, so tkt ran ${String(value)}: set one with ${setCommand}, or set $EDITOR`,
  };
  return { command: String(value), hint: hints[source], unquotedHint: unquotedSettingHint(ctx, spec, setting) };
}
