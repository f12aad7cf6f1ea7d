// Walking a paged list (`tkt list --all`) with several page requests in flight: the next
// pages are already on their way while one is printed, yet pages come out in order, at most
// `concurrency` are held at once (bounded memory), and nothing past the first short page is
// asked for once that page is known. The window opens one page at a time and doubles with
// each full page, so a list that fits one page (or a filter met by the first) costs one request.
// The service pages by position, newest first, so a walk over a desk that changes shifts under
// its feet: the walk leaves out the tickets it already gave and says what it saw (WalkChanges).
import { plans } from '../api/plans.js';
import { field, isObject } from '../api/member-access.js';
import type { ApiClient, ApiResponse } from '../api/types.js';
import { InterruptedError, OperationError } from '../errors.js';
import { listItemIdOf } from '../model/ticket.js';

/** One page of a list, and how many the whole list holds when the service says (X-Total-Count). */
export interface ListPage {
  items: unknown[];
  total: number | undefined;
}

export interface PageSource {
  /**
   * One page (1-based). `signal` gives its read up, waits before a retry included (a 503's
   * Retry-After): the walk's consumer wants no more.
   */
  fetch(page: number, signal: AbortSignal): Promise<ListPage>;
  /** Items asked for per page. */
  pageSize: number;
  firstPage: number;
}

export interface WalkOptions {
  signal: AbortSignal;
  /** Page requests in flight at once, from 1. */
  concurrency: number;
  /** Filled in as the walk goes: what it saw of the list changing under it. */
  changes?: WalkChanges;
}

/**
 * What one walk saw of the list changing while it was read. A ticket created ahead of the next
 * page pushes the list down: that page gives again a ticket already given (a repeat, left out).
 * A ticket leaving ahead of it (deleted, closed out of the view) pulls the list up: a ticket
 * slips into a page already read and is never seen; only the service's count can tell.
 */
export class WalkChanges {
  /** Tickets a later page gave again, left out. */
  repeats = 0;
  /** Tickets given, each once. */
  listed = 0;
  /** The service's counts of the whole list, at the first page answered and at the last. */
  firstTotal: number | undefined;
  lastTotal: number | undefined;
  /** The count differed between two pages. */
  totalMoved = false;
  /** Walked from page 1 to the end of the list (not stopped by its consumer). */
  whole = false;

  /**
   * Tickets created during the walk, and nothing else: each pushed the list down once, so a page
   * gave one ticket again, and the service's count grew by as many; every ticket it counted at the
   * first page was listed. Nothing is missing but what came after the walk began.
   */
  onlyCreated(): boolean {
    const { repeats, listed, firstTotal, lastTotal } = this;
    if (repeats === 0 || firstTotal === undefined || lastTotal === undefined) return false;
    return lastTotal - firstTotal === repeats && (!this.whole || listed === firstTotal);
  }

  /** The run's failure when the list changed under the walk (README, Finding tickets), else undefined. */
  failure(): OperationError | undefined {
    const { repeats, listed, firstTotal, lastTotal, totalMoved } = this;
    const short = this.whole && !totalMoved && lastTotal !== undefined && listed < lastTotal;
    if ((repeats === 0 && !totalMoved && !short) || this.onlyCreated()) return undefined;
    const details: string[] = [];
    if (repeats > 0) details.push(`${repeats} ${repeats === 1 ? 'ticket' : 'tickets'} given again by a later page left out`);
    if (totalMoved) details.push(`the service counted ${firstTotal} tickets at the first page, ${lastTotal} at the last`);
    if (short) details.push(`the service counts ${lastTotal} tickets; ${listed} listed`);
    return new OperationError('the desk changed while listing: tickets may be missing', {
      details,
      hint: 'list again when nothing changes (a migration should stop changes to the desk first)',
    });
  }
}

const TOTAL_HEADER = 'x-total-count';

/** A list answer as a page: its tickets, and the service's count when it sends one. */
export function listPageOf(response: ApiResponse): ListPage {
  const header = response.headers[TOTAL_HEADER];
  const text = Array.isArray(header) ? header[0] : header;
  const total = text !== undefined && /^\d+$/.test(text.trim()) ? Number(text) : undefined;
  return { items: listItemsOf(response.body), total };
}

/**
 * `pending`'s answer. A request given up because the run was stopped (a read's first Ctrl-C gives
 * up what is in flight) is the run interrupted, said as such: not a request that "may have been
 * carried out".
 */
export async function unlessStopped<T>(pending: Promise<T>, signal: AbortSignal): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (signal.aborted) throw new InterruptedError();
    throw error;
  }
}

