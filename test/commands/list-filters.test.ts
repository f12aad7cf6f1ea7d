// tkt list filters and --sort (docs/cli.md section 10) against the sandbox: each filter alone and
// combined, --limit counting matches across pages, --all, and the paging that carries them.
import { describe, expect, it } from 'vitest';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import { PAGE_CONCURRENCY } from '../../src/listing/pages.js';
import { startServer } from '../api/server.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, keepOnly, routeCount, sendsNothing, startReshapingServer, useHarness, userId } from '../helpers/sandbox-state.js';
import { plans } from '../../src/api/plans.js';
import { useTimeZone } from '../helpers/time-zone.js';

let h: Harness;
// 400 tickets: several pages of 100 for every filter, with sparse matches for the rare ones.
useHarness({ sandbox: { seedTickets: 400 } }, (harness) => (h = harness));

const COMPLETED = new Set([6, 7]);
const idLines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map(Number);

/** The all-tickets view in the service's order, as sandbox tickets: the reference every filter is checked against. */
async function listed(): Promise<SandboxTicket[]> {
  const { ctx } = await h.context();
  const body = (await (await ctx.api()).send(plans.listTickets({ page: 1, length: 100000, listType: 'AllTickets' }))).body as { ticketId: number }[];
  const byId = new Map(h.sandbox.state.tickets.map((t) => [t.id, t]));
  return body.map((item) => byId.get(item.ticketId)!);
}

async function ids(...argv: string[]): Promise<number[]> {
  const result = await h.cli(['list', '--view', 'all-tickets', '-q', ...argv]);
  expect(result.code, result.stderr).toBe(0);
  return idLines(result.stdout);
}

const overdue = (t: SandboxTicket) => t.dueDate !== null && t.dueDate < new Date().toISOString() && !COMPLETED.has(t.ticketStatusId);
const idsOf = (tickets: SandboxTicket[]) => tickets.map((t) => t.id);

