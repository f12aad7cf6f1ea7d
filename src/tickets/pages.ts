// Walking a paged list (`tkt list --all`) with several page requests in flight: the next
// pages are already on their way while one is printed, yet pages come out in order, at most
// `concurrency` are held at once (bounded memory), and nothing past the first short page is
// asked for once that page is known.
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
  for (let i = 0; i < Math.max(1, options.concurrency); i++) launch();

  let fullPage = source.pageSize;
  let previousFirst: string | undefined;
  for (let page = source.firstPage; ; page++) {
    if (options.signal.aborted) throw new InterruptedError();
    const items = await inFlight.shift()!;
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
    // Refill the window before handing the page on, so the next request overlaps its printing.
    if (!short) launch();
    yield items;
    if (short) return;
  }
}
