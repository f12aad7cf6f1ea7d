import { plans } from '../api/plans.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { columnsOption, csvOption, fieldsOption } from '../output/flags.js';
import { userSettings } from '../config/settings.js';
import { OperationError, UsageError } from '../errors.js';
import { SORT_FIELDS, buildFilter, buildSort, checkFilterOptions, hasFilters, parseSort, type ListFilterOptions, type TicketFilter } from '../tickets/list-filter.js';
import { LIST_TYPES, kebabCase, parseFilterBy, parseListType, parsePositiveInt } from '../tickets/list-query.js';
import { PAGE_CONCURRENCY, listItemsOf, walkPages, type PageSource } from '../tickets/pages.js';
import { ticketIdOf } from '../tickets/summary.js';

export interface ListOptions extends ListFilterOptions {
  view?: string | undefined;
  search?: string | undefined;
  in?: string | undefined;
  page?: string | undefined;
  limit?: string | undefined;
  all?: boolean | undefined;
  requester?: string | undefined;
}

const DEFAULT_LIMIT = 10;
// --all without --limit asks for bigger pages: 20,000 tickets in 200 requests, not 2,000.
// Filtering asks for the same size: matches may be sparse.
const ALL_PAGE_SIZE = 100;
// Fixed by the service for list-by-username (spec 4.16).
const USERNAME_PAGE_SIZE = 25;
// Details fetched at once when a list item does not say what a filter needs.
const DETAIL_CONCURRENCY = 8;

const EXAMPLES = `
Filters (names resolve like everywhere: "--status on" is On Hold if unique): tkt fetches the
pages and keeps the matching tickets, since the service filters only by view and --search;
with a filter, --limit N means N matching tickets (default ${DEFAULT_LIMIT}; all with --all), fetched
over as many pages as needed. --site and --department fetch a ticket's detail when the list
does not say them. --sort orders what is printed (with --all, every ticket, held to sort).
WHEN: ISO 8601 (2026-12-01 is the end of that day) or +3d / -7d / -4h from now.

Output: a table at a terminal; piped, tab-separated lines with ISO 8601 dates; --csv; --json
(one array with --all); --query/--fields for JSON; -q the IDs.

Views:
  ${LIST_TYPES.map(kebabCase).join(', ')}

Examples:
  $ tkt list --view my-overdue-tickets
  $ tkt list --assignee @me --priority high --overdue
  $ tkt list --all --status open --assignee none --sort -created
  $ tkt list --all --created-after -7d --csv --columns id,title,created > week.csv
  $ tkt list --search printer --in subject
  $ tkt list --all --json > tickets.json
  $ for id in $(tkt list --all --status open --query '[].ticketId' --raw); do tkt show "$id"; done
  $ tkt list --requester anna --all
  $ tkt list -q --view my-completed-tickets | tkt close -`;

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('list')
    .description('List tickets')
    .option('--view <view>', `a list type, e.g. my-overdue-tickets (see below); default: "tkt config get default-view", else the service's own`)
    .option('--search <text>', 'keyword matched against subject, ticket ID, priority and requester')
    .option('--in <fields>', 'where --search looks: comma-separated Subject,TicketId,Priority,Requester')
    .option('--page <n>', 'page number, from 1', '1')
    .option('--limit <n>', `tickets per page (default ${DEFAULT_LIMIT}; ${ALL_PAGE_SIZE} with --all); with a filter, matching tickets`)
    .option('--all', 'walk every page, printing tickets as they arrive')
    .option('--requester <user>', `tickets of one requester: user ID, username or full name (${USERNAME_PAGE_SIZE} a page; with --page or --all)`)
    .option('--status <name>', 'only tickets in this status (name or ID)')
    .option('--priority <name>', 'only tickets of this priority')
    .option('--assignee <user>', 'only tickets assigned to USER (ID, username, full name), @me, or none')
    .option('--site <name>', 'only tickets of this site')
    .option('--department <name>', 'only tickets of this department')
    .option('--group <name>', 'only tickets of this group')
    .option('--overdue', 'only overdue tickets')
    .option('--due-before <when>', 'only tickets due before WHEN')
    .option('--created-after <when>', 'only tickets created after WHEN')
    .option('--sort <field>', `order by ${SORT_FIELDS.join(', ')}; -FIELD for descending`)
    .addOption(fieldsOption())
    .addOption(csvOption())
    .addOption(columnsOption())
    .addHelpText('after', EXAMPLES);
  host.action(command, (_args, opts, ctx) => run(opts, ctx));
}

