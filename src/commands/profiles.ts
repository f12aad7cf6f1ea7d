// tkt profiles: every profile (the default one too), the active one marked.
import type { CommandHost, Program } from './host.js';
import { PROFILE_COLUMNS, profileLines, type ProfileLine } from '../account/profiles.js';
import type { Context } from '../context/context.js';
import { columnsOption, csvOption } from '../output/flags.js';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('profiles')
    .description('List profiles and mark the active one (--profile, TKT_PROFILE or "default")')
    // A table as list's: a narrow terminal's note under it offers --columns.
    .addOption(csvOption(program))
    .addOption(columnsOption(program))
    .addHelpText(
      'after',
      `
Examples:
  $ tkt profiles
  $ tkt profiles -q                  # names only
  $ tkt profiles --columns name,url
  $ tkt profiles --query "[?loggedIn].name" --raw`,
    );
  host.action(command, (_args, _opts, ctx) => run({}, ctx), { keepsSettings: true });
}

export type ProfilesOptions = Record<string, never>;

export async function run(_options: ProfilesOptions, ctx: Context): Promise<void> {
  // A table at a terminal, tab-separated lines piped, CSV with --csv, names with -q, the profiles with --json.
  const printer = await ctx.output.records<ProfileLine>({
    prepare: (item) => item as ProfileLine,
    columns: PROFILE_COLUMNS,
    defaultColumns: () => PROFILE_COLUMNS.map((column) => column.name),
    quiet: (p) => p.name,
  });
  await printer.page(profileLines(ctx));
  await printer.end();
}
