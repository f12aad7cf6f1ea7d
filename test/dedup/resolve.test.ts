// `tkt resolve --dedup-key`: every open ticket of the key, and a calm "nothing to resolve".
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/resolve.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, sendsNothing, ticketById, useHarness } from '../helpers/sandbox-state.js';

const RESOLVE = 'POST /api/TicketsApi/resolve/{id}';
const OPEN = 1;
const RESOLVED = 6;

let h: Harness;
useHarness({}, (harness) => (h = harness));

/** A ticket titled `title` through the plain create (no look-up), its ID. */
async function ticket(title: string): Promise<number> {
  const result = await h.cli(['create', '--integration', '-q', '--title', title, '--description', 'd', '--requester', 'ci-bot']);
  return Number(result.stdout.trim());
}

describe('tkt resolve --dedup-key', () => {
  it("warns, for a login that sees only its own tickets, that other logins' tickets of the key are not resolved", async () => {
    await ticket('Build failed [job-private]');
    const result = await h.cli(['resolve', '--dedup-key', 'job-private', '--details', 'green'], { env: { TKT_TOKEN: h.sandbox.issueToken('private') } });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'warning: this login sees only its own tickets (Tickets.OnlyPrivate): the look-up of key job-private misses any other ticket of the key, which stays open\n',
    );
  });

  it('resolves every open ticket of the key and no other', async () => {
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
    const both = await sendsNothing(h, () => h.cli(['resolve', '12', '--dedup-key', 'k', '--details', 'x']));
    expect(both.stderr).toContain('error: give ticket IDs or --dedup-key, not both');
    const neither = await sendsNothing(h, () => h.cli(['resolve', '--details', 'x']));
    expect(neither).toMatchObject({ code: 2 });
    expect(neither.stderr).toContain("missing required argument 'id'");
  });
});
