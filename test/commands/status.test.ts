// tkt status against the sandbox's demo data: each count is worked out from the sandbox's state
// (its tickets, statuses, users and groups), as the service defines its views.
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/status.js';
import { displayWidth } from '../../src/output/width.js';
import { StatusType } from '../../src/sandbox/model.js';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/harness.js';
import { keepOnly, startReshapingServer, useHarness } from '../helpers/sandbox-state.js';
import { useTimeZone } from '../helpers/time-zone.js';

let h: Harness;
useHarness({ login: 'tech', profiles: ['admin'] }, (harness) => (h = harness));

/** `tkt status` at a terminal: what people read. */
async function atTerminal(): Promise<string> {
  const terminal = await h.context({ tty: true, size: { columns: 120 } });
  await run({}, terminal.ctx);
  return terminal.stdout();
}

interface Status {
  counts: Record<string, number>;
  urgent: { ticketId: number }[];
}

/** The calendar day of `date` in the zone TZ names, 2026-11-27, read by Intl (not by tkt's code). */
function localDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: process.env.TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** What each count should be for `username` at `now`, from the state alone ("due today": the local day). */
function expectedCounts(username: string, now: Date, harness = h) {
  const { tickets, users, lookups } = harness.sandbox.state;
  const me = users.find((u) => u.username === username)!;
  const typeOf = (t: SandboxTicket) => lookups.status.find((s) => s.id === t.ticketStatusId)!.statusType;
  const settled = (t: SandboxTicket) => typeOf(t) === StatusType.resolved || typeOf(t) === StatusType.closed;
  const live = tickets.filter((t) => !t.isDeleted);
  const mine = live.filter((t) => t.creatorId === me.id || t.assignedUser === me.id);
  const due = (t: SandboxTicket) => (t.dueDate === null || settled(t) ? undefined : new Date(t.dueDate));
  const today = localDay(now);
  const inMyGroups = live.filter((t) => t.groupId !== null && me.groupIds.includes(t.groupId) && t.assignedUser === null);
  return {
    counts: {
      open: mine.filter((t) => typeOf(t) === StatusType.open).length,
      overdue: mine.filter((t) => (due(t)?.getTime() ?? Infinity) < now.getTime()).length,
      dueToday: mine.filter((t) => due(t) !== undefined && localDay(due(t)!) === today).length,
      onHold: mine.filter((t) => typeOf(t) === StatusType.onHold).length,
      pending: mine.filter((t) => typeOf(t) === StatusType.pending).length,
      escalated: mine.filter((t) => typeOf(t) === StatusType.escalated).length,
      unassignedInMyGroups: inMyGroups.filter((t) => !settled(t)).length,
    },
    openIds: mine.filter((t) => typeOf(t) === StatusType.open).map((t) => t.id),
    // Being worked: open (In Progress too) or escalated; on-hold and pending ones wait on someone else.
    working: mine.filter((t) => typeOf(t) === StatusType.open || typeOf(t) === StatusType.escalated),
    // A closed ticket nobody was assigned to, in the groups: in the data, and not to be counted.
    settledUnassigned: inMyGroups.filter(settled).length,
    // Overdue whatever their status: on hold and pending tickets too.
    overdueIds: new Set(mine.filter((t) => (due(t)?.getTime() ?? Infinity) < now.getTime()).map((t) => t.id)),
    settledIds: live.filter(settled).map((t) => t.id),
  };
}

