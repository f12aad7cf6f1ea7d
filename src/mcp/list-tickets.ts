// list_tickets: `tkt list` for an assistant. The same sources, filters and name resolution
// (src/listing/), a page of compact summaries at a time, and an opaque cursor for the next.
import { z } from 'zod';
import { UsageError } from '../errors.js';
import { buildFilter, buildSort, checkFilterOptions, hasFilters, parseSort, type ListFilterOptions } from '../listing/filter.js';
import { listSource, matchWindow, matchingPages, type ListSourceOptions } from '../listing/source.js';
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
  sort: z.string().optional().describe('id, created, due, priority or status; -due for descending'),
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

export const listTickets = defineTool({
  name: 'list_tickets',
  title: 'List tickets',
  description:
    'List tickets as compact summaries, filtered by view, search, status, priority, assignee, overdue. Names resolve like the tkt CLI. Pass next_cursor for more.',
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
    checkFilterOptions(options, ctx.now());
    const sort = parseSort(options.sort);
    const filtering = hasFilters(options);
    const source = await listSource(options, ctx, filtering);
    let items: unknown[] = [];
    if (filtering) {
      const filter = await buildFilter(options, ctx, lookups);
      for await (const matches of matchingPages(matchWindow(options), source, filter, ctx)) items.push(...matches);
    } else {
      items = await source.fetch(source.firstPage);
    }
    // As `tkt list --sort` without --all: the page is ordered.
    if (sort !== undefined) items = (await buildSort(sort, lookups))(items);
    const now = ctx.now();
    const tickets = items.map((item) => summarize(item, now));
    // The service does not say how many there are: a full page may have a next one.
    const full = items.length >= limit;
    const structured = { tickets, ...(full ? { next_cursor: encodeCursor(page + 1, args) } : {}) };
    const lines = tickets.length === 0 ? ['No tickets match.'] : [FENCE_NOTE, ...tickets.map(summaryLine)];
    if (full) lines.push(`More may exist: call again with cursor ${structured.next_cursor}`);
    return { structured, text: lines.join('\n') };
  },
});
