// The tickets a listing shows (`tkt list`, the MCP tool list_tickets), page by page. The service
// can neither filter by most fields nor sort: with a filter the window (--page, --limit) is taken
// of the matches, with a sort of the whole view (every match, with a filter) ordered.
import type { Context } from '../context/context.js';
import type { Lookups } from '../lookups/types.js';
import { readListItem } from '../model/ticket.js';
import { buildFilter, buildSort, checkFilterOptions, hasFilters, parseSort, type ListFilterOptions, type Order, type TicketFilter } from './filter.js';
import { PAGE_CONCURRENCY, unlessStopped, walkPages, type PageSource, type WalkChanges } from './pages.js';
import { listSource, matchWindow, matchingPages, type ListSourceOptions, type MatchWindow } from './source.js';

export interface Listing {
  source: PageSource;
  /** With a filter or a sort: which of the matches or of the sorted tickets to show. */
  window: MatchWindow | undefined;
  filter: TicketFilter | undefined;
  order: Order | undefined;
  /** Without a window: every page from the source's first (--all), not that page only. */
  all: boolean;
}

/**
 * The listing `tkt list` options ask for. Everything checkable without the network fails first
 * (exit 2 before any request). `lookups`: the caller's, else made when a filter or a sort needs them.
 */
export async function planListing(options: ListFilterOptions & ListSourceOptions, ctx: Context, lookups?: Lookups): Promise<Listing> {
  checkFilterOptions(options, ctx.now());
  const sort = parseSort(options.sort);
  const filtering = hasFilters(options);
  const picksWindow = filtering || sort !== undefined;
  const source = await listSource(options, ctx, picksWindow);
  const window = picksWindow ? matchWindow(options) : undefined;
  const names = picksWindow ? (lookups ?? (await import('../lookups/index.js')).createLookups(ctx)) : undefined;
  return {
    source,
    window,
    filter: filtering ? await buildFilter(options, ctx, names!) : undefined,
    order: sort === undefined ? undefined : await buildSort(sort, names!),
    all: options.all === true,
  };
}

/**
 * The listing's first `count` tickets that are not in `shown` (IDs), taken from the view as it is
 * now: paging by what was shown, rather than by position, shows a ticket that stays in the view
 * exactly once, when others leave it or join it between pages (list_tickets' cursor).
 */
export function notShownListing(listing: Listing, shown: ReadonlySet<string>, count: number): Listing {
  const { filter } = listing;
  const notShown = (item: unknown) => {
    const { id } = readListItem(item);
    return id === undefined || !shown.has(String(id));
  };
  return {
    ...listing,
    window: { skip: 0, limit: count },
    filter: {
      active: true,
      test: (item) => notShown(item) && (filter === undefined ? true : filter.test(item)),
      ...(filter?.unsaid && { unsaid: filter.unsaid }),
    },
    all: false,
  };
}

const EVERY: MatchWindow = { skip: 0, limit: Infinity };

/** The listing's pages; a walk over several fills in `changes` (one page alone cannot shift). */
export async function* listedPages({ source, window = EVERY, filter, order, all }: Listing, ctx: Context, changes?: WalkChanges): AsyncGenerator<unknown[]> {
  const walk = { signal: ctx.signal, concurrency: PAGE_CONCURRENCY, ...(changes && { changes }) };
  if (order !== undefined) {
    // Sorting needs every ticket it orders: the window is taken of the sorted whole, in one page.
    const every = filter === undefined ? walkPages({ ...source, firstPage: 1 }, walk) : matchingPages(EVERY, source, filter, ctx, changes);
    const held: unknown[] = [];
    for await (const items of every) held.push(...items);
    const ordered = await unlessStopped(order(held, ctx), ctx.signal);
    yield ordered.slice(window.skip, window.skip + window.limit);
  } else if (filter !== undefined) {
    yield* matchingPages(window, source, filter, ctx, changes);
  } else if (all) {
    yield* walkPages(source, walk);
  } else {
    yield (await unlessStopped(source.fetch(source.firstPage, ctx.signal), ctx.signal)).items;
  }
}
