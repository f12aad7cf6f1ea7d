// tkt assign and tkt reopen (docs/cli.md section 10): bulk like close, read-modify-write like update.
import { rm } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatRanges } from '../../src/bulk/ranges.js';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/harness.js';
import { startServer } from '../api/server.js';
import { run as assign } from '../../src/commands/assign.js';
import {
  frontEnv,
  holdUntilReleased,
  requestTo,
  routeCount,
  startFrontServer,
  unusedConsecutiveTickets,
  unusedTickets,
  useHarness,
  userId,
} from '../helpers/sandbox-state.js';

const UPDATE = 'POST /api/TicketsApi/update/{id}';
const READ = 'GET /api/TicketsApi/{id}';
const OPEN = 1;
const IN_PROGRESS = 2;
const RESOLVED = 6;
const CLOSED = 7;

// 'overwrite': the sandbox clears every optional field absent from an update form, so a
// command that sent only the change would lose the ticket's other fields.
let h: Harness;
useHarness({ sandbox: { updateMode: 'overwrite', seedTickets: 40 } }, (harness) => (h = harness));

const kept = (t: SandboxTicket) => ({
  siteId: t.siteId,
  ticketPriorityId: t.ticketPriorityId,
  ticketCategoryId: t.ticketCategoryId,
  groupId: t.groupId,
  creatorId: t.creatorId,
});
const ids = (tickets: SandboxTicket[]) => tickets.map((t) => String(t.id));

describe('tkt assign', () => {
  it('assigns several tickets to a user named by full name, keeping every other field', async () => {
    const tickets = unusedTickets(h, 3, (t) => t.ticketStatusId === OPEN && t.groupId !== null && t.assignedUser !== userId(h, 'ttorres'));
    const before = tickets.map(kept);
    const result = await h.cli(['assign', ...ids(tickets), fullName('ttorres')]);
    expect(result.code, result.stderr).toBe(0);
    // A line per ticket, in the order they finished.
    expect(result.stdout.trim().split('\n').sort()).toEqual(tickets.map((t) => `✓ #${t.id} assigned to ${fullName('ttorres')} (ttorres)`).sort());
    for (const [index, ticket] of tickets.entries()) {
      expect(ticket.assignedUser).toBe(userId(h, 'ttorres'));
      expect(kept(ticket)).toEqual(before[index]);
    }
  });

  // Names match by prefix: the line is where a wrong match shows, so it names who got the ticket.
  it('confirms with the user as the service lists them, however typed (a prefix, a user ID), in the line and the JSON note', async () => {
    const [first, second] = unusedTickets(h, 2, (t) => t.ticketStatusId === IN_PROGRESS && t.assignedUser !== userId(h, 'ohaddad'));
    const omar = `${fullName('ohaddad')} (ohaddad)`;
    const byPrefix = await h.cli(['assign', String(first!.id), 'omar']);
    expect(byPrefix).toMatchObject({ code: 0, stdout: `✓ #${first!.id} assigned to ${omar}\n` });
    const byId = await h.cli(['assign', String(second!.id), userId(h, 'ohaddad')]);
    expect(byId).toMatchObject({ code: 0, stdout: `✓ #${second!.id} assigned to ${omar}\n` });
    const again = await h.cli(['assign', String(first!.id), 'oha', '--json']);
    expect(JSON.parse(again.stdout)).toEqual({ id: first!.id, ok: true, note: `already assigned to ${omar}, nothing changed` });
    expect(second!.assignedUser).toBe(userId(h, 'ohaddad'));
  });

  it('reads IDs from stdin, takes @me, and prints JSON Lines', async () => {
    const tickets = unusedTickets(h, 2, (t) => t.ticketStatusId === OPEN);
    const result = await h.cli(['assign', '-', '@me', '--json'], { stdin: ids(tickets).join('\n') });
    expect(result.code, result.stderr).toBe(0);
    // One line per ID, in the order they finished.
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number; ok: boolean });
    expect(lines.sort((x, y) => x.id - y.id)).toMatchObject(tickets.map((t) => ({ id: t.id, ok: true })).sort((x, y) => x.id - y.id));
    for (const ticket of tickets) expect(ticket.assignedUser).toBe(userId(h, 'admin'));
  });

  it('is exit 2 with candidates for an unknown user, and needs IDs and a user; --dry-run sends nothing', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.assignedUser !== userId(h, 'tech'));
    const before = routeCount(h, UPDATE);
    const unknown = await h.cli(['assign', String(ticket!.id), 'Nobody Atall']);
    expect(unknown.code).toBe(2);
    // Piped: the technicians are not listed (they name people); the command that lists them is
    // named once, and not as needing a terminal (it lists them piped as well).
    expect(unknown.stderr).toBe(
      'error: unknown user "Nobody Atall" for USER\n' +
        '  (candidates not listed without a terminal: they name people)\n' +
        'hint: see "tkt metadata --collection technicians"\n',
    );
    const listing = await h.cli(['metadata', '--collection', 'technicians']);
    expect(listing.code).toBe(0);
    expect(listing.stdout).toContain('Tom Tech');
    expect((await h.cli(['assign', 'tech'])).code).toBe(2);
    const reads = routeCount(h, READ);
    const dry = await h.cli(['assign', String(ticket!.id), 'tech', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`POST /api/TicketsApi/update/${ticket!.id}`);
    // The form that would be sent, read from the ticket as a real run reads it: the change
    // marked, every other field as it is.
    expect(dry.stdout).toMatch(/AssignedUser: +\S+ \(Tom Tech\) {2}\[changed\]/);
    expect(dry.stdout).toMatch(new RegExp(`SiteId: +${ticket!.siteId}\n`));
    expect(routeCount(h, READ)).toBe(reads + 1);
    expect(routeCount(h, UPDATE)).toBe(before);
  });
  it('--dry-run over several tickets plans each one, and a ticket that cannot be read stops none of the others', async () => {
    const [first, second] = unusedTickets(h, 2, (t) => t.assignedUser !== userId(h, 'tech'));
    const before = routeCount(h, UPDATE);
    const dry = await h.cli(['assign', String(first!.id), '999999', String(second!.id), 'tech', '--dry-run']);
    expect(dry.code).toBe(1);
    const planned = [...dry.stdout.matchAll(/POST \/api\/TicketsApi\/update\/(\d+)/g)].map((match) => Number(match[1]));
    expect(planned).toEqual([first!.id, second!.id]);
    expect(dry.stderr).toMatch(/✗ #999999 not found \(HTTP 404\)/);
    // The summary does not call a planned ticket assigned.
    expect(dry.stderr).toContain(`\n  planned (dry run): ${formatRanges([first!.id, second!.id], '#')}\n`);
    expect(dry.stderr).not.toContain('assigned:');
    expect(routeCount(h, UPDATE)).toBe(before);
  });
});

