// tkt profiles: every profile with saved settings or a token, the active one marked.
import type { CommandHost, Program } from '../cli.js';
import { profileLines } from '../account/profiles.js';
import type { Context } from '../context.js';
import { sanitizeInline } from '../output/sanitize.js';

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

export async function run(_options: ProfilesOptions, ctx: Context): Promise<void> {
  const profiles = profileLines(ctx);
  await ctx.output.document(profiles, {
    quiet: () => profiles.map((p) => `${p.name}\n`).join(''),
    human: () =>
      profiles
        .map((p) => {
          const who = p.loggedIn ? `logged in${p.username === null ? '' : ` as ${sanitizeInline(p.username)}`}` : 'not logged in';
          return `${p.active ? '*' : ' '} ${sanitizeInline(p.name)}  ${p.url === null ? '(no URL)' : sanitizeInline(p.url)}  ${who}\n`;
        })
        .join(''),
  });
}
