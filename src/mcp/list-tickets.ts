// list_tickets: `tkt list` for an assistant. The same sources, filters and name resolution
// (src/listing/), a page of compact summaries at a time, and an opaque cursor for the next,
// given only when a next ticket exists.
import { z } from 'zod';
import { UsageError } from '../errors.js';
import type { ListFilterOptions } from '../listing/filter.js';
import { listedPages, planListing } from '../listing/listed.js';
import { listSource, type ListSourceOptions } from '../listing/source.js';
import type { Context } from '../context/context.js';
import { summarize, summaryLine, ticketSummarySchema } from './summary.js';
import { FENCE_NOTE } from './text.js';
import { READ_ONLY, defineTool } from './tool.js';

export const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

const input = {
  view: z.string().optional().describe('a view, e.g. my-open-tickets, my-overdue-tickets, unassigned-tickets, all-tickets'),
  search: z.string().optional().describe('keyword in subject, ID, priority or requester'),
  status: z.string().optional().describe('status name or ID'),
  priority: z.string().optional().describe('priority name or ID'),
  assignee: z.string().optional().describe('@me, none, or a person (name, username or ID)'),
  overdue: z.boolean().optional().describe('only overdue tickets'),
  sort: z.string().optional().describe('id, created, due, priority or status (-due: descending); orders every match, then pages'),
  limit: z.number().int().min(1).max(MAX_LIST_LIMIT).optional().describe(`default ${DEFAULT_LIST_LIMIT}`),
  cursor: z.string().optional().describe('next_cursor of the previous call, with the same other arguments'),
};
type ListArgs = z.infer<z.ZodObject<typeof input>>;

/** The query a cursor belongs to: every argument but the cursor. */
function queryKey(args: ListArgs): string {
  const { cursor: _cursor, ...query } = args;
  return JSON.stringify(Object.entries(query).sort(([a], [b]) => a.localeCompare(b)));
}

function encodeCursor(page: number, args: ListArgs): string {
  return Buffer.from(JSON.stringify({ page, query: queryKey(args) })).toString('base64url');
}

/** The page a cursor points to; a cursor of another query is refused, not misread. */
function decodeCursor(cursor: string | undefined, args: ListArgs): number {
  if (cursor === undefined) return 1;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const { page, query } = (decoded ?? {}) as { page?: unknown; query?: unknown };
  if (typeof page !== 'number' || !Number.isInteger(page) || page < 1) throw new UsageError('invalid cursor: pass next_cursor as it came');
  if (query !== queryKey(args)) throw new UsageError('the cursor belongs to other arguments: repeat the call that gave it, with its cursor');
  return page;
}

/** Whether the service has a ticket after the first `count` of the listing: a page of one ticket. */
async function ticketAfter(options: ListSourceOptions, count: number, ctx: Context): Promise<boolean> {
  const oneAtATime = await listSource({ ...options, limit: '1' }, ctx, false);
  return (await oneAtATime.fetch(count + 1)).length > 0;
}

export const listTickets = defineTool({
  name: 'list_tickets',
  title: 'List tickets',
  description:
    'List tickets as compact summaries, filtered by view, search, status, priority, assignee, overdue; sorted as a whole. Names resolve like the tkt CLI. next_cursor: more exist.',
  input,
  output: { tickets: z.array(ticketSummarySchema), next_cursor: z.string().optional() },
  annotations: READ_ONLY,
  async call(args, { ctx, lookups }) {
    const limit = args.limit ?? DEFAULT_LIST_LIMIT;
    const page = decodeCursor(args.cursor, args);
    const options: ListFilterOptions & ListSourceOptions = {
      view: args.view,
      search: args.search,
      status: args.status,
      priority: args.priority,
      assignee: args.assignee,
      overdue: args.overdue,
      sort: args.sort,
      page: String(page),
      limit: String(limit),
    };
    // As `tkt list`: with a filter or a sort, the page is taken of the matches or of the sorted
    // view, and one ticket more than the page says whether more exist.
    const listing = await planListing(options, ctx, lookups);
    const { window } = listing;
    const lookingAhead = { ...listing, window: window && { ...window, limit: window.limit + 1 } };
    const items: unknown[] = [];
    for await (const listed of listedPages(lookingAhead, ctx)) items.push(...listed);
    // Without a filter or a sort the page is the service's own: a full one asks for the one
    // ticket after it (a page of one), which a page of limit + 1 could not do for the pages after
    // the first (they would no longer start where the service's pages of limit start).
    const more = window !== undefined ? items.length > limit : items.length >= limit && (await ticketAfter(options, page * limit, ctx));
    const now = ctx.now();
    const tickets = items.slice(0, limit).map((item) => summarize(item, now));
    const structured = { tickets, ...(more ? { next_cursor: encodeCursor(page + 1, args) } : {}) };
    const lines = tickets.length === 0 ? ['No tickets match.'] : [FENCE_NOTE, ...tickets.map(summaryLine)];
    if (more) lines.push(`More exist: call again with cursor ${structured.next_cursor}`);
    return { structured, text: lines.join('\n') };
  },
});
