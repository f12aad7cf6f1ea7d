import { plans } from '../api/plans.js';
import { Option } from '@commander-js/extra-typings';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { isObject, stringField } from '../api/fields.js';
import { decodeJwtClaims, expiryFromClaims, userIdFromClaims } from '../config/jwt.js';
import { resolveBaseUrl, resolveProfileName } from '../config/session.js';
import { assertTransportAllowed, normalizeBaseUrl } from '../config/url.js';
import { ApiError, AuthError, OperationError, UsageError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { readTextStream } from '../util/text-read.js';

export interface LoginOptions {
  username?: string | undefined;
  domain?: string | undefined;
  passwordStdin?: boolean | undefined;
  /** Set when someone typed --password: refused with the reason, never used. */
  passwordFlag: boolean;
}

// Without an exp claim the service's documented lifetime is assumed.
const DEFAULT_TOKEN_LIFETIME_MS = 7 * 24 * 3600 * 1000;

const LOCKED_OUT = /lock(ed)?[ -]?out|account is locked/i;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('login')
    .description('Log in and save the token in the profile (the password is never a flag)')
    .option('-u, --username <user>', 'user name (asked at a terminal when missing)')
    .option('--domain <domain>', 'directory (LDAP/AD) domain; empty for local accounts')
    .option('--password-stdin', 'read the password from stdin (one trailing newline is dropped)')
    // Hidden: only there to explain why it does not exist.
    .addOption(new Option('--password [value]').hideHelp())
    .addHelpText(
      'after',
      `
The password comes from a hidden prompt, --password-stdin, or TKT_PASSWORD (CI), never from
a flag: other users of the machine can read command lines. The service URL comes from --url,
TKT_URL or the profile. With --json, the user object is printed WITHOUT its token.

Examples:
  $ tkt login --url https://helpdesk.example.com -u jdoe
  $ printf '%s\\n' "$PASSWORD" | tkt login --url https://helpdesk.example.com -u jdoe --password-stdin
  $ TKT_PASSWORD=secret tkt login -u ci-bot --profile ci
  $ tkt login --url http://10.0.0.5:8080 -u jdoe --allow-http`,
    );
  host.action(command, (_args, { password, ...opts }, ctx) => run({ ...opts, passwordFlag: password !== undefined }, ctx));
}

export async function run(options: LoginOptions, ctx: Context): Promise<void> {
  if (options.passwordFlag) {
    throw new UsageError('there is no --password option: a password on the command line can be read by other users (ps, shell history)', {
      hint: 'type it at the prompt, pipe it with --password-stdin, or set TKT_PASSWORD',
    });
  }
  const profile = resolveProfileName(ctx);
  const saved = ctx.config.getProfile(profile);
  const knownUrl = resolveBaseUrl(ctx, saved);
  assertNothingMissing(options, ctx, knownUrl);
  const baseUrl = knownUrl ?? (await askLoginUrl(ctx));
  // --allow-http is a global option: every command honours it; login also saves it.
  const allowHttp = ctx.globals.allowHttp || (saved.allowHttp ?? false);
  // Before asking anything: the password must not cross the network unencrypted.
  assertTransportAllowed(baseUrl, allowHttp);
  const username = await resolveUsername(options, ctx);
  const password = await resolvePassword(options, ctx);

  const client = await ctx.anonymousApi(baseUrl);
  let user: unknown;
  try {
    const response = await client.send(plans.authenticate({ Email: username, Password: password, RememberMe: true, Domain: options.domain ?? '' }));
    user = response.body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // A locked-out account is refused with 401 too (spec 4.1): its password may be right.
      const lockedOut = error.serverMessages.some((message) => LOCKED_OUT.test(message));
      throw new AuthError(`login to ${baseUrl} failed for ${username}`, {
        details: error.serverMessages,
        hint: lockedOut ? 'the account is locked out: try again after the lock-out ends' : 'check the user name and password (directory accounts need --domain)',
      });
    }
    throw error;
  }

  const token = stringField(user, 'Token');
  if (token === undefined || token === '') {
    throw new OperationError(`${baseUrl} accepted the login but sent no token`);
  }
  const claims = decodeJwtClaims(token);
  const expiresAt = expiryFromClaims(claims) ?? new Date(ctx.now().getTime() + DEFAULT_TOKEN_LIFETIME_MS);
  const savedName = stringField(user, 'Username') ?? username;
  await ctx.config.saveProfile(profile, { url: baseUrl, ...(ctx.globals.allowHttp ? { allowHttp: true } : {}) });
  await ctx.config.writeToken(profile, {
    token,
    url: baseUrl,
    expiresAt: expiresAt.toISOString(),
    userId: stringField(user, 'Id') ?? userIdFromClaims(claims),
    username: savedName,
    firstName: stringField(user, 'FirstName'),
    lastName: stringField(user, 'LastName'),
  });

  if (ctx.env.TKT_TOKEN) {
    ctx.io.stderr.write('warning: TKT_TOKEN is set and overrides the saved token until it is unset\n');
  }
  // The JSON form only: people read the line on stderr below.
  await ctx.output.document(withoutToken(user));
  await ctx.output.note(`Logged in to ${baseUrl} as ${sanitizeInline(savedName)} (profile ${profile})\n`);
}

