// One read of what `tkt watch` watches: every page of a view (the bounded, ordered paging of
// `list --all`, with list's filters), or the detail of each given ticket. The service pages by
// position, so a walk over a view that changes under it can miss a ticket that never left
// (WalkChanges): a ticket of the previous poll that a walk misses is confirmed before it is told
// removed. The spec names no list item's members: the watched fields an item does not carry are
// read from the ticket's detail (README, Watching).
import { plans } from '../api/plans.js';
import { inLanes } from '../util/lanes.js';
import type { Context } from '../context/context.js';
import { ApiError } from '../errors.js';
import { readTicket, type ConversationEntry } from '../model/ticket.js';
import { buildFilter, checkFilterOptions, hasFilters, type ListFilterOptions, type TicketFilter } from '../listing/filter.js';
import { PAGE_CONCURRENCY, WalkChanges, walkPages, type PageSource } from '../listing/pages.js';
import { listSource, matchingPages, type ListSourceOptions } from '../listing/source.js';
import { DETAIL_CONCURRENCY } from '../listing/details.js';
import {
  lacksWatchedField,
  watchedTicket,
  withFieldsOf,
  WATCHED_FIELDS,
  type Departure,
  type Snapshot,
  type WatchedField,
  type WatchedTicket,
} from './events.js';

export interface PollResult {
  snapshot: Snapshot;
  /** Each ticket's conversation (`tkt watch ID...`). */
  conversations?: Map<string, readonly ConversationEntry[]>;
  /** What the poll learnt of tickets of the previous poll that are not in this one. */
  departures?: Map<string, Departure>;
}

/**
 * Reads the watched tickets once. The run's signal (ctx.signal) gives up its reads in flight and
 * starts no other: a poll stopped part way tells nothing (README, Watching).
 * `previous`: the previous poll (or what --state kept); undefined at the baseline.
 */
export type Poll = (ctx: Context, previous: Snapshot | undefined) => Promise<PollResult>;

/** What `tkt list` would read: the view, its search and requester, and the filters. */
export type ViewWatchOptions = ListFilterOptions & Pick<ListSourceOptions, 'view' | 'search' | 'in' | 'requester'>;

/** Walks of the view in one poll: the first, and up to two more while tickets it missed are in doubt. */
const MAX_WALKS = 3;
/** Missing tickets read before walking again: a deleted one, or one the filter now refuses, needs no other walk. */
const FEW_MISSING = 10;
/** Detail reads a poll spends on missing tickets (their reason and values now); past these, "not confirmed" and the values last seen. */
export const MAX_CONFIRM_READS = 100;

/**
 * One walk of the view: its tickets; whether it saw the desk change under it; whether it was one
 * page (one read, of one moment: a ticket it misses has left); whether the service's count
 * (X-Total-Count) was the same at every page and all of it listed. The count cannot see a ticket
 * leaving ahead of the read position while another enters behind it: the ticket at the page
 * boundary slides into a page already read, unseen. So a calm counted walk's missing tickets are
 * all read at once (one deleted, or refused by the filter, has left), but one read still there is
 * missed by a second walk before it is told it left the view.
 */
interface Walk {
  snapshot: Snapshot;
  changed: boolean;
  onePage: boolean;
  steadyCount: boolean;
}

