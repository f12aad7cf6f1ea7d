import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf } from '../../src/errors.js';
import { run } from '../../src/commands/forward.js';
import type { Harness } from '../helpers/harness.js';
import { changeInDoubtStderr, frontEnv, routeCount, sendsNothing, startFrontServer, unusedTicket, useHarness } from '../helpers/sandbox-state.js';

const FORWARD = 'POST /api/TicketsApi/forward/{id}';

let h: Harness;
useHarness({ profiles: ['viewer'] }, (harness) => (h = harness));

const liveTicket = () => unusedTicket(h);

const conversations = (id: number) => h.sandbox.state.conversations.filter((c) => c.ticketId === id);
const forwardMails = (id: number) => h.sandbox.state.outbox.filter((m) => m.event === 'forward' && m.ticketId === id);
const forwards = () => routeCount(h, FORWARD);

describe('tkt forward', () => {
  it('keeps the message written in the editor when the forward fails, in the drafts folder, and says where', async () => {
    const ticket = liveTicket();
    const { ctx, stderr } = await h.context({
      tty: true,
      answers: [
        {
          kind: 'editor',
          edit: () => {
            ticket.isDeleted = true;
            return 'Can you look at this?';
          },
        },
      ],
    });
    const error = await run({ id: String(ticket.id), to: ['vendor@example.com'] }, ctx).catch((caught: unknown) => caught);
    expect(exitCodeOf(error)).toBe(3);
    const draft = join(h.configDir, 'drafts', `forward-${ticket.id}.txt`);
    expect(await readFile(draft, 'utf8')).toBe('Can you look at this?\n');
    expect(stderr()).toBe(
      `your message was saved to ${draft}\nhint: send it with "tkt forward ${ticket.id} --to vendor@example.com --message-file ${draft}"\n`,
    );
  });

  it('forwards with Fwd: <title>, logging the conversation and sending the e-mail', async () => {
    const ticket = liveTicket();
    const result = await h.cli(['forward', String(ticket.id), '--to', 'vendor@example.com', '--cc', 'lead@example.com', '--message', 'Please check']);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: `✓ forwarded #${ticket.id} to vendor@example.com: Fwd: ${ticket.title}\n` });
    expect(conversations(ticket.id).at(-1)).toMatchObject({
      type: 'Forward',
      to: 'vendor@example.com',
      cc: 'lead@example.com',
      subject: `Fwd: ${ticket.title}`,
      message: 'Please check',
      draft: false,
    });
    expect(forwardMails(ticket.id)).toHaveLength(1);
  });

  it('refuses a --subject with a line break or a control character, exit 2 before any request; Fwd: a title with line breaks is one line', async () => {
    const ticket = liveTicket();
    const refused = await sendsNothing(h, () => h.cli(['forward', String(ticket.id), '--to', 'vendor@example.com', '--subject', 'a\nb', '--message', 'x']));
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: 'error: --subject has a line break (a subject is one line)\n' });
    const bell = await sendsNothing(h, () => h.cli(['forward', String(ticket.id), '--to', 'vendor@example.com', '--subject', 'ding\u0007', '--message', 'x']));
    expect(bell).toMatchObject({ code: 2, stderr: 'error: --subject has a control character (U+0007)\n' });

    ticket.title = 'Two\nlines';
    const result = await h.cli(['-q', 'forward', String(ticket.id), '--to', 'vendor@example.com', '--message', 'Please check']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ subject: 'Fwd: Two lines' });
  });

  it('sends every --to and --cc given, each address once', async () => {
    const ticket = liveTicket();
    const result = await h.cli([
      '-q',
      'forward',
      String(ticket.id),
      '--to',
      'v@example.com',
      '--to',
      'w@example.com',
      '--cc',
      'l@example.com',
      '--cc',
      'l@example.com',
      '--message',
      'M',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ to: 'v@example.com, w@example.com', cc: 'l@example.com' });
    expect(forwardMails(ticket.id).at(-1)).toMatchObject({ to: ['v@example.com', 'w@example.com'], cc: ['l@example.com'] });
  });

  it('--draft logs a draft and sends no e-mail; the message is optional without a terminal', async () => {
    const ticket = liveTicket();
    const result = await h.cli(['-q', 'forward', String(ticket.id), '--to', 'vendor@example.com', '--subject', 'Later', '--draft']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ type: 'Forward', subject: 'Later', message: null, draft: true });
    expect(forwardMails(ticket.id)).toEqual([]);
  });

  it('is exit 2 without --to when it cannot ask, sending nothing', async () => {
    const ticket = liveTicket();
    const result = await sendsNothing(h, () => h.cli(['forward', String(ticket.id), '--message', 'x']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing --to');
  });

  it('asks for the recipient and opens the editor at a terminal, naming the ticket', async () => {
    const ticket = liveTicket();
    const { ctx, prompter } = await h.context({
      tty: true,
      answers: [
        { kind: 'input', message: 'Forward to', value: 'desk@example.com' },
        { kind: 'editor', message: `Forward #${ticket.id}: ${ticket.title}`, value: 'See below' },
      ],
    });
    await run({ id: String(ticket.id), draft: false, attach: [], dryRun: false }, ctx);
    prompter.assertDone();
    expect(conversations(ticket.id).at(-1)).toMatchObject({ to: 'desk@example.com', message: 'See below' });
  });

  it('maps errors: unknown ticket exit 3 (GET 404 or forward 400), no permission exit 5', async () => {
    expect((await h.cli(['forward', '999999', '--to', 'a@example.com'])).code).toBe(3);
    expect((await h.cli(['forward', '999999', '--to', 'a@example.com', '--subject', 'S'])).code).toBe(3);
    const ticket = liveTicket();
    expect((await h.cli(['--profile', 'viewer', 'forward', String(ticket.id), '--to', 'a@example.com'])).code).toBe(5);
  });

  it('refuses a malformed address in --to or --cc with exit 2 before any request, naming the option and the value', async () => {
    const ticket = liveTicket();
    for (const [flag, value, bad] of [
      ['--to', 'not-an-address', 'not-an-address'],
      ['--to', 'a@example.com b@example.com', 'a@example.com b@example.com'],
      ['--cc', 'lead@example.com, nobody', 'nobody'],
      ['--cc', 'lead@@example.com', 'lead@@example.com'],
    ] as const) {
      const argv = ['forward', String(ticket.id), '--to', 'vendor@example.com', '--message', 'x', flag, value];
      const result = await sendsNothing(h, () => h.cli(argv));
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toContain(`error: ${flag}: "${bad}" is not an e-mail address`);
    }
    const several = await h.cli([
      'forward',
      String(ticket.id),
      '--to',
      'vendor@example.com; desk@example.com',
      '--cc',
      'a@example.com,b@example.com',
      '--draft',
    ]);
    expect(several.code, several.stderr).toBe(0);
    expect(forwardMails(ticket.id)).toEqual([]);
  });

  it('--dry-run sends nothing', async () => {
    const ticket = liveTicket();
    const before = forwards();
    const result = await h.cli(['forward', String(ticket.id), '--to', 'a@example.com', '--draft', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send POST /api/TicketsApi/forward/${ticket.id}`);
    expect(result.stdout).toMatch(/HasDraft:\s+true/);
    expect(forwards()).toBe(before);
  });
});

describe('tkt forward whose request was sent and never answered', () => {
  it('says the forward is in doubt, naming the ticket and how to look at it (exit 1, as a single ID in doubt)', async () => {
    const ticket = liveTicket();
    const server = await startFrontServer(h, (req) => req.method === 'POST' && req.url === `/api/TicketsApi/forward/${ticket.id}`);
    try {
      // --subject given: the forward is the only request.
      const args = ['forward', String(ticket.id), '--to', 'vendor@example.com', '--subject', 'S', '--message', 'M', '--timeout', '0.5'];
      const result = await h.cli(args, { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(changeInDoubtStderr(ticket.id, `${server.url}/api/TicketsApi/forward/${ticket.id}`));
    } finally {
      await server.close();
    }
  });
});
