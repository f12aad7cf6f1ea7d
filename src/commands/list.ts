import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { columnsOption, csvOption, fieldsOption } from '../output/flags.js';
import { wrapWords } from '../output/reflow.js';
import { SORT_FIELDS, addFilterOptions, type ListFilterOptions } from '../listing/filter.js';
import { LIST_TYPES, kebabCase } from '../listing/query.js';
import { ALL_PAGE_SIZE, DEFAULT_LIMIT, USERNAME_PAGE_SIZE, type ListSourceOptions } from '../listing/source.js';
import { listedPages, planListing } from '../listing/listed.js';
import { wholeNumberOption } from '../util/ids.js';
import { writeText } from '../output/write.js';

export type ListOptions = ListFilterOptions & ListSourceOptions;

const EXAMPLES = `
Filters (names resolve like everywhere: "--status on" is On Hold if unique): tkt fetches the
pages and keeps the matching tickets, since the service filters only by view and --search;
with a filter, --limit N means N matching tickets (default ${DEFAULT_LIMIT}), fetched over as many
pages as needed. A filter or --sort reads a ticket's detail when its list item does not say
the field (the sandbox's carry no site or department). --sort reads the whole view (every
match, with a filter) and orders it; --limit and --page then pick from the sorted tickets:
--sort due --limit 5 is the 5 due first.

--all prints every ticket (every match): with it, --limit only sizes the pages --page counts,
so --all --limit without --page is exit 2; for N tickets, drop --all.

WHEN: ISO 8601 (2026-12-01 is the end of that day, the next midnight: --created-after takes
it in, --created-before leaves it out) or +3d / -7d / -4h from now (M is no unit: -30d).

Output: a table at a terminal; piped, tab-separated lines with ISO 8601 dates; --csv; --json
(one array with --all); --query/--fields for JSON; -q the IDs. A full page (without --all) ends
with "10 shown; more with --page 2, or --all" on stderr: under the table at a terminal; piped,
in any format (-q too) when stderr is a terminal, so the pipe's one page is no surprise.

A desk changing during --all shifts the service's pages: each ticket is printed once, and the
run ends with exit 1 saying tickets may be missing (list again when nothing changes).

Views:
${wrapWords(LIST_TYPES.map(kebabCase).join(', '), 78)
  .map((line) => `  ${line}`)
  .join('\n')}

Examples:
  $ tkt list --view my-overdue-tickets
  $ tkt list --assignee @me --priority high --overdue
  $ tkt list --all --status open --assignee none --sort -created
  $ tkt list --all --created-after -7d --csv --columns id,title,due > week.csv
  $ tkt list --search printer --in subject
  $ tkt list --all --json > tickets.json
  $ for id in $(tkt list --all --status open -q); do tkt show "$id"; done
  $ tkt list --requester aberg --all
  $ tkt list -q --all --view my-completed-tickets | tkt close -`;

export function register(program: Program, host: CommandHost): void {
  // The filters (--status, --assignee... from the field table, then --overdue and the dates) come after --requester.
  const listing = program
    .command('list')
    .description('List tickets')
    .option('--view <view>', `a list type, e.g. my-overdue-tickets (see below); default: "tkt config get default-view", else the service's own`)
    .option('--search <text>', 'keyword matched against subject, ticket ID, priority and requester')
    .option('--in <fields>', 'where --search looks: comma-separated Subject,TicketId,Priority,Requester')
    // No default for --page: --all tells --limit with --page (pages it counts) from --limit alone (refused: it caps nothing).
    .option('--page <n>', 'page number, from 1 (default 1; with --all: the first page of --limit tickets walked)')
    .option('--limit <n>', `tickets per page (default ${DEFAULT_LIMIT}); with a filter or --sort, matching tickets; with --all, needs --page`)
    .option('--all', `walk every page (of ${ALL_PAGE_SIZE}), printing tickets as they arrive`)
    .option('--requester <user>', `tickets of one requester: user ID, username or full name (${USERNAME_PAGE_SIZE} a page; with --page or --all)`);
  const command = addFilterOptions(listing)
    .option(
      '--sort <field>',
      `order the whole view (or every match) by ${SORT_FIELDS.join(', ')}, then print the --limit tickets of --page; -FIELD for descending`,
    )
    .addOption(fieldsOption(program))
    .addOption(csvOption(program))
    .addOption(columnsOption(program))
    .addHelpText('after', EXAMPLES);
  // Graceful: a signal stops the walk and gives up the pages in flight, and run closes the output.
  host.action(command, (_args, opts, ctx) => run(opts, ctx), { graceful: true, readsOnly: true });
}

export async function run(options: ListOptions, ctx: Context): Promise<void> {
  // With a filter or a sort, tkt reads the view's pages and prints what --limit and --page name
  // of the matches or of the sorted view (the service can neither filter so nor sort).
  const listing = await planListing(options, ctx);
  const { createListPrinter } = await import('../listing/output.js');
  const { WalkChanges } = await import('../listing/pages.js');
  const printer = await createListPrinter(ctx.output, ctx.io.stdoutColor);
  const changes = new WalkChanges();
  let shown = 0;
  try {
    for await (const items of listedPages(listing, ctx, changes)) {
      shown += items.length;
      await printer.page(items);
    }
  } catch (error) {
    // Stopped part way (Ctrl-C, a page that failed): --json stays one document, its array closed
    // after the tickets printed so far (README "Scripting"). Its own failure (a closed stdout)
    // must not hide why the list stopped.
    await printer.cutShort().catch(() => {});
    throw error;
  }
  await printer.end();
  // What was printed stays (one whole JSON document), but a walk that may have missed tickets is
  // not a success a script can build on: exit 1 (README, Finding tickets).
  const changed = changes.failure();
  if (changed !== undefined) throw changed;
  if (changes.onlyCreated()) {
    const { listed, repeats } = changes;
    const there = listed === 1 ? 'the 1 there when it began is listed' : `the ${listed} there when it began are listed, each once`;
    await ctx.output.note(`tickets were created while listing: ${there}; ${repeats === 1 ? 'the 1 new one is not' : `the ${repeats} new ones are not`}\n`);
  }
  // A full page: say how to see the rest (the service does not say how many) to a person, under
  // the table at a terminal; and when a pipe took it but stderr is a terminal, in every format and
  // with -q too, since a `close -` fed by `list -q` would otherwise close one page unknowingly.
  // Scripts (stderr not a terminal either) get nothing.
  const pageFull = !options.all && shown >= (listing.window?.limit ?? listing.source.pageSize);
  if (!pageFull) return;
  const more = () => `${shown} shown; more with --page ${wholeNumberOption('--page', options.page ?? '1', { min: 1 }) + 1}, or --all\n`;
  if (ctx.io.stdoutIsTTY) {
    if (ctx.output.format === 'human') await ctx.output.note(more());
  } else if (ctx.io.stderrIsTTY) {
    await writeText(ctx.io.stderr, more());
  }
}
