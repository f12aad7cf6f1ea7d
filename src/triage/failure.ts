import { ApiError, exitCodeOf, failureReason, TktError } from '../errors.js';
import { sanitizeInline } from '../output/sanitize.js';

/**
 * An error in one line for the status line, the reason first: the service's own message, then
 * what the answer was ("Ticket 7 was not found. (not found, HTTP 404)"); the request's URL, which
 * would push the reason past the width, is left out.
 */
export function failureText(error: unknown): string {
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