/** Without a terminal nothing can be asked: every missing value is named in one error, before any request. */
function assertNothingMissing(options: LoginOptions, ctx: Context, knownUrl: string | undefined): void {
  if (ctx.io.canPrompt) return;
  const missing: (readonly [option: string, remedy: string])[] = [
    ...(knownUrl === undefined ? [['--url', 'service URL: pass --url or set TKT_URL'] as const] : []),
    ...(hasUsername(options) ? [] : [['-u/--username', 'user name: pass -u/--username'] as const]),
    ...(options.passwordStdin || ctx.env.TKT_PASSWORD ? [] : [['--password-stdin', 'password: pipe it with --password-stdin or set TKT_PASSWORD'] as const]),
  ];
  if (missing.length === 0) return;
  throw new UsageError(`missing ${missing.map(([option]) => option).join(', ')} (no terminal to ask on)`, {
    details: missing.map(([, remedy]) => remedy),
    hint: 'e.g. printf %s "$PASSWORD" | tkt login --url https://helpdesk.example.com -u USER --password-stdin',
  });
}

function hasUsername(options: LoginOptions): options is LoginOptions & { username: string } {
  return options.username !== undefined && options.username !== '';
}

async function askLoginUrl(ctx: Context): Promise<string> {
  const answer = await ctx.prompter.input({ message: 'Service URL', validate: (value) => (value.trim() === '' ? 'a URL is required' : true) });
  return normalizeBaseUrl(answer);
}

async function resolveUsername(options: LoginOptions, ctx: Context): Promise<string> {
  if (hasUsername(options)) return options.username;
  return ctx.prompter.input({ message: 'User name', validate: (value) => (value.trim() === '' ? 'a user name is required' : true) });
}

async function resolvePassword(options: LoginOptions, ctx: Context): Promise<string> {
  if (options.passwordStdin) {
    const password = (await readTextStream(ctx.io.stdin, '--password-stdin', ctx.signal)).replace(/\r?\n$/, '');
    if (password === '') throw new UsageError('--password-stdin read an empty password');
    return password;
  }
  if (ctx.env.TKT_PASSWORD) return ctx.env.TKT_PASSWORD;
  return ctx.prompter.password({ message: 'Password' });
}

/** The user object as the service sent it, minus its token (contract section 4: never printed). */
function withoutToken(user: unknown): unknown {
  if (!isObject(user)) return user;
  return Object.fromEntries(Object.entries(user).filter(([key]) => key.toLowerCase() !== 'token'));
}
