// `tkt config`'s work on the settings of src/config/settings.ts (editor, pager, default view,
// default concurrency): a value checked before it is saved, and where the value in force comes from.
import { chosenProfile, existingProfileName } from '../config/session.js';
import {
  SETTINGS,
  effectiveSetting,
  savedSettingFix,
  savedSettingPlace,
  savedValueProblem,
  settingSpec,
  type EffectiveSetting,
  type SettingParser,
  type SettingSpec,
} from '../config/settings.js';
import { squash } from '../util/option-text.js';
import type { Context } from '../context/context.js';
import { sanitizeInline } from '../output/sanitize.js';
import { parseViewSetting } from '../listing/query.js';

/** The check of a value to save: the setting's own, and for the view the list types (exit 2 listing them). */
const parserOf = (spec: SettingSpec): SettingParser => (spec.name === 'defaultView' ? parseViewSetting : spec.parse);

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

/** `tkt config set KEY VALUE`: checked, then saved for every profile or, with --profile or TKT_PROFILE (the same, docs/cli.md), for one. */
export async function saveSetting(key: string, text: string, ctx: Context): Promise<void> {
  const spec = settingSpec(key);
  const value = parserOf(spec)(text);
  const profile = chosenProfile(ctx);
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
  const profile = chosenProfile(ctx);
  existingProfileName(ctx);
  // Whether it was set, read under the file's lock as it is removed: "Unset" of nothing would mislead.
  let wasSet = false;
  await ctx.config.saveSettings((saved) => {
    wasSet = saved[spec.name] !== undefined;
    return { [spec.name]: undefined };
  }, profile);
  const where = profile === undefined ? 'for every profile' : `for profile ${profile}`;
  await ctx.output.document(
    { key: spec.key, profile: profile ?? null, changed: wasSet },
    { human: () => (wasSet ? `Unset ${spec.key} ${where}\n` : `${spec.key} was not set ${where}: nothing changed\n`) },
  );
}

/** Why a saved value would fail the commands that use it (settingValue); undefined for a good one, or one from the environment or a default. */
function problemOf(spec: SettingSpec, setting: EffectiveSetting): string | undefined {
  return setting.source === 'profile' || setting.source === 'global' ? savedValueProblem(spec, setting.value, parserOf(spec))?.reason : undefined;
}

/**
 * The keys of the saved settings (global, and the active profile's) that tkt does not read, each
 * with the one it reads when there is one: "default-view" written by hand for defaultView.
 */
function unknownKeys(ctx: Context): string[] {
  const profile = existingProfileName(ctx);
  // Named only for a key found: a user with no config folder has none, and no file to name.
  const places = [
    { saved: ctx.config.getSettings(), place: () => savedSettingPlace(ctx, 'global') },
    { saved: ctx.config.getSettings(profile), place: () => savedSettingPlace(ctx, 'profile') },
  ];
  return places.flatMap(({ saved, place }) =>
    Object.keys(saved)
      .filter((key) => key !== 'aliases' && !SETTINGS.some((spec) => spec.name === key))
      .map((key) => {
        const meant = SETTINGS.find((spec) => squash(spec.key) === squash(key));
        const reads = meant === undefined ? `the settings are ${SETTINGS.map((spec) => spec.name).join(', ')}` : `it is written ${meant.name} there`;
        return `${place()}: tkt does not read the setting ${JSON.stringify(key)}; ${reads} (tkt config set writes them)`;
      }),
  );
}

/** `tkt config list`: every setting, its value and where it comes from; a saved value that commands would refuse, and a key tkt does not read, are warned of. */
export async function listSettings(ctx: Context): Promise<void> {
  const rows = SETTINGS.map((spec) => {
    const setting = effectiveSetting(ctx, spec);
    return { spec, setting, problem: problemOf(spec, setting) };
  });
  const shown = (setting: EffectiveSetting) => (setting.value === undefined ? '' : sanitizeInline(String(setting.value)));
  await ctx.output.document(
    rows.map(({ spec, setting, problem }) => ({ ...jsonOf(spec, setting, ctx), ...(problem === undefined ? {} : { problem }) })),
    {
      human: () =>
        rows
          .map(({ spec, setting, problem }) => `${spec.key}=${shown(setting)}  (${describeSource(setting, ctx)}${problem === undefined ? '' : ', invalid'})\n`)
          .join(''),
      quiet: () => rows.map(({ spec, setting }) => `${spec.key}=${shown(setting)}\n`).join(''),
    },
  );
  for (const { spec, setting, problem } of rows) {
    if (problem === undefined) continue;
    await ctx.output.warning(
      `${spec.key} ${sanitizeInline(JSON.stringify(setting.value))} in ${savedSettingPlace(ctx, setting.source)}: ${sanitizeInline(problem)}; commands that use it fail: ${savedSettingFix(ctx, spec, setting.source)}\n`,
    );
  }
  for (const line of unknownKeys(ctx)) await ctx.output.warning(`${sanitizeInline(line)}\n`);
}
