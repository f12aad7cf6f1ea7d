import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/program.js';
import { processSignals } from '../cli/fake-process.js';
import type { Harness } from '../helpers/harness.js';
import { argvTable } from '../helpers/program.js';
import { routeCount, sendsNothing, unusedTicket, useHarness, useTempDir, userId } from '../helpers/sandbox-state.js';

const CLOSE = 'POST /api/TicketsApi/close/{id}';
const OPEN = 1;
const CLOSED = 7;

let h: Harness;
let dir: string;
useHarness({ profiles: ['viewer'] }, (harness) => (h = harness));
useTempDir('tkt-close-', (path) => (dir = path));

const ticketWithStatus = (status: number) => unusedTicket(h, (t) => t.ticketStatusId === status);
const closures = (id: number) => h.sandbox.state.outbox.filter((m) => m.event === 'closure' && m.ticketId === id);
const closes = () => routeCount(h, CLOSE);

describe('tkt close', () => {
  it('closes a ticket, logs the conversation and sends no e-mail without --acknowledge', async () => {
    const ticket = ticketWithStatus(OPEN);
    const result = await h.cli(['close', String(ticket.id), '--comments', 'Done', '--closure-comments', 'Thanks']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ #${ticket.id} closed\n`, stderr: '' });
    expect(ticket.ticketStatusId).toBe(CLOSED);
    const logged = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id && c.type === 'Close');
    expect(logged.map((c) => c.message)).toEqual(['Done\n\nThanks']);
    expect(closures(ticket.id)).toEqual([]);
  });

  it('leaves stdin alone for IDs given as arguments (a file on stdin costs Node a file stream and its modules to open)', async () => {
    let stdinOpened = false;
    const stdin = new PassThrough();
    stdin.end('');
    let stdout = '';
    const [out, err] = [new PassThrough(), new PassThrough()];
    out.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    err.resume();
    const proc = {
      get stdin() {
        stdinOpened = true;
        return stdin;
      },
      stdout: out,
      stderr: err,
      env: h.env,
      ...processSignals(),
    };
    // A dry run: the IDs are collected as for a close, and no ticket of the sandbox is used up.
    expect(await runCli(['close', '1013', '--dry-run'], proc, { argvTable })).toBe(0);
    expect(stdout).toContain('would send POST /api/TicketsApi/close/1013');
    expect(stdinOpened).toBe(false);
  });

  it('sends the closure e-mail with --acknowledge', async () => {
    const ticket = ticketWithStatus(OPEN);
    const result = await h.cli(['-q', 'close', String(ticket.id), '--acknowledge']);
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(closures(ticket.id)).toHaveLength(1);
  });

  it('treats an already closed ticket as success with a note', async () => {
    const ticket = ticketWithStatus(CLOSED);
    const human = await h.cli(['close', String(ticket.id)]);
    expect(human).toMatchObject({ code: 0, stdout: `✓ #${ticket.id} already closed, nothing changed\n` });
    const json = await h.cli(['--json', 'close', String(ticket.id)]);
    expect(json.code).toBe(0);
    // The service's answer rides along (docs/cli.md section 3: "body" when the API returned one).
    expect(JSON.parse(json.stdout)).toEqual({
      id: ticket.id,
      ok: true,
      status: 200,
      note: 'already closed, nothing changed',
      body: { message: `Ticket ${ticket.id} is already closed.` },
    });
  });

  it('is exit 3 for an unknown ticket and exit 5 without Tickets.Close', async () => {
    const missing = await h.cli(['close', '999999']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('#999999 not found (HTTP 404)');
    const ticket = ticketWithStatus(OPEN);
    const denied = await h.cli(['--profile', 'viewer', 'close', String(ticket.id)]);
    expect(denied.code).toBe(5);
    expect(ticket.ticketStatusId).toBe(OPEN);
  });

  it('reads --comments or --closure-comments from stdin when given -', async () => {
    const first = ticketWithStatus(OPEN);
    const fromComments = await h.cli(['close', String(first.id), '--comments', '-', '--closure-comments', 'Thanks'], { stdin: 'Piped notes\n' });
    expect(fromComments.code).toBe(0);
    const second = ticketWithStatus(OPEN);
    const fromClosure = await h.cli(['close', String(second.id), '--comments', 'Done', '--closure-comments', '-'], { stdin: 'Piped thanks' });
    expect(fromClosure.code).toBe(0);
    const messages = (id: number) => h.sandbox.state.conversations.filter((c) => c.ticketId === id && c.type === 'Close').map((c) => c.message);
    expect(messages(first.id)).toEqual(['Piped notes\n\n\nThanks']);
    expect(messages(second.id)).toEqual(['Done\n\nPiped thanks']);
  });

  it('lets only one of the IDs, --comments and --closure-comments read stdin (exit 2, nothing sent)', async () => {
    const ticket = ticketWithStatus(OPEN);
    await sendsNothing(h, async () => {
      for (const argv of [
        ['close', '-', '--comments', '-'],
        ['close', '-', '--closure-comments', '-'],
        ['close', String(ticket.id), '--comments', '-', '--closure-comments', '-'],
      ]) {
        const result = await h.cli(argv, { stdin: `${ticket.id}\n` });
        expect(result.code, argv.join(' ')).toBe(2);
        expect(result.stderr, argv.join(' ')).toContain('be read from stdin');
      }
    });
    expect(ticket.ticketStatusId).toBe(OPEN);
  });

  it('sends --by, --date, --closure-status and attachments', async () => {
    const ticket = ticketWithStatus(OPEN);
    const file = join(dir, 'report.txt');
    await writeFile(file, 'closure report\n');
    const result = await h.cli(['close', String(ticket.id), '--by', 'tech', '--date', '2026-11-01T10:00:00Z', '--closure-status', '2', '--attach', file]);
    expect(result.code).toBe(0);
    const logged = h.sandbox.state.conversations.find((c) => c.ticketId === ticket.id && c.type === 'Close');
    expect(logged).toMatchObject({ from: 'tech@example.com', createdOn: '2026-11-01T10:00:00.000Z' });
    const attachment = h.sandbox.state.attachments.find((a) => a.ticketId === ticket.id && a.fileName === 'report.txt');
    expect(attachment?.sha256).toBe(createHash('sha256').update('closure report\n').digest('hex'));
  });

  it('rejects a bad date, a non-numeric closure status and a missing file before any request', async () => {
    const ticket = ticketWithStatus(OPEN);
    await sendsNothing(h, async () => {
      for (const extra of [
        ['--date', 'next tuesday'],
        ['--closure-status', 'done'],
        ['--attach', join(dir, 'missing.txt')],
        ['--attach', dir],
      ]) {
        const result = await h.cli(['close', String(ticket.id), ...extra]);
        expect(result.code, extra.join(' ')).toBe(2);
      }
    });
    // A closing date looks back: the advice for a wrong one counts back from now.
    const tuesday = await sendsNothing(h, () => h.cli(['close', String(ticket.id), '--date', 'next tuesday']));
    expect(tuesday.stderr).toBe('error: --date: invalid date "next tuesday": use ISO 8601 (2026-12-01, 2026-12-01T14:00) or -7d/-4h/-30m\n');
    // -1M is no minute ago but a month meant, refused with its hint.
    const month = await sendsNothing(h, () => h.cli(['close', String(ticket.id), '--date', '-1M']));
    expect(month.code).toBe(2);
    expect(month.stderr).toBe('error: --date: invalid date "-1M": M is not a unit\nhint: m is minutes; for months use days, e.g. -30d\n');
    expect(ticket.ticketStatusId).toBe(OPEN);
  });

  it('asks for --by when the token names no user (TKT_TOKEN without a subject claim)', async () => {
    const ticket = ticketWithStatus(OPEN);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;
    const env = { TKT_TOKEN: token, TKT_URL: h.sandbox.url };
    const result = await sendsNothing(h, () => h.cli(['close', String(ticket.id)], { env }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: cannot tell who closes this ticket: the token carries no user ID');
    expect(result.stderr).toContain('--by');
    const several = await sendsNothing(h, () => h.cli(['close', String(ticket.id), String(ticket.id + 1)], { env }));
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('error: cannot tell who closes these tickets: the token carries no user ID');
  });

  // A CI review: a token masked by a CI log ("***") or cut short was told as one without the
  // user's claim, and the hint sent the user to --by, which then met the service's 401. Then a
  // fresh user's: that was exit 2 where every other command's first request said exit 4 for the
  // same broken secret. Asking the service first waited out --timeout on a silent one (a code
  // review): it is exit 4 at once, nothing sent.
  it('says a token it cannot read is no login (exit 4, nothing sent), with --by only for a service that takes it', async () => {
    const result = await sendsNothing(h, () => h.cli(['close', '1001'], { env: { TKT_TOKEN: '***', TKT_URL: h.sandbox.url } }));

    expect(result.code).toBe(4);
    expect(result.stderr).toBe(
      'error: cannot tell who closes this ticket: tkt cannot read the token (not a JWT: cut short, masked, or another kind of token?)\n' +
        'hint: set a valid TKT_TOKEN; or, if the service takes this token, pass --by USER (a user ID or username)\n',
    );
    // @me asks who the token names, as --by's default does.
    const mine = await sendsNothing(h, () => h.cli(['list', '--assignee', '@me'], { env: { TKT_TOKEN: '***', TKT_URL: h.sandbox.url } }));
    expect(mine.code).toBe(4);
    expect(mine.stderr).toMatch(/^error: cannot tell who "@me" is: tkt cannot read the token/);
  });

  it('--dry-run shows the form and closes nothing', async () => {
    const ticket = ticketWithStatus(OPEN);
    const before = closes();
    const result = await h.cli(['close', String(ticket.id), '--acknowledge', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send POST /api/TicketsApi/close/${ticket.id}`);
    expect(result.stdout).toMatch(/Acknowledged:\s+true/);
    expect(closes()).toBe(before);
    expect(ticket.ticketStatusId).toBe(OPEN);
  });

  it('--dry-run says whose is the CloseBy ID it sends, with no request a real run would not make; --json is the request alone', async () => {
    // A dry run neither reads nor changes the ticket: any will do.
    const ticket = h.sandbox.state.tickets[0]!;
    const me = await sendsNothing(h, () => h.cli(['close', String(ticket.id), '--dry-run']));
    expect(me.stdout).toMatch(new RegExp(`CloseBy:\\s+${userId(h, 'admin')} \\(Ada Admin, you\\)\n`));

    // --by loads the technicians (--refresh: from the service), as a real run does; once.
    const before = h.sandbox.stats.requests;
    const other = await h.cli(['close', String(ticket.id), '--dry-run', '--by', 'tech', '--refresh']);
    expect(other.stdout).toMatch(new RegExp(`CloseBy:\\s+${userId(h, 'tech')} \\(Tom Tech\\)\n`));
    expect(h.sandbox.stats.requests - before).toBe(1);
    const self = await h.cli(['close', String(ticket.id), '--dry-run', '--by', userId(h, 'admin')]);
    expect(self.stdout).toMatch(new RegExp(`CloseBy:\\s+${userId(h, 'admin')} \\(Ada Admin, you\\)\n`));

    const json = await h.cli(['close', String(ticket.id), '--dry-run', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ fields: { TicketId: ticket.id, CloseBy: userId(h, 'admin') } });
    expect(json.stdout).not.toContain('Ada Admin');
  });
});
