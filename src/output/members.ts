// The members of JSON items as --fields, --columns and tables of unknown shape see them.
import { isObject } from '../api/member-access.js';
import { UsageError } from '../errors.js';
import { detailLines } from './reflow.js';
import { sanitizeInline } from './sanitize.js';
import { closestWord } from '../util/closest.js';

/** The names of each member, a list for each (a ticket's `id` and `ticketId` are one): see TICKET_MEMBER_ALIASES. */
export type MemberAliases = readonly (readonly string[])[];

/** The key of `obj` that `name` spells: the same spelling first, then any case. */
function spelledKey(obj: Record<string, unknown>, name: string): string | undefined {
  if (Object.hasOwn(obj, name)) return name;
  const lower = name.toLowerCase();
  return Object.keys(obj).find((key) => key.toLowerCase() === lower);
}

/** The key of `obj` that `name` means: as spelled (any case), else under another of its `aliases`. */
export function memberKey(obj: Record<string, unknown>, name: string, aliases: MemberAliases = []): string | undefined {
  const spelled = spelledKey(obj, name);
  if (spelled !== undefined) return spelled;
  const lower = name.toLowerCase();
  const others = aliases.find((names) => names.some((alias) => alias.toLowerCase() === lower)) ?? [];
  for (const other of others) {
    const key = spelledKey(obj, other);
    if (key !== undefined) return key;
  }
  return undefined;
}

/** What tkt knows of a kind of record ahead of any answer. */
export interface KnownNames {
  /** Its own columns (a ticket's id, title, status...). */
  ownNames?: readonly string[];
  /** The names of each member it reads the records by (TICKET_MEMBER_ALIASES). */
  aliases?: MemberAliases;
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Whether `a` and `b` name one member: alike but for case, or two names of it in `aliases`. */
function sameMember(a: string, b: string, aliases: MemberAliases): boolean {
  return sameName(a, b) || aliases.some((names) => names.some((name) => sameName(name, a)) && names.some((name) => sameName(name, b)));
}

/** `names` without repeats (`id,ID`, `title,subject` of a ticket), the first of each kept. */
export function distinctNames(names: readonly string[], aliases: MemberAliases = []): string[] {
  return names.filter((name, index) => !names.slice(0, index).some((earlier) => sameMember(earlier, name, aliases)));
}

/**
 * The one rule of --fields and --columns (docs/cli.md section 9): a column of tkt's own (one of
 * `known.ownNames`) passes; any other name must be a member of one of `items`, else exit 2 naming
 * those that exist: a typo must not pass for a field the service left empty. With no item to
 * check against, a member name tkt reads records by (`known.aliases`) passes, and the others are
 * returned to be warned about: the same command must not pass in silence on an empty answer and
 * fail on the first one that has data.
 */
export function checkMemberNames(items: readonly unknown[], names: readonly string[], flag: string, known: KnownNames = {}): string[] {
  const { ownNames = [], aliases } = known;
  const isIn = (list: readonly string[], name: string) => list.some((knownName) => sameName(knownName, name));
  const members = names.filter((name) => !isIn(ownNames, name));
  const objects = items.filter(isObject);
  if (objects.length === 0) return members.filter((name) => !isIn((aliases ?? []).flat(), name));
  const missing = members.filter((name) => !objects.some((obj) => memberKey(obj, name, aliases) !== undefined));
  if (missing.length === 0) return [];
  const existing = [...new Set(objects.flatMap((obj) => Object.keys(obj)))];
  const meant = closestWord(missing[0]!, [...ownNames, ...existing]);
  throw new UsageError(`${flag}: no such field ${missing.map((name) => JSON.stringify(name)).join(', ')}`, {
    details: [...(ownNames.length > 0 ? detailLines(`columns: ${ownNames.join(', ')}`) : []), ...detailLines(`fields: ${existing.join(', ')}`)],
    ...(meant === undefined ? {} : { hint: `did you mean ${sanitizeInline(meant)}?` }),
  });
}

type NameFlag = '--fields' | '--columns';

/** The warnings for names checkMemberNames could not check: `noun` is what came back ("tickets"), plural. */
export function uncheckedWarnings(names: readonly string[], flag: NameFlag, noun = 'items'): string[] {
  const kind = flag === '--columns' ? 'column' : 'field';
  return names.map((name) => `${flag}: ${sanitizeInline(name)} is not a ${kind} tkt knows, and no ${noun} came back to check it against\n`);
}

/** checkMemberNames over a list that comes page by page (list --all). */
export interface PagedNameCheck {
  /** Checks the names against the first page that holds an object: the items of one list share a shape. */
  page(items: readonly unknown[]): void;
  /** At the list's end: the warnings for the names no page could check (no item, or none an object). */
  warnings(noun?: string): string[];
}

export function pagedNameCheck(names: readonly string[], flag: NameFlag, known: KnownNames = {}): PagedNameCheck {
  // Set by a page that holds an object, not by any page: strings have no member to check a name against.
  let checked = false;
  return {
    page(items) {
      if (checked || !items.some(isObject)) return;
      checkMemberNames(items, names, flag, known);
      checked = true;
    },
    warnings: (noun) => (checked ? [] : uncheckedWarnings(checkMemberNames([], names, flag, known), flag, noun)),
  };
}

/** Scalar member names of the first items, ID first: the default columns of records of unknown shape. */
export function scalarMemberNames(items: readonly unknown[], max = Infinity): string[] {
  const keys = [
    ...new Set(
      items.flatMap((item) =>
        isObject(item)
          ? Object.entries(item)
              .filter(([, value]) => value === null || typeof value !== 'object')
              .map(([key]) => key)
          : [],
      ),
    ),
  ];
  const isId = (key: string) => key.toLowerCase() === 'id';
  return [...keys.filter(isId), ...keys.filter((key) => !isId(key))].slice(0, max);
}

/** Scalar fields of an item, for items none of whose known fields were found. */
export function scalarFields(item: unknown): Record<string, string | number | boolean | null> {
  const scalars: Record<string, string | number | boolean | null> = {};
  if (!isObject(item)) return scalars;
  for (const [key, value] of Object.entries(item)) {
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') scalars[key] = value;
  }
  return scalars;
}