describe('tkt list filters', () => {
  it('filters by each lookup, by name or ID, over every page with --all', async () => {
    const all = await listed();
    const anna = userId(h, 'aberg');
    const tech = all.find((t) => t.assignedUser !== null)!.assignedUser!;
    const techName = h.sandbox.state.users.find((u) => u.id === tech)!;
    const cases: [string[], (t: SandboxTicket) => boolean][] = [
      [['--status', 'open'], (t) => t.ticketStatusId === 1],
      [['--status', '3'], (t) => t.ticketStatusId === 3],
      [['--priority', 'CRIT'], (t) => t.ticketPriorityId === 4],
      [['--group', '2'], (t) => t.groupId === 2],
      [['--assignee', techName.username], (t) => t.assignedUser === tech],
      [['--assignee', `${techName.firstName} ${techName.lastName}`], (t) => t.assignedUser === tech],
      [['--assignee', 'none'], (t) => t.assignedUser === null],
      [['--site', '2'], (t) => t.siteId === 2],
      [['--department', '1'], (t) => t.departmentId === 1],
    ];
    expect(anna).toBeDefined();
    for (const [argv, predicate] of cases) {
      const expected = idsOf(all.filter(predicate));
      expect(expected.length, argv.join(' ')).toBeGreaterThan(0);
      expect(expected.length, argv.join(' ')).toBeLessThan(all.length);
      expect(await ids('--all', ...argv), argv.join(' ')).toEqual(expected);
    }
  });

  it('filters by dates and --overdue', async () => {
    const all = await listed();
    const cutoff = new Date(Date.now() + 5 * 24 * 3600 * 1000);
    const created = all.map((t) => t.createdOn).sort()[Math.floor(all.length / 2)]!;
    const cases: [string[], (t: SandboxTicket) => boolean][] = [
      [['--overdue'], overdue],
      [['--due-before', cutoff.toISOString()], (t) => t.dueDate !== null && new Date(t.dueDate) < cutoff],
      [['--due-after', cutoff.toISOString()], (t) => t.dueDate !== null && new Date(t.dueDate) > cutoff],
      [['--created-after', created], (t) => new Date(t.createdOn) > new Date(created)],
      [['--created-before', created], (t) => new Date(t.createdOn) < new Date(created)],
    ];
    for (const [argv, predicate] of cases) {
      const expected = idsOf(all.filter(predicate));
      expect(expected.length, argv.join(' ')).toBeGreaterThan(0);
      expect(expected.length, argv.join(' ')).toBeLessThan(all.length);
      expect(await ids('--all', ...argv), argv.join(' ')).toEqual(expected);
    }
    // Relative WHEN counts back from now: nothing in the sandbox is created in the future.
    expect(await ids('--all', '--created-after', '+1d')).toEqual([]);
    expect(await ids('--all', '--created-after', '-100000d')).toEqual(idsOf(all));
    expect(await ids('--all', '--created-before', '+1d')).toEqual(idsOf(all));
    expect(await ids('--all', '--created-before', '-100000d')).toEqual([]);
  });

  it('bounds a date from both sides, each end left out; a ticket without a due date is in no due range', async () => {
    const all = await listed();
    const byCreated = all.map((t) => t.createdOn).sort();
    const [from, to] = [byCreated[100]!, byCreated[200]!];
    const inRange = (t: SandboxTicket) => t.createdOn > from && t.createdOn < to;
    expect(all.filter(inRange).length).toBe(99);
    expect(await ids('--all', '--created-after', from, '--created-before', to)).toEqual(idsOf(all.filter(inRange)));
    // With another filter, all must match; relative WHEN on both sides.
    const open = (t: SandboxTicket) => t.ticketStatusId === 1;
    expect(await ids('--all', '--status', 'open', '--created-after', from, '--created-before', to)).toEqual(idsOf(all.filter((t) => inRange(t) && open(t))));
    const [weekAgo, inAWeek] = [Date.now() - 7 * 86_400_000, Date.now() + 7 * 86_400_000];
    const week = all.filter((t) => t.dueDate !== null && Date.parse(t.dueDate) > weekAgo && Date.parse(t.dueDate) < inAWeek);
    expect(week.length).toBeGreaterThan(0);
    expect(await ids('--all', '--due-after', '-7d', '--due-before', '+7d')).toEqual(idsOf(week));
    // --due-after leaves out the tickets with no due date, as --due-before does: together they are every ticket that has one.
    const undated = all.filter((t) => t.dueDate === null);
    expect(undated.length).toBeGreaterThan(0);
    expect(await ids('--all', '--due-after', '-100000d')).toEqual(idsOf(all.filter((t) => t.dueDate !== null)));
    expect(await ids('--all', '--due-after', '-100000d', '--due-before', '+100000d')).toEqual(idsOf(all.filter((t) => t.dueDate !== null)));
  });

  it('combines filters, and --limit counts matches across pages', async () => {
    const all = await listed();
    const matches = idsOf(all.filter((t) => t.ticketStatusId === 1 && t.assignedUser === null));
    expect(matches.length).toBeGreaterThan(12);
    // Matches spread past the first page of 100.
    expect(all.findIndex((t) => t.id === matches[11])).toBeGreaterThan(100);
    expect(await ids('--all', '--status', 'Open', '--assignee', 'none')).toEqual(matches);
    const before = routeCount(h, 'POST /api/TicketsApi');
    expect(await ids('--status', 'Open', '--assignee', 'none', '--limit', '12')).toEqual(matches.slice(0, 12));
    // Not every page: the walk stops once it has 12.
    expect(routeCount(h, 'POST /api/TicketsApi') - before).toBeLessThan(Math.ceil(all.length / 100) + 4);
    expect(await ids('--status', 'Open', '--assignee', 'none', '--limit', '5', '--page', '2')).toEqual(matches.slice(5, 10));
    // Matches enough in the first page: one request, not a window's worth.
    const open = idsOf(all.filter((t) => t.ticketStatusId === 1));
    expect(all.findIndex((t) => t.id === open[2])).toBeLessThan(100);
    const beforeOne = routeCount(h, 'POST /api/TicketsApi');
    expect(await ids('--status', 'Open', '--limit', '3')).toEqual(open.slice(0, 3));
    expect(routeCount(h, 'POST /api/TicketsApi') - beforeOne).toBe(1);
    expect(await ids('--status', 'Open', '--assignee', 'none')).toEqual(matches.slice(0, 10));
    // --all is every match, as it is every ticket without a filter; --limit then sizes the pages --page counts.
    expect(await ids('--all', '--status', 'Open', '--assignee', 'none', '--limit', '3', '--page', '1')).toEqual(matches);
    expect(await ids('--all', '--status', 'Open', '--assignee', 'none', '--limit', '5', '--page', '2')).toEqual(matches.slice(5));
    const three = all.filter((t) => t.ticketStatusId === 1 && t.ticketPriorityId === 3 && overdue(t));
    expect(await ids('--all', '--status', 'open', '--priority', 'high', '--overdue')).toEqual(idsOf(three));
  });

  it('resolves @me, and filters list --requester pages too', async () => {
    const all = await listed();
    const admin = userId(h, 'admin');
    const mine = idsOf(all.filter((t) => t.assignedUser === admin));
    expect(await ids('--all', '--assignee', '@me')).toEqual(mine);
    const aberg = userId(h, 'aberg');
    const theirs = h.sandbox.state.tickets
      .filter((t) => t.creatorId === aberg && !t.isDeleted)
      .sort((a, b) => b.createdOn.localeCompare(a.createdOn) || b.id - a.id);
    const open = idsOf(theirs.filter((t) => t.ticketStatusId === 1));
    expect(open.length).toBeGreaterThan(0);
    const result = await h.cli(['list', '--requester', 'aberg', '--all', '--status', 'open', '-q']);
    expect(idLines(result.stdout)).toEqual(open);
    // By full name or user ID too, as everywhere a person is taken.
    expect(idLines((await h.cli(['list', '--requester', 'Anna Berg', '--all', '--status', 'open', '-q'])).stdout)).toEqual(open);
    expect(idLines((await h.cli(['list', '--requester', aberg, '--all', '--status', 'open', '-q'])).stdout)).toEqual(open);
    // Nobody by that name: exit 2 with candidates, not "no tickets".
    const sent = routeCount(h, 'POST /api/TicketsApi/list');
    const unknown = await h.cli(['list', '--requester', 'Anna Bergman-Smith']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown user "Anna Bergman-Smith" for --requester');
    expect(routeCount(h, 'POST /api/TicketsApi/list')).toBe(sent);
  });

  it('a person typed as "me" offers @me, wherever a person is taken (--assignee, --requester, --by)', async () => {
    for (const argv of [
      ['list', '--assignee', 'me'],
      ['list', '--requester', 'ME'],
      ['resolve', '1001', '--details', 'x', '--by', 'me'],
    ]) {
      const result = await h.cli(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(/hint: did you mean @me\? or see "tkt metadata --collection (technicians|requesters)"\n/);
    }
    expect(routeCount(h, 'POST /api/TicketsApi/resolve/{id}')).toBe(0);
    // A name that is not near @me keeps the plain hint.
    const other = await h.cli(['list', '--assignee', 'mo']);
    expect(other.stderr).toContain('hint: see "tkt metadata --collection technicians"\n');
  });

  it('sorts the whole view, then prints the --limit tickets --page names from the sorted list', async () => {
    // --sort due --limit 5 is the 5 tickets due first, not 5 tickets sorted (a fresh user read it so, twice).
    const all = await listed();
    const byId = idsOf(all).sort((a, b) => a - b);
    expect(await ids('--sort', 'id', '--limit', '3')).toEqual(byId.slice(0, 3));
    expect(await ids('--sort', 'id', '--limit', '3', '--page', '2')).toEqual(byId.slice(3, 6));
    expect(await ids('--sort', '-id')).toEqual([...byId].reverse().slice(0, 10));
    const open = all.filter((t) => t.ticketStatusId === 1);
    const byDue = [...open].sort((a, b) => (a.dueDate === null ? 1 : b.dueDate === null ? -1 : a.dueDate.localeCompare(b.dueDate)));
    expect(await ids('--status', 'open', '--sort', 'due', '--limit', '5')).toEqual(idsOf(byDue).slice(0, 5));
    expect(await ids('--status', 'open', '--sort', 'due', '--limit', '5', '--page', '3')).toEqual(idsOf(byDue).slice(10, 15));
    // --all prints every sorted ticket from the --page on, as it does without --sort.
    expect(await ids('--all', '--sort', 'id', '--limit', '100', '--page', '4')).toEqual(byId.slice(300));
  });

  it('sorts by each field, ascending and descending, missing values last', async () => {
    const all = await listed();
    const open = all.filter((t) => t.ticketStatusId === 1);
    const byDue = [...open].sort((a, b) => (a.dueDate === null ? 1 : b.dueDate === null ? -1 : a.dueDate.localeCompare(b.dueDate)));
    expect(await ids('--all', '--status', 'open', '--sort', 'due')).toEqual(idsOf(byDue));
    expect(await ids('--all', '--status', 'open', '--sort', '-id')).toEqual(idsOf(open).sort((a, b) => b - a));
    const byCreated = [...open].sort((a, b) => a.createdOn.localeCompare(b.createdOn));
    expect(await ids('--all', '--status', 'open', '--sort', 'created')).toEqual(idsOf(byCreated));
    const byPriority = await ids('--all', '--status', 'open', '--sort', '-priority');
    const priorities = byPriority.map((id) => all.find((t) => t.id === id)!.ticketPriorityId ?? 0);
    expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
    const byStatus = await ids('--all', '--page', '1', '--limit', '50', '--sort', 'status');
    const statuses = byStatus.map((id) => all.find((t) => t.id === id)!.ticketStatusId);
    expect(statuses).toEqual([...statuses].sort((a, b) => a - b));
    expect(new Set(statuses).size).toBeGreaterThan(2);
  });

  it('refuses bad dates, sort fields and unknown names with exit 2', async () => {
    for (const argv of [
      ['--due-before', 'soon'],
      ['--created-after', '2026-13-01'],
      ['--due-after', 'soon'],
      ['--created-before', '2026-02-30'],
      ['--sort', 'colour'],
      ['--refresh', '--status', 'open', '--limit', 'ten'],
      ['--refresh', '--status', 'open', '--all', '--page', '2'],
    ]) {
      const result = await sendsNothing(h, () => h.cli(['list', ...argv]));
      expect(result.code, argv.join(' ')).toBe(2);
      // A date filter names itself and the value.
      if (/^--(due|created)-/.test(argv[0]!)) expect(result.stderr).toContain(`error: ${argv[0]}: invalid date ${JSON.stringify(argv[1])}`);
    }
    for (const [flag, value, said] of [
      ['--due-after', '', 'is empty'],
      ['--created-before', ' ', 'is empty (only whitespace)'],
    ]) {
      const result = await sendsNothing(h, () => h.cli(['list', flag!, value!]));
      expect(result.code, flag).toBe(2);
      expect(result.stderr).toBe(`error: ${flag} ${said}\n`);
    }
    const unknown = await h.cli(['list', '--status', 'Lunch']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown status "Lunch" for --status');
    expect(routeCount(h, 'POST /api/TicketsApi')).toBeGreaterThan(0);
  });
});

const isTicketRead = (request: { method: string; url: string }) => request.method === 'GET' && /^\/api\/TicketsApi\/\d+$/.test(request.url);

/**
 * `tkt list --view all-tickets -q ARGV` through a service whose list items are as `reshape` makes
 * them: the IDs printed, and how many ticket details the run read.
 */
async function reshapedIds(reshape: (item: Record<string, unknown>) => Record<string, unknown>, ...argv: string[]) {
  const server = await startReshapingServer(h, reshape);
  try {
    const result = await h.cli(['list', '--view', 'all-tickets', '-q', ...argv], { env: frontEnv(h, server) });
    expect(result.code, result.stderr).toBe(0);
    return { ids: idLines(result.stdout), reads: server.requests.filter(isTicketRead).length };
  } finally {
    await server.close();
  }
}

describe("tkt list over list items that leave members out (the spec does not give a list item's members)", () => {
  const lean = keepOnly('ticketId', 'subject', 'status');

  it("judges the date filters and --overdue on the ticket's detail, one read per ticket whose item lacks the date", async () => {
    const all = await listed();
    const cutoff = new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString();
    const created = all.map((t) => t.createdOn).sort()[Math.floor(all.length / 2)]!;
    // The open tickets alone (the items say their status): a read for each of them, none for the others.
    const open = all.filter((t) => t.ticketStatusId === 1);
    for (const argv of [
      ['--due-before', cutoff],
      ['--due-after', cutoff],
      ['--created-after', created],
      ['--created-before', created],
    ]) {
      const expected = await ids('--all', '--status', 'open', ...argv);
      expect(expected.length, argv.join(' ')).toBeGreaterThan(0);
      expect(expected.length, argv.join(' ')).toBeLessThan(open.length);
      const { ids: shown, reads } = await reshapedIds(lean, '--all', '--status', 'open', ...argv);
      expect(shown, argv.join(' ')).toEqual(expected);
      expect(reads, argv.join(' ')).toBe(open.length);
    }
    // A resolved or closed ticket is never overdue: its status in the item says enough.
    const expected = await ids('--all', '--overdue');
    expect(expected.length).toBeGreaterThan(0);
    const { ids: shown, reads } = await reshapedIds(lean, '--all', '--overdue');
    expect(shown).toEqual(expected);
    expect(reads).toBe(all.filter((t) => !COMPLETED.has(t.ticketStatusId)).length);
  });

  it('--overdue reads the detail of an item past due that does not say its status, and of none other', async () => {
    const all = await listed();
    const expected = await ids('--all', '--overdue');
    const { ids: shown, reads } = await reshapedIds(keepOnly('ticketId', 'subject', 'dueDate'), '--all', '--overdue');
    expect(shown).toEqual(expected);
    // A ticket due later, or never, is not overdue whatever its status; one past due may be settled.
    const pastDue = all.filter((t) => t.dueDate !== null && Date.parse(t.dueDate) < Date.now());
    expect(pastDue.length).toBeLessThan(all.length);
    expect(reads).toBe(pastDue.length);
  });

  it('sorts by the value of the detail of each ticket whose item lacks the field', async () => {
    const open = (await listed()).filter((t) => t.ticketStatusId === 1);
    for (const sort of ['due', '-priority', 'created']) {
      const expected = await ids('--status', 'open', '--sort', sort, '--limit', '7');
      const { ids: shown, reads } = await reshapedIds(lean, '--status', 'open', '--sort', sort, '--limit', '7');
      expect(shown, sort).toEqual(expected);
      expect(reads, sort).toBe(open.length);
    }
    // The items say their status: no detail is read to sort by it.
    const { ids: shown, reads } = await reshapedIds(lean, '--sort', 'status', '--limit', '7');
    expect(shown).toEqual(await ids('--sort', 'status', '--limit', '7'));
    expect(reads).toBe(0);
  });

  it('reads an assignee given as {firstName, lastName} as that person, and judges one it cannot read on the detail', async () => {
    const split = (item: Record<string, unknown>) => {
      const { assignee, ...rest } = item;
      if (typeof assignee !== 'string') return { ...rest, assignee };
      const [first, ...last] = assignee.split(' ');
      return { ...rest, assignee: { FirstName: first, lastname: last.join(' ') } };
    };
    for (const argv of [
      ['--assignee', '@me'],
      ['--assignee', 'none'],
    ]) {
      const expected = await ids('--all', ...argv);
      expect(expected.length, argv.join(' ')).toBeGreaterThan(0);
      const { ids: shown, reads } = await reshapedIds(split, '--all', ...argv);
      expect(shown, argv.join(' ')).toEqual(expected);
      expect(reads, argv.join(' ')).toBe(0);
    }
    // A person record with nothing tkt reads as a name or an ID: the detail says who it is.
    const unreadable = (item: Record<string, unknown>) => ({ ...item, assignee: item.assignee === null ? null : { login: 'x' } });
    const expected = await ids('--all', '--assignee', '@me');
    const { ids: shown, reads } = await reshapedIds(unreadable, '--all', '--assignee', '@me');
    expect(shown).toEqual(expected);
    expect(reads).toBe((await listed()).filter((t) => t.assignedUser !== null).length);
  });
});

describe('list --all paging over real HTTP', () => {
  it('keeps several pages in flight, prints them in order, and stops after the short page', async () => {
    const all = await listed();
    let inFlight = 0;
    let maxInFlight = 0;
    const pagesAsked: number[] = [];
    // In front of the sandbox: list pages answer late, the lower the page the later, so
    // page 2 is back before page 1 whenever both are in flight.
    const front = await startServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const page = req.url === '/api/TicketsApi' ? (JSON.parse(body.toString()) as { page: number }).page : undefined;
        if (page !== undefined) {
          pagesAsked.push(page);
          inFlight += 1;
          maxInFlight = Math.max(maxInFlight, inFlight);
        }
        setTimeout(
          () => {
            void fetch(`${h.sandbox.url}${req.url ?? '/'}`, {
              method: req.method ?? 'GET',
              headers: { authorization: req.headers.authorization ?? '', 'content-type': req.headers['content-type'] ?? 'application/json' },
              body: body.length > 0 ? body : undefined,
            }).then(async (passed) => {
              if (page !== undefined) inFlight -= 1;
              res.writeHead(passed.status, { 'content-type': passed.headers.get('content-type') ?? 'application/json' });
              res.end(Buffer.from(await passed.arrayBuffer()));
            });
          },
          page === undefined ? 0 : 10 + 10 * (PAGE_CONCURRENCY - ((page - 1) % PAGE_CONCURRENCY)),
        );
      });
    });
    try {
      const env = { TKT_URL: front.url, TKT_TOKEN: h.sandbox.issueToken('admin') };
      const result = await h.cli(['list', '--all', '--view', 'all-tickets', '--page', '1', '--limit', '60', '-q'], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(idLines(result.stdout)).toEqual(idsOf(all));
      expect(maxInFlight).toBe(PAGE_CONCURRENCY);
      const pages = Math.ceil(all.length / 60);
      expect(all.length % 60).not.toBe(0);
      // Every page up to the short one, plus the ones already in flight when it came: no more.
      expect([...pagesAsked].sort((a, b) => a - b)).toEqual(Array.from({ length: pages + PAGE_CONCURRENCY - 1 }, (_, i) => i + 1));
    } finally {
      await front.close();
    }
  });
});

