// tkt auth token: the profile's token on stdout, for a CI secret or `curl -H`. A token on a
// terminal can end up in a screen share or the scrollback, so a TTY gets it only with --show.
import { tktCommand } from '../config/session.js';
import { TICKETS_PATH } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';

export interface AuthTokenOptions {
  show?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const auth = program
    .command('auth')
    .description('Authentication: print the token')
    .addHelpText('after', '\nExamples:\n  $ tkt auth token | gh secret set TKT_TOKEN\n  $ tkt auth token --show');
  const token = auth
    .command('token')
    .description("Print the profile's token (TKT_TOKEN when set) on stdout")
    .option('--show', 'print it even when stdout is a terminal')
    .addHelpText(
      'after',
      `
The token is printed only into a pipe or a file unless --show is given. Exit 4 when not
logged in or when the token has expired.

Examples:
  $ tkt auth token | gh secret set TKT_TOKEN
  $ curl -H "Authorization: Bearer $(tkt auth token)" \\
      https://helpdesk.example.com${TICKETS_PATH}/42
  $ tkt auth token --show
  $ tkt auth token --json    # {"token", "expiresAt", "url", "profile"}`,
    );
  host.action(token, (_args, opts, ctx) => run(opts, ctx));
}

export async function run(options: AuthTokenOptions, ctx: Context): Promise<void> {
  if (ctx.io.stdoutIsTTY && !options.show) {
    throw new UsageError('refusing to print the token to a terminal', {
      hint: `pipe it (${tktCommand(ctx, 'auth token')} | gh secret set TKT_TOKEN), or add --show`,
    });
  }
  const session = await ctx.session();
  await ctx.output.document(
    { token: session.token, expiresAt: session.expiresAt?.toISOString() ?? null, url: session.baseUrl, profile: session.profile },
    { human: () => `${session.token}\n`, quiet: () => `${session.token}\n` },
  );
}
