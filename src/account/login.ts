// `tkt login`'s steps: the values it needs (each from a flag, the environment or a prompt; without
// a terminal every missing one named at once), the login itself, and the session it saves.
import { isObject, stringField } from '../api/member-access.js';
import { plans } from '../api/plans.js';
import { decodeJwtClaims, expiryFromClaims, userIdFromClaims } from '../config/jwt.js';
import { tktCommand } from '../config/session.js';
import { shellWord } from '../util/shell-word.js';
import { normalizeBaseUrl } from '../config/url.js';
import type { Context } from '../context/context.js';
import { whyNothingIsAsked } from '../context/nothing-asked.js';
import { ApiError, AuthError, OperationError, UsageError } from '../errors.js';
import { envValue, setButEmpty } from '../util/env.js';
import { readTextStream } from '../util/text-read.js';

/** `tkt login`'s own options, as typed. */
export interface LoginInput {
  username?: string | undefined;
  domain?: string | undefined;
  passwordStdin?: boolean | undefined;
}

// Without an exp claim the service's documented lifetime is assumed.
const DEFAULT_TOKEN_LIFETIME_MS = 7 * 24 * 3600 * 1000;

const LOCKED_OUT = /lock(ed)?[ -]?out|account is locked/i;

/** Without a terminal nothing can be asked: every missing value is named in one error, before any request. */
export function assertNothingMissing(input: LoginInput, ctx: Context, knownUrl: string | undefined): void {
  if (ctx.io.canPrompt) return;
  const missing: (readonly [option: string, remedy: string])[] = [
    ...(knownUrl === undefined ? [['--url', 'service URL: pass --url or set TKT_URL'] as const] : []),
    ...(hasUsername(input) ? [] : [['-u/--username', 'user name: pass -u/--username'] as const]),
    ...(input.passwordStdin || envValue(ctx.env, 'TKT_PASSWORD') !== undefined
      ? []
      : [
          [
            '--password-stdin',
            `password: pipe it with --password-stdin or set TKT_PASSWORD${setButEmpty(ctx.env, 'TKT_PASSWORD') ? ' (it is set but empty)' : ''}`,
          ] as const,
        ]),
  ];
  if (missing.length === 0) return;
  throw new UsageError(`missing ${missing.map(([option]) => option).join(', ')} (${whyNothingIsAsked(ctx).reason})`, {
    details: missing.map(([, remedy]) => remedy),
    // The login that would work here: this profile, its URL, the user name given.
    hint: `e.g. printf %s "$PASSWORD" | ${tktCommand(ctx, `login -u ${hasUsername(input) ? shellWord(input.username) : 'USER'} --password-stdin`, knownUrl ?? 'https://helpdesk.example.com')}`,
  });
}

function hasUsername(input: LoginInput): input is LoginInput & { username: string } {
  return input.username !== undefined && input.username !== '';
}

export async function askLoginUrl(ctx: Context): Promise<string> {
  const answer = await ctx.prompter.input({ message: 'Service URL', validate: (value) => (value.trim() === '' ? 'a URL is required' : true) });
  return normalizeBaseUrl(answer);
}

export async function loginUsername(input: LoginInput, ctx: Context): Promise<string> {
  if (hasUsername(input)) return input.username;
  return ctx.prompter.input({ message: 'User name', validate: (value) => (value.trim() === '' ? 'a user name is required' : true) });
}

/** --password-stdin, else TKT_PASSWORD (CI), else a hidden prompt: never a flag. */
export async function loginPassword(input: LoginInput, ctx: Context): Promise<string> {
  if (input.passwordStdin) {
    const password = (await readTextStream(ctx.io.stdin, '--password-stdin', ctx.signal)).replace(/\r?\n$/, '');
    if (password === '') throw new UsageError('--password-stdin read an empty password');
    return password;
  }
  const fromEnv = envValue(ctx.env, 'TKT_PASSWORD');
  if (fromEnv !== undefined) return fromEnv;
  // An empty one is never a password: asked again, as --password-stdin refuses it, nothing sent.
  return ctx.prompter.password({ message: 'Password', validate: (typed) => typed !== '' || 'the password is empty: type it, or Ctrl-C to stop' });
}

/** The user the service logged in (docs/service.md 2.1); wrong credentials and a locked-out account are exit 4 with what to do. */
export async function authenticate(ctx: Context, baseUrl: string, credentials: { username: string; password: string; domain: string }): Promise<unknown> {
  const client = await ctx.anonymousApi(baseUrl);
  try {
    const response = await client.send(
      plans.authenticate({ Email: credentials.username, Password: credentials.password, RememberMe: true, Domain: credentials.domain }),
    );
    return response.body;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      // A locked-out account is refused with 401 too (docs/service.md 4.0): its password may be right.
      const lockedOut = error.serverMessages.some((message) => LOCKED_OUT.test(message));
      throw new AuthError(`login to ${baseUrl} failed for ${credentials.username}`, {
        details: error.serverMessages,
        hint: lockedOut
          ? 'the account is locked out: try again after the lock-out ends'
          : 'check the user name and password (directory accounts need --domain)',
      });
    }
    throw error;
  }
}

/**
 * Saves the profile's URL and the token (owner-readable only) with what the user object and its
 * claims say; returns the user's name. `allowHttp` is saved with the URL and holds for it alone: a
 * login elsewhere without --allow-http drops it.
 */
export async function saveSession(
  ctx: Context,
  profile: string,
  { baseUrl, allowHttp }: { baseUrl: string; allowHttp: boolean },
  user: unknown,
  typedUsername: string,
): Promise<string> {
  const token = stringField(user, 'Token');
  if (token === undefined || token === '') {
    throw new OperationError(`${baseUrl} accepted the login but sent no token`);
  }
  const claims = decodeJwtClaims(token);
  const expiresAt = expiryFromClaims(claims) ?? new Date(ctx.now().getTime() + DEFAULT_TOKEN_LIFETIME_MS);
  const username = stringField(user, 'Username') ?? typedUsername;
  await ctx.config.saveProfile(profile, { url: baseUrl, allowHttp: allowHttp ? true : undefined });
  await ctx.config.writeToken(profile, {
    token,
    url: baseUrl,
    expiresAt: expiresAt.toISOString(),
    userId: stringField(user, 'Id') ?? userIdFromClaims(claims),
    username,
    firstName: stringField(user, 'FirstName'),
    lastName: stringField(user, 'LastName'),
  });
  return username;
}

/** The user object as the service sent it, minus its token (docs/cli.md section 4: never printed). */
export function withoutToken(user: unknown): unknown {
  if (!isObject(user)) return user;
  return Object.fromEntries(Object.entries(user).filter(([key]) => key.toLowerCase() !== 'token'));
}
