// tkt profiles: every profile with saved settings or a token, the active one marked.
import type { CommandHost, Program } from './host.js';
import { profileLines } from '../account/profiles.js';
import type { Context } from '../context/context.js';
import type { Column } from '../output/table.js';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('profiles')
    .description('List profiles and mark the active one (--profile, TKT_PROFILE or "default")')
    .addHelpText(
      'after',
      `
Examples:
  $ tkt profiles
  $ tkt profiles -q                  # names only
  $ tkt profiles --query "[?loggedIn].name" --raw`,
    );
  host.action(command, (_args, _opts, ctx) => run({}, ctx));
}

export type ProfilesOptions = Record<string, never>;

// A long URL gives way before the name and the state do.
const PROFILE_COLUMNS: Column[] = [
  { header: '  NAME', key: 'name', priority: 2 },
  { header: 'URL', key: 'url', shrink: true, minWidth: 20, priority: 1 },
  { header: 'STATUS', key: 'status', shrink: true, priority: 2 },
];

export async function run(_options: ProfilesOptions, ctx: Context): Promise<void> {
  const profiles = profileLines(ctx);
  await ctx.output.document(profiles, {
    quiet: () => profiles.map((p) => `${p.name}\n`).join(''),
    human: async () => {
      const { renderTable } = await import('../output/table.js');
      const rows = profiles.map((p) => ({
        // The active profile marked as docker marks its context: before the name.
        name: `${p.active ? '*' : ' '} ${p.name}`,
        url: p.url ?? '(no URL)',
        status: p.loggedIn ? `logged in${p.username === null ? '' : ` as ${p.username}`}` : 'not logged in',
      }));
      // The same table piped: -q and --json are the forms for scripts.
      return renderTable(PROFILE_COLUMNS, rows, { width: ctx.io.size().columns, color: ctx.io.stdoutColor });
    },
  });
}