/** The poll of a view: checks the options and resolves the filter's names once, before the first poll. */
export async function viewPoll(options: ViewWatchOptions, ctx: Context): Promise<Poll> {
  checkFilterOptions(options, ctx.now());
  const filtering = hasFilters(options);
  const source = await listSource({ view: options.view, search: options.search, in: options.in, requester: options.requester, all: true }, ctx, filtering);
  const filter = filtering ? await buildFilter(options, ctx, (await import('../lookups/index.js')).createLookups(ctx)) : undefined;
  const walk = async (pollCtx: Context): Promise<Walk> => {
    const changes = new WalkChanges();
    // The walk reads a page past a short first one to make sure of it: only pages with tickets
    // count, and the first must be shorter than asked (a full one may have pushed a ticket on).
    let filled = 0;
    let firstShort = false;
    const counted: PageSource = {
      ...source,
      fetch: async (page, signal) => {
        const answer = await source.fetch(page, signal);
        if (answer.items.length > 0) filled++;
        if (page === source.firstPage) firstShort = answer.items.length < source.pageSize;
        return answer;
      },
    };
    const walked =
      filter === undefined
        ? walkPages(counted, { signal: pollCtx.signal, concurrency: PAGE_CONCURRENCY, changes })
        : matchingPages({ skip: 0, limit: Infinity }, counted, filter, pollCtx, changes);
    const snapshot: Snapshot = new Map();
    for await (const items of walked) {
      for (const item of items) {
        const ticket = watchedTicket(item);
        if (ticket !== undefined) snapshot.set(String(ticket.id), ticket);
      }
    }
    const changed = changes.failure() !== undefined;
    return { snapshot, changed, onePage: filled === 0 || (filled === 1 && firstShort), steadyCount: !changed && changes.lastTotal !== undefined };
  };
  const walkedPoll: Poll = async (pollCtx, previous) => {
    const departures = new Map<string, Departure>();
    // Values of missing tickets read that still exist and pass the filter tkt applies: only the
    // service's view can say whether they left it, by a walk that misses them again.
    const stillThere = new Map<string, WatchedTicket | undefined>();
    const read = new Set<string>();
    let missedBefore = new Set<string>();
    // The baseline: every ticket its walks saw, each with its latest values.
    let seen: Snapshot | undefined;
    for (let walks = 1; ; walks++) {
      const { snapshot, changed, onePage, steadyCount } = await walk(pollCtx);
      const last = walks === MAX_WALKS;
      if (previous === undefined) {
        // A ticket the baseline missed would be told added at the next poll though it was there
        // all along: a walk of several pages, counted or not, is walked again until two agree.
        const agreed = seen !== undefined && sameKeys(seen, snapshot);
        seen = seen === undefined ? snapshot : new Map([...seen, ...snapshot]);
        if (last || (!changed && (onePage || agreed))) return { snapshot: seen };
        continue;
      }
      // A walk that saw the desk change may have missed any ticket: walk again before judging any.
      if (changed && !last) {
        missedBefore = new Set();
        continue;
      }
      const missing = [...previous.keys()].filter((key) => !snapshot.has(key) && !departures.has(key));
      // Missed by one read of the whole view, or by this walk and the one before, neither seeing a change: it left.
      const gone = new Set(missing.filter((key) => !changed && (onePage || missedBefore.has(key))));
      const doubted = missing.filter((key) => !gone.has(key));
      // Many in doubt is a desk that changed between pages: another walk, not a read each; unless
      // the service's count says the walk saw no change, then each is read.
      const toRead = [...gone, ...(steadyCount || doubted.length <= FEW_MISSING ? doubted : [])]
        .filter((key) => !read.has(key))
        .slice(0, MAX_CONFIRM_READS - read.size);
      for (const key of toRead) read.add(key);
      await confirm(pollCtx, toRead, filter, departures, stillThere);
      // One read still there left the view; one past the reads a poll spends, tkt cannot say why.
      for (const key of gone) {
        if (!departures.has(key))
          departures.set(key, read.has(key) ? { reason: 'left the view', ticket: stillThere.get(key) } : { reason: 'not confirmed', ticket: undefined });
      }
      const remaining = doubted.filter((key) => !departures.has(key));
      if (remaining.length === 0) return { snapshot, departures };
      if (last) {
        // Still in doubt on a desk that keeps changing: kept as last seen, for the next poll to decide.
        for (const key of remaining) snapshot.set(key, previous.get(key)!);
        return { snapshot, departures };
      }
      missedBefore = new Set(remaining);
    }
  };
  // Fields that the details read last did not say either: no ticket's detail is read for them alone.
  const notInDetails = new Set<WatchedField>();
  return async (pollCtx, previous) => {
    const result = await walkedPoll(pollCtx, previous);
    await completeFromDetails(pollCtx, result.snapshot, notInDetails);
    return result;
  };
}

