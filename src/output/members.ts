// The members of JSON items as --fields, --columns and tables of unknown shape see them.
import { isObject } from '../api/member-access.js';
import { UsageError } from '../errors.js';
import { detailLines } from './reflow.js';

/** The names of one member, each list of them (a ticket's `id` and `ticketId`): see TICKET_MEMBER_ALIASES. */
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

/**
 * Exit 2 when a name matches a member of none of `items`, naming the members that exist:
 * a typo must not pass for a field the service left empty.
 */
export function assertMembersExist(
  items: readonly unknown[],
  names: readonly string[],
  flag: string,
  known: { ownNames?: readonly string[]; aliases?: MemberAliases } = {},
): void {
  const { ownNames = [], aliases } = known;
  const objects = items.filter(isObject);
  if (objects.length === 0 || names.length === 0) return;
  const missing = names.filter((name) => !objects.some((obj) => memberKey(obj, name, aliases) !== undefined));
  if (missing.length === 0) return;
  const existing = [...new Set(objects.flatMap((obj) => Object.keys(obj)))];
  throw new UsageError(`${flag}: no such field ${missing.map((name) => JSON.stringify(name)).join(', ')}`, {
    details: [...(ownNames.length > 0 ? detailLines(`columns: ${ownNames.join(', ')}`) : []), ...detailLines(`fields: ${existing.join(', ')}`)],
  });
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
