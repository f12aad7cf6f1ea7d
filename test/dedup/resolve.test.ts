// `tkt resolve --dedup-key`: every open ticket of the key (--requester: the requester's only),
// and a calm "nothing to resolve".
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/resolve.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, requestTo, routeCount, sendsNothing, startFrontServer, stoppedAt, ticketById, useHarness, userId } from '../helpers/sandbox-state.js';

const RESOLVE = 'POST /api/TicketsApi/resolve/{id}';
const GET = 'GET /api/TicketsApi/{id}';
const OPEN = 1;
const RESOLVED = 6;

let h: Harness;
useHarness({}, (harness) => (h = harness));

/** A ticket titled `title` through the plain create (no look-up), its ID. */
async function ticket(title: string, requester = 'ci-bot'): Promise<number> {
  const result = await h.cli(['create', '--integration', '-q', '--title', title, '--description', 'd', '--requester', requester]);
  return Number(result.stdout.trim());
}

/** The e-mails the service sent about the resolution of ticket `id`. */
const resolutionMails = (id: number) => h.sandbox.state.outbox.filter((m) => m.event === 'resolution' && m.ticketId === id);

describe('tkt resolve --dedup-key', () => {
  it("warns, for a login that sees only its own tickets, that other logins' tickets of the key are not resolved", async () => {
    await ticket('Build failed [job-private]');
    const result = await h.cli(['resolve', '--dedup-key', 'job-private', '--details', 'green'], { env: { TKT_TOKEN: h.sandbox.issueToken('private') } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: this login sees only its own tickets (Tickets.OnlyPrivate): the look-up of key job-private misses any other ticket of the key, which stays open\n',
    );
  });

  it('resolves every open ticket of the key and no other, warning of nothing when they have one requester', async () => {
    const first = await ticket('Build failed [job-green]');
    const second = await ticket('Deploy failed [job-green]');
    const longer = await ticket('Build failed [job-green-2]');
    const middle = await ticket('Build [job-green] failed');
    const result = await h.cli(['resolve', '--dedup-key', 'job-green', '--details', 'Build 12 is green']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${first} resolved\n✓ #${second} resolved\n`, stderr: '' });
    expect([first, second].map((id) => ticketById(h, id).ticketStatusId)).toEqual([RESOLVED, RESOLVED]);
    expect(ticketById(h, first).resolution?.details).toBe('Build 12 is green');
    expect([longer, middle].map((id) => ticketById(h, id).ticketStatusId)).toEqual([OPEN, OPEN]);
  });

  it('is exit 0 saying there was nothing to resolve when no open ticket has the key', async () => {
    await ticket('Build failed [job-none]');
    expect((await h.cli(['resolve', '--dedup-key', 'job-none', '--details', 'green'])).code).toBe(0);
    const resolves = routeCount(h, RESOLVE);
    const again = await h.cli(['resolve', '--dedup-key', 'job-none', '--details', 'green']);
    expect(again).toMatchObject({ code: 0, stdout: '', stderr: 'nothing to resolve: no open ticket has the key job-none\n' });
    expect(routeCount(h, RESOLVE)).toBe(resolves);
  });

  it("asks for the details at a terminal naming the key's tickets, found first", async () => {
    const first = await ticket('Build failed [job-ask]');
    const second = await ticket('Deploy failed [job-ask]');
    const { ctx, stdout, prompter } = await h.context({
      tty: true,
      answers: [{ kind: 'input', message: `Resolution details for #${first}, #${second}`, value: 'Green again' }],
    });
    await run({ ids: [], dedupKey: 'job-ask', concurrency: '4', dryRun: false }, ctx);
    prompter.assertDone();
    expect(stdout()).toBe(`✓ #${first} resolved\n✓ #${second} resolved\n`);
    expect(ticketById(h, second).resolution?.details).toBe('Green again');
  });

  it('asks nothing at a terminal when no open ticket has the key', async () => {
    const { ctx, stderr, prompter } = await h.context({ tty: true, answers: [] });
    await run({ ids: [], dedupKey: 'job-ask-none', concurrency: '4', dryRun: false }, ctx);
    prompter.assertDone();
    expect(stderr()).toBe('nothing to resolve: no open ticket has the key job-ask-none\n');
  });

  it("is exit 2 without --details where it cannot ask, before looking for the key's tickets", async () => {
    const result = await sendsNothing(h, () => h.cli(['resolve', '--dedup-key', 'job-no-details']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing --details');
  });

  it('plans the resolutions in a dry run, resolving nothing', async () => {
    const id = await ticket('Build failed [job-dry-resolve]');
    const result = await h.cli(['--json', 'resolve', '--dedup-key', 'job-dry-resolve', '--details', 'green', '--dry-run']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ dryRun: true, method: 'POST', path: `/api/TicketsApi/resolve/${id}` });
    expect(ticketById(h, id).ticketStatusId).toBe(OPEN);
  });

  it('refuses a bad key, IDs with a key, and neither, with exit 2 and nothing sent', async () => {
    const bad = await sendsNothing(h, () => h.cli(['resolve', '--dedup-key', 'a b', '--details', 'x']));
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.stderr).toContain('error: invalid --dedup-key "a b"');
    const unset = await sendsNothing(h, () => h.cli(['resolve', '--dedup-key', 'gh:/', '--details', 'x']));
    expect(unset).toMatchObject({ code: 2 });
    expect(unset.stderr).toContain('error: --dedup-key "gh:/" has an empty part');
    expect(unset.stderr).toContain('hint: a variable in it is probably unset');
    const both = await sendsNothing(h, () => h.cli(['resolve', '12', '--dedup-key', 'k', '--details', 'x']));
    expect(both.stderr).toContain('error: give ticket IDs or --dedup-key, not both');
    const neither = await sendsNothing(h, () => h.cli(['resolve', '--details', 'x']));
    expect(neither).toMatchObject({ code: 2 });
    expect(neither.stderr).toContain("missing required argument 'id'");
  });
});

describe("tkt resolve --dedup-key and another requester's ticket with the key in its title", () => {
  // Keys are predictable: anyone may end the title of a ticket of their own with one. The green
  // build's details (build URLs) must not be sent to them (README, CI: one ticket per failure).
  const decoyOf = (key: string) => ticket(`Need help with printer [${key}]`, 'aberg');

  // As create's --requester: a username, a full name or a user ID.
  it.each([['ci-bot'], ['CI Bot'], ['id']])('resolves with --requester %s only the tickets of that requester, naming no other', async (requester) => {
    const key = `job-mine-${requester.replace(' ', '-')}`;
    const decoy = await decoyOf(key);
    const ours = await ticket(`Build failed [${key}]`);
    const given = requester === 'id' ? userId(h, 'ci-bot') : requester;
    const args = ['resolve', '--dedup-key', key, '--requester', given, '--details', 'Build 12 is green: https://ci.example.com/12'];
    const result = await h.cli(args);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${ours} resolved\n`, stderr: '' });
    expect(ticketById(h, ours).ticketStatusId).toBe(RESOLVED);
    expect(ticketById(h, decoy)).toMatchObject({ ticketStatusId: OPEN, resolution: null });
    expect(resolutionMails(decoy)).toEqual([]);
  });

  it('says there is nothing to resolve when only other requesters have open tickets of the key', async () => {
    const decoy = await decoyOf('job-only-decoy');
    const resolves = routeCount(h, RESOLVE);
    const result = await h.cli(['resolve', '--dedup-key', 'job-only-decoy', '--requester', 'ci-bot', '--details', 'green']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: 'nothing to resolve: no open ticket of requester ci-bot has the key job-only-decoy\n' });
    expect(routeCount(h, RESOLVE)).toBe(resolves);
    expect(ticketById(h, decoy).ticketStatusId).toBe(OPEN);
  });

  it('asks at a terminal naming only the tickets of --requester', async () => {
    await decoyOf('job-ask-mine');
    const ours = await ticket('Build failed [job-ask-mine]');
    const { ctx, stdout, prompter } = await h.context({
      tty: true,
      answers: [{ kind: 'input', message: `Resolution details for #${ours}`, value: 'Green again' }],
    });
    await run({ ids: [], dedupKey: 'job-ask-mine', requester: 'ci-bot', concurrency: '4', dryRun: false }, ctx);
    prompter.assertDone();
    expect(stdout()).toBe(`✓ #${ours} resolved\n`);
  });

  it('plans in a dry run only the tickets of --requester, resolving nothing', async () => {
    const decoy = await decoyOf('job-dry-mine');
    const ours = await ticket('Build failed [job-dry-mine]');
    const result = await h.cli(['resolve', '--dedup-key', 'job-dry-mine', '--requester', 'ci-bot', '--details', 'green', '--dry-run']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`/api/TicketsApi/resolve/${ours}`);
    expect(result.stdout).not.toContain(String(decoy));
    const json = await h.cli(['--json', 'resolve', '--dedup-key', 'job-dry-mine', '--requester', 'ci-bot', '--details', 'green', '--dry-run']);
    expect(JSON.parse(json.stdout)).toMatchObject({ dryRun: true, method: 'POST', path: `/api/TicketsApi/resolve/${ours}` });
    expect([ours, decoy].map((id) => ticketById(h, id).ticketStatusId)).toEqual([OPEN, OPEN]);
  });

  it('resolves without --requester every open ticket of the key, warning in one line whose they are', async () => {
    const decoy = await decoyOf('job-both');
    const ours = await ticket('Build failed [job-both]');
    const again = await ticket('Deploy failed [job-both]');
    const result = await h.cli(['resolve', '--dedup-key', 'job-both', '--details', 'green']);
    expect(result).toMatchObject({
      code: 0,
      stdout: `✓ #${decoy} resolved\n✓ #${ours} resolved\n✓ #${again} resolved\n`,
      stderr: `warning: the open tickets of key job-both have 2 requesters (#${decoy}; #${ours}, #${again}): give --requester to resolve only your job's\n`,
    });
    expect([decoy, ours, again].map((id) => ticketById(h, id).ticketStatusId)).toEqual([RESOLVED, RESOLVED, RESOLVED]);
  });

  it('warns in a dry run too, before the plans', async () => {
    const decoy = await decoyOf('job-both-dry');
    const ours = await ticket('Build failed [job-both-dry]');
    const result = await h.cli(['resolve', '--dedup-key', 'job-both-dry', '--details', 'green', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      `warning: the open tickets of key job-both-dry have 2 requesters (#${decoy}; #${ours}): give --requester to resolve only your job's\n`,
    );
    expect([decoy, ours].map((id) => ticketById(h, id).ticketStatusId)).toEqual([OPEN, OPEN]);
  });

  it('names the requesters as the list does when it tells their IDs, reading no ticket for them', async () => {
    const decoy = await decoyOf('job-listed');
    const ours = await ticket('Build failed [job-listed]');
    // Another service's list: the requester's ID beside the name.
    const front = await startFrontServer(h, (req, res, body) => {
      if (req.method !== 'POST' || req.url !== '/api/TicketsApi') return false;
      void fetch(`${h.sandbox.url}${req.url}`, {
        method: 'POST',
        headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
        body,
      }).then(async (passed) => {
        const items = (await passed.json()) as Record<string, unknown>[];
        const withIds = items.map((item) => ({ ...item, requesterId: ticketById(h, Number(item.ticketId)).creatorId }));
        res.writeHead(passed.status, { 'content-type': 'application/json' }).end(JSON.stringify(withIds));
      });
      return true;
    });
    try {
      const reads = routeCount(h, GET);
      const result = await h.cli(['resolve', '--dedup-key', 'job-listed', '--details', 'green', '--dry-run'], { env: frontEnv(h, front) });
      expect(result.stderr).toBe(
        `warning: the open tickets of key job-listed have 2 requesters (#${decoy}; #${ours}): give --requester to resolve only your job's\n`,
      );
      // One read of each ticket: resolve's own (a closed ticket is refused), none for the requesters.
      expect(routeCount(h, GET)).toBe(reads + 2);
    } finally {
      await front.close();
    }
  });

  it('warns of nothing when the service does not tell the requesters', async () => {
    const decoy = await decoyOf('job-untold');
    const ours = await ticket('Build failed [job-untold]');
    const front = await startFrontServer(h, (req, res) => {
      if (req.method !== 'GET' || !/^\/api\/TicketsApi\/\d+$/.test(req.url ?? '')) return false;
      void fetch(`${h.sandbox.url}${req.url}`, { headers: { authorization: req.headers.authorization! } }).then(async (passed) => {
        const { creator: _creator, creatorId: _creatorId, ...detail } = (await passed.json()) as Record<string, unknown>;
        res.writeHead(passed.status, { 'content-type': 'application/json' }).end(JSON.stringify(detail));
      });
      return true;
    });
    try {
      const result = await h.cli(['resolve', '--dedup-key', 'job-untold', '--details', 'green'], { env: frontEnv(h, front) });
      expect(result).toMatchObject({ code: 0, stdout: `✓ #${decoy} resolved\n✓ #${ours} resolved\n`, stderr: '' });
    } finally {
      await front.close();
    }
  });

  it('refuses --requester without --dedup-key with exit 2, sending nothing', async () => {
    for (const args of [
      ['--requester', 'ci-bot'],
      ['12', '--requester', 'ci-bot'],
    ]) {
      const result = await sendsNothing(h, () => h.cli(['resolve', ...args, '--details', 'x']));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('error: --requester goes with --dedup-key KEY');
    }
  });

  it('refuses an unknown --requester with exit 2, resolving nothing', async () => {
    const ours = await ticket('Build failed [job-unknown-requester]');
    const result = await h.cli(['resolve', '--dedup-key', 'job-unknown-requester', '--requester', 'nobody-such', '--details', 'green']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: unknown user "nobody-such" for --requester');
    expect(ticketById(h, ours).ticketStatusId).toBe(OPEN);
  });

  it('names no customer in CI for an unknown --requester: the error and where to list them, not the list', async () => {
    const args = ['resolve', '--dedup-key', 'job-unknown-ci', '--requester', 'nobody-here', '--details', 'green'];
    const result = await h.cli(args, { env: { CI: 'true' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: unknown user "nobody-here" for --requester\n' +
        '  (candidates not listed in CI: they name people)\n' +
        'hint: see "tkt metadata --collection requesters"\n',
    );
  });
});

// How CI cancels a job (README, Interruption): the look-up of the key's tickets is a read, so a
// signal while it is in flight gives it up at once (no wait said, none waited for: the service
// never answers it, under a --timeout of 60s), and no ticket is resolved.
describe('tkt resolve --dedup-key stopped during its look-up', () => {
  const lookUp = requestTo('POST', '/api/TicketsApi');
  const resolveRequest = requestTo('POST', /^\/api\/TicketsApi\/resolve\//);

  it.each([
    ['SIGTERM', 143, 'SIGTERM', 'error: stopped by SIGTERM\n', []],
    ['SIGINT', 130, 'SIGINT', 'error: interrupted\n', []],
    ['SIGTERM with --requester', 143, 'SIGTERM', 'error: stopped by SIGTERM\n', ['--requester', 'ci-bot']],
  ] as const)('%s: gives the look-up up at once and resolves nothing: exit %i', async (_name, code, signal, line, requester) => {
    const key = `job-stopped-${signal}-${requester.length}`;
    const id = await ticket(`Build failed [${key}]`);
    const args = ['resolve', '--dedup-key', key, ...requester, '--details', 'green', '--timeout', '60'];
    const result = await stoppedAt(h, args, lookUp, signal, { counted: resolveRequest, answered: false });
    expect(result).toMatchObject({ code, stdout: '', stderr: line, sent: 0, exits: [] });
    expect(ticketById(h, id)).toMatchObject({ ticketStatusId: OPEN, resolution: null });
    expect(resolutionMails(id)).toEqual([]);
  });
});
