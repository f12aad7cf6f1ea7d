// tkt config get|set|unset|list: editor, pager, default view, default concurrency, web URL
// (src/config/settings.ts says where each is kept and which wins).
import { KEEPS_SETTINGS, type CommandHost, type Program } from './host.js';
import { forgetSetting, listSettings, saveSetting, showSetting } from '../account/settings.js';
import { SETTINGS } from '../config/settings.js';
import type { Context } from '../context/context.js';

export type ConfigOptions =
  { action: 'get'; key: string } | { action: 'set'; key: string; value: string } | { action: 'unset'; key: string } | { action: 'list' };

const HELP = `
Settings:
${SETTINGS.map((spec) => `  ${spec.key.padEnd(20)} ${spec.description}`).join('\n')}

"tkt config set" saves for every profile; with --profile NAME, for that profile only (one tkt
login created; it wins over the global value, as gh's per-host settings do). TKT_PROFILE is the same as
--profile. $VISUAL/$EDITOR and $PAGER win over both.

Examples:
  $ tkt config set editor "code --wait"
  $ tkt config set default-view my-open-tickets
  $ tkt config set web-url 'https://desk.example.com/t/{id}'
  $ tkt --profile staging config set default-concurrency 2
  $ tkt config get pager
  $ tkt config list --json
  $ tkt config unset default-view`;

export function register(program: Program, host: CommandHost): void {
  const config = program
    .command('config')
    .description('Get and set tkt settings: editor, pager, default view, default concurrency, web URL')
    .addHelpText('after', HELP);
  const keys = SETTINGS.map((spec) => spec.key).join(', ');
  const get = config.command('get').description('Print the value tkt uses for a setting').argument('<key>', keys);
  host.action(get, ([key], _opts, ctx) => run({ action: 'get', key }, ctx), KEEPS_SETTINGS);
  const set = config
    .command('set')
    .description('Save a setting (for every profile, or with --profile for one)')
    .argument('<key>', keys)
    .argument('<value>', 'the value');
  host.action(set, ([key, value], _opts, ctx) => run({ action: 'set', key, value }, ctx), KEEPS_SETTINGS);
  const unset = config.command('unset').description('Forget a saved setting (for every profile, or with --profile for one)').argument('<key>', keys);
  host.action(unset, ([key], _opts, ctx) => run({ action: 'unset', key }, ctx), KEEPS_SETTINGS);
  const list = config.command('list').description('Every setting with its value and where it comes from');
  host.action(list, (_args, _opts, ctx) => run({ action: 'list' }, ctx), KEEPS_SETTINGS);
}

export async function run(options: ConfigOptions, ctx: Context): Promise<void> {
  switch (options.action) {
    case 'get':
      return showSetting(options.key, ctx);
    case 'set':
      return saveSetting(options.key, options.value, ctx);
    case 'unset':
      return forgetSetting(options.key, ctx);
    case 'list':
      return listSettings(ctx);
  }
}
