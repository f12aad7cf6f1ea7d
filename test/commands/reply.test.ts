import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type ReplyOptions } from '../../src/commands/reply.js';
import { EditorFailedError, exitCodeOf } from '../../src/errors.js';
import type { SandboxTicket } from '../../src/sandbox/index.js';
import type { Harness } from '../helpers/harness.js';
import {
  changeInDoubtStderr,
  frontEnv,
  halvedAnswers,
  routeCount,
  sendsNothing,
  startFrontServer,
  unusedTicket,
  useHarness,
  useTempDir,
} from '../helpers/sandbox-state.js';

const REPLY = 'POST /api/TicketsApi/reply/{id}';
const GET = 'GET /api/TicketsApi/{id}';
const OPEN = 1;
const RESOLVED = 6;

let h: Harness;
let dir: string;
useHarness({ sandbox: { seedTickets: 40 }, profiles: ['viewer'] }, (harness) => (h = harness));
useTempDir('tkt-reply-', (path) => (dir = path));

const ticketWhere = (predicate: (t: SandboxTicket) => boolean) => unusedTicket(h, (t) => !t.locked && predicate(t));

function requesterOf(ticket: SandboxTicket) {
  return h.sandbox.state.users.find((u) => u.id === ticket.creatorId)!;
}

const conversations = (id: number) => h.sandbox.state.conversations.filter((c) => c.ticketId === id);
const count = (route: string) => routeCount(h, route);

function options(id: number, extra: Partial<ReplyOptions> = {}): ReplyOptions {
  return { id: String(id), attach: [], dryRun: false, ...extra };
}

