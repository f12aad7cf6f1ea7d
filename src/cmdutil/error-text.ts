// What an error says to the user, wherever it is shown: the `error:` line and its hint at the
// end of a run (src/cli-run.ts), or a tool result of `tkt mcp` (src/mcp/). One wording for both.
import { redactText } from '../api/redact.js';
import { loginCommand } from '../config/session.js';
import { baseUrlSource, withoutApi } from '../config/url.js';
import { permissionFor } from '../api/plans.js';
import { ApiError, ExitCode, TktError, exitCodeOf, misdirectedBaseUrl } from '../errors.js';
import { sanitizeText } from '../output/sanitize.js';
import { envValue } from '../util/env.js';

/** The global options a login hint repeats. */
export interface LoginGlobals {
  profile?: string | undefined;
  url?: string | undefined;
  allowHttp?: boolean | undefined;
}

/** Error text may quote a server: made safe for the terminal, and cleared of anything credential-shaped. */
export function cleanErrorText(text: string): string {
  return sanitizeText(redactText(text));
}

/** The answer that failed, under the errors that carry it (one ID of a run, a change in doubt). */
export function answerOf(error: TktError): ApiError | undefined {
  let failure: unknown = error;
  while (!(failure instanceof ApiError) && failure instanceof TktError && failure.cause !== undefined) failure = failure.cause;
  return failure instanceof ApiError ? failure : undefined;
}

/** A refusal of the login: the permission it lacks, when the endpoint needs one (docs/service.md 5.5). */
function permissionHint(error: TktError): string {
  const failure = answerOf(error);
  const permission = failure === undefined ? undefined : permissionFor(failure.method, failure.url);
  const lacks = permission === undefined ? 'this login lacks the permission' : `this login lacks the ${permission} permission`;
  return `${lacks}: ask the service's admin to grant it, or log in as a user who has it`;
}

/** For a 404 that says the base URL is wrong (misdirectedBaseUrl): where the URL came from, and the one meant. */
function wrongUrlHint(baseUrl: string, globals: LoginGlobals, env: Readonly<Record<string, string | undefined>>): string {
  const meant = withoutApi(baseUrl);
  return `is ${baseUrlSource(globals, env)} the service's base URL?${meant === undefined ? '' : ` (without /api: ${meant})`}`;
}

/**
 * The next step for the user: the error's own hint when it has one (it knows the case best),
 * else the one its exit code calls for.
 */
export function errorHint(error: TktError, globals: LoginGlobals, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (error.hint !== undefined) return error.hint;
  const answer = answerOf(error);
  const misdirected = answer === undefined ? undefined : misdirectedBaseUrl(answer);
  if (misdirected !== undefined) return wrongUrlHint(misdirected, globals, env);
  const exitCode = exitCodeOf(error);
  if (exitCode === ExitCode.permissionDenied) return permissionHint(error);
  if (exitCode !== ExitCode.notAuthenticated) return undefined;
  // A refused token from TKT_TOKEN is not fixed by `tkt login`: that token still wins.
  const envToken = envValue(env, 'TKT_TOKEN');
  if (envToken !== undefined) {
    // Copied with the header's scheme: sent as "Bearer Bearer ...".
    if (/^bearer\s/i.test(envToken)) return 'TKT_TOKEN begins with "Bearer ": set it to the token alone (tkt adds the scheme)';
    return 'the token in TKT_TOKEN was refused: set a valid one, or unset TKT_TOKEN to use the saved login';
  }
  // The login that fixes this run: its profile and --url, not the default's.
  return `run "${loginCommand({ globals, env })}"`;
}
