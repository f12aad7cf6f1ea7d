import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { existingProfileName } from '../config/session.js';
import { tokenOrUnreadable } from '../account/profiles.js';
import { envValue } from '../util/env.js';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('logout')
    .description("Forget the profile's saved token")
    .addHelpText(
      'after',
      `
Only the local copy is deleted; the service has no logout call, so the token stays valid
until it expires. Not being logged in is not an error.

Examples:
  $ tkt logout
  $ tkt logout --profile staging`,
    );
  host.action(command, (_args, _opts, ctx) => run({}, ctx), { keepsSettings: true });
}

export type LogoutOptions = Record<string, never>;

export async function run(_options: LogoutOptions, ctx: Context): Promise<void> {
  const profile = existingProfileName(ctx);
  const stored = tokenOrUnreadable(ctx, profile);
  // Deleted whatever was read: a file readToken does not recognise is still not worth keeping.
  await ctx.config.deleteToken(profile);
  const url = stored !== undefined && stored !== 'unreadable' ? stored.url : undefined;

  // The JSON form only: people read the line on stderr below.
  await ctx.output.document({ profile, loggedOut: stored !== undefined, url: url ?? null });
  await ctx.output.note(
    stored === undefined
      ? `Not logged in (profile ${profile}); nothing to forget\n`
      : `Logged out${url === undefined ? '' : ` of ${url}`} (profile ${profile}): token deleted\n`,
  );
  // A warning, shown with -q too: logging out changed nothing for this shell.
  if (envValue(ctx.env, 'TKT_TOKEN') !== undefined) await ctx.output.warning('TKT_TOKEN is still set, so commands stay authenticated with it\n');
}
