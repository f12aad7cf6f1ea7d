import { describe, expect, it } from 'vitest';
import { createOutput } from '../../src/output/format.js';
import { compileQuery } from '../../src/output/query.js';
import { createTestIO } from '../helpers/io.js';
import { UsageError } from '../../src/errors.js';

describe('compileQuery', () => {
  it('marks projections over the whole array as elementwise, and nothing else', () => {
    for (const expression of ['[].id', '[*].id', "[?status=='Open'].id", '[].{a: a}', '[]'])
      expect(compileQuery(expression).elementwise, expression).toBe(true);
    for (const expression of ['length(@)', '[0]', '[:5].id', '[].id | sort(@)', 'id', 'a[].b'])
      expect(compileQuery(expression).elementwise, expression).toBe(false);
  });

  it('names the members read that the answer lacks where they are read', () => {
    const ticket = { id: 1, site: { title: 'HQ' }, conversations: [{ subject: 'Re: 1' }] };
    const absent = (expression: string, value: unknown = ticket) =>
      compileQuery(expression)
        .absentMembers(value)
        .flatMap((level) => level.names);
    // The answer's own members: one that only a nested record has is absent all the same.
    expect(absent('subject')).toEqual(['subject']);
    expect(absent('{s: subject, t: title, i: id}')).toEqual(['subject', 'title']);
    expect(absent('id')).toEqual([]);
    // Deeper down, as before: anywhere in the answer.
    expect(absent('conversations[].subject')).toEqual([]);
    expect(absent('site.title')).toEqual([]);
    expect(absent('site.name')).toEqual(['name']);
    // A projection or filter over the answer reads its items.
    expect(absent('[].id', [ticket])).toEqual([]);
    expect(absent('[?subject].id', [ticket])).toEqual(['subject']);
    expect(absent("[?site.title=='HQ'].id", [ticket])).toEqual([]);
    // Nothing is read from an empty list, nor from below where the answer holds no object.
    for (const expression of ['[].ticketId', 'ticketId', '[].site.title', 'items[].id', '[?subject].id'])
      expect(absent(expression, expression === 'items[].id' ? { items: [] } : []), expression).toEqual([]);
    expect(absent('[].site.title', [{ id: 1 }])).toEqual(['site']);
  });

  it('follows the path of the expression to where a member is missing, naming the members there', () => {
    const status = {
      counts: { open: 2 },
      urgent: [
        { ticketId: 7, subject: 'Printer' },
        { ticketId: 8, subject: 'VPN', dueDate: 'x' },
      ],
    };
    const absent = (expression: string, value: unknown = status) => compileQuery(expression).absentMembers(value);
    const urgentItems = { names: ['id'], members: ['ticketId', 'subject', 'dueDate'] };
    expect(absent('urgent[].id')).toEqual([{ where: 'urgent[]', ...urgentItems }]);
    expect(absent('urgent[*].id')).toEqual([{ where: 'urgent[]', ...urgentItems }]);
    expect(absent("urgent[?subject=='none'].id")).toEqual([{ where: 'urgent[]', ...urgentItems }]);
    expect(absent('urgent[0].id')).toEqual([{ where: 'urgent[0]', names: ['id'], members: ['ticketId', 'subject'] }]);
    expect(absent('counts.closed')).toEqual([{ where: 'counts', names: ['closed'], members: ['open'] }]);
    // Each level its own members: the answer's and its urgent items'.
    expect(absent('{a: id, b: urgent[].id}')).toEqual([
      { where: '', names: ['id'], members: ['counts', 'urgent'] },
      { where: 'urgent[]', ...urgentItems },
    ]);
    // Past a function no member path says where: the items it read are still named.
    expect(absent('sort_by(urgent, &ticketId)[].id')).toEqual([{ where: undefined, ...urgentItems }]);
    expect(absent('sort_by(urgent, &id)')).toEqual([{ where: undefined, ...urgentItems }]);
    // A list's items are the answer, as ever, and a name read from the list itself is of its items.
    expect(absent('[].id', status.urgent)).toEqual([{ where: '', ...urgentItems }]);
    expect(absent('id', status.urgent)).toEqual([{ where: '', ...urgentItems }]);
    expect(absent('urgent[].ticketId')).toEqual([]);
  });

  it('gives the same result page by page as over the whole array when elementwise', () => {
    const items = [{ id: 1, s: 'a' }, { id: 2, s: 'b' }, { id: 3, s: 'a' }, { id: 4 }];
    for (const expression of ["[?s=='a'].id", '[].s', '[*].{x: id}']) {
      const query = compileQuery(expression);
      const paged = [items.slice(0, 2), items.slice(2)].flatMap((page) => query.apply(page) as unknown[]);
      expect(paged, expression).toEqual(query.apply(items));
    }
  });

  it('finds max_by and min_by by number or string keys, as the specification has them', () => {
    const tickets = [
      { id: 1, hours: 5, createdOn: '2024-03-02T10:00:00Z' },
      { id: 2, hours: 9, createdOn: '2024-03-01T10:00:00Z' },
      { id: 3, hours: -1, createdOn: '2024-03-03T10:00:00Z' },
      { id: 4, hours: 9, createdOn: '2024-03-03T10:00:00Z' },
    ];
    const apply = (expression: string, value: unknown = tickets) => compileQuery(expression).apply(value);
    expect(apply('max_by(@, &hours).id')).toBe(2);
    expect(apply('min_by(@, &hours).id')).toBe(3);
    // ISO timestamps order as strings; on a tie the first item wins.
    expect(apply('max_by(@, &createdOn).id')).toBe(3);
    expect(apply('min_by(@, &createdOn).id')).toBe(2);
    // Strings in code point order, as sort_by() orders them (JavaScript's < would put U+FF01 after an emoji).
    expect(apply('max_by(@, &name).name', [{ name: '😀' }, { name: '！' }])).toBe('😀');
    // A falsy winner is still the answer.
    expect(apply('max_by(@, &@)', [0, -1])).toBe(0);
    expect(apply('max_by(@, &hours)', [])).toBeNull();
    expect(apply('min_by(@, &createdOn)', [])).toBeNull();
  });

  it('refuses max_by and min_by keys that are mixed, or neither numbers nor strings', () => {
    const apply = (expression: string, value: unknown) => () => compileQuery(expression).apply(value);
    expect(apply('max_by(@, &k)', [{ k: 1 }, { k: 'a' }])).toThrow(UsageError);
    expect(apply('min_by(@, &k)', [{ k: 'a' }, { k: 1 }])).toThrow(/--query failed: .*min_by\(\).*string.*number/);
    expect(apply('max_by(@, &k)', [{ k: 1 }, { j: 2 }])).toThrow(/--query failed: .*max_by\(\).*null/);
    expect(apply('min_by(@, &k)', [{ k: true }])).toThrow(/--query failed: .*min_by\(\).*boolean/);
    expect(apply('max_by(@, &k)', 'text')).toThrow(/--query failed/);
  });

  it('refuses bad syntax and unknown functions as usage errors', () => {
    expect(() => compileQuery('[?a==')).toThrow(/invalid --query/);
    expect(() => compileQuery('frobnicate(@)')).toThrow('unknown function frobnicate()');
    expect(() => compileQuery('abs(@)').apply('text')).toThrow(/--query failed/);
  });
});

describe('--raw', () => {
  async function printed(value: unknown, query: string): Promise<string> {
    const test = createTestIO();
    const output = await createOutput({ flags: { json: false, quiet: false, query, raw: true }, io: test.io, now: () => new Date() });
    await output.document(value);
    return test.stdout();
  }

  it('prints strings bare, null as an empty line, arrays one element per line, objects as compact JSON, one whole too', async () => {
    expect(await printed({ t: 'a "b"' }, 't')).toBe('a "b"\n');
    expect(await printed({}, 'missing')).toBe('\n');
    expect(await printed([{ id: 1 }, { id: 'x' }], '[].id')).toBe('1\nx\n');
    expect(await printed([{ id: 1 }], '[].{id: id}')).toBe('{"id":1}\n');
    // A script reads --raw by lines (create --from - takes JSON Lines): an object whole is one line too.
    expect(await printed({ n: 3 }, '{n: n}')).toBe('{"n":3}\n');
  });
});