/**
 * Reads the detail of each ticket of `snapshot` whose list item lacks a watched field, and takes
 * from it what the item did not say. A ticket gone since the walk keeps what its item said: the
 * next poll misses it and confirms why. `notInDetails` learns the fields no detail read said.
 */
async function completeFromDetails(ctx: Context, snapshot: Snapshot, notInDetails: Set<WatchedField>): Promise<void> {
  const keys = [...snapshot].filter(([, ticket]) => lacksWatchedField(ticket, notInDetails)).map(([key]) => key);
  const said = new Set<WatchedField>();
  let details = 0;
  await readDetails(ctx, keys, (key, body) => {
    const detail = body === GONE ? undefined : watchedTicket(body);
    if (detail === undefined) return;
    details++;
    for (const name of WATCHED_FIELDS) if (detail[name] !== undefined) said.add(name);
    snapshot.set(key, withFieldsOf(snapshot.get(key)!, detail));
  });
  if (details === 0) return;
  for (const name of WATCHED_FIELDS) {
    if (said.has(name)) notInDetails.delete(name);
    else notInDetails.add(name);
  }
}

function sameKeys(a: Snapshot, b: Snapshot): boolean {
  return a.size === b.size && [...a.keys()].every((key) => b.has(key));
}

/**
 * Reads each of `keys` (tickets missing from a walk): one gone or deleted has left for good; one
 * that the filter now refuses has left the view; either with its values now. The others' values
 * go to `stillThere`.
 */
async function confirm(
  ctx: Context,
  keys: string[],
  filter: TicketFilter | undefined,
  departures: Map<string, Departure>,
  stillThere: Map<string, WatchedTicket | undefined>,
): Promise<void> {
  await readDetails(ctx, keys, (key, body) => {
    if (body === GONE) {
      departures.set(key, { reason: 'deleted', ticket: undefined });
      return;
    }
    const now = watchedTicket(body);
    if (readTicket(body).deleted !== undefined) departures.set(key, { reason: 'deleted', ticket: now });
    else if (filter?.test(body) === false) departures.set(key, { reason: 'left the view', ticket: now });
    else stillThere.set(key, now);
  });
}

/** What readDetails gives for a ticket that is gone (404). */
const GONE = Symbol('gone');

/** Reads the detail of the ticket of each of `keys`, a few at once, and hands `each` its body (GONE for a 404). */
async function readDetails(ctx: Context, keys: readonly string[], each: (key: string, body: unknown) => void): Promise<void> {
  if (keys.length === 0) return;
  const api = await ctx.api();
  await inLanes(keys, DETAIL_CONCURRENCY, async (key) => {
    let body: unknown;
    try {
      body = (await api.send(plans.getTicket(Number(key)), { signal: ctx.signal })).body;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
      body = GONE;
    }
    each(key, body);
  });
}

/**
 * The poll of given tickets: one detail read each. A ticket that is gone (404) has left the watched
 * set; at the baseline it never was in it, and the watch ends as `tkt show` would (exit 3).
 */
export function ticketsPoll(ids: readonly number[]): Poll {
  return async (pollCtx, previous) => {
    const api = await pollCtx.api();
    const snapshot: Snapshot = new Map();
    const conversations = new Map<string, readonly ConversationEntry[]>();
    const departures = new Map<string, Departure>();
    for (const id of ids) {
      let body: unknown;
      try {
        body = (await api.send(plans.getTicket(id), { signal: pollCtx.signal })).body;
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404 && previous !== undefined)) throw error;
        departures.set(String(id), { reason: 'deleted', ticket: undefined });
        continue;
      }
      const detail = readTicket(body);
      const ticket = watchedTicket(body, detail.conversation);
      if (ticket === undefined) continue;
      if (detail.deleted !== undefined) {
        departures.set(String(ticket.id), { reason: 'deleted', ticket });
        continue;
      }
      snapshot.set(String(ticket.id), ticket);
      conversations.set(String(ticket.id), detail.conversation);
    }
    return { snapshot, conversations, departures };
  };
}
