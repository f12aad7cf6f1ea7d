import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/delete.js';
import { InterruptedError, OperationError } from '../../src/errors.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, sendsNothing, unusedConsecutiveTickets, unusedTicket, useHarness } from '../helpers/sandbox-state.js';

const DELETE = 'DELETE /api/TicketsApi/{id}';

let h: Harness;
useHarness({ profiles: ['tech'] }, (harness) => (h = harness));

const liveTicket = () => unusedTicket(h);
const deletes = () => routeCount(h, DELETE);

describe('tkt delete', () => {
  it('without --yes and without a terminal is exit 2 and deletes nothing', async () => {
    const ticket = liveTicket();
    const result = await sendsNothing(h, () => h.cli(['delete', String(ticket.id)]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pass --yes');
    expect(result.stderr).toContain('(no terminal to ask on)');
    const noInput = await sendsNothing(h, () => h.cli(['--no-input', 'delete', String(ticket.id)]));
    expect(noInput.stderr).toContain('(--no-input: nothing is asked)');
    expect(ticket.isDeleted).toBe(false);
  });

  it('with --yes soft-deletes', async () => {
    const ticket = liveTicket();
    const result = await h.cli(['delete', String(ticket.id), '--yes']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${ticket.id} deleted\n`, stderr: '' });
    expect(ticket.isDeleted).toBe(true);
    expect(ticket.deletedOn).not.toBeNull();
  });

  it('at a terminal asks, listing the IDs; declining is exit 1 with nothing deleted', async () => {
    const [first, second] = [liveTicket(), liveTicket()];
    const before = deletes();
    const { ctx, prompter } = await h.context({ tty: true, answers: [{ kind: 'confirm', value: false }] });
    const declined = run({ ids: [String(first.id), String(second.id)], yes: false, concurrency: '4', dryRun: false }, ctx);
    await expect(declined).rejects.toBeInstanceOf(OperationError);
    expect(prompter.asked[0]?.message).toBe(`Delete 2 tickets #${first.id}, #${second.id}?`);
    expect(deletes()).toBe(before);
    expect(first.isDeleted || second.isDeleted).toBe(false);
  });

  // A range stands for every ID in it (`tkt delete 1001-1003`): the question counts them all.
  it('at a terminal asks for a range as for its IDs, each named', async () => {
    const tickets = unusedConsecutiveTickets(h, 3);
    const before = deletes();
    const { ctx, prompter, stderr } = await h.context({ tty: true, answers: [{ kind: 'confirm', value: false }] });
    const declined = run({ ids: [`#${tickets[0]!.id}-${tickets[2]!.id}`], yes: false, concurrency: '4', dryRun: false }, ctx);
    await expect(declined).rejects.toBeInstanceOf(OperationError);
    expect(prompter.asked[0]?.message).toBe(`Delete 3 tickets ${tickets.map((t) => `#${t.id}`).join(', ')}?`);
    for (const ticket of tickets) expect(stderr()).toContain(`  #${ticket.id} ${ticket.title}\n`);
    expect(deletes()).toBe(before);
    expect(tickets.some((t) => t.isDeleted)).toBe(false);
  });

  it("at a terminal names the profile in the question when it is not the default, as triage's close question does", async () => {
    const [first, second] = [liveTicket(), liveTicket()];
    const before = deletes();
    /** The question asked for `ids` on a run with `globals` and `env`, declined. */
    const asked = async (ids: readonly number[], options: { globals?: { profile: string }; env?: Record<string, string> }) => {
      const { ctx, prompter } = await h.context({ tty: true, ...options, answers: [{ kind: 'confirm', value: false }] });
      await expect(run({ ids: ids.map(String), yes: false, concurrency: '4', dryRun: false }, ctx)).rejects.toBeInstanceOf(OperationError);
      return prompter.asked[0]?.message;
    };
    // A delete on the wrong service cannot be undone: --profile or TKT_PROFILE, said in the question.
    expect(await asked([first.id], { globals: { profile: 'tech' } })).toBe(`Delete ticket #${first.id} on profile tech?`);
    expect(await asked([first.id, second.id], { env: { TKT_PROFILE: 'tech' } })).toBe(`Delete 2 tickets #${first.id}, #${second.id} on profile tech?`);
    // The default profile, named or not, is not said.
    expect(await asked([first.id], { globals: { profile: 'default' } })).toBe(`Delete ticket #${first.id}?`);
    expect(deletes()).toBe(before);
  });

  it('at a terminal deletes once confirmed', async () => {
    const ticket = liveTicket();
    const { ctx, stdout, stderr, prompter } = await h.context({ tty: true, answers: [{ kind: 'confirm', message: `#${ticket.id}`, value: true }] });
    await run({ ids: [String(ticket.id), '999999'], yes: false, concurrency: '4', dryRun: false }, ctx).catch(() => undefined);
    prompter.assertDone();
    // The question is preceded by what would go: each ticket's title.
    expect(stderr()).toContain(`  #${ticket.id} ${ticket.title}\n`);
    expect(stderr()).toContain('  #999999 (not found)\n');
    expect(stdout()).toBe(`✓ #${ticket.id} deleted\n`);
    expect(ticket.isDeleted).toBe(true);
  });

  it('Ctrl-C at the question deletes nothing', async () => {
    const ticket = liveTicket();
    const { ctx } = await h.context({ tty: true, answers: [{ interrupt: true }] });
    await expect(run({ ids: [String(ticket.id)], yes: false, concurrency: '4', dryRun: false }, ctx)).rejects.toBeInstanceOf(InterruptedError);
    expect(ticket.isDeleted).toBe(false);
  });

  it('is exit 3 for an unknown or already deleted ticket, exit 5 without Tickets.Delete', async () => {
    expect((await h.cli(['delete', '999999', '--yes'])).code).toBe(3);
    const gone = liveTicket();
    expect((await h.cli(['delete', String(gone.id), '--yes'])).code).toBe(0);
    expect((await h.cli(['delete', String(gone.id), '--yes'])).code).toBe(3);
    const ticket = liveTicket();
    const denied = await h.cli(['--profile', 'tech', 'delete', String(ticket.id), '--yes']);
    expect(denied.code).toBe(5);
    expect(ticket.isDeleted).toBe(false);
  });

  it('--dry-run needs no confirmation and sends nothing', async () => {
    const ticket = liveTicket();
    const result = await sendsNothing(h, () => h.cli(['delete', String(ticket.id), '--dry-run']));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send DELETE /api/TicketsApi/${ticket.id}`);
    expect(ticket.isDeleted).toBe(false);
  });
});
