import type { Command } from 'commander';
import type { ApiResponse } from '../api/types.js';
import { field, isObject } from '../api/fields.js';
import type { CommandHost } from '../cli.js';
import type { Context } from '../context.js';
import { addFieldsOption, addTableOptions } from '../output/flags.js';
import { InterruptedError, OperationError, UsageError } from '../errors.js';
import { LIST_TYPES, kebabCase, parseFilterBy, parseListType, parsePositiveInt } from '../tickets/list-query.js';

export interface ListOptions {
  view?: string | undefined;
  search?: string | undefined;
  in?: string | undefined;
  page?: string | undefined;
  limit?: string | undefined;
  all?: boolean | undefined;
  requester?: string | undefined;
}

const DEFAULT_LIMIT = 10;
// --all without --limit asks for bigger pages: 20,000 tickets in 200 requests, not 2,000.
const ALL_PAGE_SIZE = 100;
// Fixed by the service for list-by-username (spec 4.16).
const USERNAME_PAGE_SIZE = 25;

export function register(program: Command, host: CommandHost): void {
  const command = program
    .command('list')
    .description('List tickets')
    .option('--view <view>', `a list type, e.g. my-overdue-tickets (see below); default: the service's own`)
    .option('--search <text>', 'keyword matched against subject, ticket ID, priority and requester')
    .option('--in <fields>', 'where --search looks: comma-separated Subject,TicketId,Priority,Requester')
    .option('--page <n>', 'page number, from 1', '1')
    .option('--limit <n>', `tickets per page (default ${DEFAULT_LIMIT}; ${ALL_PAGE_SIZE} with --all)`)
    .option('--all', 'walk every page, printing tickets as they arrive')
    .option('--requester <username>', `tickets of one requester (${USERNAME_PAGE_SIZE} a page; with --page or --all)`);
  addTableOptions(addFieldsOption(command))
    .addHelpText(
      'after',
      `\nViews:\n  ${LIST_TYPES.map(kebabCase).join(', ')}\n\nExamples:\n  $ tkt list --view my-overdue-tickets\n  $ tkt list --search printer --in subject\n  $ tkt list --all --json > tickets.json\n  $ tkt list --requester anna --all\n  $ tkt list -q --view my-completed-tickets | tkt close -`,
    )
    .action(host.action((_args, opts, ctx) => run(opts as ListOptions, ctx)));
}

interface Query {
  fetch(page: number): Promise<ApiResponse>;
  pageSize: number;
  firstPage: number;
}

function buildQuery(options: ListOptions, ctx: Context): Query {
  const firstPage = parsePositiveInt(options.page ?? '1', '--page');
  if (options.requester !== undefined) {
    const conflicting = (['view', 'search', 'in', 'limit'] as const).filter((name) => options[name] !== undefined);
    if (conflicting.length > 0) {
      throw new UsageError(`--requester cannot be combined with ${conflicting.map((name) => `--${name}`).join(', ')}`, {
        details: [`the list-by-username endpoint takes only a username and a page (${USERNAME_PAGE_SIZE} a page)`],
      });
    }
    const username = options.requester.trim();
    if (username === '') throw new UsageError('--requester needs a username');
    return { firstPage, pageSize: USERNAME_PAGE_SIZE, fetch: async (page) => (await ctx.api()).listByUsername(username, page) };
  }
  if (options.in !== undefined && options.search === undefined) {
    throw new UsageError('--in only narrows --search', { hint: 'add --search TEXT' });
  }
  const listType = options.view === undefined ? undefined : parseListType(options.view);
  const filterBy = options.in === undefined ? undefined : parseFilterBy(options.in);
  const pageSize = options.limit !== undefined ? parsePositiveInt(options.limit, '--limit') : options.all ? ALL_PAGE_SIZE : DEFAULT_LIMIT;
  return {
    firstPage,
    pageSize,
    fetch: async (page) =>
      (await ctx.api()).listTickets({
        page,
        length: pageSize,
        ...(options.search === undefined ? {} : { search: options.search }),
        ...(listType === undefined ? {} : { listType }),
        ...(filterBy === undefined ? {} : { filterBy }),
      }),
  };
}

/** The tickets of a list response: the array itself, or the one array a wrapper object holds. */
function itemsOf(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  const wrapped = field(body, 'data', 'items', 'tickets', 'results', 'records', 'value');
  if (Array.isArray(wrapped)) return wrapped;
  if (body === undefined) return [];
  throw new OperationError('the service answered the list with something that is not a list of tickets', {
    details: [isObject(body) ? `fields: ${Object.keys(body).join(', ')}` : `got: ${typeof body}`],
  });
}

/**
 * Every page from `query.firstPage` on. It stops at an empty page or a short one. "Short" is
 * measured against the first page when that one came back smaller than asked: a service that
 * caps the page size must not end the walk after one page.
 */
async function* walkPages(query: Query, signal: AbortSignal): AsyncGenerator<unknown[]> {
  let fullPage = query.pageSize;
  let previousFirstId: unknown;
  for (let page = query.firstPage; ; page++) {
    if (signal.aborted) throw new InterruptedError();
    const items = itemsOf((await query.fetch(page)).body);
    if (items.length === 0) return;
    const firstId = JSON.stringify(items[0]);
    if (firstId === previousFirstId) {
      throw new OperationError(`the service returned page ${page - 1} again for page ${page}; stopping`, {
        details: ['it may not support paging for this list'],
      });
    }
    previousFirstId = firstId;
    if (page === query.firstPage) fullPage = Math.min(fullPage, items.length);
    yield items;
    if (items.length < fullPage) return;
  }
}

export async function run(options: ListOptions, ctx: Context): Promise<void> {
  const query = buildQuery(options, ctx);
  const { createListPrinter } = await import('../tickets/list-output.js');
  const printer = await createListPrinter(ctx.output, ctx.io.color);
  if (!options.all) {
    const response = await query.fetch(query.firstPage);
    await printer.page(itemsOf(response.body));
    return printer.end();
  }
  for await (const items of walkPages(query, ctx.signal)) await printer.page(items);
  await printer.end();
}