/** Page requests `list --all` keeps in flight: enough to hide a round trip, few enough for any service. */
export const PAGE_CONCURRENCY = 4;

/**
 * Every page from `source.firstPage` on, in order, each ticket once: one a later page gives again
 * is left out (options.changes counts it). It stops at an empty page or a short one.
 * "Short" is measured against the first page when that one came back smaller than asked: a
 * service that caps the page size must not end the walk after one page. Requests still in
 * flight when the walk stops are left to finish; their answers are dropped.
 */
export async function* walkPages(source: PageSource, options: WalkOptions): AsyncGenerator<unknown[]> {
  const changes = options.changes ?? new WalkChanges();
  // The IDs given so far: a Set of 60,000 short strings is a few MB, and the tickets themselves are not held.
  const given = new Set<string>();
  const inFlight: Promise<ListPage>[] = [];
  let nextPage = source.firstPage;
  const launch = () => {
    const request = source.fetch(nextPage++, options.signal);
    // Awaited in order below; a page dropped after the walk stopped must not be an unhandled rejection.
    request.catch(() => {});
    inFlight.push(request);
  };
  const maxWindow = Math.max(1, options.concurrency);
  let window = 1;
  launch();

  let fullPage = source.pageSize;
  let previousFirst: string | undefined;
  for (let page = source.firstPage; ; page++) {
    if (options.signal.aborted) throw new InterruptedError();
    // The window is refilled only when the consumer asks for more: one that stops (a filter's
    // --limit met, a closed stdout) leaves no request behind. Pages already in flight still
    // overlap the printing of this one.
    if (page !== source.firstPage) while (inFlight.length < window) launch();
    const { items, total } = await unlessStopped(inFlight.shift()!, options.signal);
    if (total !== undefined) {
      if (changes.lastTotal !== undefined && total !== changes.lastTotal) changes.totalMoved = true;
      changes.firstTotal ??= total;
      changes.lastTotal = total;
    }
    if (items.length === 0) {
      changes.whole = source.firstPage === 1;
      return;
    }
    const first = JSON.stringify(items[0]);
    if (first === previousFirst) {
      throw new OperationError(`the service returned page ${page - 1} again for page ${page}; stopping`, {
        details: ['it may not support paging for this list'],
      });
    }
    previousFirst = first;
    if (page === source.firstPage) fullPage = Math.min(fullPage, items.length);
    // A page 1 that holds all the service counts (X-Total-Count) is the whole list: one request.
    const short = items.length < fullPage || (page === 1 && total !== undefined && items.length >= total);
    // Without that count, a first page smaller than asked is most likely the whole list, or a
    // service's cap: make sure with one request, not a window's worth.
    if (page !== source.firstPage || items.length >= source.pageSize) window = Math.min(maxWindow, window * 2);
    const fresh = items.filter((item) => {
      const id = listItemIdOf(item);
      // An item without an ID cannot be told from another: it is given as it came.
      if (id === undefined || id === null) return true;
      const key = String(id);
      if (given.has(key)) return false;
      given.add(key);
      return true;
    });
    changes.repeats += items.length - fresh.length;
    changes.listed += fresh.length;
    if (fresh.length > 0) yield fresh;
    if (short) {
      changes.whole = source.firstPage === 1;
      return;
    }
  }
}

/** The tickets of a list response: the array itself, or the one array a wrapper object holds. */
function listItemsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const wrapped = field(body, 'data', 'items', 'tickets', 'results', 'records', 'value');
  if (Array.isArray(wrapped)) return wrapped;
  if (body === undefined) return [];
  throw new OperationError('the service answered the list with something that is not a list of tickets', {
    details: [isObject(body) ? `fields: ${Object.keys(body).join(', ')}` : `got: ${typeof body}`],
  });
}

// Pages of a view walked whole (status counts, triage's list): big pages, few requests.
const VIEW_PAGE_SIZE = 100;

/** Every ticket of a view (a list type), walked page by page. */
export async function viewTickets(api: ApiClient, listType: string, signal: AbortSignal): Promise<unknown[]> {
  const source: PageSource = {
    firstPage: 1,
    pageSize: VIEW_PAGE_SIZE,
    fetch: async (page, signal) => listPageOf(await api.send(plans.listTickets({ page, length: VIEW_PAGE_SIZE, listType }), { signal })),
  };
  const items: unknown[] = [];
  for await (const page of walkPages(source, { signal, concurrency: PAGE_CONCURRENCY })) items.push(...page);
  return items;
}
