// The field table owns every per-field fact: what other modules used to list beside it (the
// required options, show's header kinds, list's filters, the lookup kinds and collections) is
// derived from its rows.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRunState } from '../../src/process-host.js';
import { ALL_COLLECTIONS, parseCollection } from '../../src/lookups/collections.js';
import { collectionsOf, lookupLabel } from '../../src/lookups/index.js';
import { buildProgram } from '../../src/commander-program.js';
import { loadCommands } from '../../src/commands/index.js';
import { FILTER_FIELDS, HEADER_FIELDS, LOOKUP_FIELDS, LOOKUP_KINDS, TICKET_FIELDS, fieldsFor, isLookupKind, requiredKeys } from '../../src/model/fields.js';
import { LOOKUP_FILTERS } from '../../src/listing/filter.js';
import { fakeProcess } from '../cli/fake-process.js';

// Every command's module, loaded once: each test's program registers all of them.
const allCommands = await loadCommands();

const keysWhere = (has: (spec: (typeof TICKET_FIELDS)[number]) => boolean) => TICKET_FIELDS.filter(has).map((spec) => spec.key);

describe('the field table', () => {
  it('requires on create what the rows say, in the table order', () => {
    expect(requiredKeys('register')).toEqual(['title', 'description', 'requester', 'site', 'department', 'status']);
    expect(requiredKeys('new')).toEqual(['title', 'description', 'requester']);
    expect(requiredKeys('update')).toEqual([]);
    expect(requiredKeys('register')).toEqual(keysWhere((spec) => spec.required?.includes('register') === true));
  });

  it('has one row per field: the requester is one field, a username on the integration endpoint', () => {
    const keys = TICKET_FIELDS.map((spec) => spec.key);
    expect(new Set(keys).size).toBe(keys.length);

    const requester = (endpoint: 'register' | 'new' | 'update') => fieldsFor(endpoint).find((spec) => spec.key === 'requester');
    expect(requester('register')).toMatchObject({
      formField: 'CreatorId',
      label: 'Requester',
      value: { type: 'lookup', kind: 'requester' },
      ask: { search: true },
    });
    expect(requester('update')).toMatchObject({ formField: 'CreatorId' });
    expect(requester('new')).toMatchObject({
      formField: 'Requester',
      label: 'Requester username',
      value: { type: 'lookup', kind: 'requester', as: 'username' },
      ask: {},
    });
  });

  it('derives the lookup kinds from the lookup rows, each kind named after its option', () => {
    expect(LOOKUP_KINDS).toEqual(keysWhere((spec) => spec.value.type === 'lookup'));
    expect(LOOKUP_KINDS).toEqual(
      expect.arrayContaining([
        'assignee',
        'category',
        'client',
        'department',
        'group',
        'item',
        'level',
        'priority',
        'requester',
        'site',
        'status',
        'subcategory',
      ]),
    );
    expect(isLookupKind('site')).toBe(true);
    expect(isLookupKind('sla')).toBe(false);
  });

  it("gives the lookups each kind's collection and label", () => {
    for (const spec of LOOKUP_FIELDS) expect(lookupLabel(spec.value.kind)).toBe(spec.label.toLowerCase());
    // A spelling the row names (tierLevels) is read as that kind, by the entry names the row names.
    expect(collectionsOf({ tierLevels: [{ id: 1, level: 'L1' }] })).toEqual({ level: [{ id: 1, name: 'L1', aliases: [] }] });
  });

  it('derives the metadata collections from the rows: requesters only in the general metadata', () => {
    expect([...ALL_COLLECTIONS].sort()).toEqual(LOOKUP_FIELDS.map((spec) => spec.lookup.collection[0]).sort());
    expect(parseCollection('sub-categories', { id: '5' })).toBe('sub_categories');
    expect(() => parseCollection('requesters', { id: '5' })).toThrow(/unknown collection/);
    expect(() => parseCollection('items', { app: true })).toThrow(/unknown collection/);
  });

  it("derives show's header from the rows' places: status first, every lookup once", () => {
    expect(HEADER_FIELDS.map((spec) => spec.key).slice(0, 12)).toEqual([
      'status',
      'priority',
      'requester',
      'assignee',
      'site',
      'department',
      'category',
      'subcategory',
      'item',
      'group',
      'level',
      'client',
    ]);
    expect(HEADER_FIELDS.map((spec) => spec.key).sort()).toEqual([...LOOKUP_KINDS].sort());
    expect(new Set(HEADER_FIELDS.map((spec) => spec.header.place)).size).toBe(HEADER_FIELDS.length);
  });

  it("derives list's filters and their options from the rows", () => {
    expect(LOOKUP_FILTERS).toEqual(keysWhere((spec) => spec.filter !== undefined));
    expect(LOOKUP_FILTERS).toEqual(expect.arrayContaining(['assignee', 'department', 'group', 'priority', 'site', 'status']));

    const list = buildProgram(fakeProcess(), createRunState(), allCommands).commands.find((command) => command.name() === 'list')!;
    for (const spec of FILTER_FIELDS) {
      const option = list.options.find((candidate) => candidate.long === `--${spec.key}`);
      expect(option?.flags, spec.key).toBe(`--${spec.key} <${spec.filter.placeholder}>`);
      expect(option?.description).toBe(spec.filter.description);
    }
  });

  it('is written one fact per line', () => {
    const source = readFileSync(new URL('../../src/model/fields.ts', import.meta.url), 'utf8');
    const long = source.split('\n').filter((line) => line.length > 160);
    expect(long).toEqual([]);
  });
});
