import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import type { LookupKind, Lookups } from '../../src/lookups/types.js';
import { checkFields, resolveFields } from '../../src/fields/values.js';

const NOW = new Date('2026-11-22T10:00:00Z');

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('checkFields', () => {
  it('accepts and converts every kind of value', () => {
    const checked = checkFields(
      'register',
      { title: 'x'.repeat(255), due: '+2h', tag: ['1', '2,3'], sla: '7', type: 'Ticket', site: ' HQ ', attach: ['a', '/dev/stdin#b.log'] },
      NOW,
    );
    const byKey = Object.fromEntries(checked.fields.map((f) => [f.spec.key, f]));
    expect(byKey.title?.value).toHaveLength(255);
    expect(byKey.due?.value).toBe('2026-11-22T12:00:00.000Z');
    expect(byKey.tag?.value).toEqual([1, 2, 3]);
    expect(byKey.sla?.value).toBe(7);
    expect(byKey.type?.value).toBe(1);
    expect(byKey.site?.lookupText).toBe('HQ');
    expect(byKey.attach?.files?.map(({ path, name }) => [path, name])).toEqual([
      ['a', 'a'],
      ['/dev/stdin', 'b.log'],
    ]);
  });

  it('counts UTF-16 units against the 255 limit, as the service does, and says so', () => {
    expect(() => checkFields('register', { title: 'x'.repeat(255) }, NOW)).not.toThrow();
    expect(() => checkFields('register', { title: '😀'.repeat(127) + 'x' }, NOW)).not.toThrow();
    expect(usageError(() => checkFields('new', { title: '😀'.repeat(128) }, NOW)).message).toBe(
      '--title: 256 characters (counted as the service counts, in UTF-16 units: 128 characters, some count 2), the service accepts at most 255',
    );
  });

  it('says which numbers a type may be, and that a too large ID is out of range', () => {
    const error = usageError(() => checkFields('update', { type: '0', service: '9'.repeat(20) }, NOW));
    expect(error.details).toEqual([
      '--type: unknown ticket type "0": use "ticket" or a type number, a whole number from 1 (ticket is 1)',
      `--service: invalid ID "${'9'.repeat(20)}": out of range: IDs go up to ${Number.MAX_SAFE_INTEGER}`,
    ]);
  });

  it('reports every bad value at once', () => {
    const error = usageError(() => checkFields('register', { due: 'soon', tag: ['x', '2', '-1'], service: '1.5', type: 'incident' }, NOW));
    expect(error.message).toBe('invalid options');
    expect(error.details).toEqual([
      '--type: unknown ticket type "incident": use "ticket" or a type number, a whole number from 1 (ticket is 1)',
      '--service: invalid ID "1.5": a decimal number',
      expect.stringMatching(/^--due: invalid date "soon"/),
      '--tag: invalid ID "x", "-1": expected a positive whole number',
    ]);
  });

  it('refuses --due +1M, a month read as a minute, with how to say months on the same line', () => {
    const error = usageError(() => checkFields('update', { due: '+1M' }, NOW));
    expect(error.message).toBe('--due: invalid date "+1M": M is not a unit (m is minutes; for months use days, e.g. +30d)');
  });

  it('names each attachment whose NAME after # is no plain file name, among the other bad values', () => {
    const error = usageError(() => checkFields('register', { due: 'soon', attach: ['ok.txt', '/dev/stdin#', 'b#x/y.log'] }, NOW));
    expect(error.details).toEqual([
      expect.stringMatching(/^--due: invalid date "soon"/),
      "--attach /dev/stdin#: no name after '#'",
      "--attach b#x/y.log: the name after '#' cannot hold '/' or '\\'",
    ]);
  });
});

describe('resolveFields', () => {
  const names: Record<string, Record<string, number | string>> = { site: { hq: 1 }, requester: { anna: 'u-anna' } };
  const lookups: Lookups = {
    async resolve(kind: LookupKind, value: string) {
      const id = names[kind]?.[value.toLowerCase()];
      if (id === undefined) throw new UsageError(`unknown ${kind} "${value}"`);
      return id;
    },
    async username(_kind, value) {
      if (value.toLowerCase() !== 'anna berg') throw new UsageError(`unknown user "${value}"`);
      return 'anna';
    },
    async entries() {
      return [];
    },
    async nameOf(kind: LookupKind, id: number | string) {
      return (await lookups.entryOf(kind, id))?.name;
    },
    async entryOf(kind: LookupKind, id: number | string) {
      const name = Object.entries(names[kind] ?? {}).find(([, v]) => v === id)?.[0];
      // People have usernames; here one person has one.
      return name === undefined ? undefined : { id, name, aliases: [], ...(id === 'u-anna' ? { username: 'aberg' } : {}) };
    },
  };

  it('turns names into IDs with labels, and files into uploads', async () => {
    const resolved = await resolveFields(checkFields('register', { site: 'HQ', requester: 'Anna', sla: '3', attach: ['f.txt'] }, NOW), lookups, {
      labels: true,
    });
    expect(resolved.form).toEqual({ fields: { SiteId: 1, CreatorId: 'u-anna', SLAId: 3 }, files: [{ path: 'f.txt', name: 'f.txt' }] });
    expect(resolved.labels).toEqual({ SiteId: 'hq', CreatorId: 'anna' });
    // The person as tkt names one, by their username: what the create summary shows.
    expect(resolved.people).toEqual({ CreatorId: 'anna (aberg)' });
  });

  it('asks the lookups for no names unless labels are wanted', async () => {
    const named: string[] = [];
    const counting: Lookups = { ...lookups, entryOf: async (kind, id) => (named.push(kind), lookups.entryOf(kind, id)) };
    const resolved = await resolveFields(checkFields('register', { site: 'HQ' }, NOW), counting, { labels: false });
    expect(resolved).toEqual({ form: { fields: { SiteId: 1 } }, labels: {}, people: {} });
    expect(named).toEqual([]);
  });

  it('sends the requester of the integration endpoint as the username of the user named', async () => {
    const resolved = await resolveFields(checkFields('new', { requester: 'Anna Berg' }, NOW), lookups, { labels: false });
    expect(resolved.form.fields).toEqual({ Requester: 'anna' });
    await expect(resolveFields(checkFields('new', { requester: 'nobody-known' }, NOW), lookups, { labels: false })).rejects.toThrow('unknown user');
  });

  it('lets an unknown name fail with the lookups error', async () => {
    await expect(resolveFields(checkFields('register', { site: 'Mars' }, NOW), lookups, { labels: false })).rejects.toThrow('unknown site "Mars"');
  });
});
