import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf, type TktError, whatHappened } from '../../src/errors.js';
import { run } from '../../src/commands/resolve.js';
import type { Harness } from '../helpers/harness.js';
import { routeCount, sendsNothing, unusedConsecutiveTickets, unusedTicket, unusedTickets, useHarness, userId } from '../helpers/sandbox-state.js';

const RESOLVE = 'POST /api/TicketsApi/resolve/{id}';
const OPEN = 1;
const RESOLVED = 6;
const CLOSED = 7;

let h: Harness;
useHarness({ profiles: ['viewer'] }, (harness) => (h = harness));

/** The CLI run, asserting it resolved nothing (it may read the ticket). */
async function resolvesNothing<T>(action: () => Promise<T>): Promise<T> {
  const before = resolves();
  const result = await action();
  expect(resolves()).toBe(before);
  return result;
}

/** A live open ticket no other test of this file has touched. */
const openTicket = () => unusedTicket(h, (t) => t.ticketStatusId === OPEN);
const resolves = () => routeCount(h, RESOLVE);

/** The resolution notes kept in drafts/ for ticket `id`, whatever the profile. */
async function draftsOf(id: number): Promise<string[]> {
  const files = await readdir(join(h.configDir, 'drafts')).catch(() => []);
  return files.filter((file) => file.endsWith(`resolution-${id}.txt`));
}