describe('tkt status', () => {
  it("counts the caller's tickets per state, and the unresolved unassigned ones in their groups", async () => {
    const now = new Date();
    const r = await h.context({ globals: { json: true } });
    await run({}, { ...r.ctx, now: () => now });
    const { counts, urgent } = JSON.parse(r.stdout()) as Status;
    const expected = expectedCounts('tech', now);
    expect(counts).toEqual(expected.counts);
    // The demo data makes each count mean something.
    for (const key of ['open', 'overdue', 'dueToday', 'onHold'] as const) expect(expected.counts[key], key).toBeGreaterThan(0);
    expect(expected.settledUnassigned).toBeGreaterThan(0);

    // The most urgent: every overdue ticket counted (on hold ones too: the count and the table
    // agree), first, then the tickets of theirs being worked.
    const ids = urgent.map((ticket) => ticket.ticketId);
    expect(ids.slice(0, expected.overdueIds.size).sort()).toEqual([...expected.overdueIds].sort());
    expect([...expected.overdueIds].some((id) => !expected.openIds.includes(id))).toBe(true);
    const workingIds = expected.working.map((t) => t.id);
    for (const id of ids.slice(expected.overdueIds.size)) expect(workingIds).toContain(id);
    expect(urgent.length).toBe(Math.min(5, new Set([...expected.overdueIds, ...workingIds]).size));
  });

  it('after the overdue ones, takes the tickets being worked by due date, escalated ones too, not on-hold or pending ones', async () => {
    // admin's queue: two overdue, then In Progress and Escalated tickets due today, an Open one
    // due in days, and a Pending one; the escalated one due today once lost its row to the Open one.
    const now = new Date();
    const r = await h.context({ globals: { json: true, profile: 'admin' } });
    await run({}, { ...r.ctx, now: () => now });
    const { urgent } = JSON.parse(r.stdout()) as Status;
    const expected = expectedCounts('admin', now);
    const ids = urgent.map((ticket) => ticket.ticketId);
    expect(ids.slice(0, expected.overdueIds.size).sort()).toEqual([...expected.overdueIds].sort());
    const dueOf = (t: SandboxTicket) => (t.dueDate === null ? Infinity : Date.parse(t.dueDate));
    const next = expected.working.filter((t) => !expected.overdueIds.has(t.id)).sort((a, b) => dueOf(a) - dueOf(b));
    const shown = ids.slice(expected.overdueIds.size).map((id) => expected.working.find((t) => t.id === id));
    // By due date: the same due dates as the nearest of them (tickets due at the same time in either order).
    expect(shown.map((t) => t && dueOf(t))).toEqual(next.slice(0, 5 - expected.overdueIds.size).map(dueOf));
    expect(urgent).toHaveLength(Math.min(5, expected.overdueIds.size + next.length));
    const alarm = h.sandbox.state.tickets.find((t) => t.title === 'Server room temperature alarm')!;
    expect(ids).toContain(alarm.id);
    // The data makes it mean something: an escalated ticket to take, and at least as many to take as rows left.
    const { lookups } = h.sandbox.state;
    const typeOf = (t: SandboxTicket) => lookups.status.find((s) => s.id === t.ticketStatusId)!.statusType;
    expect(typeOf(alarm)).toBe(StatusType.escalated);
    expect(next.length).toBeGreaterThanOrEqual(5 - expected.overdueIds.size);
  });

  it('says how many more are overdue when they do not all fit the urgent table', async () => {
    const { tickets, users } = h.sandbox.state;
    const tech = users.find((u) => u.username === 'tech')!;
    const past = new Date(Date.now() - 3 * 24 * 3600_000).toISOString();
    const changed = tickets.filter((t) => !t.isDeleted && t.assignedUser === tech.id && t.dueDate !== null).map((t) => [t, t.dueDate] as const);
    try {
      for (const [ticket] of changed) ticket.dueDate = past;
      const json = await h.cli(['status', '--json']);
      const { counts, urgent } = JSON.parse(json.stdout) as Status;
      const overdue = counts.overdue!;
      expect(overdue).toBeGreaterThan(5);
      expect(urgent.length).toBe(5);
      expect(await atTerminal()).toContain(`  and ${overdue - 5} more overdue: tkt list --view my-overdue-tickets\n`);
    } finally {
      for (const [ticket, due] of changed) ticket.dueDate = due;
      // Reading the state is what tells the sandbox's list cache that it changed.
      void h.sandbox.state;
    }
  });

  it('prints the counts and the urgent tickets as an aligned table within the width', async () => {
    const stdout = await atTerminal();
    expect(stdout).toMatch(/^Your queue$/m);
    expect(stdout).toMatch(/^ {2}open +\d+$/m);
    expect(stdout).toMatch(/^ {2}unassigned in your groups +\d+$/m);
    expect(stdout).toMatch(/^Most urgent$/m);
    const table = stdout.slice(stdout.indexOf('Most urgent')).split('\n').slice(1, -1);
    expect(table[0]).toMatch(/^ +ID {2}DUE +PRIORITY +STATUS +TITLE$/);
    // Every row's title starts where the header's does.
    const titleAt = table[0]!.indexOf('TITLE');
    for (const row of table.slice(1)) expect(row.slice(titleAt - 2, titleAt)).toBe('  ');
    expect(table.some((row) => row.includes('overdue'))).toBe(true);
  });

  it('piped, prints tab-separated lines without headings, as tkt list does: the counts, then the urgent tickets with ISO 8601 due dates', async () => {
    const { counts, urgent } = JSON.parse((await h.cli(['status', '--json'])).stdout) as Status;
    const piped = await h.cli(['status']);
    expect(piped.code).toBe(0);
    const lines = piped.stdout.trimEnd().split('\n');
    const labels = ['open', 'overdue', 'due today', 'on hold', 'pending', 'escalated', 'unassigned in your groups'];
    const keys = ['open', 'overdue', 'dueToday', 'onHold', 'pending', 'escalated', 'unassignedInMyGroups'];
    expect(lines.slice(0, labels.length)).toEqual(labels.map((label, index) => `${label}\t${counts[keys[index]!]}`));
    const rows = lines.slice(labels.length).map((line) => line.split('\t'));
    expect(rows.map((cells) => Number(cells[0]))).toEqual(urgent.map((ticket) => ticket.ticketId));
    for (const cells of rows) {
      expect(cells).toHaveLength(5);
      expect(cells[1]).toMatch(/^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)?$/);
    }
  });

  it('keeps the titles of the urgent tickets at a narrow terminal, leaving out other columns first', async () => {
    const narrow = await h.context({ tty: true, size: { columns: 50 } });
    await run({}, narrow.ctx);
    const out = narrow.stdout();
    const table = out.slice(out.indexOf('Most urgent')).split('\n').slice(1, -1);
    expect(table[0]).toMatch(/ID .*TITLE/);
    for (const line of table) expect(displayWidth(line)).toBeLessThanOrEqual(50);
    // The title keeps its 24 columns: the first row's cell is more than an ellipsis.
    expect(table[1]!.slice(table[0]!.indexOf('TITLE'))).toMatch(/^\S.{4,}/);
    // What was left out is said on stderr, not on stdout; at a wide terminal or piped, nothing.
    expect(out).not.toContain('not shown');
    // The command to type is kept whole, on a line of its own when it does not fit.
    expect(narrow.stderr()).toMatch(/^\(not shown at this width: due, priority;\n"tkt[^"\n]* show ID" has them\)\n$/);
    const wide = await h.context({ tty: true, size: { columns: 200 } });
    await run({}, wide.ctx);
    expect(wide.stderr()).toBe('');
    const piped = await h.context({ size: { columns: 50 } });
    await run({}, piped.ctx);
    expect(piped.stderr()).toBe('');
  });

  it('gives the urgent ticket IDs with -q, and takes --fields', async () => {
    const json = JSON.parse((await h.cli(['status', '--json'])).stdout) as Status;
    const quiet = await h.cli(['status', '-q']);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe(json.urgent.map((ticket) => `${ticket.ticketId}\n`).join(''));
    const fields = await h.cli(['status', '--fields', 'counts']);
    expect(Object.keys(JSON.parse(fields.stdout) as object)).toEqual(['counts']);
  });
});

