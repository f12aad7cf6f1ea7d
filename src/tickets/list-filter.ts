// `tkt list` filters and sorting (contract section 10). The service's list takes only page,
// length, search, listType and filterBy (spec 4.1), so tkt filters the items it fetches.
// A list item's shape is not specified: each filter reads the item's ID field when it has
// one (ticketStatusId, siteId...), else its name or nested record ("Open", {id, status});
// an item that says nothing about a filtered field (the sandbox's list items carry no site)
// is judged on the ticket's detail, fetched for it alone.
import { field, isObject } from '../api/fields.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { LookupEntry, LookupKind, Lookups } from '../lookups/types.js';
import { parseWhen } from '../util/when.js';
import { createdDateOf, dateField, displayName, overdueFlagOf, ticketIdOf } from './summary.js';

export interface ListFilterOptions {
  status?: string | undefined;
  priority?: string | undefined;
  assignee?: string | undefined;
  site?: string | undefined;
  department?: string | undefined;
  group?: string | undefined;
  overdue?: boolean | undefined;
  dueBefore?: string | undefined;
  createdAfter?: string | undefined;
  sort?: string | undefined;
}

/** true / false, or undefined when the item does not say (the detail will). */
type Verdict = boolean | undefined;
type Test = (item: unknown) => Verdict;

interface FieldSpec {
  /** Members holding the lookup's ID. */
  ids: readonly string[];
  /** Members holding its name, or a nested record with an id and a name. */
  names: readonly string[];
}

const FIELDS: Record<'status' | 'priority' | 'assignee' | 'site' | 'department' | 'group', FieldSpec> = {
  status: { ids: ['ticketStatusId', 'statusId'], names: ['status', 'statusName', 'ticketStatus'] },
  priority: { ids: ['ticketPriorityId', 'priorityId'], names: ['priority', 'priorityName', 'ticketPriority'] },
  assignee: { ids: ['assignedUser', 'assignedUserId', 'assigneeId', 'technicianId'], names: ['assignee', 'assignedTo', 'technician', 'assignedUserName'] },
  site: { ids: ['siteId'], names: ['site', 'siteName'] },
  department: { ids: ['departmentId'], names: ['department', 'departmentName'] },
  group: { ids: ['groupId'], names: ['group', 'groupName'] },
};

/** What `list --assignee` takes for tickets that have no assignee. */
export const NO_ASSIGNEE = 'none';

/** The lookup filters, each an option named after its kind (`--status`, `--assignee`). */
export const LOOKUP_FILTERS = ['status', 'priority', 'assignee', 'site', 'department', 'group'] as const;

export const SORT_FIELDS = ['id', 'created', 'due', 'priority', 'status'] as const;
type SortField = (typeof SORT_FIELDS)[number];

export interface TicketFilter {
  /** Some filter is given: tkt must look at every item. */
  active: boolean;
  /** Whether the item matches; undefined when only its detail can tell. */
  test: Test;
}

const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/** Whether the item's field (of `spec`) is the wanted lookup entry; `undefined` wanted means "none". */
function lookupTest(spec: FieldSpec, id: number | string | undefined, entry: LookupEntry | undefined): Test {
  const names = entry === undefined ? [] : [entry.name, ...entry.aliases];
  return (item) => {
    if (!isObject(item)) return false;
    const idValue = field(item, ...spec.ids);
    const nameValue = field(item, ...spec.names);
    if (idValue === undefined && nameValue === undefined) return undefined;
    const empty = (value: unknown) => value === undefined || value === null || value === '' || value === 0;
    if (id === undefined) return empty(idValue) && (empty(nameValue) || (isObject(nameValue) && empty(field(nameValue, 'id'))));
    if (!empty(idValue) && typeof idValue !== 'object') return same(idValue, id);
    if (isObject(nameValue)) {
      const nestedId = field(nameValue, 'id');
      if (!empty(nestedId)) return same(nestedId, id);
    }
    if (typeof nameValue === 'number') return same(nameValue, id);
    const shown = displayName(nameValue);
    return shown !== undefined && names.some((name) => same(name, shown) || (isObject(nameValue) && same(name, field(nameValue, 'userName', 'username'))));
  };
}

