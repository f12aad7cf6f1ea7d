// Successes that changed nothing, as the service's answers say them (docs/cli.md section 5: still
// exit 0): the notes `tkt pickup`, `tkt resolve` and `tkt close` print for such a ticket, and
// the words triage's status line uses for it. `tkt assign`, `tkt reopen` and `tkt update` read
// the ticket first, and say the same of a change it already has, sending nothing.
import type { ApiResponse } from '../api/types.js';

/** `note` when the answer's body says `pattern`, whatever its shape (JSON string or object). */
function noteFromBody(body: unknown, pattern: RegExp, note: string): string | undefined {
  const text = typeof body === 'string' ? body : body === undefined || body === null ? '' : JSON.stringify(body);
  return pattern.test(text) ? note : undefined;
}

/** assign's: `who` as its confirmation names them ("you", "Omar Haddad (ohaddad)"). */
export const alreadyAssignedToNote = (who: string): string => `already assigned to ${who}, nothing changed`;

export const alreadyAssignedNote = (response: ApiResponse): string | undefined =>
  noteFromBody(response.body, /already\s+(assigned|picked)/i, alreadyAssignedToNote('you'));

/** reopen's: the status's own name (bulk/change.ts reopenRequest), none for the default. */
export const alreadyOpenNote = (status: string | undefined): string =>
  status === undefined ? 'already open, nothing changed' : `already in status ${status}, nothing changed`;

/** update's: every value given (as options, or `chosen` at its questions) is the ticket's already. */
export const alreadyHeldNote = (how: 'given' | 'chosen' = 'given'): string => `already has every value ${how}, nothing changed`;

export const alreadyResolvedNote = (response: ApiResponse): string | undefined =>
  noteFromBody(response.body, /already\s+resolved/i, 'already resolved, nothing changed');

/** 204 is closed; 200 is the service's "already closed, no action" (docs/service.md 4.7). */
export const alreadyClosedNote = (response: ApiResponse): string | undefined => (response.status === 200 ? 'already closed, nothing changed' : undefined);
