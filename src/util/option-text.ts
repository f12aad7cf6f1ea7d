// Helpers for option values as users type them.
import { UsageError } from '../errors.js';
import { codePointName } from './code-point.js';

/**
 * commander's parser for a repeatable option: every value, in order. Without a default value
 * (commander would print "(default: [])" in the help) the option is undefined until given.
 */
export function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** --attach, the same flag and help in every command that uploads (create's comes from the field table). */
export const ATTACH_FLAGS = '--attach <file>';

/** --attach's help; `to` says what gets the files ("each ticket"). */
export function attachHelp(to?: string): string {
  return `attach a file${to === undefined ? '' : ` to ${to}`} (repeatable; FILE#NAME sends it as NAME; the service silently skips file types it does not allow)`;
}

/** The help of an option of e-mail addresses that may be repeated (--to, --cc; create's --cc comes from the field table). */
export function addressesHelp(description: string): string {
  return `${description} (repeatable, or comma-separated)`;
}

/** A name compared loosely: "My-Tickets-On-Hold", "my_tickets_onhold" and "MyTicketsOnhold" are equal. */
export function squash(name: string): string {
  return name.replace(/[-_\s]/g, '').toLowerCase();
}

/**
 * `text`, unless it is empty or only whitespace: then exit 2 with `emptyMessage` ("--url is
 * empty"). An option given an empty value (an unset variable, `--to ""`) is a mistake to name,
 * never the option left out.
 */
export function nonBlank(text: string, emptyMessage: string): string {
  if (text === '') throw new UsageError(emptyMessage);
  if (text.trim() === '') throw new UsageError(`${emptyMessage} (only whitespace)`);
  return text;
}

/**
 * Exit 2 for a value given empty or blank, named as nonBlank names it (`--view is empty` on the
 * command line, `comments is empty` for a tool of `tkt mcp`), whatever it is: `values` by key,
 * each a text or a list of texts (others are not text), `nameOf` a key's name for the user,
 * `mayBeEmpty` the keys whose empty value means something. README: Text values.
 */
export function assertNoEmptyText(values: Readonly<Record<string, unknown>>, nameOf: (key: string) => string, mayBeEmpty: readonly string[] = []): void {
  for (const [key, value] of Object.entries(values)) {
    if (mayBeEmpty.includes(key)) continue;
    for (const text of Array.isArray(value) ? (value as unknown[]) : [value]) if (typeof text === 'string') nonBlank(text, `${nameOf(key)} is empty`);
  }
}

/**
 * assertNoEmptyText for the options of the command line: `options` are commander's values by
 * attribute (none defaults to ""), `mayBeEmpty` attributes (login's --domain: a local account).
 */
export function assertNoEmptyOption(options: Readonly<Record<string, unknown>>, mayBeEmpty: readonly string[] = []): void {
  // commander's attribute is the long flag in camelCase: dedupKey for --dedup-key.
  assertNoEmptyText(options, (attribute) => `--${attribute.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`, mayBeEmpty);
}

/** A line break or another control character (a tab aside): none belongs in a one-line value. */
const NOT_ONE_LINE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]+/g;

/**
 * Why `text` cannot be a one-line value (`what`: "a title", "a subject"), or undefined. The service
 * writes a subject into an e-mail's header, where a line break would end it (and start another).
 */
export function oneLineProblem(text: string, what: string): string | undefined {
  const found = text.match(NOT_ONE_LINE)?.[0];
  if (found === undefined) return undefined;
  if (/[\n\r\u2028\u2029]/.test(found)) return `has a line break (${what} is one line)`;
  return `has a control character (${codePointName(found.codePointAt(0)!)})`;
}

/** Exit 2 naming `name` (`--subject`) when `text` is not one line (oneLineProblem). */
export function assertOneLine(text: string | undefined, name: string, what: string): void {
  const problem = text === undefined ? undefined : oneLineProblem(text, what);
  if (problem !== undefined) throw new UsageError(`${name} ${problem}`);
}

/** `text` on one line: each run of line breaks and other control characters one space (a subject made of a ticket's title). */
export function asOneLine(text: string): string {
  return text.replace(NOT_ONE_LINE, ' ');
}
