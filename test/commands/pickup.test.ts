import { describe, expect, it } from 'vitest';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, routeCount, sendsNothing, startFrontServer, unusedTicket, unusedTickets, useHarness, userId } from '../helpers/sandbox-state.js';
import { manualClock } from '../helpers/manual-clock.js';
import { run } from '../../src/commands/pickup.js';
import { InterruptedError } from '../../src/errors.js';

const PICKUP = 'POST /api/TicketsApi/pickup/{id}';
const GET = 'GET /api/TicketsApi/{id}';

let h: Harness;
useHarness({ profiles: ['viewer'] }, (harness) => (h = harness));

const unassignedTicket = () => unusedTicket(h, (t) => t.assignedUser === null);
// Tickets set up by hand (assigned to whom a test needs): any the harness's login (admin) does not hold.
const notMine = (t: SandboxTicket) => t.assignedUser !== null && t.assignedUser !== userId(h, 'admin');

describe('tkt pickup', () => {
  // A read inside a command that changes tickets is awaited at the first Ctrl-C (the change after
  // it is the user's to know), but the second gives everything up: a wait before its retry too.
  it('the second Ctrl-C gives up the wait before a retry of the read that comes first (a 503 with Retry-After: 10)', async () => {
    const ticket = unassignedTicket();
    const server = await startFrontServer(h, (req, res) => {
      if (req.method !== 'GET' || req.url !== `/api/TicketsApi/${ticket.id}`) return false;
      res.writeHead(503, { 'retry-after': '10', 'content-type': 'text/plain' }).end('busy');
      return true;
    });
    try {
      const clock = manualClock();
      const r = await h.context({ env: frontEnv(h, server), clock });
      const done = run({ ids: [String(ticket.id)] }, r.ctx);
      // The clock never moves: only giving the wait up ends the run.
      expect(await clock.nextSleep()).toBe(10_000);
      r.abort.abort('SIGINT');
      r.halt.abort('SIGINT');
      await expect(done).rejects.toThrow(InterruptedError);
      expect(ticket.assignedUser).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('assigns the ticket to the caller', async () => {
    const ticket = unassignedTicket();
    const status = ticket.ticketStatusId;
    const result = await h.cli(['pickup', String(ticket.id)]);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${ticket.id} picked up\n`, stderr: '' });
    expect(ticket.assignedUser).toBe(userId(h, 'admin'));
    expect(ticket.ticketStatusId).toBe(status);
  });

  it('treats a ticket already assigned to you as success with a note', async () => {
    const ticket = unassignedTicket();
    expect((await h.cli(['pickup', String(ticket.id)])).code).toBe(0);
    const again = await h.cli(['pickup', String(ticket.id)]);
    expect(again).toMatchObject({ code: 0, stdout: `✓ #${ticket.id} already assigned to you, nothing changed\n` });
    const quiet = await h.cli(['-q', 'pickup', String(ticket.id)]);
    expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // Read first, the ticket is seen to be yours: nothing is sent, so no status or body.
    const json = await h.cli(['--json', 'pickup', String(ticket.id)]);
    expect(JSON.parse(json.stdout)).toEqual({ id: ticket.id, ok: true, note: 'already assigned to you, nothing changed' });
  });

  it("names whom another technician's ticket is taken from, in the line, --json and a dry run", async () => {
    const [one, two] = unusedTickets(h, 2, notMine);
    for (const ticket of [one!, two!]) ticket.assignedUser = userId(h, 'tech');
    const tech = 'Tom Tech (tech)';

    const planned = await h.cli(['pickup', String(one!.id), '--dry-run']);
    expect(planned.code).toBe(0);
    expect(planned.stdout).toContain(`dry run: #${one!.id} is assigned to ${tech}: it would be taken from them\n`);
    const plannedJson = await h.cli(['--json', 'pickup', String(one!.id), '--dry-run']);
    expect(JSON.parse(plannedJson.stdout)).toMatchObject({ id: one!.id, dryRun: true, previousAssignee: tech });
    expect(one!.assignedUser).toBe(userId(h, 'tech'));

    const result = await h.cli(['pickup', String(one!.id)]);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${one!.id} picked up from ${tech}\n`, stderr: '' });
    expect(one!.assignedUser).toBe(userId(h, 'admin'));

    const json = await h.cli(['--json', 'pickup', String(two!.id)]);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: two!.id, ok: true, status: 200, previousAssignee: tech });
  });

  it('reads each ticket first: one already yours is left alone without a POST', async () => {
    const [mine, free] = unusedTickets(h, 2, notMine);
    mine!.assignedUser = userId(h, 'admin');
    free!.assignedUser = null;
    const [posts, gets] = [routeCount(h, PICKUP), routeCount(h, GET)];
    const result = await h.cli(['pickup', String(mine!.id), String(free!.id)]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`✓ #${mine!.id} already assigned to you, nothing changed\n`);
    expect(result.stdout).toContain(`✓ #${free!.id} picked up\n`);
    // One GET per ID, and a POST only for the ticket that was not yours.
    expect([routeCount(h, PICKUP) - posts, routeCount(h, GET) - gets]).toEqual([1, 2]);

    const planned = await h.cli(['pickup', String(mine!.id), '--dry-run']);
    expect(planned.stdout).toBe(`dry run: #${mine!.id} already assigned to you, nothing changed (nothing would be sent)\n`);
  });

  it('is exit 3 for an unknown ticket, exit 5 without Tickets.Pickup', async () => {
    expect((await h.cli(['pickup', '999999'])).code).toBe(3);
    const ticket = unassignedTicket();
    const denied = await h.cli(['--profile', 'viewer', 'pickup', String(ticket.id)]);
    expect(denied.code).toBe(5);
    expect(denied.stderr).toContain('permission denied (HTTP 403)');
    // The next step names what is missing (a single ID had no hint at all).
    expect(denied.stderr).toContain(
      "hint: this login lacks the Tickets.Pickup permission: ask the service's admin to grant it, or log in as a user who has it\n",
    );
    expect(ticket.assignedUser).toBeNull();
  });

  it('through a proxy that cannot be reached, names it with the hint show gives', async () => {
    const ticket = unassignedTicket();
    const env = { HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '', no_proxy: '' };
    const hint = 'hint: check HTTPS_PROXY / HTTP_PROXY, or add the host to NO_PROXY to go direct';

    const one = await h.cli(['pickup', String(ticket.id)], { env });

    expect(one.code).toBe(1);
    expect(one.stderr).toContain(`error: #${ticket.id} failed\n  could not reach the proxy http://127.0.0.1:9 (connection refused)`);
    expect(one.stderr).toContain(hint);
    expect((await h.cli(['show', String(ticket.id)], { env })).stderr).toContain(hint);
    expect(ticket.assignedUser).toBeNull();
  });

  it('refuses a malformed ID before any request', async () => {
    const result = await sendsNothing(h, () => h.cli(['pickup', '12a']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid ticket ID "12a"');
  });

  it('--dry-run sends nothing', async () => {
    const ticket = unassignedTicket();
    const before = routeCount(h, PICKUP);
    const result = await h.cli(['pickup', String(ticket.id), '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send POST /api/TicketsApi/pickup/${ticket.id}`);
    expect(routeCount(h, PICKUP)).toBe(before);
    expect(ticket.assignedUser).toBeNull();
  });
});