/** Where the pages come from: the paginated list, or list-by-username for --requester. */
async function buildSource(options: ListOptions, ctx: Context, filtering: boolean): Promise<PageSource> {
  const firstPage = parsePositiveInt(options.page ?? '1', '--page');
  if (options.requester !== undefined) {
    // With a filter, --limit counts matches and so goes with --requester too.
    const conflicting = (['view', 'search', 'in', ...(filtering ? [] : ['limit' as const])] as const).filter((name) => options[name] !== undefined);
    if (conflicting.length > 0) {
      throw new UsageError(`--requester cannot be combined with ${conflicting.map((name) => `--${name}`).join(', ')}`, {
        details: [`the list-by-username endpoint takes only a username and a page (${USERNAME_PAGE_SIZE} a page)`],
      });
    }
    if (options.requester.trim() === '') throw new UsageError('--requester needs a user');
    // A user ID, username or full name, as everywhere; the endpoint takes the username.
    const { createLookups } = await import('../lookups/index.js');
    const username = await createLookups(ctx).username('requester', options.requester, { flag: '--requester', noun: 'user' });
    return { firstPage, pageSize: USERNAME_PAGE_SIZE, fetch: async (page) => listItemsOf((await (await ctx.api()).send(plans.listByUsername(username, page))).body) };
  }
  if (options.in !== undefined && options.search === undefined) {
    throw new UsageError('--in only narrows --search', { hint: 'add --search TEXT' });
  }
  // `tkt config set default-view` stands in for --view; without either the service chooses.
  const view = options.view ?? userSettings(ctx).defaultView;
  const listType = view === undefined ? undefined : parseListType(view);
  const filterBy = options.in === undefined ? undefined : parseFilterBy(options.in);
  const pageSize = options.limit !== undefined && !filtering ? parsePositiveInt(options.limit, '--limit') : options.all || filtering ? ALL_PAGE_SIZE : DEFAULT_LIMIT;
  return {
    firstPage,
    pageSize,
    fetch: async (page) =>
      listItemsOf(
        (
          await (await ctx.api()).send(
            plans.listTickets({
              page,
              length: pageSize,
              ...(options.search === undefined ? {} : { search: options.search }),
              ...(listType === undefined ? {} : { listType }),
              ...(filterBy === undefined ? {} : { filterBy }),
            }),
          )
        ).body,
      ),
  };
}

/** The items of a page that pass the filter, in order; an item that does not say is judged on its detail. */
async function matchingItems(items: readonly unknown[], filter: TicketFilter, ctx: Context): Promise<unknown[]> {
  const verdicts = items.map((item) => filter.test(item));
  const undecided = verdicts.flatMap((verdict, index) => (verdict === undefined ? [index] : []));
  if (undecided.length > 0) {
    const api = await ctx.api();
    const judge = async (): Promise<void> => {
      for (let index = undecided.shift(); index !== undefined; index = undecided.shift()) {
        const id = ticketIdOf(items[index]);
        const verdict = id === undefined ? undefined : filter.test((await api.send(plans.getTicket(Number(id)))).body);
        if (verdict === undefined) {
          throw new OperationError(`cannot filter ticket ${id === undefined ? '(no ID)' : `#${id}`}: neither the list nor its detail says what the filter asks`, {
            hint: 'drop the filter the service does not report (--site or --department)',
          });
        }
        verdicts[index] = verdict;
      }
    };
    await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, undecided.length) }, judge));
  }
  return items.filter((_item, index) => verdicts[index] === true);
}