function whenOption(text: string | undefined, flag: string, now: Date): Date | undefined {
  if (text === undefined) return undefined;
  try {
    return parseWhen(text, now);
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}

export interface Sort {
  field: SortField;
  descending: boolean;
}

/** `--sort -due` -> {due, descending}; exit 2 naming the fields otherwise. */
export function parseSort(text: string | undefined): Sort | undefined {
  if (text === undefined) return undefined;
  const descending = text.startsWith('-');
  const name = (descending ? text.slice(1) : text).trim().toLowerCase();
  const found = SORT_FIELDS.find((candidate) => candidate === name);
  if (found === undefined) throw new UsageError(`invalid --sort ${JSON.stringify(text)}`, { details: [`fields: ${SORT_FIELDS.join(', ')} (-FIELD for descending)`] });
  return { field: found, descending };
}

/** Exit 2 before any request for a bad date or sort field. */
export function checkFilterOptions(options: ListFilterOptions, now: Date): void {
  whenOption(options.dueBefore, '--due-before', now);
  whenOption(options.createdAfter, '--created-after', now);
  parseSort(options.sort);
}

export function hasFilters(options: ListFilterOptions): boolean {
  return LOOKUP_FILTERS.some((name) => options[name] !== undefined) || options.overdue === true || options.dueBefore !== undefined || options.createdAfter !== undefined;
}

const dueOf = (item: unknown) => dateField(item, 'dueDate', 'due', 'dueOn');

/** Resolves the filters' names (lookups, `@me`) and builds one test for an item. */
export async function buildFilter(options: ListFilterOptions, ctx: Context, lookups: Lookups): Promise<TicketFilter> {
  const now = ctx.now();
  const tests: Test[] = [];
  for (const kind of LOOKUP_FILTERS) {
    const value = options[kind];
    if (value === undefined) continue;
    if (kind === 'assignee' && value.trim().toLowerCase() === NO_ASSIGNEE) {
      tests.push(lookupTest(FIELDS.assignee, undefined, undefined));
      continue;
    }
    const id = await lookups.resolve(kind as LookupKind, value, { flag: `--${kind}`, noun: kind === 'assignee' ? 'user' : kind });
    const entry = (await lookups.entries(kind as LookupKind)).find((candidate) => same(candidate.id, id));
    tests.push(lookupTest(FIELDS[kind], id, entry));
  }
  if (options.overdue) {
    tests.push((item) => {
      const flag = overdueFlagOf(item);
      if (flag !== undefined) return flag;
      const due = dueOf(item);
      return due !== undefined && due < now;
    });
  }
  const dueBefore = whenOption(options.dueBefore, '--due-before', now);
  if (dueBefore !== undefined) tests.push((item) => { const due = dueOf(item); return due !== undefined && due < dueBefore; });
  const createdAfter = whenOption(options.createdAfter, '--created-after', now);
  if (createdAfter !== undefined) tests.push((item) => { const created = createdDateOf(item); return created !== undefined && created > createdAfter; });

  return {
    active: tests.length > 0,
    test(item) {
      let verdict: Verdict = true;
      for (const test of tests) {
        const result = test(item);
        if (result === false) return false;
        if (result === undefined) verdict = undefined;
      }
      return verdict;
    },
  };
}

/** Orders tickets for --sort; priority and status sort in their lookup order (Low before High). */
export async function buildSort(sort: Sort, lookups: Lookups): Promise<(items: readonly unknown[]) => unknown[]> {
  let key: (item: unknown) => number | undefined;
  if (sort.field === 'id') key = (item) => { const id = Number(ticketIdOf(item)); return Number.isNaN(id) ? undefined : id; };
  else if (sort.field === 'created') key = (item) => createdDateOf(item)?.getTime();
  else if (sort.field === 'due') key = (item) => dueOf(item)?.getTime();
  else {
    const kind = sort.field;
    const entries = await lookups.entries(kind);
    const test = (entry: LookupEntry) => lookupTest(FIELDS[kind], entry.id, entry);
    const tests = entries.map(test);
    key = (item) => { const index = tests.findIndex((matches) => matches(item) === true); return index < 0 ? undefined : index; };
  }
  const direction = sort.descending ? -1 : 1;
  return (items) =>
    items
      .map((item) => ({ item, key: key(item) }))
      // Tickets without the field go last either way; equal keys keep the service's order.
      .sort((a, b) => (a.key === undefined || b.key === undefined ? (a.key === b.key ? 0 : a.key === undefined ? 1 : -1) : (a.key - b.key) * direction))
      .map(({ item }) => item);
}