describe('tkt list date ranges of dates alone', () => {
  const zone = 'Asia/Tokyo';
  useTimeZone(zone);
  const localDay = (iso: string) => new Date(iso).toLocaleDateString('en-CA', { timeZone: zone });

  it('reads each date alone as the end of that day: --created-after D1 --created-before D2 is the whole days after D1 through D2', async () => {
    const all = await listed();
    const days = [...new Set(all.map((t) => localDay(t.createdOn)))].sort();
    const [from, to] = [days[100]!, days[107]!];
    const expected = all.filter((t) => localDay(t.createdOn) > from && localDay(t.createdOn) <= to);
    // Seven whole days: none of the first date's, all of the last date's.
    expect(new Set(expected.map((t) => localDay(t.createdOn))).size).toBe(7);
    expect(await ids('--all', '--created-after', from, '--created-before', to)).toEqual(idsOf(expected));
  });

  it('refuses a range whose end is not after its start with exit 2 before any request, for every date', async () => {
    for (const [after, before] of [
      ['--created-after', '--created-before'],
      ['--due-after', '--due-before'],
    ]) {
      const reversed = await sendsNothing(h, () => h.cli(['list', after!, '2026-11-27', before!, '2026-11-20']));
      expect(reversed.code).toBe(2);
      expect(reversed.stderr).toBe(`error: ${before} 2026-11-20 is not after ${after} 2026-11-27: the range is empty\n`);
      // The same date alone on both sides is the same instant, its end: said, with how to ask for that day.
      const sameDay = await sendsNothing(h, () => h.cli(['list', after!, '2026-11-27', before!, '2026-11-27']));
      expect(sameDay.code).toBe(2);
      const field = after!.slice(2, after!.indexOf('-', 2));
      expect(sameDay.stderr).toBe(
        `error: ${before} 2026-11-27 is not after ${after} 2026-11-27: the range is empty\n` +
          `hint: a date alone is the end of that day: for the tickets ${field} on 2026-11-27, give ${after} the day before\n`,
      );
    }
    // Relative and zoned values are compared as instants: 09:00 in Tokyo is midnight UTC.
    const equal = await sendsNothing(h, () => h.cli(['list', '--created-after', '2026-11-27T09:00', '--created-before', '2026-11-27T00:00Z']));
    expect(equal.code).toBe(2);
    expect(equal.stderr).toContain('the range is empty\n');
    expect((await sendsNothing(h, () => h.cli(['list', '--due-after', '+1d', '--due-before', '-1d']))).code).toBe(2);
  });
});

