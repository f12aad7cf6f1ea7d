// Lookup names (docs/cli.md section 6): every option that takes a lookup ID also takes its name.

import type { LookupKind } from '../model/fields.js';

// One kind per lookup field of the field table; each such option is named after its kind (`--site`).
export type { LookupKind };

/** What a person option (requester, assignee) also takes: the logged-in user. */
export const ME = '@me';

export interface LookupEntry {
  /** Numeric for lookup collections, a user-ID string for requesters and technicians. */
  id: number | string;
  /** The display name: title / status / priority / name / group / fullName. */
  name: string;
  /** Other names that also match, e.g. a user's userName. */
  aliases: string[];
  /** A user's sign-in name, for the endpoints that take a username. */
  username?: string;
}

/** A user as tkt names one where it matters who: "Omar Haddad (ohaddad)", the username being what other commands take. */
export function personLabel(entry: LookupEntry): string {
  return entry.username === undefined || entry.username === entry.name ? entry.name : `${entry.name} (${entry.username})`;
}

/** The option the user typed, when its name differs from the kind's (`--by` for an assignee). */
export interface TypedOption {
  /** e.g. `--by` */
  flag: string;
  /** What the value is called in messages, e.g. `user`. */
  noun: string;
}

export interface Lookups {
  /**
   * Turns what the user typed into the API value: digits alone are an ID (for users, a value
   * equal to a user ID is one); else a case-insensitive exact name, then a unique prefix.
   * `@me` (assignee, requester) is the logged-in user. No match or several: UsageError (exit 2)
   * listing the candidates; with `typed`, the message names the option as typed.
   */
  resolve(kind: LookupKind, value: string, typed?: TypedOption): Promise<number | string>;
  /**
   * A person (requester or assignee) as the endpoints that take a username need them: a user
   * ID, username or full name, matched as `resolve` does, gives that user's username.
   */
  username(kind: LookupKind, value: string, typed?: TypedOption): Promise<string>;
  /** Every entry of a kind, for prompts and completion; `fresh`: from the service, not the cache (and cached). */
  entries(kind: LookupKind, options?: { fresh?: boolean }): Promise<LookupEntry[]>;
  /** The display name of an ID, or undefined when it is unknown. */
  nameOf(kind: LookupKind, id: number | string): Promise<string | undefined>;
  /** The entry of an ID (a person's with their username), or undefined when it is unknown. */
  entryOf(kind: LookupKind, id: number | string): Promise<LookupEntry | undefined>;
}
