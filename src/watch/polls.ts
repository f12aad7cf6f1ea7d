// One read of what `tkt watch` watches: every page of a view (the bounded, ordered paging of
// `list --all`, with list's filters), or the detail of each given ticket.
import { plans } from '../api/plans.js';
import type { Context } from '../context/context.js';
import { ApiError } from '../errors.js';
import { readTicket, type ConversationEntry } from '../model/ticket.js';
import { buildFilter, checkFilterOptions, hasFilters, type ListFilterOptions } from '../listing/filter.js';
import { PAGE_CONCURRENCY, walkPages } from '../listing/pages.js';
import { listSource, matchingPages, type ListSourceOptions } from '../listing/source.js';
import { watchedTicket, type Snapshot } from './events.js';

export interface PollResult {
  snapshot: Snapshot;
  /** Each ticket's conversation (`tkt watch ID...`). */
  conversations?: Map<string, readonly ConversationEntry[]>;
}

/**
 * Reads the watched tickets once; `ctx` is the poll's own (its signal is not the run's).
 * `baseline`: no earlier poll is known (not even from --state).
 */
export type Poll = (ctx: Context, baseline: boolean) => Promise<PollResult>;

/** What `tkt list` would read: the view, its search and requester, and the filters. */
export type ViewWatchOptions = ListFilterOptions & Pick<ListSourceOptions, 'view' | 'search' | 'in' | 'requester'>;

/** The poll of a view: checks the options and resolves the filter's names once, before the first poll. */
export async function viewPoll(options: ViewWatchOptions, ctx: Context): Promise<Poll> {
  checkFilterOptions(options, ctx.now());
  const filtering = hasFilters(options);
  const source = await listSource({ view: options.view, search: options.search, in: options.in, requester: options.requester, all: true }, ctx, filtering);
  const filter = filtering ? await buildFilter(options, ctx, (await import('../lookups/index.js')).createLookups(ctx)) : undefined;
  return async (pollCtx) => {
    const pages =
      filter === undefined
        ? walkPages(source, { signal: pollCtx.signal, concurrency: PAGE_CONCURRENCY })
        : matchingPages({ skip: 0, limit: Infinity }, source, filter, pollCtx);
    const snapshot: Snapshot = new Map();
    for await (const items of pages) {
      for (const item of items) {
        const ticket = watchedTicket(item);
        if (ticket !== undefined) snapshot.set(String(ticket.id), ticket);
      }
    }
    return { snapshot };
  };
}

/**
 * The poll of given tickets: one detail read each. A ticket that is gone (404) has left the watched
 * set; at the baseline it never was in it, and the watch ends as `tkt show` would (exit 3).
 */
export function ticketsPoll(ids: readonly number[]): Poll {
  return async (pollCtx, baseline) => {
    const api = await pollCtx.api();
    const snapshot: Snapshot = new Map();
    const conversations = new Map<string, readonly ConversationEntry[]>();
    for (const id of ids) {
      let body: unknown;
      try {
        body = (await api.send(plans.getTicket(id))).body;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404 && !baseline) continue;
        throw error;
      }
      const detail = readTicket(body);
      if (detail.deleted !== undefined) continue;
      const ticket = watchedTicket(body, detail.conversation);
      if (ticket === undefined) continue;
      snapshot.set(String(ticket.id), ticket);
      conversations.set(String(ticket.id), detail.conversation);
    }
    return { snapshot, conversations };
  };
}