describe('tkt list calendar weeks of dates alone', () => {
  useTimeZone('Europe/Berlin');

  it('puts every ticket in exactly one of consecutive weeks, to the millisecond, across a 25-hour Sunday', async () => {
    // Weeks Monday to Sunday in 2020, when the sandbox has no other ticket: Sunday 25 October has
    // 25 hours (the clocks go back). Each boundary Sunday has tickets at its last second, in its
    // last second, and at the next midnight, which is Monday's, the next week's.
    const sundays = ['2020-10-18', '2020-10-25', '2020-11-01', '2020-11-08'];
    const created: [Date, number][] = [];
    for (const [index, sunday] of sundays.slice(0, 3).entries()) {
      const [year, month, day] = sunday.split('-').map(Number) as [number, number, number];
      created.push([new Date(year, month - 1, day, 23, 59, 59, 0), index], [new Date(year, month - 1, day, 23, 59, 59, 400), index]);
      created.push([new Date(year, month - 1, day + 1, 0, 0, 0, 0), index + 1]);
    }
    const tickets = h.sandbox.state.tickets.slice(0, created.length);
    const saved = tickets.map((ticket) => ticket.createdOn);
    try {
      tickets.forEach((ticket, index) => (ticket.createdOn = created[index]![0].toISOString()));
      const week = (index: number) =>
        tickets
          .filter((_, at) => created[at]![1] === index)
          .map((ticket) => ticket.id)
          .sort((a, b) => a - b);
      const listedWeek = async (from: string, to: string) => (await ids('--all', '--created-after', from, '--created-before', to)).sort((a, b) => a - b);
      // The week before the first boundary has its Sunday's last tickets; the last week, the Monday midnight one.
      expect(await listedWeek('2020-10-11', sundays[0]!)).toEqual(week(0));
      for (let index = 1; index < sundays.length; index++) expect(await listedWeek(sundays[index - 1]!, sundays[index]!), sundays[index]).toEqual(week(index));
      expect(week(1)).toHaveLength(3);
      // A date-time keeps its strict meaning: a ticket at it is on neither side.
      const edge = created[0]![0].toISOString();
      expect(await ids('--all', '--created-after', edge, '--created-before', '2020-10-25')).not.toContain(tickets[0]!.id);
      expect(await ids('--all', '--created-after', '2020-10-11', '--created-before', edge)).not.toContain(tickets[0]!.id);
    } finally {
      tickets.forEach((ticket, index) => (ticket.createdOn = saved[index]!));
    }
  });

  it('refuses a range of one date alone, whose end is its start, and a date-time at that end is no range either', async () => {
    const empty = await sendsNothing(h, () => h.cli(['list', '--created-after', '2026-11-27', '--created-before', '2026-11-27T23:59:59.999']));
    expect(empty.code).toBe(2);
    // One millisecond is a range: the day's end itself.
    const ends = await h.cli(['list', '--created-after', '2026-11-27', '--created-before', '2026-11-28T00:00:00.001']);
    expect(ends.code, ends.stderr).toBe(0);
  });
});

