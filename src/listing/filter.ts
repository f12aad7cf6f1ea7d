// `tkt list` filters and sorting (docs/cli.md section 10). The service's list takes only page,
// length, search, listType and filterBy (docs/service.md 4.1), so tkt filters the items it fetches.
// A list item's shape is not specified: each filter reads the item's ID field when it has
// one (ticketStatusId, siteId...), else its name or nested record ("Open", {id, status});
// an item that says nothing about a filtered field (the sandbox's list items carry no site;
// another service's may carry no due date) is judged on the ticket's detail, fetched for it
// alone, and so is an item sorted by a field it lacks (details.ts).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { isObject } from '../api/member-access.js';
import type { Context } from '../context/context.js';
import { OperationError, UsageError } from '../errors.js';
import { closestWord } from '../util/closest.js';
import type { LookupEntry, Lookups } from '../lookups/types.js';
import { FILTER_FIELDS, type LookupKind } from '../model/fields.js';
import { overdueAt, readListItem, type TicketListItem } from '../model/ticket.js';
import { judgeEach, type DetailReads } from './details.js';
import { kebabCase } from './query.js';
import { parseBound, type Bound } from '../util/when.js';

/** The lookup filters: each an option named after its kind (`--status`, `--assignee`), as the field table says. */
export type LookupFilterValues = { [Kind in LookupKind]?: string | undefined };

export interface ListFilterOptions extends LookupFilterValues {
  overdue?: boolean | undefined;
  dueAfter?: string | undefined;
  dueBefore?: string | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  sort?: string | undefined;
}

/**
 * The date filters: each date of a ticket bounded from either side, by the options named so
 * (`--due-after`...). A creation date is in the past: its bounds' advice counts back (-7d).
 */
const DATE_FILTERS = {
  due: { after: 'dueAfter', before: 'dueBefore', past: false },
  created: { after: 'createdAfter', before: 'createdBefore', past: true },
} as const;
type DateField = keyof typeof DATE_FILTERS;
type DateOption = (typeof DATE_FILTERS)[DateField]['after' | 'before'];
const DATE_OPTIONS: readonly DateOption[] = Object.values(DATE_FILTERS).flatMap(({ after, before }) => [after, before]);

const flagOf = (option: DateOption) => `--${kebabCase(option)}`;

/** true / false, or undefined when the item does not say (the detail will). */
type Verdict = boolean | undefined;
type Test = (ticket: TicketListItem) => Verdict;
/** A filter's test, and its option as typed (`--overdue`), for the error when not even a detail says. */
interface NamedTest {
  flag: string;
  test: Test;
}

/** What `list --assignee` takes for tickets that have no assignee. */
export const NO_ASSIGNEE = 'none';

/** The kinds `tkt list` filters by, in the field table's order. */
export const LOOKUP_FILTERS: readonly LookupKind[] = FILTER_FIELDS.map((spec) => spec.value.kind);

/**
 * Adds the filters' options to `tkt list` and `tkt watch`: the lookups' (`--status <name>`), as
 * the field table gives them, then --overdue and the dates.
 */
export function addFilterOptions<Args extends unknown[], Opts extends OptionValues, Globals extends OptionValues>(command: Command<Args, Opts, Globals>) {
  for (const spec of FILTER_FIELDS) command.option(`--${spec.key} <${spec.filter.placeholder}>`, spec.filter.description);
  return (command as Command<Args, Opts & LookupFilterValues, Globals>)
    .option('--overdue', 'only overdue tickets')
    .option('--due-after <when>', 'only tickets due after WHEN')
    .option('--due-before <when>', 'only tickets due before WHEN')
    .option('--created-after <when>', 'only tickets created after WHEN')
    .option('--created-before <when>', 'only tickets created before WHEN');
}

export const SORT_FIELDS = ['id', 'created', 'due', 'priority', 'status'] as const;
type SortField = (typeof SORT_FIELDS)[number];

export interface TicketFilter {
  /** Some filter is given: tkt must look at every item. */
  active: boolean;
  /** Whether the item (a list item or a detail, as the service sent it) matches; undefined when only its detail can tell. */
  test: (item: unknown) => Verdict;
  /** The options whose fields the item (a detail) says nothing about: what `test` left undecided. */
  unsaid?: (item: unknown) => string[];
}