describe("tkt status over list items that leave members out (the spec does not give a list item's members)", () => {
  const isTicketRead = (request: { method: string; url: string }) => request.method === 'GET' && /^\/api\/TicketsApi\/\d+$/.test(request.url);

  /** `tkt status` as tech at `now`, through a service whose list items are as `reshape` makes them (none: the sandbox's). */
  async function statusThrough(reshape: ((item: Record<string, unknown>) => Record<string, unknown>) | undefined, now: Date, options: { json: boolean }) {
    const server = reshape === undefined ? undefined : await startReshapingServer(h, reshape);
    try {
      const env: Record<string, string> = server === undefined ? {} : { TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('tech') };
      const r = await h.context({ env, ...(options.json ? { globals: { json: true } } : { tty: true, size: { columns: 160 } }) });
      await run({}, { ...r.ctx, now: () => now });
      const reads = server?.requests.filter(isTicketRead).map((request) => request.url) ?? [];
      // One read per ticket, whatever the counts and the order need of it.
      expect(new Set(reads).size).toBe(reads.length);
      return { stdout: r.stdout(), reads: reads.length };
    } finally {
      await server?.close();
    }
  }

  it('counts due today and the unassigned in your groups from the detail of each ticket whose item lacks the field, and orders the urgent by it', async () => {
    const now = new Date();
    const lean = keepOnly('ticketId', 'subject', 'status');
    const expected = expectedCounts('tech', now);
    expect(expected.counts.dueToday).toBeGreaterThan(0);
    const full = JSON.parse((await statusThrough(undefined, now, { json: true })).stdout) as Status;
    expect(full.counts).toEqual(expected.counts);
    const { stdout, reads } = await statusThrough(lean, now, { json: true });
    const { counts, urgent } = JSON.parse(stdout) as Status;
    // Were: due today 0 and every ticket of the groups unassigned.
    expect(counts).toEqual(expected.counts);
    expect(urgent.map((ticket) => ticket.ticketId)).toEqual(full.urgent.map((ticket) => ticket.ticketId));
    // --json gives the items as the service sent them.
    expect(Object.keys(urgent[0]!)).toEqual(['ticketId', 'subject', 'status']);
    expect(reads).toBeGreaterThan(0);
    // At a terminal the urgent tickets show what their details say: due dates and priorities.
    expect((await statusThrough(lean, now, { json: false })).stdout).toBe((await statusThrough(undefined, now, { json: false })).stdout);
  });
});