// A missing USER is asked at a terminal (docs/cli.md, "Prompts"), as forward asks for --to.
describe('tkt assign ID with no user', () => {
  it('asks for the user at a terminal: the technicians to type-to-filter, @me first', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN && t.assignedUser !== userId(h, 'ttorres'));
    const { ctx, prompter } = await h.context({
      tty: true,
      answers: [{ kind: 'search', message: `Assign #${ticket!.id} to`, value: userId(h, 'ttorres') }],
    });
    await assign({ args: [String(ticket!.id)] }, ctx);
    expect(ticket!.assignedUser).toBe(userId(h, 'ttorres'));
    const [asked] = prompter.asked;
    expect(asked!.choices![0]).toBe(`@me (${fullName('admin')})`);
    expect(asked!.choices).toContain(`${fullName('ttorres')} (ttorres)`);
  });

  it('asks for the user of a range at a terminal, naming the range', async () => {
    // Not open: the open ones are for the other tests.
    const tickets = unusedConsecutiveTickets(h, 2, (t) => ![OPEN, RESOLVED, CLOSED].includes(t.ticketStatusId) && t.assignedUser !== userId(h, 'ttorres'));
    const range = `${tickets[0]!.id}-${tickets[1]!.id}`;
    const { ctx } = await h.context({ tty: true, answers: [{ kind: 'search', message: `Assign #${range} to`, value: userId(h, 'ttorres') }] });
    await assign({ args: [range] }, ctx);
    for (const ticket of tickets) expect(ticket.assignedUser).toBe(userId(h, 'ttorres'));
  });

  it('names you beside @me when the service writes user IDs in upper case and the token in lower', async () => {
    // In front of the sandbox: the lookup lists come back with every GUID in upper case.
    const upperGuids = (text: string) => text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (guid) => guid.toUpperCase());
    const service = await startServer((req, res) => {
      const forwarded = request(`${h.sandbox.url}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const body = req.url?.includes('metadata') ? upperGuids(text) : text;
          res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'application/json' });
          res.end(body);
        });
      });
      req.pipe(forwarded);
    });
    try {
      const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN && t.assignedUser !== userId(h, 'admin'));
      const { ctx, prompter } = await h.context({
        tty: true,
        env: { TKT_URL: service.url, TKT_TOKEN: h.sandbox.issueToken('admin') },
        answers: [{ kind: 'search', message: `Assign #${ticket!.id} to`, value: '@me' }],
      });
      await assign({ args: [String(ticket!.id)] }, ctx);
      expect(prompter.asked[0]!.choices![0]).toBe(`@me (${fullName('admin')})`);
      expect(ticket!.assignedUser).toBe(userId(h, 'admin'));
    } finally {
      await service.close();
    }
  });

  it('assigns to you when @me is picked, and says a ticket already yours is so', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN && t.assignedUser !== userId(h, 'admin'));
    const pickMe = async () => {
      const run = await h.context({ tty: true, answers: [{ kind: 'search', name: `@me (${fullName('admin')})` }] });
      await assign({ args: [String(ticket!.id)] }, run.ctx);
      return run.stdout();
    };
    expect(await pickMe()).toBe(`✓ #${ticket!.id} assigned to you\n`);
    expect(ticket!.assignedUser).toBe(userId(h, 'admin'));
    expect(await pickMe()).toBe(`✓ #${ticket!.id} already assigned to you, nothing changed\n`);
  });

  it('names a picked user by name when the ticket already has them', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN);
    expect((await h.cli(['assign', String(ticket!.id), 'ttorres'])).code).toBe(0);
    const { ctx, stdout } = await h.context({ tty: true, answers: [{ kind: 'search', value: userId(h, 'ttorres') }] });
    await assign({ args: [String(ticket!.id)] }, ctx);
    expect(stdout()).toBe(`✓ #${ticket!.id} already assigned to ${fullName('ttorres')} (ttorres), nothing changed\n`);
  });

  it('is exit 2 where nothing may be asked, saying what to add, and sends nothing', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN);
    const before = [routeCount(h, READ), routeCount(h, UPDATE)];
    const cases: { argv: string[]; env: Record<string, string>; reason: string; toBeAsked: string }[] = [
      { argv: ['assign', String(ticket!.id)], env: {}, reason: 'no terminal to ask on', toBeAsked: 'run at a terminal' },
      { argv: ['--no-input', 'assign', String(ticket!.id)], env: {}, reason: '--no-input: nothing is asked', toBeAsked: 'run without --no-input' },
      { argv: ['assign', String(ticket!.id)], env: { CI: 'true' }, reason: 'CI is set: nothing is asked', toBeAsked: 'run with CI unset' },
    ];
    for (const { argv, env, reason, toBeAsked } of cases) {
      const result = await h.cli(argv, { env });
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(`error: name the tickets, then the user: tkt assign ID... USER (${reason})`);
      expect(result.stderr).toContain(
        `add the user after the IDs (a user ID, username, full name or @me), e.g. tkt assign ${ticket!.id} @me, or ${toBeAsked} to pick one`,
      );
    }
    // IDs from stdin leave no terminal to ask on: the user goes after the -.
    const piped = await h.cli(['assign', '-'], { stdin: String(ticket!.id) });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('e.g. tkt assign - @me');
    expect([routeCount(h, READ), routeCount(h, UPDATE)]).toEqual(before);
  });

  it('at a terminal, a lone word that is not a ticket ID is a user without tickets: exit 2, nothing asked', async () => {
    const { ctx } = await h.context({ tty: true });
    await expect(assign({ args: ['tech'] }, ctx)).rejects.toThrow('name the tickets, then the user');
  });
});

