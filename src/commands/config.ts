// tkt config get|set|unset|list: editor, pager, default view, default concurrency
// (src/config/settings.ts says where each is kept and which wins).
import type { CommandHost, Program } from '../cli.js';
import { resolveProfileName } from '../config/session.js';
import { SETTINGS, effectiveSetting, settingSpec, type EffectiveSetting, type SettingSpec } from '../config/settings.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';
import { kebabCase, parseListType } from '../tickets/list-query.js';

const HELP = `
Settings:
${SETTINGS.map((spec) => `  ${spec.key.padEnd(20)} ${spec.description}`).join('\n')}

"tkt config set" saves for every profile; with --profile NAME, for that profile only (it wins
over the global value, as gh's per-host settings do). $VISUAL/$EDITOR and $PAGER win over both.

Examples:
  $ tkt config set editor "code --wait"
  $ tkt config set default-view my-open-tickets
  $ tkt --profile staging config set default-concurrency 2
  $ tkt config get pager
  $ tkt config list --json
  $ tkt config unset default-view`;

export function register(program: Program, host: CommandHost): void {
  const config = program.command('config').description('Get and set tkt settings: editor, pager, default view, default concurrency').addHelpText('after', HELP);
  const keys = SETTINGS.map((spec) => spec.key).join(', ');
  const get = config.command('get').description('Print the value tkt uses for a setting').argument('<key>', keys);
  host.action(get, ([key], _opts, ctx) => runGet(key, ctx));
  const set = config.command('set').description('Save a setting (for every profile, or with --profile for one)').argument('<key>', keys).argument('<value>', 'the value');
  host.action(set, ([key, value], _opts, ctx) => runSet(key, value, ctx));
  const unset = config.command('unset').description('Forget a saved setting (for every profile, or with --profile for one)').argument('<key>', keys);
  host.action(unset, ([key], _opts, ctx) => runUnset(key, ctx));
  const list = config.command('list').description('Every setting with its value and where it comes from');
  host.action(list, (_args, _opts, ctx) => runList(ctx));
}

/** The value to save: the setting's own check, and for the view the list types (exit 2 listing them). */
function parseValue(spec: SettingSpec, text: string): string | number {
  if (spec.name === 'defaultView') return kebabCase(parseListType(text));
  return spec.parse(text);
}

function describeSource(setting: EffectiveSetting, ctx: Context): string {
  if (setting.source === 'env') return `$${setting.variable}`;
  if (setting.source === 'profile') return `profile ${resolveProfileName(ctx)}`;
  return setting.source;
}

const jsonOf = (spec: SettingSpec, setting: EffectiveSetting, ctx: Context) => ({
  key: spec.key,
  value: setting.value ?? null,
  source: describeSource(setting, ctx),
});

async function runGet(key: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const setting = effectiveSetting(ctx, spec);
  await ctx.output.document(jsonOf(spec, setting, ctx), {
    human: () => (setting.value === undefined ? '' : `${sanitizeInline(String(setting.value))}\n`),
    quiet: () => (setting.value === undefined ? '' : `${sanitizeInline(String(setting.value))}\n`),
  });
}

/** Only an explicit --profile saves per profile: TKT_PROFILE picks the profile to read, not where to save. */
const savedFor = (ctx: Context) => ctx.globals.profile;

async function runSet(key: string, text: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const value = parseValue(spec, text);
  const profile = savedFor(ctx);
  await ctx.config.saveSettings({ [spec.name]: value }, profile);
  const where = profile === undefined ? 'for every profile' : `for profile ${profile}`;
  await ctx.output.document({ key: spec.key, value, profile: profile ?? null }, { human: () => `Set ${spec.key} to ${sanitizeInline(String(value))} ${where}\n` });
  const shadow = spec.env.find((variable) => ctx.env[variable]?.trim());
  if (shadow !== undefined) ctx.io.stderr.write(`note: $${shadow} is set and wins over this setting\n`);
}

async function runUnset(key: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const profile = savedFor(ctx);
  await ctx.config.saveSettings({ [spec.name]: undefined }, profile);
  await ctx.output.document({ key: spec.key, profile: profile ?? null }, { human: () => `Unset ${spec.key} ${profile === undefined ? 'for every profile' : `for profile ${profile}`}\n` });
}

export async function runList(ctx: Context): Promise<void> {
  const rows = SETTINGS.map((spec) => ({ spec, setting: effectiveSetting(ctx, spec) }));
  await ctx.output.document(
    rows.map(({ spec, setting }) => jsonOf(spec, setting, ctx)),
    {
      human: () =>
        rows
          .map(({ spec, setting }) => `${spec.key}=${setting.value === undefined ? '' : sanitizeInline(String(setting.value))}  (${describeSource(setting, ctx)})\n`)
          .join(''),
      quiet: () => rows.map(({ spec, setting }) => `${spec.key}=${setting.value === undefined ? '' : sanitizeInline(String(setting.value))}\n`).join(''),
    },
  );
}
