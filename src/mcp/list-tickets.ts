// list_tickets: `tkt list` for an assistant. The same sources, filters and name resolution
// (src/listing/), a page of compact summaries at a time, and an opaque cursor for the next,
// given only when a next ticket exists: it holds the IDs shown, so that the next page is the
// next tickets not shown yet, whatever left or joined the view meanwhile.
import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { ListFilterOptions } from '../listing/filter.js';
import { listedPages, notShownListing, planListing } from '../listing/listed.js';
import { readListItem } from '../model/ticket.js';
import type { ListSourceOptions } from '../listing/source.js';
import { summarize, summaryLine, ticketSummarySchema } from './summary.js';
import { nameOrId } from './form-tools.js';
import { FENCE_NOTE } from './text.js';
import { READ_ONLY, defineTool } from './tool.js';

export const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

// A filter that takes an ID (and search, which finds a ticket by its ID) takes it as a number too,
// as lookups and list_tickets hand IDs out; each filter one value, as `tkt list` takes one.
const input = {
  view: z.string().optional().describe('a view, e.g. my-open-tickets, my-overdue-tickets, unassigned-tickets, all-tickets'),
  search: nameOrId().optional().describe('keyword in subject, ID, priority or requester'),
  status: nameOrId().optional().describe('status name or ID'),
  priority: nameOrId().optional().describe('priority name or ID'),
  assignee: nameOrId().optional().describe('@me, none, or a person (name, username or ID)'),
  overdue: z.boolean().optional().describe('true: only overdue tickets; false: only those not overdue'),
  sort: z.string().optional().describe('id, created, due, priority or status (-due: descending); orders every match, then pages'),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe(`default ${DEFAULT_LIST_LIMIT}`),
  cursor: z.string().optional().describe('next_cursor of the previous call, with the same other arguments'),
};
const TEXT_FILTERS = ['search', 'status', 'priority', 'assignee'] as const;
type TextFilter = (typeof TEXT_FILTERS)[number];
/** The arguments as `tkt list` takes its options: each filter as text. */
type ListArgs = Omit<z.infer<z.ZodObject<typeof input>>, TextFilter> & { [Name in TextFilter]?: string };

/** A number given for a filter is its text (`"status": 2` is `--status 2`), in the cursor's query too. */
function asListArgs(args: z.infer<z.ZodObject<typeof input>>): ListArgs {
  const texts = TEXT_FILTERS.flatMap((name) => (args[name] === undefined ? [] : [[name, String(args[name])]]));
  return { ...args, ...Object.fromEntries(texts) } as ListArgs;
}

/** The query a cursor belongs to: every argument but the cursor. */
function queryKey(args: ListArgs): string {
  const { cursor: _cursor, ...query } = args;
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => a.localeCompare(b)));
}

/** A cursor says which tickets were shown (README, Assistants): the next page is of the others. */
function encodeCursor(shown: readonly string[], args: ListArgs): string {
  return Buffer.from(JSON.stringify({ shown, query: queryKey(args) })).toString('base64url');
}

/** The IDs of the tickets shown before a cursor; a cursor of another query is refused, not misread. */
function decodeCursor(cursor: string | undefined, args: ListArgs): string[] {
  if (cursor === undefined) return [];
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const { shown, query } = (decoded ?? {}) as { shown?: unknown; query?: unknown };
  if (!Array.isArray(shown) || !shown.every((id) => typeof id === 'string')) throw new UsageError('invalid cursor: pass next_cursor as it came');
  if (query !== queryKey(args)) throw new UsageError(`the cursor belongs to other arguments: ${differences(query, args)}`);
  return shown as string[];
}

/** A value of the call, as the text names it: long ones cut (a search the size of a page is no use in an error). */
function shownValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/**
 * Which arguments differ from those of the call that gave the cursor, and that call's arguments,
 * so that the assistant can repeat it: the cursor holds only what the assistant itself sent.
 */
function differences(query: unknown, args: ListArgs): string {
  let entries: [string, unknown][] = [];
  try {
    const parsed: unknown = typeof query === 'string' ? JSON.parse(query) : undefined;
    if (Array.isArray(parsed)) entries = parsed.filter((entry): entry is [string, unknown] => Array.isArray(entry) && typeof entry[0] === 'string');
  } catch {
    // A cursor whose query is unreadable differs in all: only the advice to repeat the call is left.
  }
  const given = new Map(entries);
  const { cursor: _cursor, ...now } = args;
  const names = [...new Set([...given.keys(), ...Object.keys(now)])].sort();
  const differing = names.filter((name) => JSON.stringify(given.get(name)) !== JSON.stringify((now as Record<string, unknown>)[name]));
  const was = entries.length === 0 ? 'no arguments' : entries.map(([name, value]) => `${name}: ${shownValue(value)}`).join(', ');
  return `${differing.join(', ')} differ${differing.length === 1 ? 's' : ''}; the cursor is of the call with ${was}: repeat those arguments with the cursor`;
}

export const listTickets = defineTool({
  name: 'list_tickets',
  title: 'List tickets',
  description: 'Compact ticket summaries, filtered, sorted as a whole. Names resolve like the tkt CLI. next_cursor: more exist.',
  input,
  output: { tickets: z.array(ticketSummarySchema), next_cursor: z.string().optional() },
  annotations: READ_ONLY,
  async call(given, { ctx, lookups }) {
    const args = asListArgs(given);
    const limit = args.limit ?? DEFAULT_LIST_LIMIT;
    const shown = decodeCursor(args.cursor, args);
    // As `tkt list`, with one ticket more than the page, which says whether more exist; pages of
    // the service (without a filter or a sort) of that size, so that a first page costs one request.
    const options: ListFilterOptions & ListSourceOptions = {
      view: args.view,
      search: args.search,
      status: args.status,
      priority: args.priority,
      assignee: args.assignee,
      overdue: args.overdue,
      sort: args.sort,
      limit: String(limit + 1),
    };
    const planned = await planListing(options, ctx, lookups);
    // A first page is the listing's own: without a filter or a sort, one page of the service.
    const listing = shown.length === 0 ? planned : notShownListing(planned, new Set(shown), limit + 1);
    const items: unknown[] = [];
    for await (const listed of listedPages(listing, ctx)) items.push(...listed);
    const more = items.length > limit;
    const now = ctx.now();
    const tickets = items.slice(0, limit).map((item) => summarize(readListItem(item), now));
    const nextShown = [...shown, ...tickets.flatMap((ticket) => (ticket.id === undefined ? [] : [String(ticket.id)]))];
    const structured = { tickets, ...(more ? { next_cursor: encodeCursor(nextShown, args) } : {}) };
    const lines = tickets.length === 0 ? ['No tickets match.'] : [FENCE_NOTE, ...tickets.map(summaryLine)];
    if (more) lines.push(`More exist: call again with cursor ${structured.next_cursor}`);
    return { structured, text: lines.join('\n') };
  },
});
