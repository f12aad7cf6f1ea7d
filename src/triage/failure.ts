import { errorHint } from '../cmdutil/error-text.js';
import { ApiError, ExitCode, exitCodeOf, failureReason, TktError, type ExitCodeValue } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';
import { envValue } from '../util/env.js';
import type { TriageLogin } from './state.js';

/** Failures fixed outside the screen, whose hint says how: a login, a permission, a setting (w without web-url). */
const HINTED: ReadonlySet<ExitCodeValue> = new Set<ExitCodeValue>([ExitCode.notAuthenticated, ExitCode.permissionDenied, ExitCode.usage]);

/**
 * An error in one line for the status line, the reason first: the service's own message, then
 * what the answer was ("Ticket 7 was not found. (not found, HTTP 404)"); the request's URL, which
 * would push the reason past the width, is left out. A refused or missing login (exit 4), a
 * refused permission (5) and a setting missing (2) are followed by the hint any command gives for
 * it, for the run's `login` (`run "tkt login --profile prod"`).
 */
export function failureText(error: unknown, login?: TriageLogin): string {
  const reason = reasonText(error);
  if (login === undefined || !(error instanceof TktError) || !HINTED.has(exitCodeOf(error))) return reason;
  const hint = errorHint(error, login.globals, login.env);
  if (hint === undefined) return reason;
  // The login is read again (effects.ts), TKT_TOKEN is not: the run has the one it started with.
  const restart = exitCodeOf(error) === ExitCode.notAuthenticated && envValue(login.env, 'TKT_TOKEN') !== undefined ? ', then start tkt triage again' : '';
  return `${reason}; ${sanitizeInline(hint)}${restart}`;
}

function reasonText(error: unknown): string {
  if (error instanceof ApiError) {
    const answer = `${failureReason(exitCodeOf(error), undefined)}, HTTP ${error.status}`;
    const messages = error.serverMessages.filter((line) => line.trim() !== '');
    return sanitizeInline(messages.length > 0 ? `${messages.join('; ')} (${answer})` : answer);
  }
  if (error instanceof TktError) {
    const details = error.details.filter((line) => line.trim() !== '');
    return sanitizeInline(details.length > 0 ? `${error.message}: ${details.join('; ')}` : error.message);
  }
  return sanitizeInline(error instanceof Error ? error.message : String(error));
}