describe('tkt status over list items whose ID member has a name tkt does not know', () => {
  it('fails with exit 1 when a list item has no ID tkt knows, rather than count or list a ticket once per view', async () => {
    const server = await startReshapingServer(h, ({ ticketId, ...rest }) => ({ TicketNo: ticketId, ...rest }));
    try {
      const result = await h.cli(['status'], { env: { TKT_URL: server.url, TKT_TOKEN: h.sandbox.issueToken('tech') } });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^error: a ticket in the service's list has no ID tkt knows: its members are TicketNo, subject, status, [^\n]*\nhint: [^\n]*"tkt list --json"[^\n]*\n$/,
      );
    } finally {
      await server.close();
    }
  });
});

describe('tkt status "due today"', () => {
  // The service's clock stands still where the test puts it; tkt's is the same.
  let clock = new Date('2026-11-27T04:12:00Z');
  let zoned: Harness;
  useHarness({ login: 'tech', sandbox: { now: () => clock } }, (harness) => (zoned = harness));

  async function statusAt(now: Date): Promise<Status> {
    clock = now;
    const r = await zoned.context({ globals: { json: true } });
    await run({}, { ...r.ctx, now: () => now });
    return JSON.parse(r.stdout()) as Status;
  }

  /** Open tickets of tech's due at these times, the other tickets as the demo data has them. */
  function dueAt(...dues: string[]): number[] {
    const { tickets, users, lookups } = zoned.sandbox.state;
    const tech = users.find((u) => u.username === 'tech')!;
    const open = lookups.status.filter((s) => s.statusType === StatusType.open).map((s) => s.id);
    const chosen = tickets.filter((t) => !t.isDeleted && t.assignedUser === tech.id && open.includes(t.ticketStatusId)).slice(0, dues.length);
    expect(chosen).toHaveLength(dues.length);
    chosen.forEach((ticket, index) => (ticket.dueDate = dues[index]!));
    // Reading the state is what tells the sandbox's list cache that it changed.
    void zoned.sandbox.state;
    return chosen.map((t) => t.id);
  }

  /** The count by the service's day, UTC's in the sandbox, as tkt status gave it: not what the test wants. */
  function byUtcDay(now: Date): number {
    const { tickets, users } = zoned.sandbox.state;
    const tech = users.find((u) => u.username === 'tech')!;
    const settled = new Set(expectedCounts('tech', now, zoned).settledIds);
    return tickets.filter(
      (t) =>
        !t.isDeleted &&
        (t.creatorId === tech.id || t.assignedUser === tech.id) &&
        !settled.has(t.id) &&
        t.dueDate?.slice(0, 10) === now.toISOString().slice(0, 10),
    ).length;
  }

  describe('in Tokyo (UTC+9), the service counting UTC days', () => {
    useTimeZone('Asia/Tokyo');

    it("counts the user's day: not a ticket due at 08:00 tomorrow, but one due at 01:00 today", async () => {
      // 13:12 on 27 November in Tokyo, 04:12 UTC. Due 08:00 and 05:00 on the 28th in Tokyo (the
      // 27th in UTC); 23:30 on the 27th (the 27th in UTC too); 01:00 on the 27th (the 26th in UTC, overdue).
      const now = new Date('2026-11-27T04:12:00Z');
      dueAt('2026-11-27T23:00:00.000Z', '2026-11-27T20:00:00.000Z', '2026-11-27T14:30:00.000Z', '2026-11-26T16:00:00.000Z');
      const { counts } = await statusAt(now);
      expect(counts.dueToday).toBe(expectedCounts('tech', now, zoned).counts.dueToday);
      expect(counts.dueToday).not.toBe(byUtcDay(now));
      expect(counts).toEqual(expectedCounts('tech', now, zoned).counts);
    });
  });

  describe("in St. John's (UTC-3:30), the service's day already the next one", () => {
    useTimeZone('America/St_Johns');

    it("counts the user's day: a ticket due at 16:30 today, not one due at 00:30 tomorrow", async () => {
      // 19:30 on 27 November in St. John's, 23:00 UTC. Due 16:30 on the 27th (overdue; the 27th
      // in UTC); 22:30 on the 27th (the 28th in UTC); 00:30 and 01:00 on the 28th (the 28th in UTC too).
      const now = new Date('2026-11-27T23:00:00Z');
      dueAt('2026-11-27T20:00:00.000Z', '2026-11-28T02:00:00.000Z', '2026-11-28T04:00:00.000Z', '2026-11-28T04:30:00.000Z');
      const { counts } = await statusAt(now);
      expect(counts.dueToday).toBe(expectedCounts('tech', now, zoned).counts.dueToday);
      expect(counts.dueToday).not.toBe(byUtcDay(now));
      expect(counts).toEqual(expectedCounts('tech', now, zoned).counts);
    });
  });
});
