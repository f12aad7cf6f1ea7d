import { plans } from '../api/plans.js';
import { isObject } from '../api/fields.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { OperationError, UsageError } from '../errors.js';
import { columnsOption, csvOption, fieldsOption } from '../output/flags.js';
import { scalarMemberNames } from '../output/members.js';
import { parseTicketId } from '../util/ids.js';
import { squash } from '../util/option-text.js';

export interface MetadataOptions {
  id?: string | undefined;
  app?: boolean | undefined;
  collection?: string | undefined;
}

// What each call returns (spec 4.13, 4.14); metadata/{id} omits requesters.
const APP_COLLECTIONS = ['groups', 'levels', 'priorities', 'categories', 'status', 'clients', 'sites', 'departments'];
const METADATA_COLLECTIONS = [...APP_COLLECTIONS, 'sub_categories', 'items', 'technicians'];
const ALL_COLLECTIONS = [...METADATA_COLLECTIONS, 'requesters'];

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('metadata')
    .description('Show lookup data: sites, departments, statuses, priorities, people...')
    .argument('[id]', "a ticket ID: sub-categories, items and technicians scoped to that ticket")
    .option('--app', 'the app metadata (no sub-categories, items or people)')
    .option('--collection <name>', `only this collection: ${ALL_COLLECTIONS.join(', ')}`)
    .addOption(fieldsOption())
    .addOption(csvOption())
    .addOption(columnsOption())
    .addHelpText(
      'after',
      `
--csv and --columns print one collection: give --collection.

Examples:
  $ tkt metadata --app
  $ tkt metadata --collection sites
  $ tkt metadata 42 --collection technicians --json
  $ tkt metadata --collection requesters --csv --columns id,userName > people.csv
  $ tkt metadata --collection status --query "[?statusType==\`1\`].status" --raw`,
    );
  host.action(command, ([id], opts, ctx) => run({ id, ...opts }, ctx));
}

function validCollections(options: MetadataOptions): string[] {
  if (options.app) return APP_COLLECTIONS;
  return options.id === undefined ? ALL_COLLECTIONS : METADATA_COLLECTIONS;
}

/** The collection's canonical name; exit 2, before any request, when this call does not return it. */
function parseCollection(name: string, options: MetadataOptions): string {
  const valid = validCollections(options);
  const found = valid.find((candidate) => squash(candidate) === squash(name));
  if (found !== undefined) return found;
  const from = options.app ? 'the app metadata' : options.id === undefined ? 'the metadata' : "a ticket's metadata";
  throw new UsageError(`unknown collection ${JSON.stringify(name)} in ${from}`, { details: [`valid collections: ${valid.join(', ')}`] });
}

/** The response's arrays, keyed as the service spelled them. */
function collectionsIn(body: unknown): [string, unknown[]][] {
  if (!isObject(body)) throw new OperationError('the service answered the metadata with something that is not an object');
  return Object.entries(body).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
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
  const collections = collectionsIn(body);
  const shown = collections.find(([name]) => squash(name) === squash(wanted));
  if (shown === undefined) {
    throw new OperationError(`the service sent no ${wanted} collection`, { details: [`it sent: ${collections.map(([name]) => name).join(', ')}`] });
  }
  const [name, items] = shown;
  const printer = await ctx.output.records<unknown>({
    prepare: (item) => item,
    columns: [],
    defaultColumns: (first) => scalarMemberNames(first),
    heading: `${name} (${items.length})`,
    none: `no ${name}`,
  });
  await printer.page(items);
  await printer.end();
}