describe('tkt reopen', () => {
  it('re-opens resolved and closed tickets to the status named Open, keeping every other field', async () => {
    const tickets = [...unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED), ...unusedTickets(h, 1, (t) => t.ticketStatusId === CLOSED)];
    expect(tickets).toHaveLength(2);
    const before = tickets.map(kept);
    const result = await h.cli(['reopen', ...ids(tickets)]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('reopened');
    for (const [index, ticket] of tickets.entries()) {
      expect(ticket.ticketStatusId).toBe(OPEN);
      expect(kept(ticket)).toEqual(before[index]);
    }
  });

  it('sets the status named by --status, and refuses an unknown one before any update', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED);
    const result = await h.cli(['reopen', String(ticket!.id), '--status', 'in progress']);
    expect(result.code, result.stderr).toBe(0);
    expect(ticket!.ticketStatusId).toBe(IN_PROGRESS);
    const before = routeCount(h, UPDATE);
    const unknown = await h.cli(['reopen', String(ticket!.id), '--status', 'Limbo']);
    expect(unknown.code).toBe(2);
    expect(routeCount(h, UPDATE)).toBe(before);
  });

  it('refuses a --status that settles the ticket, before any update: it set Resolved and said "reopened"', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED);
    const before = routeCount(h, UPDATE);
    const result = await h.cli(['reopen', String(ticket!.id), '--status', 'closed']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'error: --status Closed is not an open status: a re-opened ticket needs one (default Open)\nhint: to resolve or close tickets, use tkt resolve or tkt close\n',
    );
    expect(routeCount(h, UPDATE)).toBe(before);
    expect(ticket!.ticketStatusId).toBe(RESOLVED);
  });

  it('refuses an open ticket in another status (In Progress), sending no update: it set it to Open and said "reopened"', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === IN_PROGRESS);
    const before = routeCount(h, UPDATE);
    for (const dryRun of [[], ['--dry-run']]) {
      const result = await h.cli(['reopen', String(ticket!.id), ...dryRun]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`ticket #${ticket!.id} is In Progress, not resolved or closed: nothing to re-open`);
      expect(result.stderr).toContain('hint: to set the status of an open ticket, use tkt update --status');
    }
    expect(routeCount(h, UPDATE)).toBe(before);
    expect(ticket!.ticketStatusId).toBe(IN_PROGRESS);
  });

  it('re-opens a ticket whose status has a name tkt cannot place (a service names its statuses): the service decides', async () => {
    // A service whose closed status is Shipped: no word tkt knows.
    const renamed = [[CLOSED, 'Shipped']] as const;
    const statuses = h.sandbox.state.lookups.status;
    const names = new Map(statuses.map((status) => [status.id, status.status]));
    for (const [id, name] of renamed) statuses.find((status) => status.id === id)!.status = name;
    try {
      const tickets = unusedTickets(h, 2, (t) => t.ticketStatusId === CLOSED);
      const result = await h.cli(['reopen', ...ids(tickets), '--refresh']);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(tickets.map((t) => t.ticketStatusId)).toEqual([OPEN, OPEN]);
    } finally {
      for (const status of statuses) status.status = names.get(status.id)!;
    }
  });

  it('reports a missing ticket among others as exit 1, the others done', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED);
    const result = await h.cli(['reopen', String(ticket!.id), '999999']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/#999999 not found/);
    expect(ticket!.ticketStatusId).toBe(OPEN);
  });
});

