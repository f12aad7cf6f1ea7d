import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { askLoginUrl, assertNothingMissing, authenticate, loginPassword, loginUsername, saveSession, withoutToken, type LoginInput } from '../account/login.js';
import { allowsHttp, httpAllowedOrigin, profileNameToSave, resolveBaseUrl } from '../config/session.js';
import { assertLoginBaseUrl, assertTransportAllowed, baseUrlSource } from '../config/url.js';
import { UsageError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { envValue } from '../util/env.js';

export interface LoginOptions extends LoginInput {
  /** Set when someone typed --password: refused with the reason, never used. */
  passwordFlag: boolean;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('login')
    .description('Log in and save the token in the profile (the password is never a flag)')
    .option('-u, --username <user>', 'user name (asked at a terminal when missing)')
    .option('--domain <domain>', 'directory (LDAP/AD) domain; empty for local accounts')
    .option('--password-stdin', 'read the password from stdin (one trailing newline is dropped)')
    // Hidden: only there to explain why it does not exist.
    .addOption(program.createOption('--password [value]').hideHelp())
    .addHelpText(
      'after',
      `
The password comes from a hidden prompt, --password-stdin, or TKT_PASSWORD (CI), never from
a flag: other users of the machine can read command lines. The service URL comes from --url,
TKT_URL or the profile. With --json, the user object is printed WITHOUT its token.

Examples:
  $ tkt login --url https://helpdesk.example.com -u jdoe
  $ printf '%s\\n' "$PASSWORD" |
      tkt login --url https://helpdesk.example.com -u jdoe --password-stdin
  $ TKT_PASSWORD="$PASSWORD" tkt login --profile ci \\
      --url https://helpdesk.example.com -u ci-bot
  $ tkt login --url http://10.0.0.5:8080 -u jdoe --allow-http`,
    );
  // --domain "": a local account; --password "" is refused as any --password is, saying why.
  host.action(command, (_args, { password, ...opts }, ctx) => run({ ...opts, passwordFlag: password !== undefined }, ctx), {
    mayBeEmpty: ['domain', 'password'],
    keepsSettings: true,
  });
}

export async function run(options: LoginOptions, ctx: Context): Promise<void> {
  if (options.passwordFlag) {
    throw new UsageError('there is no --password option: a password on the command line can be read by other users (ps, shell history)', {
      hint: 'type it at the prompt, pipe it with --password-stdin, or set TKT_PASSWORD',
    });
  }
  const profile = profileNameToSave(ctx);
  // A session that could not be kept: nothing is asked, no password sent.
  const unmakeFolders = ctx.config.assertWritable();
  let session: Awaited<ReturnType<typeof logIn>>;
  try {
    session = await logIn(options, ctx, profile);
  } catch (error) {
    // A login that failed leaves no config folder behind (a CI job's later runs would keep a cache in it).
    unmakeFolders();
    throw error;
  }
  if (envValue(ctx.env, 'TKT_TOKEN') !== undefined) await ctx.output.warning('TKT_TOKEN is set and overrides the saved token until it is unset\n');
  // The JSON form only: people read the line on stderr below.
  await ctx.output.document(withoutToken(session.user));
  await ctx.output.note(`Logged in to ${session.baseUrl} as ${sanitizeInline(session.savedName)} (profile ${profile})\n`);
}

/** Asks what is missing, checks the URL, authenticates and saves the session under `profile`. */
async function logIn(options: LoginOptions, ctx: Context, profile: string) {
  const saved = ctx.config.getProfile(profile);
  const knownUrl = resolveBaseUrl(ctx, saved);
  // Refused before the password is asked, or asked for (a hint would repeat the URL): every path of the service starts with /api.
  if (knownUrl !== undefined) assertLoginBaseUrl(knownUrl, baseUrlSource(ctx.globals, ctx.env));
  assertNothingMissing(options, ctx, knownUrl);
  const baseUrl = knownUrl ?? (await askLoginUrl(ctx));
  if (knownUrl === undefined) assertLoginBaseUrl(baseUrl, 'the URL');
  // --allow-http is a global option: every command honours it; login also saves it, for this URL.
  const allowHttp = allowsHttp(ctx.globals, saved, baseUrl);
  // Before asking anything: the password must not cross the network unencrypted.
  assertTransportAllowed(baseUrl, allowHttp, 'login', httpAllowedOrigin(saved));
  const username = await loginUsername(options, ctx);
  const password = await loginPassword(options, ctx);

  const user = await authenticate(ctx, baseUrl, { username, password, domain: options.domain ?? '' });
  const savedName = await saveSession(ctx, profile, { baseUrl, allowHttp }, user, username);
  return { user, baseUrl, savedName };
}