interface MatchWindow {
  /** Matches to skip first (--page). */
  skip: number;
  /** Matches wanted; Infinity with --all. */
  limit: number;
}

/** With a filter, --limit N is N matches (default 10, all with --all) and --page N skips N-1 times that. */
function matchWindow(options: ListOptions): MatchWindow {
  const page = parsePositiveInt(options.page ?? '1', '--page');
  const limit = options.limit !== undefined ? parsePositiveInt(options.limit, '--limit') : options.all ? Infinity : DEFAULT_LIMIT;
  if (limit === Infinity && page > 1) throw new UsageError('--page with a filter and --all needs --limit', { hint: '--page N skips N-1 times --limit matches' });
  return { skip: limit === Infinity ? 0 : (page - 1) * limit, limit };
}

/** With a filter: the matching tickets of `window`, from as many pages as it takes. */
async function* matchingPages(window: MatchWindow, source: PageSource, filter: TicketFilter, ctx: Context): AsyncGenerator<unknown[]> {
  let { skip, limit: wanted } = window;
  // Pages of the service, from its first: --page counts matches here.
  for await (const items of walkPages({ ...source, firstPage: 1 }, { signal: ctx.signal, concurrency: PAGE_CONCURRENCY })) {
    let matches = await matchingItems(items, filter, ctx);
    if (skip > 0) {
      const skipped = Math.min(skip, matches.length);
      matches = matches.slice(skipped);
      skip -= skipped;
    }
    if (matches.length > wanted) matches = matches.slice(0, wanted);
    wanted -= matches.length;
    if (matches.length > 0) yield matches;
    // Returning ends the walk: no page past the last match needed is asked for.
    if (wanted === 0) return;
  }
}

export async function run(options: ListOptions, ctx: Context): Promise<void> {
  // Everything checkable without the network fails first (exit 2 before any request).
  checkFilterOptions(options, ctx.now());
  const sort = parseSort(options.sort);
  const filtering = hasFilters(options);
  const source = await buildSource(options, ctx, filtering);
  const window = filtering ? matchWindow(options) : undefined;
  const { createListPrinter } = await import('../tickets/list-output.js');
  const printer = await createListPrinter(ctx.output, ctx.io.stdoutColor);
  const lookups = filtering || sort !== undefined ? (await import('../lookups/index.js')).createLookups(ctx) : undefined;
  const filter = filtering ? await buildFilter(options, ctx, lookups!) : undefined;
  const order = sort === undefined ? undefined : await buildSort(sort, lookups!);

  const pages: AsyncIterable<unknown[]> =
    filter !== undefined && window !== undefined
      ? matchingPages(window, source, filter, ctx)
      : options.all
        ? walkPages(source, { signal: ctx.signal, concurrency: PAGE_CONCURRENCY })
        : (async function* () {
            yield await source.fetch(source.firstPage);
          })();
  let shown = 0;
  if (order === undefined) {
    for await (const items of pages) {
      shown += items.length;
      await printer.page(items);
    }
  } else {
    // Sorting needs every ticket it orders.
    const held: unknown[] = [];
    for await (const items of pages) held.push(...items);
    shown = held.length;
    await printer.page(order(held));
  }
  await printer.end();
  // A full page at a terminal: say how to see the rest (the service does not say how many).
  const pageFull = !options.all && shown >= (window?.limit ?? source.pageSize);
  if (pageFull && ctx.output.format === 'human' && ctx.io.stdoutIsTTY) {
    const next = parsePositiveInt(options.page ?? '1', '--page') + 1;
    await ctx.output.note(`${shown} shown; more with --page ${next}, or --all\n`);
  }
}
