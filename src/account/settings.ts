// `tkt config`'s work on the settings of src/config/settings.ts (editor, pager, default view,
// default concurrency): a value checked before it is saved, and where the value in force comes from.
import { existingProfileName } from '../config/session.js';
import { SETTINGS, effectiveSetting, settingSpec, type EffectiveSetting, type SettingSpec } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { sanitizeInline } from '../output/sanitize.js';
import { kebabCase, parseListType } from '../listing/query.js';

/** The value to save: the setting's own check, and for the view the list types (exit 2 listing them). */
function parseValue(spec: SettingSpec, text: string): string | number {
  if (spec.name === 'defaultView') return kebabCase(parseListType(text));
  return spec.parse(text);
}

function describeSource(setting: EffectiveSetting, ctx: Context): string {
  if (setting.source === 'env') return `$${setting.variable}`;
  if (setting.source === 'profile') return `profile ${existingProfileName(ctx)}`;
  return setting.source;
}

const jsonOf = (spec: SettingSpec, setting: EffectiveSetting, ctx: Context) => ({
  key: spec.key,
  value: setting.value ?? null,
  source: describeSource(setting, ctx),
});

/** `tkt config get KEY`: the value in force, and with --json where it comes from. */
export async function showSetting(key: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const setting = effectiveSetting(ctx, spec);
  await ctx.output.document(jsonOf(spec, setting, ctx), {
    human: () => (setting.value === undefined ? '' : `${sanitizeInline(String(setting.value))}\n`),
    quiet: () => (setting.value === undefined ? '' : `${sanitizeInline(String(setting.value))}\n`),
  });
}

/** Only an explicit --profile saves per profile: TKT_PROFILE picks the profile to read, not where to save. */
const savedFor = (ctx: Context) => ctx.globals.profile;

/** `tkt config set KEY VALUE`: checked, then saved for every profile or, with --profile, for one. */
export async function saveSetting(key: string, text: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const value = parseValue(spec, text);
  const profile = savedFor(ctx);
  // Only tkt login creates a profile: saving for one that does not exist is a typo.
  existingProfileName(ctx);
  await ctx.config.saveSettings({ [spec.name]: value }, profile);
  const where = profile === undefined ? 'for every profile' : `for profile ${profile}`;
  await ctx.output.document(
    { key: spec.key, value, profile: profile ?? null },
    { human: () => `Set ${spec.key} to ${sanitizeInline(String(value))} ${where}\n` },
  );
  const shadow = spec.env.find((variable) => ctx.env[variable]?.trim());
  // A warning, shown with -q too: the value just saved is not the one in force.
  if (shadow !== undefined) await ctx.output.warning(`$${shadow} is set and wins over this setting\n`);
}

/** `tkt config unset KEY`. */
export async function forgetSetting(key: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const profile = savedFor(ctx);
  existingProfileName(ctx);
  await ctx.config.saveSettings({ [spec.name]: undefined }, profile);
  await ctx.output.document(
    { key: spec.key, profile: profile ?? null },
    { human: () => `Unset ${spec.key} ${profile === undefined ? 'for every profile' : `for profile ${profile}`}\n` },
  );
}

/** `tkt config list`: every setting, its value and where it comes from. */
export async function listSettings(ctx: Context): Promise<void> {
  const rows = SETTINGS.map((spec) => ({ spec, setting: effectiveSetting(ctx, spec) }));
  await ctx.output.document(
    rows.map(({ spec, setting }) => jsonOf(spec, setting, ctx)),
    {
      human: () =>
        rows
          .map(
            ({ spec, setting }) =>
              `${spec.key}=${setting.value === undefined ? '' : sanitizeInline(String(setting.value))}  (${describeSource(setting, ctx)})\n`,
          )
          .join(''),
      quiet: () => rows.map(({ spec, setting }) => `${spec.key}=${setting.value === undefined ? '' : sanitizeInline(String(setting.value))}\n`).join(''),
    },
  );
}
