import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/commands/list.js';
import { displayWidth } from '../../src/output/width.js';
import { LIST_TYPES, kebabCase } from '../../src/listing/query.js';
import { PAGE_CONCURRENCY } from '../../src/listing/pages.js';
import { withIO, type Harness, type HarnessOptions } from '../helpers/harness.js';
import { InterruptedError } from '../../src/errors.js';
import { frontEnv, routeCount, sendsNothing, startFrontServer, startReshapingServer, useHarness } from '../helpers/sandbox-state.js';
import { manualClock } from '../helpers/manual-clock.js';
import { plans } from '../../src/api/plans.js';

let h: Harness;
// Enough tickets for several pages of every size used below.
useHarness({ sandbox: { seedTickets: 120 } }, (harness) => (h = harness));

const listRequests = () => routeCount(h, 'POST /api/TicketsApi');
const idLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);

/** What the service itself answers, as ticket IDs: the reference each command is checked against. */
async function serviceIds(table: Record<string, unknown>): Promise<number[]> {
  const { ctx } = await h.context();
  const body = (await (await ctx.api()).send(plans.listTickets(table))).body as Record<string, unknown>[];
  return body.map((item) => Number(item.ticketId ?? item.id));
}

describe('tkt list', () => {
  it('prints a table of the first page with the ticket columns', async () => {
    const r = await h.context({ tty: true, size: { columns: 200 } });
    await run({}, r.ctx);
    const lines = r.stdout().trimEnd().split('\n');
    expect(lines.join('\n')).toMatch(/ID.*TITLE.*STATUS.*PRIORITY.*REQUESTER.*ASSIGNEE.*DUE/);
    const ids = await serviceIds({ page: 1, length: 10 });
    expect(ids).toHaveLength(10);
    for (const id of ids) expect(r.stdout()).toMatch(new RegExp(`\\b${id}\\b`));
    // The page is full: the one line on stderr says how to see more.
    expect(r.stderr()).toBe('10 shown; more with --page 2, or --all\n');
  });

  it('sends every view as its list type, kebab-case or not', async () => {
    for (const type of LIST_TYPES) {
      const r = await h.context({ globals: { quiet: true } });
      await run({ view: kebabCase(type).toUpperCase(), limit: '50' }, r.ctx);
      expect(idLines(r.stdout()), type).toEqual(await serviceIds({ page: 1, length: 50, listType: type }));
    }
    const overdue = await h.context({ globals: { quiet: true } });
    await run({ view: 'MyOverdueTickets', limit: '50' }, overdue.ctx);
    const all = await h.context({ globals: { quiet: true } });
    await run({ view: 'all-tickets', limit: '50' }, all.ctx);
    // The views really filter: a sanity check that the comparison above can fail.
    expect(idLines(overdue.stdout())).not.toEqual(idLines(all.stdout()));
  });

  it('keeps the last value of a single-value option given twice, as gh does (README: Commands)', async () => {
    const last = await h.cli(['list', '-q', '--view', 'my-lunch', '--limit', '1', '--view', 'my-overdue-tickets', '--limit', '50']);
    expect(last.stderr).toBe('');
    expect(last.code).toBe(0);
    expect(idLines(last.stdout)).toEqual(await serviceIds({ page: 1, length: 50, listType: 'MyOverdueTickets' }));
    const lastUnknown = await sendsNothing(h, () => h.cli(['list', '--view', 'all-tickets', '--view', 'my-lunch']));
    expect(lastUnknown.code).toBe(2);
    expect(lastUnknown.stderr).toContain('error: unknown view "my-lunch"');
  });

  it('refuses an unknown view before any request, listing the valid ones', async () => {
    const result = await sendsNothing(h, () => h.cli(['list', '--view', 'my-lunch']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: unknown view "my-lunch"');
    expect(result.stderr).toContain('my-overdue-tickets');
    expect(result.stderr).toContain('my-tickets-onhold');
  });

  // A review found a misspelt view, sort field or status listed every valid one without saying which was meant.
  it('says which view, sort field or status a misspelt one means', async () => {
    const view = await sendsNothing(h, () => h.cli(['list', '--view', 'my-open-tiket']));
    expect([view.code, view.stderr]).toEqual([2, expect.stringContaining('hint: did you mean my-open-tickets?\n')]);
    const sort = await sendsNothing(h, () => h.cli(['list', '--sort', '-priorty']));
    expect([sort.code, sort.stderr]).toEqual([2, expect.stringContaining('hint: did you mean -priority?\n')]);
    // The statuses are read (or taken from the lookup cache) to know the names.
    const status = await h.cli(['list', '--status', 'Opne']);
    expect([status.code, status.stderr]).toEqual([2, expect.stringContaining('hint: did you mean Open? or see "tkt metadata --collection status"\n')]);
    // Nothing close: the list alone, as before.
    const far = await sendsNothing(h, () => h.cli(['list', '--view', 'zzzzzz']));
    expect(far.stderr).not.toContain('did you mean');
  });

  it('searches, narrowed by --in', async () => {
    const r = await h.context({ globals: { quiet: true } });
    await run({ search: 'printer', in: 'subject', limit: '100' }, r.ctx);
    const expected = h.sandbox.state.tickets.filter((t) => !t.isDeleted && /printer/i.test(t.title)).map((t) => t.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(idLines(r.stdout()).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
    expect(idLines(r.stdout())).toEqual(await serviceIds({ page: 1, length: 100, search: 'printer', filterBy: 'Subject' }));

    const byRequester = await h.context({ globals: { quiet: true } });
    await run({ search: 'anna', in: 'REQUESTER, ticket-id', limit: '100' }, byRequester.ctx);
    expect(idLines(byRequester.stdout())).toEqual(await serviceIds({ page: 1, length: 100, search: 'anna', filterBy: 'Requester,TicketId' }));
    expect(idLines(byRequester.stdout()).length).toBeGreaterThan(0);
  });

  it('sends --search in composed form (NFC): a decomposed "Müller", as pasted from macOS, finds what "Müller" does', async () => {
    const composed = await h.cli(['list', '-q', '--all', '--search', 'Müller']);
    expect(idLines(composed.stdout).length).toBeGreaterThan(0);
    const decomposed = await h.cli(['list', '-q', '--all', '--search', 'Mu\u0308ller']);
    expect(decomposed.code, decomposed.stderr).toBe(0);
    expect(decomposed.stdout).toBe(composed.stdout);
  });

  it('refuses a bad --in field, and --in without --search', async () => {
    const bad = await h.cli(['list', '--search', 'x', '--in', 'subject,color']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown --in field "color"');
    expect(bad.stderr).toContain('Subject, TicketId, Priority, Requester');
    expect((await h.cli(['list', '--in', 'subject'])).code).toBe(2);
    expect((await h.cli(['list', '--page', '0'])).code).toBe(2);
    expect((await h.cli(['list', '--limit', 'ten'])).code).toBe(2);
  });

  it('pages with --page and --limit', async () => {
    const first = await h.context({ globals: { quiet: true } });
    await run({ limit: '10' }, first.ctx);
    const second = await h.context({ globals: { quiet: true } });
    await run({ page: '2', limit: '5' }, second.ctx);
    expect(idLines(second.stdout())).toEqual(idLines(first.stdout()).slice(5, 10));
  });

  it('walks every page with --all, until a short page', async () => {
    const everything = await serviceIds({ page: 1, length: 100000, listType: 'AllTickets' });
    expect(everything.length).toBeGreaterThan(100);
    const before = listRequests();
    const r = await h.context({ globals: { quiet: true } });
    await run({ all: true, page: '1', limit: '40', view: 'all-tickets' }, r.ctx);
    expect(idLines(r.stdout())).toEqual(everything);
    const pages = Math.floor(everything.length / 40) + 1;
    // The pages after the short one were already in flight: each full page asks for one more.
    await vi.waitFor(() => expect(listRequests() - before).toBe(pages + PAGE_CONCURRENCY - 1));
  });

  it('walks from --page N with --all in pages of --limit; without --limit, --page with --all is exit 2, with or without a filter', async () => {
    const everything = await serviceIds({ page: 1, length: 100000, listType: 'AllTickets' });
    const fromPage3 = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '3', '--limit', '10', '-q']);
    expect(fromPage3.code).toBe(0);
    expect(idLines(fromPage3.stdout)).toEqual(everything.slice(20));
    for (const argv of [
      ['--all', '--page', '2'],
      ['--all', '--page', '2', '--status', 'open'],
    ]) {
      const refused = await sendsNothing(h, () => h.cli(['list', ...argv]));
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stderr, argv.join(' ')).toMatch(/^error: --page with --all needs --limit/m);
    }
  });

  it('refuses --limit with --all and no --page before any request: --all prints every ticket, so --limit would cap nothing (README: Finding tickets)', async () => {
    // `tkt list --all --sort due --limit 5 -q | tkt close -` would close the whole view, not 5.
    for (const [argv, filtered] of [
      [['--all', '--limit', '5'], false],
      [['--all', '--sort', 'due', '--limit', '5', '-q'], true],
      [['--all', '--status', 'open', '--limit', '5'], true],
      [['--requester', 'aberg', '--status', 'open', '--all', '--limit', '5'], true],
    ] as const) {
      const refused = await sendsNothing(h, () => h.cli(['list', ...argv]));
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stdout).toBe('');
      expect(refused.stderr, argv.join(' ')).toBe(
        'error: --all prints every ticket: with it, --limit only sizes the pages --page counts\n' +
          `hint: for 5 tickets drop --all: tkt list ... --limit 5${filtered ? ' (it reads as many pages as it takes)' : ''}; for every ticket drop --limit, or walk pages of 5 with --page 1\n`,
      );
    }
    // A --limit an alias gives is told so: the line under the error names the alias.
    expect((await h.cli(['alias', 'set', 'top', 'list --limit 5'])).code).toBe(0);
    const fromAlias = await sendsNothing(h, () => h.cli(['top', '--all']));
    expect(fromAlias.code).toBe(2);
    expect(fromAlias.stderr).toMatch(/^error: --all prints every ticket/);
    expect(fromAlias.stderr).toMatch(/\n\(from alias top: list --limit 5\)\n$/);
    expect((await h.cli(['alias', 'delete', 'top'])).code).toBe(0);

    // --all alone is every ticket; with --page, --limit counts the pages it starts after.
    const everything = await serviceIds({ page: 1, length: 100000, listType: 'AllTickets' });
    const all = await h.cli(['list', '--view', 'all-tickets', '--all', '-q']);
    expect([all.code, idLines(all.stdout)]).toEqual([0, everything]);
    const fromPage2 = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '2', '--limit', '50', '-q']);
    expect([fromPage2.code, idLines(fromPage2.stdout)]).toEqual([0, everything.slice(50)]);
    const inPagesOf50 = await h.cli(['list', '--view', 'all-tickets', '--all', '--page', '1', '--limit', '50', '-q']);
    expect([inPagesOf50.code, idLines(inPagesOf50.stdout)]).toEqual([0, everything]);
  });

  it('prints one JSON array of every item with --all --json', async () => {
    const { ctx } = await h.context();
    const reference = (await (await ctx.api()).send(plans.listTickets({ page: 1, length: 100000, listType: 'AllTickets' }))).body;
    const r = await h.context({ globals: { json: true } });
    await run({ all: true, view: 'AllTickets' }, r.ctx);
    expect(JSON.parse(r.stdout())).toEqual(reference);
  });

  /** Runs `list --all` in pages of 10, stopped (the first Ctrl-C) as its first page is written: what stdout got. */
  async function stoppedAfterFirstPage(runOptions: Omit<HarnessOptions, 'sandbox' | 'login'>): Promise<string> {
    const r = await h.context(runOptions);
    let written = '';
    const stdout = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString('utf8');
        r.abort.abort('SIGINT');
        done();
      },
    });
    const ctx = await withIO(r.ctx, { ...r.ctx.io, stdout });
    await expect(run({ all: true, page: '1', limit: '10', view: 'all-tickets' }, ctx)).rejects.toThrow(InterruptedError);
    return written;
  }

  it('closes the JSON array of --all when stopped part way: the items printed stay, stdout is one document', async () => {
    const { ctx } = await h.context();
    const firstPage = (await (await ctx.api()).send(plans.listTickets({ page: 1, length: 10, listType: 'AllTickets' }))).body as { ticketId: number }[];
    expect(JSON.parse(await stoppedAfterFirstPage({ globals: { json: true } }))).toEqual(firstPage);
    // --query with a projection streams page by page too.
    const ids = JSON.parse(await stoppedAfterFirstPage({ globals: { query: '[].ticketId' } })) as unknown;
    expect(ids).toEqual(firstPage.map((item) => item.ticketId));
    // Lines have nothing to close, and none is cut.
    const csv = await stoppedAfterFirstPage({ globals: { csv: true } });
    expect(csv.split('\r\n')).toHaveLength(1 + 10 + 1);
    expect(csv.endsWith('\r\n')).toBe(true);
    const tsv = await stoppedAfterFirstPage({});
    expect(tsv.split('\n').map((line) => line.split('\t')[0])).toEqual([...firstPage.map((item) => String(item.ticketId)), '']);
  });

  it('the first Ctrl-C gives up the wait before a retry (a 503 with Retry-After: 10): the page, the walk and the detail a filter reads alike', async () => {
    let busy = (req: { method?: string | undefined; url?: string | undefined }) => req.method === 'POST' && req.url === '/api/TicketsApi';
    const server = await startFrontServer(h, (req, res) => {
      if (!busy(req)) return false;
      res.writeHead(503, { 'retry-after': '10', 'content-type': 'text/plain' }).end('busy');
      return true;
    });
    try {
      const { ctx } = await h.context();
      const [first] = (await (await ctx.api()).send(plans.listTickets({ page: 1, length: 1 }))).body as { ticketId: number }[];
      const runs = [
        { options: { limit: '2' } },
        { options: { all: true, page: '1', limit: '2' } },
        // --site is not in a list item: each one's detail is read.
        {
          options: { site: 'Remote' },
          busy: (req: { method?: string | undefined; url?: string | undefined }) => req.url === `/api/TicketsApi/${first!.ticketId}`,
        },
      ];
      for (const { options, busy: which } of runs) {
        if (which !== undefined) busy = which;
        const clock = manualClock();
        const r = await h.context({ env: frontEnv(h, server), clock });
        const done = run(options, r.ctx);
        // The clock never moves: only giving the wait up ends the run.
        expect(await clock.nextSleep()).toBe(10_000);
        // The run's stop alone (the first Ctrl-C; src/cli-run.ts also gives up the requests in
        // flight of a read, which would end the filter's other detail reads, not this wait).
        r.abort.abort('SIGINT');
        await expect(done, JSON.stringify(options)).rejects.toThrow(InterruptedError);
        expect(r.stdout()).toBe('');
      }
    } finally {
      await server.close();
    }
  });

  it('prints nothing when stopped before the first page: no [] and no "no tickets"', async () => {
    for (const globals of [{ json: true }, { query: 'length(@)' }, {}]) {
      const r = await h.context({ globals });
      r.abort.abort('SIGINT');
      await expect(run({ all: true, view: 'all-tickets' }, r.ctx)).rejects.toThrow(InterruptedError);
      expect([r.stdout(), r.stderr()]).toEqual(['', '']);
    }
  });

  it('prints the service body as is with --json', async () => {
    const { ctx } = await h.context();
    const reference = (await (await ctx.api()).send(plans.listTickets({ page: 1, length: 10 }))).body;
    const r = await h.context({ globals: { json: true } });
    await run({}, r.ctx);
    expect(r.stdout()).toBe(JSON.stringify(reference, null, 2) + '\n');
  });

  it('says "no tickets" on stderr for an empty result, or prints [] with --json', async () => {
    const human = await h.context();
    await run({ search: 'zzz-nothing-matches' }, human.ctx);
    expect(human.stdout()).toBe('');
    expect(human.stderr()).toBe('no tickets\n');
    const json = await h.context({ globals: { json: true } });
    await run({ search: 'zzz-nothing-matches', all: true }, json.ctx);
    expect(JSON.parse(json.stdout())).toEqual([]);
  });

  it('lists by requester username, 25 a page, newest first', async () => {
    const aberg = h.sandbox.state.users.find((u) => u.username === 'aberg')!;
    const theirs = h.sandbox.state.tickets
      .filter((t) => t.creatorId === aberg.id && !t.isDeleted)
      .sort((a, b) => b.createdOn.localeCompare(a.createdOn) || b.id - a.id)
      .map((t) => t.id);
    expect(theirs.length).toBeGreaterThan(3);

    const firstPage = await h.context({ globals: { quiet: true } });
    await run({ requester: 'aberg' }, firstPage.ctx);
    expect(idLines(firstPage.stdout())).toEqual(theirs.slice(0, 25));

    const all = await h.context({ globals: { quiet: true } });
    await run({ requester: 'aberg', all: true }, all.ctx);
    expect(new Set(idLines(all.stdout()))).toEqual(new Set(theirs));
    expect(idLines(all.stdout())).toHaveLength(theirs.length);

    const mixed = await h.cli(['list', '--requester', 'aberg', '--view', 'all-tickets']);
    expect(mixed.code).toBe(2);
  });

  it('names people by requester as the plain list does: by their name alone', async () => {
    const byRequester = await h.cli(['list', '--requester', 'aberg', '--all']);
    const plain = await h.cli(['list', '--all', '--view', 'all-tickets']);
    const people = (stdout: string, id: string) =>
      stdout
        .split('\n')
        .find((line) => line.startsWith(`${id}\t`))
        ?.split('\t')
        .slice(4, 6);

    const ids = byRequester.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t')[0]!);
    expect(ids.length).toBeGreaterThan(3);
    for (const id of ids) expect(people(byRequester.stdout, id), `#${id}`).toEqual(people(plain.stdout, id));
    expect(byRequester.stdout).toContain('\tAnna Berg\t');
    expect(byRequester.stdout).not.toContain('(aberg)');
  });

  it('shows CREATED at a terminal as the local day, as DUE and --created-after read days; piped, the UTC timestamp', async () => {
    const ticket = h.sandbox.state.tickets[0]!;
    const [savedCreated, savedTZ] = [ticket.createdOn, process.env.TZ];
    // 19:05 on 26 November in Los Angeles.
    ticket.createdOn = '2026-11-27T03:05:54.000Z';
    process.env.TZ = 'America/Los_Angeles';
    try {
      const search = { search: String(ticket.id), in: 'ticketid' };
      const r = await h.context({ tty: true, size: { columns: 200 }, globals: { columns: 'id,created' } });
      await run(search, r.ctx);
      expect(r.stdout()).toMatch(new RegExp(`^ *${ticket.id} +2026-11-26$`, 'm'));
      const piped = await h.context({ globals: { columns: 'id,created' } });
      await run(search, piped.ctx);
      expect(piped.stdout()).toBe(`${ticket.id}\t2026-11-27T03:05:54.000Z\n`);
    } finally {
      ticket.createdOn = savedCreated;
      if (savedTZ === undefined) delete process.env.TZ;
      else process.env.TZ = savedTZ;
    }
  });

  it('fits the terminal width by truncating the title, never the ID', async () => {
    const ticket = h.sandbox.state.tickets[0]!;
    const original = ticket.title;
    ticket.title = 'A very long title '.repeat(12) + 'END';
    try {
      const r = await h.context({ tty: true });
      await run({ search: String(ticket.id), in: 'ticketid' }, r.ctx);
      const lines = r.stdout().trimEnd().split('\n');
      for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(80);
      expect(r.stdout()).toContain(`${ticket.id}`);
      expect(r.stdout()).toContain('…');
      expect(r.stdout()).not.toContain('END');
    } finally {
      ticket.title = original;
    }
  });

  it("prints one table over the pages of --all at a terminal: one header, the first page's widths, later cells fitted to them", async () => {
    // A title far wider than any of the first page's, on the third page.
    const laterId = (await serviceIds({ page: 1, length: 100, listType: 'AllTickets' }))[12];
    const ticket = h.sandbox.state.tickets.find((each) => each.id === laterId)!;
    const original = ticket.title;
    ticket.title = 'A very long title '.repeat(6) + 'END';
    try {
      const r = await h.context({ tty: true, size: { columns: 200 } });
      await run({ all: true, page: '1', limit: '5', view: 'all-tickets' }, r.ctx);
      const whole = await h.context({ globals: { quiet: true } });
      await run({ all: true, view: 'all-tickets' }, whole.ctx);
      const [header = '', ...rows] = r.stdout().trimEnd().split('\n');
      expect(rows).toHaveLength(idLines(whole.stdout()).length);
      expect(rows.filter((line) => /^ *ID +TITLE/.test(line))).toEqual([]);
      // Every row's status starts under STATUS: no column shifts between pages.
      const statusAt = header.indexOf('STATUS');
      for (const row of rows) expect(row.slice(statusAt - 2, statusAt), row).toBe('  ');
      const long = rows.find((row) => row.includes('A very long title'))!;
      expect(long).toContain('…');
      expect(long).not.toContain('END');
    } finally {
      ticket.title = original;
    }
  });

  it('gives the title the room at 80 columns and fits 50, leaving out the requester and assignee first', async () => {
    const narrow = await h.context({ tty: true });
    await run({ view: 'all-tickets' }, narrow.ctx);
    const [header = '', ...rows] = narrow.stdout().trimEnd().split('\n');
    for (const line of [header, ...rows]) expect(displayWidth(line)).toBeLessThanOrEqual(80);
    // The title column reaches from TITLE to the next header: 24 columns at least.
    expect(header).toMatch(/TITLE {21,}\S/);
    expect(header).toMatch(/ID +TITLE +STATUS +PRIORITY/);
    expect(header).not.toContain('REQUESTER');

    const fifty = await h.context({ tty: true, size: { columns: 50 } });
    await run({ view: 'all-tickets' }, fifty.ctx);
    const lines = fifty.stdout().trimEnd().split('\n');
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    expect(lines[0]).toMatch(/^ +ID +TITLE {21,}\S/);
    expect(lines[0]).not.toMatch(/REQUESTER|ASSIGNEE/);
  });

  it('names on stderr the columns a terminal narrower than 80 left out that 80 shows, once under the table; never piped or with --columns', async () => {
    const forty = await h.context({ tty: true, size: { columns: 40 } });
    await run({ view: 'all-tickets', limit: '5' }, forty.ctx);
    expect(forty.stdout()).not.toContain('not shown');
    // The requester, which 80 columns leave out too, is not among them; broken between words
    // for the terminal, which would break it inside one.
    expect(forty.stderr()).toMatch(/^\(not shown at this width: status,\npriority, assignee, due;\n--columns chooses\)\n/);

    const fifty = await h.context({ tty: true, size: { columns: 50 } });
    await run({ view: 'all-tickets', all: true }, fifty.ctx);
    expect(fifty.stderr()).toBe('(not shown at this width: priority, assignee, due;\n--columns chooses)\n');
    for (const line of fifty.stderr().split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(50);

    const wide = await h.context({ tty: true, size: { columns: 200 } });
    await run({ view: 'all-tickets', limit: '5' }, wide.ctx);
    expect(wide.stderr()).not.toContain('not shown');
    const chosen = await h.context({ tty: true, size: { columns: 40 }, globals: { columns: 'id,requester,assignee,title' } });
    await run({ view: 'all-tickets', limit: '5' }, chosen.ctx);
    expect(chosen.stderr()).not.toContain('not shown');
    const piped = await h.context({ size: { columns: 40 } });
    await run({ view: 'all-tickets', limit: '5' }, piped.ctx);
    expect(piped.stderr()).toBe('');
  });

  it('shows an empty cell as - at a terminal, so a row read aloud says whose name it is; piped TSV and CSV keep it empty', async () => {
    // Kofi Mensah asked; nobody is assigned.
    const search = { search: 'Projector in board room', in: 'subject' };
    const wide = await h.context({ tty: true, size: { columns: 200 } });
    await run(search, wide.ctx);
    expect(wide.stdout()).toMatch(/Projector in board room +Open +\S+ +Kofi Mensah +- +\d+\S* overdue\n/);
    const piped = await h.context();
    await run(search, piped.ctx);
    expect(piped.stdout()).toMatch(/\tKofi Mensah\t\t/);
    const csv = await h.context({ globals: { csv: true } });
    await run(search, csv.ctx);
    expect(csv.stdout()).toMatch(/,Kofi Mensah,,/);
  });

  it('keeps every column named with --columns at a narrow terminal, cut rather than left out', async () => {
    const narrow = await h.context({ tty: true, size: { columns: 40 }, globals: { columns: 'id,requester,assignee,title' } });
    await run({ view: 'all-tickets' }, narrow.ctx);
    expect(narrow.stdout().split('\n')[0]).toMatch(/^ +ID +REQUEST\S* +ASSIGNEE +TITLE$/);
  });

  it('shows due dates relative to now, overdue ones in red', async () => {
    const overdue = h.sandbox.state.tickets.find((t) => t.title === 'Projector in board room')!;
    const r = await h.context({ tty: true });
    r.ctx.io.stdoutColor = true;
    await run({ search: 'Projector in board room', in: 'subject' }, r.ctx);
    expect(overdue.dueDate).not.toBeNull();
    expect(r.stdout()).toMatch(/\u001b\[31m[^\u001b]*overdue\u001b\[39m/);
  });

  it('says at a terminal how to see more when the page is full, and only then', async () => {
    const full = await h.context({ tty: true });
    await run({ view: 'all-tickets', limit: '5' }, full.ctx);
    // At 80 columns the requester gives way, as the layout has it: nothing is said of it.
    expect(full.stderr()).toBe('5 shown; more with --page 2, or --all\n');
    const second = await h.context({ tty: true });
    await run({ view: 'all-tickets', limit: '5', page: '2' }, second.ctx);
    expect(second.stderr()).toContain('more with --page 3, or --all');
    // The last, short page; piped output; --all: no such line.
    const last = await h.context({ tty: true });
    await run({ view: 'all-tickets', limit: '5000' }, last.ctx);
    expect(last.stderr()).not.toContain('more with');
    const piped = await h.context();
    await run({ view: 'all-tickets', limit: '5' }, piped.ctx);
    expect(piped.stderr()).toBe('');
  });

  it('tells the person at the keyboard that a pipe got one page (stdout piped, stderr a terminal), in every format, -q too; stdout as before', async () => {
    const note = '5 shown; more with --page 2, or --all\n';
    /** stdout a pipe; stderr a terminal or not. */
    const piped = async (globals: HarnessOptions['globals'], stderrIsTTY: boolean, options: Parameters<typeof run>[0] = {}) => {
      const r = await h.context({ tty: true, globals });
      await run({ view: 'all-tickets', limit: '5', ...options }, await withIO(r.ctx, { ...r.ctx.io, stdoutIsTTY: false, stderrIsTTY }));
      return { stdout: r.stdout(), stderr: r.stderr() };
    };
    // `tkt list -q | tkt close -` closes one page: the terminal is told so, on one line.
    for (const globals of [{}, { quiet: true }, { json: true }, { csv: true }, { query: '[].ticketId', raw: true }]) {
      const told = await piped(globals, true);
      expect(told.stderr, JSON.stringify(globals)).toBe(note);
      // stdout is what a pipe gets without a terminal anywhere (docs/cli.md, scripting output).
      const script = await piped(globals, false);
      expect(script.stderr, JSON.stringify(globals)).toBe('');
      expect(told.stdout, JSON.stringify(globals)).toBe(script.stdout);
    }
    expect((await piped({ quiet: true }, true, { page: '3' })).stderr).toBe('5 shown; more with --page 4, or --all\n');
    // --all, and a page that holds the rest: nothing to tell.
    expect((await piped({ quiet: true }, true, { limit: '5000' })).stderr).toBe('');
    const all = await piped({ quiet: true }, true, { limit: undefined, all: true });
    expect(all.stderr).toBe('');
    expect(idLines(all.stdout)).toHaveLength(h.sandbox.state.tickets.length);
  });

  it('never calls a resolved or closed ticket overdue, in list, list --overdue and show, and shows its due as a plain date', async () => {
    // The state is read again for each edit: reading it is what tells the sandbox's caches.
    const settled = () => h.sandbox.state.tickets.find((t) => t.title === 'Wi-Fi drops in meeting room B')!;
    const original = settled().dueDate;
    const day = (date: Date) => `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    try {
      // Past or still ahead, the due date of a ticket that is done is only a date: not "2d ago", not "in 23h".
      for (const offset of [-2 * 24 * 3600 * 1000 - 3600 * 1000, 23 * 3600 * 1000 + 60_000]) {
        const due = new Date(Date.now() + offset);
        settled().dueDate = due.toISOString();
        const listed = await h.context({ tty: true, globals: { columns: 'id,status,due' } });
        await run({ search: 'Wi-Fi drops in meeting room B', in: 'subject' }, listed.ctx);
        expect(listed.stdout()).toMatch(new RegExp(`Resolved\\s+${day(due)}\\n`));
        expect(listed.stdout()).not.toMatch(/overdue|ago|in \d/);
        const shown = await h.cli(['show', String(settled().id)]);
        expect(shown.stdout).toMatch(new RegExp(`Due:\\s+${day(due)} \\d\\d:\\d\\d\\n`));
      }
      const overdueOnly = await h.cli(['list', '--view', 'all-tickets', '--all', '--overdue', '-q']);
      expect(idLines(overdueOnly.stdout)).not.toContain(settled().id);
    } finally {
      settled().dueDate = original;
    }
  });

  it('reads a due date at today\'s local midnight, passed, as overdue in list and show, as the service flags it, never "today"', async () => {
    const ticket = () => h.sandbox.state.tickets.find((t) => !t.isDeleted && t.ticketStatusId === 1)!;
    const original = ticket().dueDate;
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    try {
      ticket().dueDate = midnight.toISOString();
      const id = ticket().id;
      const json = await h.cli(['list', '--view', 'all-tickets', '--all', '--json']);
      expect((JSON.parse(json.stdout) as { ticketId: number; isOverdue: boolean }[]).find((item) => item.ticketId === id)!.isOverdue).toBe(true);
      const listed = await h.context({ tty: true, globals: { columns: 'id,due' } });
      await run({ view: 'all-tickets', all: true }, listed.ctx);
      expect(listed.stdout()).toMatch(new RegExp(`^ *${id} +(<1m|\\d+[mhd]) overdue *$`, 'm'));
      const shown = await h.cli(['show', String(id)]);
      expect(shown.stdout).toMatch(/Due: +\d{4}-\d\d-\d\d 00:00 \((<1m|\d+[mhd]) overdue\)\n/);
      expect(shown.stdout + listed.stdout()).not.toContain('today');
    } finally {
      ticket().dueDate = original;
    }
  });

  it('escapes control characters of a title in the table and keeps them in --json', async () => {
    const ticket = h.sandbox.state.tickets[1]!;
    const original = ticket.title;
    const evil = 'Evil \u001b]0;owned\u0007 \u001b[2J\rtitle';
    ticket.title = evil;
    try {
      const human = await h.context();
      await run({ search: String(ticket.id), in: 'TicketId' }, human.ctx);
      expect(human.stdout()).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
      expect(human.stdout()).toContain('Evil ^[]0;owned^G ^[[2J^Mtitle');

      const json = await h.context({ globals: { json: true } });
      await run({ search: String(ticket.id), in: 'TicketId' }, json.ctx);
      const items = JSON.parse(json.stdout()) as Record<string, unknown>[];
      expect(items.map((item) => item.subject ?? item.title)).toContain(evil);
    } finally {
      ticket.title = original;
    }
  });

  it('has --help with examples', async () => {
    const result = await h.cli(['list', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('$ tkt list --view my-overdue-tickets');
    expect(result.stdout).toContain('my-completed-tasks');
  });

  it("says in --sort's help that it orders the whole view before --limit and --page pick from it", async () => {
    const help = (await h.cli(['list', '--help'])).stdout;
    const sortHelp = /^ {2}--sort <field> +([\s\S]*?)\n {2}--/m.exec(help)?.[1]?.replace(/\s+/g, ' ');
    expect(sortHelp).toMatch(/^order the whole view \(or every match\) by /);
    expect(sortHelp).toContain('then print the --limit tickets of --page');
  });
});

describe('tkt list over list items whose ID member has a name tkt does not know', () => {
  /** The sandbox's items, their ticketId renamed TicketNo. */
  const renamed = ({ ticketId, ...rest }: Record<string, unknown>) => ({ TicketNo: ticketId, ...rest });
  const noId =
    /^error: a ticket in the service's list has no ID tkt knows: its members are TicketNo, subject, status, priority, requester, assignee, group, dueDate, createdOn, isRead, isOverdue\nhint: tkt reads a ticket's ID from ticketId, id, ticketNumber \(any case\); "tkt list --json" shows the list as the service sent it\n$/;

  it('fails with exit 1 naming the members the item has, rather than print blank IDs or no IDs at all; --json prints the body as sent', async () => {
    const server = await startReshapingServer(h, renamed);
    try {
      const env = frontEnv(h, server);
      // -q printed nothing with exit 0: `tkt list -q | tkt close -` silently closed nothing.
      for (const argv of [['-q'], [], ['--csv'], ['-q', '--all'], ['--sort', 'due']]) {
        const result = await h.cli(['list', ...argv], { env });
        expect(result.code, argv.join(' ')).toBe(1);
        expect(result.stdout, argv.join(' ')).toBe('');
        expect(result.stderr, argv.join(' ')).toMatch(noId);
      }
      const terminal = await h.context({ env, tty: true, size: { columns: 200 } });
      await expect(run({}, terminal.ctx)).rejects.toThrow(/has no ID tkt knows/);
      expect(terminal.stdout()).toBe('');
      // The service's own body, and the members picked by name, still print.
      const json = await h.cli(['--json', 'list', '--limit', '3'], { env });
      expect(json.code, json.stderr).toBe(0);
      const items = JSON.parse(json.stdout) as { TicketNo: number }[];
      expect(items.map((item) => typeof item.TicketNo)).toEqual(['number', 'number', 'number']);
      const columns = await h.cli(['list', '--limit', '3', '--columns', 'TicketNo,subject'], { env });
      expect(columns.code, columns.stderr).toBe(0);
      expect(columns.stdout.split('\n')[0]).toMatch(new RegExp(`^${items[0]!.TicketNo}\t`));
    } finally {
      await server.close();
    }
  });
});

describe('tkt list against a service with another item shape', () => {
  let server: Server;
  let url: string;
  let items: unknown[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST' && req.url === '/api/TicketsApi') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(items));
        } else {
          res.writeHead(404).end();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const context = (columns?: number) => h.context({ env: { TKT_URL: url, TKT_TOKEN: 'opaque-token' }, tty: true, size: { columns } });

  it('reads PascalCase fields and nested objects', async () => {
    items = [
      {
        TicketId: 7001,
        Subject: 'Pascal printer',
        Status: { Id: 1, Status: 'Waiting on vendor' },
        Priority: { Id: 4, Priority: 'Urgent' },
        Requester: { Id: 'u9', FullName: 'Zed Zulu', UserName: 'zzulu' },
        AssignedTo: 'Tom Tech',
        DueDate: new Date(Date.now() + 3 * 3600_000 + 60_000).toISOString(),
      },
    ];
    const r = await context(200);
    await run({}, r.ctx);
    const out = r.stdout();
    for (const text of ['7001', 'Pascal printer', 'Waiting on vendor', 'Urgent', 'Zed Zulu', 'Tom Tech', 'in 3h']) expect(out).toContain(text);
    // A person is named as the plain list names them: by their name alone.
    expect(out).not.toContain('zzulu');
  });

  it('shows whatever scalar fields exist when no known field is there', async () => {
    items = [{ Ref: 'X-1', Headline: 'Unknown shape', Open: true, Nested: { a: 1 } }];
    const r = await context();
    await run({}, r.ctx);
    expect(r.stdout()).toMatch(/REF.*HEADLINE.*OPEN/);
    expect(r.stdout()).toContain('X-1');
    expect(r.stdout()).toContain('Unknown shape');
    expect(r.stdout()).not.toContain('NESTED');
  });

  it('prints nothing but a note for an empty list', async () => {
    items = [];
    const r = await context();
    await run({}, r.ctx);
    expect(r.stdout()).toBe('');
    expect(r.stderr()).toBe('no tickets\n');
  });
});
