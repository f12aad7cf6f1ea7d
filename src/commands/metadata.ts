import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { ALL_COLLECTIONS, collectionOf, collectionsIn, collectionsOfCall, itemKey, parseCollection } from '../lookups/collections.js';
import { sanitizeInline } from '../output/sanitize.js';
import { columnsOption, csvOption, fieldsOption } from '../output/flags.js';
import { scalarMemberNames } from '../output/members.js';
import { parseTicketId } from '../util/ids.js';

export interface MetadataOptions {
  id?: string | undefined;
  app?: boolean | undefined;
  collection?: string | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('metadata')
    .description('Show lookup data: sites, departments, statuses, priorities, people...')
    .argument('[id]', 'a ticket ID: sub-categories, items and technicians scoped to that ticket')
    .option('--app', 'the app metadata (no sub-categories, items or people)')
    .option('--collection <name>', `only this collection: ${ALL_COLLECTIONS.join(', ')}`)
    .addOption(fieldsOption(program))
    .addOption(csvOption(program))
    .addOption(columnsOption(program))
    .addHelpText(
      'after',
      `
--csv, --columns and -q (the IDs, one a line) print one collection: give --collection.

Examples:
  $ tkt metadata --app
  $ tkt metadata --collection sites
  $ tkt metadata 42 --collection technicians --json
  $ tkt metadata --collection sites --csv --columns id,title > sites.csv
  $ tkt metadata --collection technicians -q
  $ tkt metadata --collection status --query '[?statusType==\`1\`].status' --raw`,
    );
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx));
}

export async function run(options: MetadataOptions, ctx: Context): Promise<void> {
  if (options.app && options.id !== undefined) throw new UsageError('--app takes no ticket ID', { hint: 'drop the ID, or --app' });
  const id = options.id === undefined ? undefined : parseTicketId(options.id, 'metadata');
  const wanted = options.collection === undefined ? undefined : parseCollection(options.collection, options);
  if (wanted === undefined) {
    const hint = `add --collection NAME: one of ${collectionsOfCall(options).join(', ')}`;
    // -q prints IDs, which are of one collection: printing nothing would run a script's loop zero times.
    if (ctx.output.format === 'quiet') throw new UsageError('-q needs one collection here', { hint });
    ctx.output.assertNotTabular(hint);
  }
  const api = await ctx.api();
  const body = (await api.send(options.app ? plans.appMetadata() : plans.metadata(id))).body;

  if (wanted === undefined) {
    return ctx.output.document(body, {
      human: async () => {
        const { renderCollections } = await import('../lookups/render.js');
        return renderCollections(collectionsIn(body), ctx.io);
      },
    });
  }
  const [name, items] = collectionOf(body, wanted);
  const printer = await ctx.output.records<unknown>({
    prepare: (item) => item,
    columns: [],
    defaultColumns: (first) => scalarMemberNames(first),
    heading: `${name} (${items.length})`,
    noun: name,
    // One a line, as list -q: a name (an item without an ID) with a line break stays one line.
    quiet: (item) => {
      const key = itemKey(item, wanted);
      return key === undefined ? undefined : sanitizeInline(key);
    },
    none: `no ${name}`,
  });
  await printer.page(items);
  await printer.end();
}