const same = (a: unknown, b: unknown) => String(a).toLowerCase() === String(b).toLowerCase();

/** Whether the ticket's field of `kind` is the wanted lookup entry; `undefined` wanted means "none". */
function lookupTest(kind: LookupKind, id: number | string | undefined, entry: LookupEntry | undefined): Test {
  const names = entry === undefined ? [] : [entry.name, ...entry.aliases];
  return (ticket) => {
    const reading = ticket.field(kind);
    // A record tkt cannot read ({login: "x"}) says no more than a missing member: the detail decides.
    if (!reading.said || reading.unread) return undefined;
    if (id === undefined) return reading.empty;
    if (reading.id !== undefined) return same(reading.id, id);
    const { name, username } = reading;
    return name !== undefined && names.some((wanted) => same(wanted, name) || (username !== undefined && same(wanted, username)));
  };
}

function boundOption(text: string | undefined, flag: string, now: Date, past: boolean): Bound | undefined {
  if (text === undefined) return undefined;
  try {
    return parseBound(text, now, { past });
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`${flag}: ${error.message}`, { hint: error.hint });
    throw error;
  }
}

interface DateRange {
  field: DateField;
  after: Bound | undefined;
  before: Bound | undefined;
}

/** Each date's bounds, read as WHEN; exit 2 for a bad date, or for a range that no time is inside. */
function dateRanges(options: ListFilterOptions, now: Date): DateRange[] {
  return Object.entries(DATE_FILTERS).map(([field, names]) => {
    const after = boundOption(options[names.after], flagOf(names.after), now, names.past);
    const before = boundOption(options[names.before], flagOf(names.before), now, names.past);
    // Empty either way: nothing is after a strict `after` and before `before` <= it, nor at or after a day's end and before it.
    if (after !== undefined && before !== undefined && before.at <= after.at) {
      const [from, to] = [options[names.after]!, options[names.before]!];
      // The likely slip: the same date alone on both sides, meant as that day; both are its end (README, Dates).
      const sameDay = from.trim() === to.trim() && after.dayEnd;
      throw new UsageError(`${flagOf(names.before)} ${to} is not after ${flagOf(names.after)} ${from}: the range is empty`, {
        hint: sameDay ? `a date alone is the end of that day: for the tickets ${field} on ${to.trim()}, give ${flagOf(names.after)} the day before` : undefined,
      });
    }
    return { field: field as DateField, after, before };
  });
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
  if (found === undefined) {
    const meant = closestWord(name, SORT_FIELDS);
    throw new UsageError(`invalid --sort ${JSON.stringify(text)}`, {
      details: [`fields: ${SORT_FIELDS.join(', ')} (-FIELD for descending)`],
      hint: meant === undefined ? undefined : `did you mean ${descending ? '-' : ''}${meant}?`,
    });
  }
  return { field: found, descending };
}

/** Exit 2 before any request for a bad date or sort field. */
export function checkFilterOptions(options: ListFilterOptions, now: Date): void {
  dateRanges(options, now);
  parseSort(options.sort);
}

export function hasFilters(options: ListFilterOptions): boolean {
  return (
    LOOKUP_FILTERS.some((name) => options[name] !== undefined) || options.overdue !== undefined || DATE_OPTIONS.some((name) => options[name] !== undefined)
  );
}

