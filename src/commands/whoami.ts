import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { sanitizeInline } from '../output/sanitize.js';
import { formatDate, relativeTime } from '../output/time.js';

const SOURCE_LABEL = { cache: 'token cache', env: 'TKT_TOKEN' } as const;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('whoami')
    .description('Show the logged-in user, service URL, profile and token expiry (no request is made)')
    .option('--check', 'ask the service whether it still takes the token (one request)')
    .addHelpText(
      'after',
      `
Exits 4 when not logged in or when the token has expired; with --check, also when the service
no longer takes it (revoked, or a service that forgot it).

Examples:
  $ tkt whoami
  $ tkt whoami --check
  $ tkt whoami --query userId --raw
  $ tkt whoami -q            # just the user name`,
    );
  host.action(command, (_args, opts, ctx) => run(opts, ctx));
}

export interface WhoamiOptions {
  check?: boolean | undefined;
}

export async function run(options: WhoamiOptions, ctx: Context): Promise<void> {
  // resolveSession throws (exit 4) when there is no token or it has expired.
  const session = await ctx.session();
  const { fullName } = session;
  // The app metadata needs only a valid token (docs/service.md 5): a 401 is exit 4 with the login hint.
  if (options.check) await (await ctx.api()).send(plans.appMetadata());

  const whoami = {
    username: session.username ?? null,
    fullName: fullName ?? null,
    userId: session.userId ?? null,
    url: session.baseUrl,
    profile: session.profile,
    expiresAt: session.expiresAt?.toISOString() ?? null,
    tokenSource: session.tokenSource,
    ...(options.check ? { accepted: true } : {}),
  };
  // An opaque token is no error (a service may issue such), but nothing here vouches for it.
  if (!options.check && session.username === undefined && session.userId === undefined && session.expiresAt === undefined) {
    await ctx.output.warning(
      'the token names no user and no expiry (tkt cannot read it): whoami sends no request, so the service may still refuse it; tkt whoami --check asks it\n',
    );
  }
  await ctx.output.document(whoami, {
    quiet: () => (session.username === undefined ? undefined : `${sanitizeInline(session.username)}\n`),
    human: async () => {
      // The table helper loads chalk: only the human output needs it.
      const { renderKeyValue } = await import('../output/table.js');
      const expiry = session.expiresAt === undefined ? 'unknown' : `${formatDate(session.expiresAt)} (${relativeTime(session.expiresAt, ctx.now())})`;
      return renderKeyValue(
        [
          ['User', session.username === undefined ? 'unknown' : sanitizeInline(session.username)],
          ['Name', fullName === undefined ? undefined : sanitizeInline(fullName)],
          ['User ID', session.userId ?? 'unknown'],
          ['URL', session.baseUrl],
          ['Profile', session.profile],
          ['Expires', expiry],
          ['Token', SOURCE_LABEL[session.tokenSource]],
          ['Service', options.check ? 'takes the token (asked now)' : undefined],
        ],
        { color: ctx.io.stdoutColor },
      );
    },
  });
}
