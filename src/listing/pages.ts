// Walking a paged list (`tkt list --all`) with several page requests in flight: the next
// pages are already on their way while one is printed, yet pages come out in order, at most
// `concurrency` are held at once (bounded memory), and nothing past the first short page is
// asked for once that page is known. The window opens one page at a time and doubles with
// each full page, so a list that fits one page (or a filter met by the first) costs one request.
import { plans } from '../api/plans.js';
import { field, isObject } from '../api/member-access.js';
import type { ApiClient } from '../api/types.js';
import { InterruptedError, OperationError } from '../errors.js';

export interface PageSource {
  /** The items of one page (1-based). */
  fetch(page: number): Promise<unknown[]>;
  /** Items asked for per page. */
  pageSize: number;
  firstPage: number;
}

export interface WalkOptions {
  signal: AbortSignal;
  /** Page requests in flight at once, from 1. */
  concurrency: number;
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
 * Every page from `source.firstPage` on, in order. It stops at an empty page or a short one.
 * "Short" is measured against the first page when that one came back smaller than asked: a
 * service that caps the page size must not end the walk after one page. Requests still in
 * flight when the walk stops are left to finish; their answers are dropped.
 */
export async function* walkPages(source: PageSource, options: WalkOptions): AsyncGenerator<unknown[]> {
  const inFlight: Promise<unknown[]>[] = [];
  let nextPage = source.firstPage;
  const launch = () => {
    const request = source.fetch(nextPage++);
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
    const items = await unlessStopped(inFlight.shift()!, options.signal);
    if (items.length === 0) return;
    const first = JSON.stringify(items[0]);
    if (first === previousFirst) {
      throw new OperationError(`the service returned page ${page - 1} again for page ${page}; stopping`, {
        details: ['it may not support paging for this list'],
      });
    }
    previousFirst = first;
    if (page === source.firstPage) fullPage = Math.min(fullPage, items.length);
    const short = items.length < fullPage;
    // A first page smaller than asked is most likely the whole list: make sure with one request, not a window's worth.
    if (page !== source.firstPage || items.length >= source.pageSize) window = Math.min(maxWindow, window * 2);
    yield items;
    if (short) return;
  }
}

/** The tickets of a list response: the array itself, or the one array a wrapper object holds. */
export function listItemsOf(body: unknown): unknown[] {
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
    fetch: async (page) => listItemsOf((await api.send(plans.listTickets({ page, length: VIEW_PAGE_SIZE, listType }))).body),
  };
  const items: unknown[] = [];
  for await (const page of walkPages(source, { signal, concurrency: PAGE_CONCURRENCY })) items.push(...page);
  return items;
}