// As pickup says of a ticket already assigned to the caller: exit 0, and what is already so.
describe('a change the ticket already has', () => {
  it('reopen of an open ticket says "already open, nothing changed" and sends no update; the others are reopened', async () => {
    const [open] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN);
    const [resolved] = unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED);
    const before = [routeCount(h, READ), routeCount(h, UPDATE)];
    const alone = await h.cli(['reopen', String(open!.id)]);
    expect(alone).toMatchObject({ code: 0, stdout: `✓ #${open!.id} already open, nothing changed\n` });
    expect([routeCount(h, READ) - before[0]!, routeCount(h, UPDATE) - before[1]!]).toEqual([1, 0]);

    const both = await h.cli(['reopen', String(open!.id), String(resolved!.id)]);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stdout).toContain(`✓ #${open!.id} already open, nothing changed`);
    expect(both.stdout).toContain(`✓ #${resolved!.id} reopened`);
    expect(resolved!.ticketStatusId).toBe(OPEN);
    // The status by its own name, however it was typed: a prefix, another case, its ID.
    for (const status of ['OP', 'open', String(OPEN)]) {
      const named = await h.cli(['reopen', String(resolved!.id), '--status', status]);
      expect(named.stdout, status).toBe(`✓ #${resolved!.id} already in status Open, nothing changed\n`);
      const dry = await h.cli(['reopen', String(resolved!.id), '--status', status, '--dry-run']);
      expect(dry.stdout, status).toBe(`dry run: #${resolved!.id} already in status Open, nothing changed (nothing would be sent)\n`);
    }
  });

  it('assign to the assignee the ticket has says "already assigned to ..., nothing changed" and sends no update', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN);
    expect((await h.cli(['assign', String(ticket!.id), '@me'])).code).toBe(0);
    const updates = routeCount(h, UPDATE);
    const mine = await h.cli(['assign', String(ticket!.id), '@me']);
    expect(mine).toMatchObject({ code: 0, stdout: `✓ #${ticket!.id} already assigned to you, nothing changed\n` });
    const byName = await h.cli(['assign', String(ticket!.id), 'admin']);
    expect(byName).toMatchObject({ code: 0, stdout: `✓ #${ticket!.id} already assigned to ${fullName('admin')} (admin), nothing changed\n` });
    // Its dry run says what the real run does: nothing would be sent.
    const dry = await h.cli(['assign', String(ticket!.id), 'admin', '--dry-run']);
    expect(dry).toMatchObject({
      code: 0,
      stdout: `dry run: #${ticket!.id} already assigned to ${fullName('admin')} (admin), nothing changed (nothing would be sent)\n`,
    });
    const dryJson = await h.cli(['assign', String(ticket!.id), 'admin', '--dry-run', '--json']);
    expect(JSON.parse(dryJson.stdout)).toEqual({ id: ticket!.id, dryRun: true, note: `already assigned to ${fullName('admin')} (admin), nothing changed` });
    const reopenDry = await h.cli(['reopen', String(ticket!.id), '--dry-run']);
    expect(reopenDry.stdout).toBe(`dry run: #${ticket!.id} already open, nothing changed (nothing would be sent)\n`);
    // A script tells "nothing changed" from a change by the line's note, as the dry run's line has it.
    const assignJson = await h.cli(['assign', String(ticket!.id), 'admin', '--json']);
    expect(JSON.parse(assignJson.stdout)).toEqual({ id: ticket!.id, ok: true, note: `already assigned to ${fullName('admin')} (admin), nothing changed` });
    const reopenJson = await h.cli(['reopen', String(ticket!.id), '--json']);
    expect(JSON.parse(reopenJson.stdout)).toEqual({ id: ticket!.id, ok: true, note: 'already open, nothing changed' });
    expect(routeCount(h, UPDATE)).toBe(updates);
    expect(ticket!.assignedUser).toBe(userId(h, 'admin'));
  });

  it("takes a user ID the service writes in upper case for the token's own in lower case (a GUID's letters are hex digits)", async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN);
    const admin = userId(h, 'admin');
    expect(admin).toMatch(/[a-f]/);
    ticket!.assignedUser = admin.toUpperCase();
    const updates = routeCount(h, UPDATE);
    const dry = await h.cli(['assign', String(ticket!.id), '@me', '--dry-run']);
    expect(dry).toMatchObject({ code: 0, stdout: `dry run: #${ticket!.id} already assigned to you, nothing changed (nothing would be sent)\n` });
    const mine = await h.cli(['assign', String(ticket!.id), '@me']);
    expect(mine).toMatchObject({ code: 0, stdout: `✓ #${ticket!.id} already assigned to you, nothing changed\n` });
    expect(routeCount(h, UPDATE)).toBe(updates);
    expect(ticket!.assignedUser).toBe(admin.toUpperCase());
  });
});

