// The pages `tkt list` prints: where they come from (a view or search, or one requester's
// tickets), and with a filter the matching tickets of as many pages as it takes, --page and
// --limit then counting matches (docs/cli.md section 10: the service filters only by view and search).
import { plans } from '../api/plans.js';
import type { Context } from '../context/context.js';
import { OperationError, UsageError } from '../errors.js';
import { judgeEach } from './details.js';
import type { TicketFilter } from './filter.js';
import { wholeNumberOption } from '../util/ids.js';
import { nonBlank } from '../util/option-text.js';
import { chosenListType, parseFilterBy } from './query.js';
import { PAGE_CONCURRENCY, listPageOf, unlessStopped, walkPages, type PageSource, type WalkChanges } from './pages.js';

/** `tkt list`'s options that say which pages to read, as typed. */
export interface ListSourceOptions {
  view?: string | undefined;
  search?: string | undefined;
  in?: string | undefined;
  page?: string | undefined;
  limit?: string | undefined;
  all?: boolean | undefined;
  requester?: string | undefined;
}

export const DEFAULT_LIMIT = 10;
// --all without --limit asks for bigger pages: 20,000 tickets in 200 requests, not 2,000.
// Filtering asks for the same size: matches may be sparse.
export const ALL_PAGE_SIZE = 100;
// Fixed by the service for list-by-username (docs/service.md 4.16).
export const USERNAME_PAGE_SIZE = 25;

/**
 * --page N counts pages of --limit tickets (with a filter or a sort, matches), and --all prints
 * every one from there: with --all, --limit only sizes those pages. So --all --page 2 needs
 * --limit (a page of 100 is a size nobody chose), and --all --limit needs --page: alone, it would
 * cap nothing, and `list --all --limit 5 -q | tkt close -` would close every ticket, not 5.
 * `filtering` (a filter or a sort, as listSource's): --limit N alone reads as many pages as it takes.
 */
function assertPagesCounted(options: ListSourceOptions, firstPage: number, filtering: boolean): void {
  if (!options.all) return;
  if (options.limit === undefined && firstPage > 1)
    throw new UsageError('--page with --all needs --limit', { hint: 'add --limit M: --page N then starts after (N-1)*M tickets' });
  if (options.limit !== undefined && options.page === undefined) {
    const limit = wholeNumberOption('--limit', options.limit, { min: 1 });
    throw new UsageError('--all prints every ticket: with it, --limit only sizes the pages --page counts', {
      hint:
        `for ${limit} tickets drop --all: tkt list ... --limit ${limit}${filtering ? ' (it reads as many pages as it takes)' : ''}; ` +
        `for every ticket drop --limit, or walk pages of ${limit} with --page 1`,
    });
  }
}

/** Where the pages come from: the paginated list, or list-by-username for --requester. */
export async function listSource(options: ListSourceOptions, ctx: Context, filtering: boolean): Promise<PageSource> {
  const firstPage = wholeNumberOption('--page', options.page ?? '1', { min: 1 });
  if (options.requester !== undefined) {
    // With a filter, --limit counts matches and so goes with --requester too.
    const conflicting = (['view', 'search', 'in', ...(filtering ? [] : ['limit' as const])] as const).filter((name) => options[name] !== undefined);
    if (conflicting.length > 0) {
      throw new UsageError(`--requester cannot be combined with ${conflicting.map((name) => `--${name}`).join(', ')}`, {
        details: [`the list-by-username endpoint takes only a username and a page (${USERNAME_PAGE_SIZE} a page)`],
      });
    }
    // list-by-username has pages of its own fixed size, which --page counts without --limit.
    if (filtering) assertPagesCounted(options, firstPage, filtering);
    // A user ID, username or full name, as everywhere; the endpoint takes the username.
    const { createLookups } = await import('../lookups/index.js');
    const username = await createLookups(ctx).username('requester', options.requester, { flag: '--requester', noun: 'user' });
    return {
      firstPage,
      pageSize: USERNAME_PAGE_SIZE,
      fetch: async (page, signal) => listPageOf(await (await ctx.api()).send(plans.listByUsername(username, page), { signal })),
    };
  }
  // An empty search would match everything: more likely an unset variable than a wish.
  if (options.search !== undefined) nonBlank(options.search, '--search is empty');
  if (options.in !== undefined && options.search === undefined) {
    throw new UsageError('--in only narrows --search', { hint: 'add --search TEXT' });
  }
  assertPagesCounted(options, firstPage, filtering);
  // `tkt config set default-view` stands in for --view; without either the service chooses.
  const listType = chosenListType(options.view, ctx);
  const filterBy = options.in === undefined ? undefined : parseFilterBy(options.in);
  const pageSize =
    options.limit !== undefined && !filtering
      ? wholeNumberOption('--limit', options.limit, { min: 1 })
      : options.all || filtering
        ? ALL_PAGE_SIZE
        : DEFAULT_LIMIT;
  return {
    firstPage,
    pageSize,
    fetch: async (page, signal) =>
      listPageOf(
        await (
          await ctx.api()
        ).send(
          plans.listTickets({
            page,
            length: pageSize,
            ...(options.search === undefined ? {} : { search: options.search }),
            ...(listType === undefined ? {} : { listType }),
            ...(filterBy === undefined ? {} : { filterBy }),
          }),
          { signal },
        ),
      ),
  };
}

/** The items of a page that pass the filter, in order; an item that does not say is judged on its detail. */
async function matchingItems(items: readonly unknown[], filter: TicketFilter, ctx: Context): Promise<unknown[]> {
  const verdicts = await judgeEach(
    items,
    (item) => filter.test(item),
    ctx,
    (id, detail) => {
      const flags = filter.unsaid?.(detail) ?? [];
      const named = flags.length === 0 ? 'the filter' : flags.join(', ');
      return new OperationError(`cannot filter ticket #${id}: neither the list nor its detail says what ${named} asks`, {
        hint: `drop ${named}: the service does not report it`,
      });
    },
  );
  return items.filter((_item, index) => verdicts[index]);
}

export interface MatchWindow {
  /** Matches to skip first (--page). */
  skip: number;
  /** Matches wanted; Infinity with --all. */
  limit: number;
}

/**
 * With a filter, --limit N is N matches (default 10) and --page N skips N-1 times that; --all is
 * every match from there on, as without a filter it is every ticket, --limit or not.
 */
export function matchWindow(options: ListSourceOptions): MatchWindow {
  const page = wholeNumberOption('--page', options.page ?? '1', { min: 1 });
  const pageSize = options.limit !== undefined ? wholeNumberOption('--limit', options.limit, { min: 1 }) : DEFAULT_LIMIT;
  return { skip: (page - 1) * pageSize, limit: options.all ? Infinity : pageSize };
}

/** With a filter: the matching tickets of `window`, from as many pages as it takes; `changes` as walkPages'. */
export async function* matchingPages(
  window: MatchWindow,
  source: PageSource,
  filter: TicketFilter,
  ctx: Context,
  changes?: WalkChanges,
): AsyncGenerator<unknown[]> {
  let { skip, limit: wanted } = window;
  // Pages of the service, from its first: --page counts matches here.
  for await (const items of walkPages({ ...source, firstPage: 1 }, { signal: ctx.signal, concurrency: PAGE_CONCURRENCY, ...(changes && { changes }) })) {
    let matches = await unlessStopped(matchingItems(items, filter, ctx), ctx.signal);
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
