import { UsageError } from '../errors.js';

/**
 * A ticket ID as typed by the user: digits only (surrounding blanks allowed), 1 up to
 * Number.MAX_SAFE_INTEGER so it survives the round trip through a JS number unchanged.
 * "12a", "1e3", "-4", "0x10" and "0" are all refused before any request is sent.
 */
export function parseTicketId(text: string): number {
  const digits = text.trim();
  const id = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new UsageError(`invalid ticket ID ${JSON.stringify(text)}: expected a positive whole number`);
  }
  return id;
}