describe('tkt reply', () => {
  it("replies to the requester's e-mail with Re: <title>, logging it and sending the e-mail", async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const email = requesterOf(ticket).email;
    const result = await h.cli(['reply', String(ticket.id), '--message', 'On its way']);
    expect(result).toMatchObject({ code: 0, stderr: '', stdout: `✓ replied to #${ticket.id} to ${email}: Re: ${ticket.title}\n` });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ type: 'Reply', to: email, subject: `Re: ${ticket.title}`, message: 'On its way' });
    expect(h.sandbox.state.outbox.at(-1)).toMatchObject({ event: 'reply', ticketId: ticket.id, to: [email], subject: `Re: ${ticket.title}` });
  });

  it('refuses a --subject with a line break (an e-mail header), exit 2 before any request; a title with one gives a subject on one line', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const refused = await sendsNothing(h, () => h.cli(['reply', String(ticket.id), '--subject', 'Hello\r\nBcc: all@example.com', '--message', 'hi']));
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: 'error: --subject has a line break (a subject is one line)\n' });

    ticket.title = 'Printer\r\n  jammed\u2028again';
    const result = await h.cli(['-q', 'reply', String(ticket.id), '--message', 'On its way']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ subject: 'Re: Printer   jammed again' });
  });

  it('sends the subject and message composed (NFC), as pasted decomposed from macOS or not (README: Finding tickets)', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const result = await h.cli(['-q', 'reply', String(ticket.id), '--subject', 'Gerät'.normalize('NFD'), '--message', 'Grüße, Jörg'.normalize('NFD')]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ subject: 'Gerät', message: 'Grüße, Jörg' });
  });

  it('takes --to, --cc and --subject without fetching the ticket', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const gets = count(GET);
    const result = await h.cli(
      ['-q', 'reply', String(ticket.id), '--to', 'vendor@example.com', '--cc', 'boss@example.com', '--subject', 'Parts', '--message-file', '-'],
      { stdin: 'from stdin\n' },
    );
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(count(GET)).toBe(gets);
    expect(conversations(ticket.id).at(-1)).toMatchObject({ to: 'vendor@example.com', cc: 'boss@example.com', subject: 'Parts', message: 'from stdin\n' });
  });

  it('sends every --to and --cc given, repeated or comma-separated, each address once', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId !== OPEN && t.ticketStatusId !== RESOLVED);
    const recipients = ['--cc', 'a@example.org', '--cc', 'b@example.org; A@example.org', '--to', 'c@example.org', '--to', 'd@example.org,c@example.org'];
    const planned = await h.cli(['--json', 'reply', String(ticket.id), '--message', 'hi', '--subject', 'S', ...recipients, '--dry-run']);
    expect(JSON.parse(planned.stdout)).toMatchObject({ fields: { SendTo: 'c@example.org, d@example.org', CcTo: 'a@example.org, b@example.org' } });
    const sent = await h.cli(['-q', 'reply', String(ticket.id), '--message', 'hi', '--subject', 'S', ...recipients]);
    expect(sent).toMatchObject({ code: 0, stderr: '' });
    expect(h.sandbox.state.outbox.at(-1)).toMatchObject({ to: ['c@example.org', 'd@example.org'], cc: ['a@example.org', 'b@example.org'] });
  });

  it('reads the message from stdin with --message -', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const result = await h.cli(['-q', 'reply', String(ticket.id), '--message', '-'], { stdin: 'piped answer\nsecond line\n' });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ type: 'Reply', message: 'piped answer\nsecond line\n' });
  });

  it('reads the message from a file and prints the body with --json', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const file = join(dir, 'answer.txt');
    await writeFile(file, 'Line one\nLine two\n');
    const result = await h.cli(['--json', 'reply', String(ticket.id), '--message-file', file]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ success: true });
    expect(conversations(ticket.id).at(-1)?.message).toBe('Line one\nLine two\n');
  });

  it('opens the editor at a terminal when no message is given, naming the ticket as triage does', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const { ctx, prompter } = await h.context({
      tty: true,
      answers: [{ kind: 'editor', message: `Reply to #${ticket.id}: ${ticket.title}`, value: 'Typed in vi' }],
    });
    await run(options(ticket.id), ctx);
    prompter.assertDone();
    expect(conversations(ticket.id).at(-1)?.message).toBe('Typed in vi');
  });

  it('keeps the message written in the editor when the reply fails, in the drafts folder, and says where', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const { ctx, stderr } = await h.context({
      tty: true,
      answers: [
        {
          kind: 'editor',
          edit: () => {
            // Deleted by someone else while the reply was being written.
            ticket.isDeleted = true;
            return 'Same fault as\n#1234 last week.';
          },
        },
      ],
    });
    const error = await run(options(ticket.id), ctx).catch((caught: unknown) => caught);
    expect(exitCodeOf(error)).toBe(3);
    const draft = join(h.configDir, 'drafts', `reply-${ticket.id}.txt`);
    expect(await readFile(draft, 'utf8')).toBe('Same fault as\n#1234 last week.\n');
    // Then the command that sends it (README, Drafts).
    expect(stderr()).toBe(`your message was saved to ${draft}\nhint: send it with "tkt reply ${ticket.id} --message-file ${draft}"\n`);
    expect(conversations(ticket.id).some((entry) => entry.message?.startsWith('Same fault'))).toBe(false);
  });

  it('keeps the message written in an editor that then failed (vi :cq, killed), as a failed reply does', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const { ctx, stderr } = await h.context({
      tty: true,
      answers: [
        {
          kind: 'editor',
          edit: () => {
            throw new EditorFailedError('the editor "vi" failed (exit code 1); nothing was sent', 'Half a reply');
          },
        },
      ],
    });
    const error = await run(options(ticket.id), ctx).catch((caught: unknown) => caught);
    expect(exitCodeOf(error)).toBe(1);
    const draft = join(h.configDir, 'drafts', `reply-${ticket.id}.txt`);
    expect(await readFile(draft, 'utf8')).toBe('Half a reply\n');
    expect(stderr()).toBe(`your message was saved to ${draft}\nhint: send it with "tkt reply ${ticket.id} --message-file ${draft}"\n`);
  });

  it('keeps the message written in the editor when the reply is in doubt: sent, and never answered', async () => {
    const ticket = ticketWhere(() => true);
    // The connection is cut once the reply has been sent: whether it was carried out is unknown.
    const server = await startFrontServer(h, (req) => {
      const cut = req.method === 'POST' && req.url === `/api/TicketsApi/reply/${ticket.id}`;
      if (cut) req.socket.destroy();
      return cut;
    });
    try {
      const { ctx, stderr } = await h.context({
        tty: true,
        env: frontEnv(h, server),
        answers: [{ kind: 'editor', value: 'Did this reach you?' }],
      });
      const error = await run(options(ticket.id, { to: ['a@example.com'], subject: 'S' }), ctx).catch((caught: unknown) => caught);
      expect(exitCodeOf(error)).toBe(1);
      const draft = join(h.configDir, 'drafts', `reply-${ticket.id}.txt`);
      expect(await readFile(draft, 'utf8')).toBe('Did this reach you?\n');
      // The options given are in the command: the same reply.
      expect(stderr()).toBe(
        `your message was saved to ${draft}\nhint: send it with "tkt reply ${ticket.id} --to a@example.com --subject S --message-file ${draft}"\n`,
      );
    } finally {
      await server.close();
    }
  });

  it("gives the draft's command with the profile of the run, the requester and the options given, quoted for the shell", async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const requester = requesterOf(ticket);
    const file = join(dir, 'log of 2 May.txt');
    await writeFile(file, 'log\n');
    const { ctx, stderr } = await h.context({
      tty: true,
      env: { TKT_PROFILE: 'viewer' },
      answers: [
        {
          kind: 'editor',
          edit: () => {
            ticket.isDeleted = true;
            return 'Still broken';
          },
        },
      ],
    });
    const asked = options(ticket.id, { asRequester: requester.username, subject: "Tom's printer", attach: [file] });
    expect(exitCodeOf(await run(asked, ctx).catch((caught: unknown) => caught))).toBe(3);
    const draft = join(h.configDir, 'drafts', `viewer-reply-${ticket.id}.txt`);
    // TKT_PROFILE is named: the command works in any shell.
    const command = `tkt reply ${ticket.id} --as-requester ${requester.username} --subject 'Tom'\\''s printer' --attach '${file}' --message-file ${draft} --profile viewer`;
    expect(stderr()).toBe(`your message was saved to ${draft}\nhint: send it with "${command}"\n`);
  });

  it('keeps no draft of a message given by option, file or stdin: the user still has it', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const file = join(dir, 'gone.txt');
    await writeFile(file, 'From a file\n');
    ticket.isDeleted = true;
    const given = [
      await h.cli(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message', 'Inline']),
      await h.cli(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', file]),
      await h.cli(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message', '-'], { stdin: 'From stdin\n' }),
    ];
    expect(given.map((result) => result.code)).toEqual([3, 3, 3]);
    for (const result of given) expect(result.stderr).not.toContain('saved');
    expect(existsSync(join(h.configDir, 'drafts', `reply-${ticket.id}.txt`))).toBe(false);
  });

  it('is exit 2 without a message when it cannot ask, sending nothing', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const result = await sendsNothing(h, () => h.cli(['reply', String(ticket.id)]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('missing --message');
  });

  it('needs --to when the requester has no e-mail', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const requester = requesterOf(ticket);
    const email = requester.email;
    requester.email = '';
    try {
      const replies = count(REPLY);
      const result = await h.cli(['reply', String(ticket.id), '--message', 'x']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('has no requester e-mail: pass --to');
      expect(count(REPLY)).toBe(replies);
    } finally {
      requester.email = email;
    }
  });

  it('maps an unknown ticket to exit 3, whether the GET answers 404 or the reply itself 400', async () => {
    const fetched = await h.cli(['reply', '999999', '--message', 'x']);
    expect(fetched.code).toBe(3);
    const direct = await h.cli(['reply', '999999', '--message', 'x', '--to', 'a@example.com', '--subject', 'S']);
    expect(direct.code).toBe(3);
    expect(direct.stderr).toContain('HTTP 400');
  });

  it('refuses a malformed address in --to or --cc with exit 2 before any request, naming the option', async () => {
    // Refused before the ticket is read, so any ID will do and none is used up.
    for (const [flag, value] of [
      ['--to', 'anna.example.com'],
      ['--cc', 'x@'],
    ] as const) {
      const result = await sendsNothing(h, () => h.cli(['reply', '1001', '--message', 'x', flag, value]));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: ${flag}: "${value}" is not an e-mail address`);
    }
  });

  it('is exit 5 for a user without Tickets.Reply, logging nothing', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const before = conversations(ticket.id).length;
    const result = await h.cli(['--profile', 'viewer', 'reply', String(ticket.id), '--message', 'x']);
    expect(result.code).toBe(5);
    expect(conversations(ticket.id)).toHaveLength(before);
  });

  it('streams attachments intact and fails a skipped file type (exit 1), the reply sent', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const log = join(dir, 'trace.log');
    const exe = join(dir, 'tool.exe');
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => i % 251));
    await writeFile(log, bytes);
    await writeFile(exe, 'MZ');
    const result = await h.cli(['reply', String(ticket.id), '--message', 'logs', '--attach', log, '--attach', exe]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`✓ replied to #${ticket.id}`);
    expect(result.stderr).toContain('error: the service did not keep 1 of 2 files: tool.exe');
    const saved = h.sandbox.state.attachments.filter((a) => a.ticketId === ticket.id && a.fileName === 'trace.log');
    expect(saved.map((a) => a.sha256)).toEqual([createHash('sha256').update(bytes).digest('hex')]);
  });

  it('--dry-run shows the reply and sends nothing', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === OPEN);
    const replies = count(REPLY);
    const result = await h.cli(['reply', String(ticket.id), '--message', 'draft', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send POST /api/TicketsApi/reply/${ticket.id}`);
    expect(result.stdout).toContain(`Re: ${ticket.title}`);
    expect(result.stdout).toContain(requesterOf(ticket).email);
    expect(count(REPLY)).toBe(replies);
  });
});

describe('tkt reply --as-requester', () => {
  it('posts a requester reply that re-opens a resolved ticket', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === RESOLVED);
    const username = requesterOf(ticket).username;
    const result = await h.cli(['reply', String(ticket.id), '--as-requester', username, '--message', 'Still broken']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ replied to #${ticket.id} as ${username}: Re: ${ticket.title}\n` });
    expect(ticket.ticketStatusId).not.toBe(RESOLVED);
    expect(conversations(ticket.id).at(-1)).toMatchObject({ type: 'RequesterReply', subject: `Re: ${ticket.title}`, message: 'Still broken' });
  });

  it('takes the requester by full name, sending the username', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === RESOLVED);
    const requester = requesterOf(ticket);
    const result = await h.cli(['reply', String(ticket.id), '--as-requester', `${requester.firstName} ${requester.lastName}`, '--message', 'Again']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ replied to #${ticket.id} as ${requester.username}: Re: ${ticket.title}\n` });
    expect(conversations(ticket.id).at(-1)).toMatchObject({ type: 'RequesterReply', message: 'Again' });
  });

  it('is exit 2 for an unknown user, before sending, and refuses --to', async () => {
    const ticket = ticketWhere((t) => t.ticketStatusId === RESOLVED);
    const unknown = await h.cli(['reply', String(ticket.id), '--as-requester', 'nobody-here', '--message', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown user "nobody-here" for --as-requester');
    expect(ticket.ticketStatusId).toBe(RESOLVED);
    const withTo = await h.cli(['reply', String(ticket.id), '--as-requester', 'x', '--to', 'a@example.com', '--message', 'x']);
    expect(withTo.code).toBe(2);
  });
});

describe('tkt reply whose request was sent and never answered', () => {
  it('says the reply is in doubt, naming the ticket and how to look at it (exit 1, as a single ID in doubt)', async () => {
    const ticket = ticketWhere(() => true);
    const server = await startFrontServer(h, (req) => req.method === 'POST' && req.url === `/api/TicketsApi/reply/${ticket.id}`);
    try {
      // --to and --subject given: the reply is the only request.
      const args = ['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message', 'M', '--timeout', '0.5'];
      const result = await h.cli(args, { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(changeInDoubtStderr(ticket.id, `${server.url}/api/TicketsApi/reply/${ticket.id}`));
    } finally {
      await server.close();
    }
  });
});

describe('tkt reply answered 200 with a body cut in half', () => {
  it('says the reply is in doubt, not failed: the service had it, and most likely sent it (exit 1)', async () => {
    const ticket = ticketWhere(() => true);
    const path = `/api/TicketsApi/reply/${ticket.id}`;
    const server = await startFrontServer(
      h,
      halvedAnswers(h, (req) => req.method === 'POST' && req.url === path),
    );
    try {
      const before = conversations(ticket.id).length;
      const args = ['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message', 'half answered'];
      const result = await h.cli(args, { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: #${ticket.id} in doubt \\(it may have been carried out\\)\n` +
            `  unusable answer \\(HTTP 200\\): POST ${server.url}${path}: the service answered with JSON that does not parse [^\n]*\n` +
            `hint: look at it with "tkt show ${ticket.id}" before running this again\n$`,
        ),
      );
      expect(conversations(ticket.id)).toHaveLength(before + 1);
    } finally {
      await server.close();
    }
  });
});