describe('tkt list relative dates', () => {
  it('refuses -1M, which reads as a month, with how to say months; D, H and W are d, h and w', async () => {
    const month = await sendsNothing(h, () => h.cli(['list', '--created-after', '-1M']));
    expect(month.code).toBe(2);
    expect(month.stderr).toBe('error: --created-after: invalid date "-1M": M is not a unit\nhint: m is minutes; for months use days, e.g. -30d\n');
    expect(await ids('--all', '--created-after', '-1W')).toEqual(await ids('--all', '--created-after', '-1w'));
  });

  it('advises counting back for the creation date, ahead for the due date', async () => {
    const created = await sendsNothing(h, () => h.cli(['list', '--created-after', '7d']));
    expect(created.code).toBe(2);
    expect(created.stderr).toBe('error: --created-after: invalid date "7d": use ISO 8601 (2026-12-01, 2026-12-01T14:00) or -7d/-4h/-30m\n');
    const due = await sendsNothing(h, () => h.cli(['list', '--due-before', '7d']));
    expect(due.stderr).toBe('error: --due-before: invalid date "7d": use ISO 8601 (2026-12-01, 2026-12-01T14:00) or +3d/+4h/+30m\n');
  });
});

describe('tkt list date filters at a change of the clocks', () => {
  useTimeZone('America/St_Johns');

  it('refuses a local time the clocks skip with exit 2, as tkt update --due does', async () => {
    for (const flag of ['--due-after', '--due-before', '--created-after', '--created-before']) {
      const result = await sendsNothing(h, () => h.cli(['list', flag, '2027-03-14T02:30']));
      expect(result.code, flag).toBe(2);
      expect(result.stderr).toContain(`${flag}: "2027-03-14T02:30" does not exist in America/St_Johns`);
    }
  });
});