// A real run names no looked-up ID (only --dry-run shows names): a user ID from the token or a
// status ID as typed needs no lookup list, even with none cached. The ticket is read twice: to
// plan the update, and back once it is made (README, "Scripts changing the same tickets").
describe('tkt assign and tkt reopen of one ticket', () => {
  const METADATA = 'GET /api/TicketsApi/metadata';
  const APP_METADATA = 'GET /api/TicketsApi/appmetadata';
  const requestCounts = () => [READ, UPDATE, METADATA, APP_METADATA].map((route) => routeCount(h, route));
  const sent = (before: number[]) => requestCounts().map((count, index) => count - before[index]!);

  it('assign ID @me sends the read, the update and the read back only, with no lookup cached', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN && t.assignedUser !== userId(h, 'admin'));
    await rm(join(h.configDir, 'cache'), { recursive: true, force: true });
    const before = requestCounts();
    const result = await h.cli(['assign', String(ticket!.id), '@me']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(`✓ #${ticket!.id} assigned to you\n`);
    expect(sent(before)).toEqual([2, 1, 0, 0]);
    expect(ticket!.assignedUser).toBe(userId(h, 'admin'));
  });

  it('reopen ID --status ID sends the read, the update and the read back only, with no lookup cached', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED);
    await rm(join(h.configDir, 'cache'), { recursive: true, force: true });
    const before = requestCounts();
    const result = await h.cli(['reopen', String(ticket!.id), '--status', String(IN_PROGRESS)]);
    expect(result.code, result.stderr).toBe(0);
    expect(sent(before)).toEqual([2, 1, 0, 0]);
    expect(ticket!.ticketStatusId).toBe(IN_PROGRESS);
  });

  it('--dry-run still names the user and the status it would set', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId === RESOLVED && t.assignedUser !== userId(h, 'admin'));
    await rm(join(h.configDir, 'cache'), { recursive: true, force: true });
    const assign = await h.cli(['assign', String(ticket!.id), '@me', '--dry-run']);
    expect(assign.code, assign.stderr).toBe(0);
    expect(assign.stdout).toMatch(/AssignedUser: +\S+ \(Ada Admin\) {2}\[changed\]/);
    const reopen = await h.cli(['reopen', String(ticket!.id), '--status', String(IN_PROGRESS), '--dry-run']);
    expect(reopen.code, reopen.stderr).toBe(0);
    expect(reopen.stdout).toMatch(/TicketStatusId: +2 \(In Progress\) {2}\[changed\]/);
  });
});

