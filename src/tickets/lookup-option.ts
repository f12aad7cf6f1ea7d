// A lookup's errors name its kind ("unknown assignee ..."); when the user typed another
// option (--by, --subcategory), the error must name what was typed instead.
import { UsageError } from '../errors.js';
import type { LookupKind, Lookups } from '../lookups/types.js';

export interface TypedOption {
  /** The option as typed, e.g. `--by`. */
  flag: string;
  /** What the value is called in messages, e.g. `user`. */
  noun: string;
}

// The lookups' own wording: `unknown <label> "<value>"`, `ambiguous <label> "<value>": ...`,
// `invalid <label> ID "<value>": ...`.
const LOOKUP_MESSAGE = /^(unknown|ambiguous|invalid) (.+?)( ID)? ("(?:[^"\\]|\\.)*")/;

/** Resolves `value` as a `kind` lookup; a usage error says `noun` and names `flag`. */
export async function resolveLookupOption(lookups: Lookups, kind: LookupKind, value: string, option: TypedOption): Promise<number | string> {
  try {
    return await lookups.resolve(kind, value);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const message = error.message.replace(LOOKUP_MESSAGE, (_match, verdict: string, _label: string, id = '', quoted: string) => `${verdict} ${option.noun}${id} ${quoted} for ${option.flag}`);
    throw new UsageError(message, { details: error.details, ...(error.hint === undefined ? {} : { hint: error.hint }) });
  }
}
