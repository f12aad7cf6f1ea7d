// The record printer's --fields and --columns names over pages (list --all): the rule of
// docs/cli.md section 9 whatever the first page holds. The commands' own cases, against the
// sandbox, are in test/commands/scripting.test.ts.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { createOutput } from '../../src/output/format.js';
import type { OutputFlags } from '../../src/output/types.js';
import { createTestIO } from '../helpers/io.js';

/** A record printer of items of unknown shape (as metadata's), in the format `flags` ask for. */
async function printer(flags: Partial<OutputFlags>) {
  const test = createTestIO();
  const output = await createOutput({ flags: { json: false, quiet: false, ...flags }, io: test.io, now: () => new Date(0) });
  const records = await output.records<unknown>({ prepare: (item) => item, columns: [], defaultColumns: () => ['id'], noun: 'sites' });
  return { ...test, records };
}

const SHAPINGS: Partial<OutputFlags>[] = [
  { fields: 'nosuch' },
  { columns: 'nosuch' },
  { csv: true, columns: 'nosuch' },
  { fields: 'nosuch', query: '[*]' },
  { fields: 'nosuch', query: 'length(@)' },
];
const flagOf = (flags: Partial<OutputFlags>) => (flags.fields === undefined ? '--columns' : '--fields');
const warningOf = (flags: Partial<OutputFlags>) =>
  `warning: ${flagOf(flags)}: nosuch is not a ${flags.fields === undefined ? 'column' : 'field'} tkt knows, and no sites came back to check it against\n`;

describe('--fields and --columns over pages', () => {
  it.each(SHAPINGS)('warns of the names it could not check when the pages held no object, as for an empty list: %o', async (flags) => {
    for (const pages of [[], [[]], [['Head Office', 'Remote']], [[], [42, null]]]) {
      const p = await printer(flags);
      for (const items of pages) await p.records.page(items);
      await p.records.end();
      expect(p.stderr(), JSON.stringify(pages)).toBe(warningOf(flags));
    }
  });

  it.each(SHAPINGS)('checks the names on the first page that holds an object, after pages that held none: %o', async (flags) => {
    const p = await printer(flags);
    await p.records.page([]);
    await p.records.page(['Head Office']);
    // "A field that no returned item has is an error naming the fields that exist."
    const error = await p.records.page([{ id: 1, title: 'Remote' }]).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(`${flagOf(flags)}: no such field "nosuch"`);
    expect(p.stderr()).toBe('');
  });

  it('says nothing of names the data checked', async () => {
    for (const flags of [{ fields: 'title' }, { columns: 'title' }, { csv: true, columns: 'title' }]) {
      const p = await printer(flags);
      await p.records.page(['Head Office']);
      await p.records.page([{ id: 1, title: 'Remote' }]);
      await p.records.end();
      expect(p.stderr(), JSON.stringify(flags)).toBe('');
    }
  });
});