function fullName(username: string): string {
  const user = h.sandbox.state.users.find((u) => u.username === username)!;
  return `${user.firstName} ${user.lastName}`;
}

// Scripts running at once: another writer changes the ticket between tkt's read and its update.
describe('tkt assign with another writer', () => {
  it('leaves a ticket closed between its read and its update closed: the form does not send back the status it read', async () => {
    const ticket = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN && t.assignedUser !== userId(h, 'ohaddad'))[0]!;
    const update = holdUntilReleased(requestTo('POST', `/api/TicketsApi/update/${ticket.id}`));
    const server = await startFrontServer(h, () => false, { gate: update.gate });
    try {
      const assigning = h.cli(['assign', String(ticket.id), 'ohaddad', '-q'], { env: frontEnv(h, server) });
      // The update was planned from the ticket read as Open; another script closes it before it goes.
      await update.arrived;
      const closing = await h.cli(['close', String(ticket.id), '-q']);
      expect(closing.code, closing.stderr).toBe(0);
      expect(ticket.ticketStatusId).toBe(CLOSED);
      update.release();
      const result = await assigning;
      expect(result.code, result.stderr).toBe(0);
      expect(ticket.assignedUser).toBe(userId(h, 'ohaddad'));
      expect(ticket.ticketStatusId).toBe(CLOSED);
    } finally {
      await server.close();
    }
  });
});

/**
 * A front server where another writer's whole-form update lands just after each of tkt's first
 * `times` updates of `ticket`: when tkt reads the ticket back, `undo` has put back what it held.
 */
async function undoneAfterUpdates(ticket: SandboxTicket, times: number, undo: (t: SandboxTicket) => void) {
  let updates = 0;
  let undone = 0;
  return startFrontServer(h, () => false, {
    gate: async (req) => {
      if (requestTo('POST', `/api/TicketsApi/update/${ticket.id}`)(req)) updates++;
      // The first read after an update: the other writer's update has been made meanwhile.
      else if (requestTo('GET', `/api/TicketsApi/${ticket.id}`)(req) && undone < Math.min(updates, times)) {
        undo(ticket);
        undone = updates;
      }
    },
  });
}

