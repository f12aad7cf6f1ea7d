// tkt profiles: every profile (the default one too), the active one marked.
import type { CommandHost, Program } from './host.js';
import { profileLines, type ProfileLine } from '../account/profiles.js';
import type { Context } from '../context/context.js';
import type { RecordColumn } from '../output/types.js';

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
  host.action(command, (_args, _opts, ctx) => run({}, ctx), { keepsSettings: true });
}

export type ProfilesOptions = Record<string, never>;

/** A saved token past its expiry is said as such, as every command that would use it says it. */
function profileState(p: ProfileLine): string {
  if (p.loggedIn) return `logged in${p.username === null ? '' : ` as ${p.username}`}`;
  return p.expired ? `token expired${p.username === null ? '' : ` (${p.username})`}` : 'not logged in';
}

// The active profile marked as kubectl marks its context, in a column of its own so that the
// piped lines (tab-separated, no header) keep it; a long URL gives way before the name and the state do.
const PROFILE_COLUMNS: readonly RecordColumn<ProfileLine>[] = [
  { name: 'active', header: '', human: (p) => (p.active ? '*' : ''), priority: 2 },
  { name: 'name', header: 'NAME', human: (p) => p.name, priority: 2 },
  { name: 'url', header: 'URL', human: (p) => p.url ?? '(no URL)', machine: (p) => p.url, shrink: true, minWidth: 20, priority: 1 },
  {
    name: 'status',
    header: 'STATUS',
    human: profileState,
    shrink: true,
    priority: 2,
  },
];

export async function run(_options: ProfilesOptions, ctx: Context): Promise<void> {
  // A table at a terminal, tab-separated lines piped, names with -q, the profiles with --json.
  const printer = await ctx.output.records<ProfileLine>({
    prepare: (item) => item as ProfileLine,
    columns: PROFILE_COLUMNS,
    defaultColumns: () => PROFILE_COLUMNS.map((column) => column.name),
    quiet: (p) => p.name,
  });
  await printer.page(profileLines(ctx));
  await printer.end();
}