/** Resolves the filters' names (lookups, `@me`) and builds one test for an item. */
export async function buildFilter(options: ListFilterOptions, ctx: Context, lookups: Lookups): Promise<TicketFilter> {
  const now = ctx.now();
  const tests: NamedTest[] = [];
  for (const kind of LOOKUP_FILTERS) {
    const value = options[kind];
    if (value === undefined) continue;
    const flag = `--${kind}`;
    if (kind === 'assignee' && value.trim().toLowerCase() === NO_ASSIGNEE) {
      tests.push({ flag, test: lookupTest('assignee', undefined, undefined) });
      continue;
    }
    const id = await lookups.resolve(kind, value, { flag, noun: kind === 'assignee' ? 'user' : kind });
    const entry = (await lookups.entries(kind)).find((candidate) => same(candidate.id, id));
    tests.push({ flag, test: lookupTest(kind, id, entry) });
  }
  const { overdue } = options;
  // false: the tickets that are not overdue (list_tickets); the CLI's --overdue is true or not given.
  if (overdue !== undefined) {
    tests.push({
      flag: '--overdue',
      test: (ticket) => {
        const overdueNow = overdueAt(ticket, now);
        return overdueNow === undefined ? undefined : overdueNow === overdue;
      },
    });
  }
  // A ticket without the date (no due date) is outside every range, as it is before or after no time.
  for (const { field, after, before } of dateRanges(options, now)) {
    if (after === undefined && before === undefined) continue;
    const names = DATE_FILTERS[field];
    const flag = [...(after === undefined ? [] : [flagOf(names.after)]), ...(before === undefined ? [] : [flagOf(names.before)])].join(' ');
    // A date alone's end is in `--X-after D`, not in `--X-before D`: each instant on one side only (parseBound).
    tests.push({
      flag,
      test: (ticket) => {
        if (!ticket.says(field)) return undefined;
        const date = ticket[field];
        return (
          date !== undefined &&
          (after === undefined || date > after.at || (after.dayEnd && date.getTime() === after.at.getTime())) &&
          (before === undefined || date < before.at)
        );
      },
    });
  }

  return {
    active: tests.length > 0,
    test(item) {
      if (!isObject(item)) return false;
      const ticket = readListItem(item);
      let verdict: Verdict = true;
      for (const { test } of tests) {
        const result = test(ticket);
        if (result === false) return false;
        if (result === undefined) verdict = undefined;
      }
      return verdict;
    },
    unsaid(item) {
      const ticket = readListItem(item);
      return tests.filter(({ test }) => test(ticket) === undefined).map(({ flag }) => flag);
    },
  };
}

/** Tickets in --sort's order; an item without the sorted field is sorted by its ticket's detail. */
export type Order = (items: readonly unknown[], reads: DetailReads) => Promise<unknown[]>;

/** A ticket's place in a sort: its key, undefined for a ticket without the field (last). */
interface SortKey {
  key: number | undefined;
}

/** Orders tickets for --sort; priority and status sort in their lookup order (Low before High). */
export async function buildSort(sort: Sort, lookups: Lookups): Promise<Order> {
  // undefined when the ticket says nothing of the field: its detail does.
  let keyOf: (ticket: TicketListItem) => SortKey | undefined;
  if (sort.field === 'id')
    keyOf = (ticket) => {
      const id = Number(ticket.id);
      return { key: Number.isNaN(id) ? undefined : id };
    };
  else if (sort.field === 'created' || sort.field === 'due') {
    const date = sort.field;
    keyOf = (ticket) => (ticket.says(date) ? { key: ticket[date]?.getTime() } : undefined);
  } else {
    const kind = sort.field;
    const tests = (await lookups.entries(kind)).map((entry) => lookupTest(kind, entry.id, entry));
    keyOf = (ticket) => {
      const reading = ticket.field(kind);
      if (!reading.said || reading.unread) return undefined;
      const index = tests.findIndex((matches) => matches(ticket) === true);
      return { key: index < 0 ? undefined : index };
    };
  }
  const direction = sort.descending ? -1 : 1;
  return async (items, reads) => {
    const keys = await judgeEach(
      items,
      (item) => keyOf(readListItem(item)),
      reads,
      (id) =>
        new OperationError(`cannot sort ticket #${id} by ${sort.field}: neither the list nor its detail says it`, {
          hint: `sort by another field (${SORT_FIELDS.join(', ')})`,
        }),
    );
    return (
      items
        .map((item, index) => ({ item, key: keys[index]!.key }))
        // Tickets without the field go last either way; equal keys keep the service's order.
        .sort((a, b) => (a.key === undefined || b.key === undefined ? (a.key === b.key ? 0 : a.key === undefined ? 1 : -1) : (a.key - b.key) * direction))
        .map(({ item }) => item)
    );
  };
}