describe('tkt assign and tkt reopen when another writer undoes the change', () => {
  it('reads the ticket back, and makes the change once more when another update put back the old assignee', async () => {
    const ticket = unusedTickets(h, 1, (t) => t.assignedUser !== userId(h, 'ohaddad'))[0]!;
    const old = ticket.assignedUser;
    const server = await undoneAfterUpdates(ticket, 1, (t) => (t.assignedUser = old));
    try {
      const before = [routeCount(h, READ), routeCount(h, UPDATE)];
      const result = await h.cli(['assign', String(ticket.id), 'ohaddad'], { env: frontEnv(h, server) });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`✓ #${ticket.id} assigned to ${fullName('ohaddad')} (ohaddad)\n`);
      expect(ticket.assignedUser).toBe(userId(h, 'ohaddad'));
      // Read, update, read back (undone); read, update, read back.
      expect([routeCount(h, READ) - before[0]!, routeCount(h, UPDATE) - before[1]!]).toEqual([4, 2]);
    } finally {
      await server.close();
    }
  });

  it('fails the ticket, naming what it holds, when the change is undone twice; the other IDs are done', async () => {
    const [contested, other] = unusedTickets(h, 2, (t) => t.assignedUser !== userId(h, 'ohaddad') && t.assignedUser !== userId(h, 'ttorres'));
    const server = await undoneAfterUpdates(contested!, 2, (t) => (t.assignedUser = userId(h, 'ttorres')));
    try {
      const result = await h.cli(['assign', '-', 'ohaddad', '--json'], { env: frontEnv(h, server), stdin: `${contested!.id}\n${other!.id}\n` });
      expect(result.code).toBe(1);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: number; ok: boolean; error?: string });
      expect(lines.find((line) => line.id === other!.id)).toMatchObject({ ok: true });
      const failed = lines.find((line) => line.id === contested!.id);
      expect(failed).toMatchObject({ ok: false });
      expect(failed?.error).toMatch(/changed by someone else meanwhile: assignee is now .*Torres.*, not ohaddad; run it again/);
      expect(other!.assignedUser).toBe(userId(h, 'ohaddad'));
      expect(contested!.assignedUser).toBe(userId(h, 'ttorres'));
    } finally {
      await server.close();
    }
  });

  it('reopen fails the ticket when another update closes it again each time', async () => {
    const ticket = unusedTickets(h, 1, (t) => t.ticketStatusId === CLOSED)[0]!;
    const server = await undoneAfterUpdates(ticket, 2, (t) => (t.ticketStatusId = CLOSED));
    try {
      const result = await h.cli(['reopen', String(ticket.id)], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stderr).toBe(`error: #${ticket.id} failed\n  changed by someone else meanwhile: status is now Closed, not Open; run it again\n`);
    } finally {
      await server.close();
    }
  });
});

describe('tkt assign and reopen of a ticket that shows no requester', () => {
  // The update form they send requires CreatorId (docs/service.md 4.4): refused before sending, exit 2.
  it('is exit 2 before the update is sent, naming the option that gives it one', async () => {
    const [toAssign, toReopen] = unusedTickets(h, 2, (t) => t.assignedUser !== userId(h, 'tech'));
    // A closed ticket to re-open; the sandbox's demo tickets all have a requester.
    Object.assign(toReopen!, { ticketStatusId: CLOSED });
    for (const ticket of [toAssign!, toReopen!]) ticket.creatorId = '';
    const before = routeCount(h, 'POST /api/TicketsApi/update/{id}');
    const assigned = await h.cli(['assign', String(toAssign!.id), 'tech']);
    const reopened = await h.cli(['reopen', String(toReopen!.id)]);
    for (const [result, id] of [
      [assigned, toAssign!.id],
      [reopened, toReopen!.id],
    ] as const) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`ticket #${id} shows no requester, and the service's update requires one (CreatorId)`);
      expect(result.stderr).toContain(`hint: give it one with --requester USER (a user ID, username or full name): tkt update ${id} --requester USER\n`);
    }
    expect(routeCount(h, 'POST /api/TicketsApi/update/{id}')).toBe(before);
  });
});