describe('tkt resolve', () => {
  it('keeps the notes written in the editor when the service refuses them, in the drafts folder, and says where', async () => {
    // Neither open nor resolved nor closed: the open ones are for the tests that resolve, a closed one is refused.
    const ticket = unusedTicket(h, (t) => t.ticketStatusId !== OPEN && t.ticketStatusId !== RESOLVED && t.ticketStatusId !== CLOSED);
    const status = ticket.ticketStatusId;
    const { ctx, stderr } = await h.context({
      tty: true,
      globals: { profile: 'viewer' },
      answers: [
        { kind: 'input', message: 'Resolution details', value: '' },
        { kind: 'editor', message: `Resolution details for #${ticket.id}`, value: 'Cable reseated\n#1234 had the same' },
      ],
    });
    const error = await run({ ids: [String(ticket.id)], concurrency: '4', dryRun: false }, ctx).catch((caught: unknown) => caught);
    expect(exitCodeOf(error)).toBe(5);
    // Named after the profile, which is not the default: ticket 1023 of another service is another ticket.
    const draft = join(h.configDir, 'drafts', `viewer-resolution-${ticket.id}.txt`);
    expect(await readFile(draft, 'utf8')).toBe('Cable reseated\n#1234 had the same\n');
    // With the profile, which the file's name is not enough to choose.
    expect(stderr()).toBe(
      `your resolution notes were saved to ${draft}\nhint: send it with "tkt resolve ${ticket.id} --details-file ${draft} --profile viewer"\n`,
    );
    expect(ticket.ticketStatusId).toBe(status);
  });

  it('gives the command of notes kept for several tickets, a key or the IDs on stdin: the tickets as given, with --by', async () => {
    // Neither open nor settled: the open ones are for the tests that resolve.
    const [first, second, keyed] = unusedTickets(h, 3, (t) => ![OPEN, RESOLVED, CLOSED].includes(t.ticketStatusId));
    const statuses = [first, second, keyed].map((ticket) => ticket!.ticketStatusId);
    keyed!.title = `${keyed!.title} [ci:drafts]`;
    const kept = async (ids: string[], extra: { dedupKey?: string; requester?: string } = {}, stdin = '') => {
      const { ctx, stderr } = await h.context({ tty: true, stdin, globals: { profile: 'viewer' }, answers: [{ kind: 'input', value: 'Cable reseated' }] });
      // Typed, then refused: the viewer may not resolve.
      const error = await run({ ids, concurrency: '4', dryRun: false, by: 'tech', ...extra }, ctx).catch((caught: unknown) => caught);
      expect(exitCodeOf(error)).toBe(5);
      const lines = stderr().split('\n');
      const saved = lines.findIndex((line) => line.startsWith('your resolution notes were saved to '));
      const draft = /^your resolution notes were saved to (.*viewer-resolution(-\d+)?\.txt)$/.exec(lines[saved]!)![1]!;
      expect(await readFile(draft, 'utf8')).toBe('Cable reseated\n');
      return lines[saved + 1]!.replace(draft, 'FILE');
    };

    expect(await kept([String(first!.id), String(second!.id)])).toBe(
      `hint: send it with "tkt resolve ${first!.id} ${second!.id} --by tech --details-file FILE --profile viewer"`,
    );
    expect(await kept([], { dedupKey: 'ci:drafts', requester: keyed!.creatorId })).toBe(
      `hint: send it with "tkt resolve --dedup-key ci:drafts --requester ${keyed!.creatorId} --by tech --details-file FILE --profile viewer"`,
    );
    // A command line cannot hold what came on stdin: the hint says to give it again.
    expect(await kept(['-'], {}, `${first!.id}\n`)).toBe(
      `hint: send it with "tkt resolve - --by tech --details-file FILE --profile viewer", the ticket IDs on stdin again`,
    );
    expect([first, second, keyed].map((ticket) => ticket!.ticketStatusId)).toEqual(statuses);
  });

  it('keeps the notes being typed when Ctrl-C or Esc closes their question, before the error: exit 130, or 1 for Esc', async () => {
    // Nothing is sent nor read before the notes of several tickets: any two do, used by other tests or not.
    const ids = h.sandbox.state.tickets.slice(0, 2).map((ticket) => String(ticket.id));
    for (const [closing, code, said] of [
      [{ interrupt: true }, 130, 'interrupted'],
      [{ cancel: true }, 1, 'cancelled: Esc closed the question'],
    ] as const) {
      const { ctx, stderr } = await h.context({ tty: true, answers: [{ kind: 'input', message: 'Resolution details for', ...closing, typed: 'Cable rese' }] });
      const error = await resolvesNothing(() => run({ ids, concurrency: '4', dryRun: false }, ctx).catch((caught: unknown) => caught));
      expect(exitCodeOf(error)).toBe(code);
      expect((error as Error).message).toBe(said);
      const draft = /^your resolution notes were saved to (.*drafts\/resolution(-\d+)?\.txt)$/m.exec(stderr())?.[1];
      expect(stderr()).toBe(`your resolution notes were saved to ${draft}\nhint: send it with "tkt resolve ${ids.join(' ')} --details-file ${draft}"\n`);
      expect(await readFile(draft!, 'utf8')).toBe('Cable rese\n');
    }
  });

  it('resolves as the logged-in user, records the resolution and e-mails the requester', async () => {
    const ticket = openTicket();
    const result = await h.cli(['resolve', String(ticket.id), '--details', 'Replaced the toner']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${ticket.id} resolved\n`, stderr: '' });
    expect(ticket.ticketStatusId).toBe(RESOLVED);
    expect(ticket.resolution).toMatchObject({ details: 'Replaced the toner', submitBy: userId(h, 'admin') });
    expect(h.sandbox.state.outbox.some((m) => m.event === 'resolution' && m.ticketId === ticket.id)).toBe(true);
  });

  it('treats resolving twice as success with a note', async () => {
    const ticket = openTicket();
    expect((await h.cli(['resolve', String(ticket.id), '--details', 'done'])).code).toBe(0);
    const again = await h.cli(['resolve', String(ticket.id), '--details', 'done again']);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`✓ #${ticket.id} already resolved, nothing changed\n`);
    expect(ticket.resolution?.details).toBe('done');
  });

  it('takes --by as a username and the details from stdin', async () => {
    const ticket = openTicket();
    const result = await h.cli(['-q', 'resolve', String(ticket.id), '--by', 'tech', '--details', '-'], { stdin: 'Rebooted the switch\n' });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(ticket.resolution).toMatchObject({ details: 'Rebooted the switch\n', submitBy: userId(h, 'tech') });
  });

  it('asks for the details at a terminal, naming the ticket', async () => {
    const ticket = openTicket();
    const { ctx, stdout, prompter } = await h.context({
      tty: true,
      answers: [{ kind: 'input', message: `Resolution details for #${ticket.id}: ${ticket.title}`, value: 'Fixed on site' }],
    });
    await run({ ids: [String(ticket.id)], concurrency: '4', dryRun: false }, ctx);
    prompter.assertDone();
    expect(stdout()).toBe(`✓ #${ticket.id} resolved\n`);
    expect(ticket.resolution?.details).toBe('Fixed on site');
  });

  // ID... commands take ranges as tkt prints them: the prompt names the range as typed.
  it('asks for the details at a terminal for a range, naming it as typed', async () => {
    // Neither resolved nor closed, and not open: the open ones are for the other tests.
    const tickets = unusedConsecutiveTickets(h, 2, (t) => ![OPEN, RESOLVED, CLOSED].includes(t.ticketStatusId));
    const range = `${tickets[0]!.id}-${tickets[1]!.id}`;
    const { ctx, prompter } = await h.context({
      tty: true,
      answers: [{ kind: 'input', message: `Resolution details for #${range}`, value: 'Fixed on site' }],
    });
    await run({ ids: [range], concurrency: '4', dryRun: false }, ctx);
    prompter.assertDone();
    for (const ticket of tickets) expect(ticket.resolution?.details).toBe('Fixed on site');
  });

  it('at a terminal, says a resolved ticket is already resolved before asking for notes, changing nothing', async () => {
    // It asked for the notes (at the prompt, then in the editor) and only then said so.
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === RESOLVED);
    const resolution = structuredClone(ticket.resolution);
    const { ctx, stdout, stderr, prompter } = await h.context({ tty: true });

    await resolvesNothing(() => run({ ids: [String(ticket.id)], concurrency: '4', dryRun: false }, ctx));

    expect(prompter.asked).toEqual([]);
    expect(stdout()).toBe(`✓ #${ticket.id} already resolved, nothing changed\n`);
    expect(stderr()).toBe('');
    expect(ticket.ticketStatusId).toBe(RESOLVED);
    expect(ticket.resolution).toEqual(resolution);
    expect(await draftsOf(ticket.id)).toEqual([]);
  });

  it('at a terminal, refuses a closed ticket before asking for notes: exit 1, nothing sent, no draft', async () => {
    // It asked for the notes, kept them in drafts/, and then refused the ticket.
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === CLOSED);
    const refusal = async (notes: { details?: string }) => {
      const { ctx, stdout, stderr, prompter } = await h.context({ tty: true });
      const error = await resolvesNothing(() =>
        run({ ids: [String(ticket.id)], concurrency: '4', dryRun: false, ...notes }, ctx).catch((caught: unknown) => caught),
      );
      return { error, stdout: stdout(), stderr: stderr(), asked: prompter.asked };
    };

    const refused = await refusal({});

    expect(refused.asked).toEqual([]);
    expect(exitCodeOf(refused.error)).toBe(1);
    expect(refused.stdout).toBe('');
    // Told as with the notes given by flag.
    const withDetails = await refusal({ details: 'x' });
    expect(refused.stderr).toBe(withDetails.stderr);
    expect(refused.error).toEqual(withDetails.error);
    expect(whatHappened(refused.error as TktError)).toContain(`ticket #${ticket.id} is closed: reopen it first`);
    expect(ticket.ticketStatusId).toBe(CLOSED);
    expect(await draftsOf(ticket.id)).toEqual([]);
  });

  it('says first that a word given as an ID is none: the notes meant for --details, typed without it', async () => {
    // Nothing is sent: any ticket's ID does.
    const result = await sendsNothing(h, () => h.cli(['resolve', '1001', 'fixed it']));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: invalid ticket ID "fixed it"/);
  });

  it('is exit 2 without --details when it cannot ask, sending nothing', async () => {
    const ticket = openTicket();
    const result = await sendsNothing(h, () => h.cli(['resolve', String(ticket.id)]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing --details');
  });

  it('refuses reading both IDs and details from stdin', async () => {
    const result = await h.cli(['resolve', '-', '--details', '-'], { stdin: '1\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot both be read from stdin');
  });

  it('prints a JSON Line per ID with --json, with the body the service answered', async () => {
    const ticket = openTicket();
    const result = await h.cli(['--json', 'resolve', String(ticket.id), '--details', 'ok']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: ticket.id, ok: true, status: 200, body: `Ticket ${ticket.id} resolved.` });
  });

  it('is exit 3 for a ticket that does not exist, from the read before the resolve, in a dry run too', async () => {
    for (const dryRun of [[], ['--dry-run']]) {
      const result = await resolvesNothing(() => h.cli(['resolve', '999999', '--details', 'x', ...dryRun]));
      expect(result.code).toBe(3);
      expect(result.stderr).toMatch(/error: #999999 not found \(HTTP 404\)/);
    }
  });

  it('refuses a closed ticket, which the service would move back to Resolved: exit 1, nothing sent, in a dry run too', async () => {
    // It answered "✓ #N resolved", the ticket back in Resolved and the requester mailed again.
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === CLOSED);
    for (const dryRun of [[], ['--dry-run']]) {
      const result = await resolvesNothing(() => h.cli(['resolve', String(ticket.id), '--details', 'x', ...dryRun]));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`ticket #${ticket.id} is closed: reopen it first`);
      expect(result.stderr).toContain(`hint: run "tkt reopen ${ticket.id}", then resolve it`);
    }
    expect(ticket.ticketStatusId).toBe(CLOSED);
  });

  it('--dry-run of a resolved ticket says what the real run says, and plans nothing', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === RESOLVED);
    const result = await resolvesNothing(() => h.cli(['resolve', String(ticket.id), '--details', 'x', '--dry-run']));
    expect(result).toMatchObject({ code: 0, stdout: `dry run: #${ticket.id} already resolved, nothing changed (nothing would be sent)\n` });
  });

  it('is exit 5 for a user without Tickets.Resolve', async () => {
    const ticket = openTicket();
    const result = await h.cli(['--profile', 'viewer', 'resolve', String(ticket.id), '--details', 'x']);
    expect(result.code).toBe(5);
    expect(ticket.ticketStatusId).toBe(OPEN);
  });

  it('names an unknown --by user before sending anything', async () => {
    const ticket = openTicket();
    const before = resolves();
    const result = await h.cli(['resolve', String(ticket.id), '--details', 'x', '--by', 'nobody-at-all']);
    expect(result.code).toBe(2);
    // Named after the option typed, not the lookup behind it ("assignee").
    expect(result.stderr).toContain('error: unknown user "nobody-at-all" for --by');
    expect(resolves()).toBe(before);
  });

  it('at a terminal, asks who resolves when the token names no user (TKT_TOKEN without a subject claim)', async () => {
    const ticket = openTicket();
    // The technicians lookup comes from the cache: the sandbox refuses a token without a subject.
    expect((await h.cli(['resolve', String(ticket.id), '--details', 'x', '--by', 'tech', '--dry-run'])).code).toBe(0);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;
    const env = { TKT_TOKEN: token, TKT_URL: h.sandbox.url };

    const { ctx, prompter } = await h.context({ tty: true, env, answers: [{ kind: 'search', message: '--by', value: userId(h, 'tech') }] });
    // Asked before any request; the read of the ticket that follows is refused by the sandbox, which
    // takes no token without a subject (tkt close, which does not read, shows the SubmitBy chosen).
    const before = resolves();
    const refused = await run({ ids: [String(ticket.id)], details: 'Swapped the cable', concurrency: '4', dryRun: true }, ctx).catch((error: unknown) => error);
    expect(exitCodeOf(refused)).toBe(4);
    expect(resolves()).toBe(before);
    prompter.assertDone();
    expect(prompter.asked[0]?.message).toContain('Who resolves this ticket (--by)?');
    expect(prompter.asked[0]?.choices).toContainEqual(expect.stringContaining('tech'));

    // One ticket is "this ticket" (an ID typed twice is one), several "these tickets"; stdin's are not read yet. Refused
    // before any request: the IDs are never read.
    for (const [ids, tickets] of [
      [[String(ticket.id)], 'this ticket'],
      [[String(ticket.id), `#${ticket.id}`], 'this ticket'],
      [[String(ticket.id), String(ticket.id + 1)], 'these tickets'],
      [[`${ticket.id}-${ticket.id + 1}`], 'these tickets'],
    ] as const) {
      const piped = await sendsNothing(h, () => h.cli(['resolve', ...ids, '--details', 'x'], { env }));
      expect(piped.code, ids.join(' ')).toBe(2);
      expect(piped.stderr, ids.join(' ')).toContain(`error: cannot tell who resolves ${tickets}: the token carries no user ID\nhint: pass --by USER`);
    }
    const stdin = await sendsNothing(h, () => h.cli(['resolve', '-', '--details', 'x'], { env, stdin: `${ticket.id}\n` }));
    expect(stdin.stderr).toContain('error: cannot tell who resolves the tickets on stdin: the token carries no user ID');
  });

  // A masked or cut-short TKT_TOKEN is no login (exit 4): a person asked to pick who resolves
  // would only meet the service's 401 after answering (the technicians' list is a request).
  it('at a terminal, asks nothing when the token cannot be read at all: exit 4, nothing sent', async () => {
    const { ctx, prompter } = await h.context({ tty: true, env: { TKT_TOKEN: '***', TKT_URL: h.sandbox.url } });

    // Nothing is sent: any ticket does.
    const refused = await sendsNothing(h, () => run({ ids: ['1001'], details: 'Swapped the cable' }, ctx).catch((error: unknown) => error));

    expect(exitCodeOf(refused)).toBe(4);
    expect((refused as Error).message).toBe(
      'cannot tell who resolves this ticket: tkt cannot read the token (not a JWT: cut short, masked, or another kind of token?)',
    );
    expect(prompter.asked).toEqual([]);
  });

  it('at a terminal, a bad --concurrency is said before the notes are asked for', async () => {
    const { ctx, prompter } = await h.context({ tty: true });

    const refused = await sendsNothing(h, () => run({ ids: ['1001'], concurrency: '99' }, ctx).catch((error: unknown) => error));

    expect(exitCodeOf(refused)).toBe(2);
    expect((refused as Error).message).toBe('invalid --concurrency "99": expected a whole number from 1 to 32');
    expect(prompter.asked).toEqual([]);
  });

  it('--dry-run prints the form and sends nothing', async () => {
    const ticket = openTicket();
    const result = await resolvesNothing(() => h.cli(['resolve', String(ticket.id), '--details', 'Would fix', '--dry-run']));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send POST /api/TicketsApi/resolve/${ticket.id}`);
    expect(result.stdout).toMatch(/Details:\s+Would fix/);
    // Whose the ID is, from the login: no request to name the user.
    expect(result.stdout).toMatch(new RegExp(`SubmitBy:\\s+${userId(h, 'admin')} \\(Ada Admin, you\\)\n`));
    expect(ticket.ticketStatusId).toBe(OPEN);
  });
});
