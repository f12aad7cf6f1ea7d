// The collections of the metadata calls (docs/service.md 4.13, 4.14), for `tkt metadata --collection`:
// which call returns which, named as the user types them, found in an answer however spelled.
import { isObject, stringField } from '../api/member-access.js';
import { OperationError, UsageError } from '../errors.js';
import { LOOKUP_FIELDS, type LookupFacts } from '../model/fields.js';
import { detailLines } from '../output/reflow.js';
import { closestWord } from '../util/closest.js';
import { squash } from '../util/option-text.js';

// What each call returns, by the field table's lookup facts, each collection by its spec name.
const collectionNames = (wanted: (lookup: LookupFacts) => boolean) =>
  LOOKUP_FIELDS.filter((spec) => wanted(spec.lookup)).map((spec) => spec.lookup.collection[0]!);
const APP_COLLECTIONS = collectionNames((lookup) => lookup.source === 'appmetadata');
const METADATA_COLLECTIONS = [...APP_COLLECTIONS, ...collectionNames((lookup) => lookup.source === 'metadata' && lookup.notPerTicket !== true)];
export const ALL_COLLECTIONS = [...METADATA_COLLECTIONS, ...collectionNames((lookup) => lookup.notPerTicket === true)];

/** Which metadata call: the app's, a ticket's (an ID), or the general one. */
export interface MetadataCall {
  app?: boolean | undefined;
  id?: string | undefined;
}

/** The collections this call returns, by their canonical names. */
export function collectionsOfCall(call: MetadataCall): readonly string[] {
  return call.app ? APP_COLLECTIONS : call.id === undefined ? ALL_COLLECTIONS : METADATA_COLLECTIONS;
}

/** The collection's canonical name; exit 2, before any request, when this call does not return it. */
export function parseCollection(name: string, call: MetadataCall): string {
  const valid = collectionsOfCall(call);
  const found = valid.find((candidate) => squash(candidate) === squash(name));
  if (found !== undefined) return found;
  const from = call.app ? 'the app metadata' : call.id === undefined ? 'the metadata' : "a ticket's metadata";
  const meant = closestWord(name, valid);
  throw new UsageError(`unknown collection ${JSON.stringify(name)} in ${from}`, {
    details: detailLines(`valid collections: ${valid.join(', ')}`),
    hint: meant === undefined ? undefined : `did you mean ${meant}?`,
  });
}

/** The answer's arrays, keyed as the service spelled them. */
export function collectionsIn(body: unknown): [string, unknown[]][] {
  if (!isObject(body)) throw new OperationError('the service answered the metadata with something that is not an object');
  return Object.entries(body).filter((entry): entry is [string, unknown[]] => Array.isArray(entry[1]));
}

/** The collection `wanted` (a canonical name) of an answer, however the service spelled it; an error naming what it sent when it is not there. */
export function collectionOf(body: unknown, wanted: string): [string, unknown[]] {
  const collections = collectionsIn(body);
  const found = collections.find(([name]) => squash(name) === squash(wanted));
  if (found === undefined) {
    throw new OperationError(`the service sent no ${wanted} collection`, { details: [`it sent: ${collections.map(([name]) => name).join(', ')}`] });
  }
  return found;
}

// The name member of each collection's items, by canonical name (the field table's entryNames).
const NAME_MEMBERS = new Map(LOOKUP_FIELDS.map((spec) => [spec.lookup.collection[0]!, spec.lookup.entryNames]));

/**
 * What stands for an item of the collection `wanted` (a canonical name) in `metadata -q`: its ID,
 * as list -q prints a ticket's, else its name (the spec gives every item an ID; a service may not).
 */
export function itemKey(item: unknown, wanted: string): string | undefined {
  const id = stringField(item, 'id');
  return id !== undefined && id !== '' ? id : stringField(item, ...(NAME_MEMBERS.get(wanted) ?? []));
}
