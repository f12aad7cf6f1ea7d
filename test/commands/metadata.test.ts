import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/metadata.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, sendsNothing, startFrontServer, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

const laptop = () => h.sandbox.state.tickets.find((t) => t.title === 'Laptop will not boot after update')!;

describe('tkt metadata', () => {
  it('shows every collection as a table, requesters included without an ID', async () => {
    const r = await h.context({ tty: true, size: { columns: 120 } });
    await run({ app: false }, r.ctx);
    const out = r.stdout();
    for (const name of [
      'groups',
      'levels',
      'priorities',
      'categories',
      'sub_categories',
      'items',
      'status',
      'clients',
      'sites',
      'departments',
      'technicians',
      'requesters',
    ]) {
      expect(out).toMatch(new RegExp(`^${name} \\(\\d+\\)$`, 'm'));
    }
    expect(out).toContain('Harbour Depot');
    expect(out).toContain('Anna Berg');
  });

  it('scopes to a ticket with an ID', async () => {
    const r = await h.context({ globals: { json: true } });
    await run({ id: String(laptop().id), app: false }, r.ctx);
    const body = JSON.parse(r.stdout()) as Record<string, { name?: string; fullName?: string }[]>;
    expect(body.requesters).toBeUndefined();
    expect(body.sub_categories?.map((s) => s.name)).toEqual(['Laptop', 'Printer']);
    expect(body.technicians?.map((t) => t.fullName)).not.toContain('Omar Haddad');
  });

  it('shows the app metadata with --app, and one collection as its array with --json', async () => {
    const app = await h.context({ tty: true });
    await run({ app: true }, app.ctx);
    expect(app.stdout()).toMatch(/^sites \(3\)$/m);
    expect(app.stdout()).not.toContain('requesters');

    const one = await h.context({ globals: { json: true } });
    await run({ app: false, collection: 'Sub-Categories' }, one.ctx);
    expect(JSON.parse(one.stdout())).toEqual(h.sandbox.state.lookups.subCategories.map((s) => expect.objectContaining({ id: s.id, name: s.name })));

    const table = await h.context({ tty: true });
    await run({ app: true, collection: 'status' }, table.ctx);
    expect(table.stdout()).toMatch(/^status \(7\)$/m);
    expect(table.stdout()).toContain('On Hold');
    expect(table.stdout()).not.toContain('Harbour');
  });

  it('prints plain data into a pipe, as tkt list does: a tab-separated line per item, its collection first, no headings or blank lines', async () => {
    const r = await h.context();
    await run({ app: true }, r.ctx);
    const lines = r.stdout().split('\n');

    expect(lines.pop()).toBe('');
    expect(lines).toContain('sites\t2\tHarbour Depot');
    expect(lines).toContain('status\t3\tOn Hold\t2');
    for (const line of lines) expect(line).toMatch(/^[a-z_]+\t./);
  });

  it('refuses an unknown collection or a bad combination before any request', async () => {
    const before = h.sandbox.stats.requests;
    const unknown = await h.cli(['metadata', '--collection', 'planets']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown collection "planets"');
    expect(unknown.stderr).toContain('sub_categories');
    // The one collection named in the singular is the one misspelt most: offered as the others are.
    const plural = await h.cli(['metadata', '--collection', 'statuses']);
    expect(plural.stderr).toMatch(/\nhint: did you mean status\?\n$/);
    expect((await h.cli(['metadata', String(laptop().id), '--collection', 'requesters'])).code).toBe(2);
    expect((await h.cli(['metadata', '--app', '--collection', 'items'])).code).toBe(2);
    expect((await h.cli(['metadata', '5', '--app'])).code).toBe(2);
    expect((await h.cli(['metadata', 'abc'])).code).toBe(2);
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('prints one ID a line with -q for a collection, as list -q does, so that a loop over them runs (README: Scripting)', async () => {
    const idsOf = async (...argv: string[]) => {
      const json = await h.cli(['metadata', ...argv, '--json']);
      return (JSON.parse(json.stdout) as { id: number | string }[]).map((item) => `${item.id}\n`).join('');
    };
    for (const argv of [
      ['--collection', 'technicians'],
      ['--collection', 'status'],
      ['--app', '--collection', 'sites'],
      [String(laptop().id), '--collection', 'items'],
    ]) {
      const quiet = await h.cli(['metadata', ...argv, '-q']);
      expect(quiet.code, argv.join(' ')).toBe(0);
      expect(quiet.stdout, argv.join(' ')).not.toBe('');
      expect(quiet.stdout, argv.join(' ')).toBe(await idsOf(...argv));
      expect(quiet.stderr).toBe('');
    }
  });

  it('prints the name with -q for an item without an ID, on one line whatever it holds', async () => {
    const server = await startFrontServer(h, (req, res) => {
      if (req.url !== '/api/TicketsApi/metadata') return false;
      const body = {
        status: [
          { status: 'Open', statusType: 1 },
          { id: 7, status: 'Closed' },
          { ID: 9, Status: 'Pending' },
        ],
        technicians: [
          { fullName: 'Anna\nBerg', userName: 'aberg' },
          { id: 'u-2', fullName: 'Omar Haddad' },
        ],
      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      return true;
    });
    try {
      const env = frontEnv(h, server);
      const status = await h.cli(['metadata', '--collection', 'status', '-q'], { env });
      expect([status.code, status.stdout]).toEqual([0, 'Open\n7\n9\n']);
      const technicians = await h.cli(['metadata', '--collection', 'technicians', '-q'], { env });
      expect([technicians.code, technicians.stdout]).toEqual([0, 'Anna Berg\nu-2\n']);
    } finally {
      await server.close();
    }
  });

  it('refuses -q without --collection before any request: the IDs are of one collection', async () => {
    for (const argv of [[], ['--app'], [String(laptop().id)]]) {
      const refused = await sendsNothing(h, () => h.cli(['metadata', ...argv, '-q']));
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr, argv.join(' ')).toMatch(/^error: -q needs one collection here\nhint: add --collection NAME: one of sites, departments, status, /);
    }
    const app = await h.cli(['metadata', '--app', '-q']);
    expect(app.stderr).not.toContain('technicians');
  });

  it("prints the raw body with --json, and exits 3 on the service's 400 for an unknown ticket", async () => {
    const result = await h.cli(['metadata', '987654', '--json']);
    // The service answers 400 for an unknown ticket's metadata (docs/service.md 4.13): still a missing ticket.
    expect(result.code).toBe(3);
    const raw = await h.cli(['metadata', '--json']);
    expect(raw.code).toBe(0);
    expect(Object.keys(JSON.parse(raw.stdout) as object)).toContain('requesters');
  });
});
