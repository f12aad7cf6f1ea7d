import { plans } from '../api/plans.js';
import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { UsageError } from '../errors.js';
import { ALL_COLLECTIONS, collectionOf, collectionsIn, parseCollection } from '../lookups/collections.js';
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
--csv and --columns print one collection: give --collection.

Examples:
  $ tkt metadata --app
  $ tkt metadata --collection sites
  $ tkt metadata 42 --collection technicians --json
  $ tkt metadata --collection sites --csv --columns id,title > sites.csv
  $ tkt metadata --collection status --query '[?statusType==\`1\`].status' --raw`,
    );
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx), { saysWaiting: true });
}

export async function run(options: MetadataOptions, ctx: Context): Promise<void> {
  if (options.app && options.id !== undefined) throw new UsageError('--app takes no ticket ID', { hint: 'drop the ID, or --app' });
  const id = options.id === undefined ? undefined : parseTicketId(options.id);
  const wanted = options.collection === undefined ? undefined : parseCollection(options.collection, options);
  if (wanted === undefined) ctx.output.assertNotTabular('add --collection NAME');
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
    none: `no ${name}`,
  });
  await printer.page(items);
  await printer.end();
}
