import { describe, expect, it } from 'vitest';
import { createOutput } from '../../src/output/format.js';
import { compileQuery } from '../../src/output/query.js';
import { createTestIO } from '../helpers/io.js';

describe('compileQuery', () => {
  it('marks projections over the whole array as elementwise, and nothing else', () => {
    for (const expression of ['[].id', '[*].id', "[?status=='Open'].id", '[].{a: a}', '[]'])
      expect(compileQuery(expression).elementwise, expression).toBe(true);
    for (const expression of ['length(@)', '[0]', '[:5].id', '[].id | sort(@)', 'id', 'a[].b'])
      expect(compileQuery(expression).elementwise, expression).toBe(false);
  });

  it('names the members read that the answer lacks where they are read', () => {
    const ticket = { id: 1, site: { title: 'HQ' }, conversations: [{ subject: 'Re: 1' }] };
    const absent = (expression: string, value: unknown = ticket) => compileQuery(expression).absentMembers(value);
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

  it('gives the same result page by page as over the whole array when elementwise', () => {
    const items = [{ id: 1, s: 'a' }, { id: 2, s: 'b' }, { id: 3, s: 'a' }, { id: 4 }];
    for (const expression of ["[?s=='a'].id", '[].s', '[*].{x: id}']) {
      const query = compileQuery(expression);
      const paged = [items.slice(0, 2), items.slice(2)].flatMap((page) => query.apply(page) as unknown[]);
      expect(paged, expression).toEqual(query.apply(items));
    }
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

  it('prints strings bare, null as an empty line, arrays one element per line, objects as compact JSON', async () => {
    expect(await printed({ t: 'a "b"' }, 't')).toBe('a "b"\n');
    expect(await printed({}, 'missing')).toBe('\n');
    expect(await printed([{ id: 1 }, { id: 'x' }], '[].id')).toBe('1\nx\n');
    expect(await printed([{ id: 1 }], '[].{id: id}')).toBe('{"id":1}\n');
    expect(await printed({ n: 3 }, '{n: n}')).toBe('{\n  "n": 3\n}\n');
  });
});
