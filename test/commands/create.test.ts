import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, type CreateOptions } from '../../src/commands/create.js';
import { exitCodeOf, InterruptedError, UsageError } from '../../src/errors.js';
import { formatDate } from '../../src/output/time.js';
import { BY_ID, integrationCreateArgs, VALID_TICKET, validCreateArgs, validCreateValues } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import {
  addressOnlyAnswers,
  frontEnv,
  halvedAnswers,
  routeCount,
  sendsNothing,
  startFrontServer,
  ticketById,
  useHarness,
  useTempDir,
  userId,
} from '../helpers/sandbox-state.js';

const REGISTER = 'POST /api/TicketsApi/register';
const NEW = 'POST /api/TicketsApi/new';
const REGISTER_PATH = '/api/TicketsApi/register';

const REQUIRED = validCreateArgs();

let h: Harness;
let dir: string;
useHarness({ profiles: ['viewer', 'private'] }, (harness) => (h = harness));
useTempDir('tkt-create-', (path) => (dir = path));

function options(values: CreateOptions['values'], extra: Partial<CreateOptions> = {}): CreateOptions {
  return { values, descriptionFile: undefined, integration: false, dryRun: false, ...extra };
}

describe('tkt create (register)', () => {
  it('refuses a malformed --cc or --email with exit 2 before any request, also in a --from row (which only reads the lookups)', async () => {
    const cc = await sendsNothing(h, () => h.cli(['create', ...REQUIRED, '--cc', 'boss@example.com;boss']));
    const email = await sendsNothing(h, () => h.cli(['create', ...integrationCreateArgs({ email: 'pnovak at example.com' })]));
    const file = join(dir, 'bad-cc.jsonl');
    await writeFile(file, `${JSON.stringify({ title: 'T', description: 'D', requester: 'aberg', site: 1, department: 1, status: 1, cc: 'not-an-address' })}\n`);
    // A row's names are looked up even when its values are bad, to tell all its problems at once.
    const createsBefore = h.sandbox.stats.byRoute['POST /api/TicketsApi/register'];
    const row = await h.cli(['create', '--from', file]);
    expect(h.sandbox.stats.byRoute['POST /api/TicketsApi/register']).toBe(createsBefore);

    expect(cc.code).toBe(2);
    expect(cc.stderr).toContain('error: --cc: "boss" is not an e-mail address');
    expect(email.code).toBe(2);
    expect(email.stderr).toContain('error: --email: "pnovak at example.com" is not an e-mail address');
    expect(row.code).toBe(2);
    expect(row.stderr).toContain('"not-an-address" is not an e-mail address');
  });

  it('refuses a --title with a line break or another control character, exit 2 before any request, also in a --from row (README: Text values)', async () => {
    const broken = await sendsNothing(h, () => h.cli(['create', ...REQUIRED, '--title', 'Line one\nline two']));
    const escape = await sendsNothing(h, () => h.cli(['create', ...REQUIRED, '--title', 'red \u001b[31m']));
    const file = join(dir, 'title-lines.jsonl');
    await writeFile(file, `${JSON.stringify({ title: 'A\r\nB', description: 'D', requester: 'aberg', site: 1, department: 1, status: 1 })}\n`);
    const createsBefore = h.sandbox.stats.byRoute['POST /api/TicketsApi/register'];
    const row = await h.cli(['create', '--from', file]);
    expect(h.sandbox.stats.byRoute['POST /api/TicketsApi/register']).toBe(createsBefore);

    expect(broken).toMatchObject({ code: 2, stdout: '' });
    expect(broken.stderr).toContain('error: --title has a line break (a title is one line)');
    expect(escape.code).toBe(2);
    expect(escape.stderr).toContain('error: --title has a control character (U+001B)');
    expect(row.code).toBe(2);
    expect(row.stderr).toContain('title has a line break (a title is one line)');
  });

  it('creates a ticket from names and prints its ID', async () => {
    const result = await h.cli([
      'create',
      ...REQUIRED,
      '--priority',
      'high',
      '--category',
      'hardware',
      '--subcategory',
      'Printer',
      '--group',
      'Service Desk',
      '--assignee',
      '@me',
      '--level',
      'Tier 2',
      '--client',
      'Contoso',
      '--cc',
      'boss@example.com',
      '--cc',
      'lead@example.com',
      '--tag',
      '3',
      '--tag',
      '5',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const match = /^Created ticket #(\d+)\n$/.exec(result.stdout);
    expect(match).not.toBeNull();
    const created = ticketById(h, Number(match![1]));
    expect(created).toMatchObject({
      title: 'Printer on fire',
      description: 'Smoke from tray 2',
      creatorId: userId(h, 'aberg'),
      siteId: 1,
      departmentId: 1,
      ticketStatusId: 1,
      ticketPriorityId: 3,
      ticketCategoryId: 1,
      ticketSubCategoryId: 2,
      groupId: 1,
      tierLevelId: 2,
      clientId: 1,
      assignedUser: userId(h, 'admin'),
      cc: 'boss@example.com, lead@example.com',
      tags: [3, 5],
      ticketType: 1,
      source: 'Manual',
    });
  });

  it('prints only the ID with -q and the service body with --json', async () => {
    const quiet = await h.cli(['-q', 'create', ...REQUIRED]);
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toMatch(/^\d+\n$/);
    expect(ticketById(h, Number(quiet.stdout)).title).toBe('Printer on fire');

    const json = await h.cli(['--json', 'create', ...REQUIRED]);
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({ title: 'Printer on fire', siteId: 1, departmentId: 1, ticketStatusId: 1 });
    expect(ticketById(h, Number(body.id)).creatorId).toBe(userId(h, 'aberg'));
  });

  it('reads the description from stdin with - and from a file', async () => {
    const piped = await h.cli(['-q', 'create', ...validCreateArgs({ description: '-' })], { stdin: 'line one\nline two\n' });
    expect(piped.code).toBe(0);
    expect(ticketById(h, Number(piped.stdout)).description).toBe('line one\nline two\n');

    const file = join(dir, 'description.md');
    await writeFile(file, '# From a file\n');
    const fromFile = await h.cli(['-q', 'create', ...validCreateArgs({ description: null, 'description-file': file })]);
    expect(fromFile.code).toBe(0);
    expect(ticketById(h, Number(fromFile.stdout)).description).toBe('# From a file\n');
  });

  it('sends the CRLF inside a --from value as LF, as it sends a --description-file: a quoted CSV cell, a JSON Lines string (README: Text values)', async () => {
    const csv = join(dir, 'crlf.csv');
    const { requester, site, department, status } = VALID_TICKET;
    await writeFile(
      csv,
      `title,description,requester,site,department,status\r\ncrlf-csv,"Paper jam\r\nTray 2\rstuck",${[requester, site, department, status].join(',')}\r\n`,
    );
    const jsonl = join(dir, 'crlf.jsonl');
    await writeFile(jsonl, `${JSON.stringify({ ...VALID_TICKET, title: 'crlf-jsonl', description: 'Paper jam\r\nTray 2\rstuck' })}\r\n`);
    for (const file of [csv, jsonl]) {
      const result = await h.cli(['-q', 'create', '--from', file]);
      expect(result.code, result.stderr).toBe(0);
      expect(ticketById(h, Number(result.stdout)).description).toBe('Paper jam\nTray 2\rstuck');
    }
  });

  it('uploads attachments byte for byte; a type the service skips fails (exit 1), the ticket created', async () => {
    const log = join(dir, 'trace.log');
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
    await writeFile(log, bytes);
    const exe = join(dir, 'tool.exe');
    await writeFile(exe, 'MZ');
    const result = await h.cli(['-q', 'create', ...REQUIRED, '--attach', log, '--attach', exe]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error: the service did not keep 1 of 2 files: tool.exe');
    const saved = h.sandbox.state.attachments.filter((a) => a.ticketId === Number(result.stdout));
    expect(saved.map((a) => a.fileName)).toEqual(['trace.log']);
    expect(saved[0]!.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('sets the due date from a relative WHEN', async () => {
    const ctx = await h.context({ globals: { quiet: true } });
    const before = Date.now();
    await run(options(validCreateValues({ title: 'Due soon', due: '+3d' })), ctx.ctx);
    const due = Date.parse(ticketById(h, Number(ctx.stdout())).dueDate ?? '');
    expect(due).toBeGreaterThanOrEqual(before + 3 * 24 * 3600 * 1000 - 3_600_000);
    expect(due).toBeLessThanOrEqual(Date.now() + 3 * 24 * 3600 * 1000 + 3_600_000);
  });

  it("says so (exit 1, the ticket created) when the service's SLA replaces the due date given, and how to keep it", async () => {
    const named = '2030-01-15T12:00';
    const result = await h.cli(['create', ...validCreateArgs({ title: 'SLA wins', priority: 'high', due: named })]);
    expect(result.code).toBe(1);
    const id = Number(/Created ticket #(\d+)/.exec(result.stdout)?.[1]);
    const slaDue = ticketById(h, id).dueDate!;
    expect(Date.parse(slaDue)).not.toBe(new Date(named).getTime());
    expect(result.stderr).toContain(
      `error: ticket #${id} was created, but the service set its due date to ${formatDate(new Date(slaDue))} (its SLA), not 2030-01-15 12:00\n`,
    );
    const hint = /hint: .*run "(tkt update \d+ --due [^"]+)"/.exec(result.stderr)?.[1];
    expect(hint).toBe(`tkt update ${id} --due ${new Date(named).toISOString()}`);
    // As the hint says, an update of the due date alone keeps it (no priority change, no SLA).
    expect((await h.cli(hint!.split(' ').slice(1))).code).toBe(0);
    expect(Date.parse(ticketById(h, id).dueDate!)).toBe(new Date(named).getTime());

    // Without a priority the sandbox applies no SLA: the date is kept, exit 0.
    const kept = await h.cli(['create', ...validCreateArgs({ title: 'No SLA', due: named })]);
    expect(kept.stderr).toBe('');
    expect(kept.code).toBe(0);
  });

  it('without a terminal names every missing required option at once and sends nothing', async () => {
    const result = await sendsNothing(h, () => h.cli(['create', '--title', 'Only a title']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: missing required options (no terminal to ask on)\n  --description, --requester, --site, --department, --status\n');
    const none = await sendsNothing(h, () => h.cli(['create']));
    expect(none.stderr).toContain(
      'error: missing required options (no terminal to ask on)\n  --title, --description, --requester, --site, --department, --status\n',
    );
    for (const line of none.stderr.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    // --no-input and CI are said as the reason, as a terminal may well be there.
    const noInput = await sendsNothing(h, () => h.cli(['--no-input', 'create', '--title', 'Only a title']));
    expect(noInput.stderr).toContain('error: missing required options (--no-input: nothing is asked)\n');
    expect(noInput.stderr).toContain('hint: give them as options, or run without --no-input to be asked\n');
    const underCI = await sendsNothing(h, () => h.cli(['create', '--title', 'Only a title'], { env: { ...h.env, CI: 'true' } }));
    expect(underCI.stderr).toContain('error: missing required options (CI is set: nothing is asked)\n');
  });

  it.each([
    ['a title over 255 characters', { title: 'x'.repeat(256) }, /--title: 256 characters, the service accepts at most 255/],
    ['a bad date', { due: '2026-02-30' }, /--due: invalid date "2026-02-30"/],
    ['a non-numeric tag', { tag: 'urgent' }, /--tag: invalid ID "urgent"/],
    ['a bad SLA ID', { sla: '0' }, /--sla: invalid ID "0"/],
    ['an unknown ticket type', { type: 'incident' }, /--type: unknown ticket type "incident"/],
    ['a missing attachment', { attach: '/nonexistent/file.txt' }, /--attach: cannot read file[\s\S]*no such file/],
  ])('refuses %s with exit 2 before any request', async (_name, overrides, message) => {
    const result = await sendsNothing(h, () => h.cli(['create', ...validCreateArgs(overrides)]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('refuses a directory or unreadable file as an attachment', async () => {
    const secret = join(dir, 'secret.txt');
    await writeFile(secret, 's');
    await chmod(secret, 0o000);
    const ctx = await h.context();
    const attempt = run(options(validCreateValues({ attach: [dir, secret] })), ctx.ctx);
    const error = await attempt.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).details.join('\n')).toContain(`${dir}: a directory, not a file`);
    // root can read anything; the directory check above is what must hold everywhere.
    if (process.getuid?.() !== 0) expect((error as UsageError).details.join('\n')).toContain(`${secret}: permission denied`);
  });

  it('refuses a lookup name that matches nothing with exit 2 and registers nothing', async () => {
    const before = routeCount(h, REGISTER);
    const result = await h.cli(['create', ...REQUIRED, '--priority', 'apocalyptic']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown priority "apocalyptic"/);
    expect(routeCount(h, REGISTER)).toBe(before);
  });

  it('at a terminal, asks who "--assignee @me" is when the token names no user; without one it is exit 2', async () => {
    const values = validCreateValues({ title: 'Mine', assignee: '@me' });
    // Lookups come from the cache: the sandbox refuses a token without a subject.
    const primed = await h.context({ globals: { quiet: true } });
    await run(options({ ...values, assignee: 'tech' }, { dryRun: true }), primed.ctx);
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;
    const env = { TKT_TOKEN: token, TKT_URL: h.sandbox.url };

    const asked = await h.context({ tty: true, env, answers: [{ kind: 'search', message: '@me', value: userId(h, 'tech') }] });
    await sendsNothing(h, () => run(options(values, { dryRun: true }), asked.ctx));
    asked.prompter.assertDone();
    expect(asked.stdout()).toMatch(new RegExp(`AssignedUser:\\s+${userId(h, 'tech')}`));

    const piped = await h.context({ env });
    await expect(run(options(values, { dryRun: true }), piped.ctx)).rejects.toThrow(/@me/);

    // A token tkt cannot read at all (masked, cut short) is no login: nothing asked, exit 4.
    const masked = await h.context({ tty: true, env: { ...env, TKT_TOKEN: '***' } });
    const refused = await run(options(values, { dryRun: true }), masked.ctx).catch((error: unknown) => error);
    expect(exitCodeOf(refused)).toBe(4);
    expect(masked.prompter.asked).toEqual([]);
  });

  it('names the option typed when its lookup is called otherwise (--subcategory, a sub-category)', async () => {
    const before = routeCount(h, REGISTER);
    const result = await h.cli(['create', ...REQUIRED, '--subcategory', 'no-such-thing']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: unknown sub-category "no-such-thing" for --subcategory');
    expect(routeCount(h, REGISTER)).toBe(before);
  });

  it('refuses an unknown requester client-side with exit 2', async () => {
    const before = routeCount(h, REGISTER);
    const result = await h.cli(['create', ...validCreateArgs({ requester: 'nobody-at-all' })]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown requester "nobody-at-all"/);
    expect(routeCount(h, REGISTER)).toBe(before);
  });

  it('is exit 5 for a user without Tickets.Create (register answers 400 with a permission message)', async () => {
    const count = h.sandbox.state.tickets.length;
    const result = await h.cli(['--profile', 'viewer', 'create', ...REQUIRED]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/^error: /);
    expect(result.stderr).toMatch(/permission/i);
    expect(h.sandbox.state.tickets.length).toBe(count);
  });

  it('is exit 1 with the server message when the service refuses an unknown site ID', async () => {
    const count = h.sandbox.state.tickets.length;
    const result = await h.cli(['create', ...validCreateArgs({ site: '99' })]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*HTTP 400/m);
    expect(result.stderr).toMatch(/site/i);
    expect(h.sandbox.state.tickets.length).toBe(count);
  });

  it('is exit 4 with an expired token, and creates nothing', async () => {
    const count = h.sandbox.state.tickets.length;
    const expired = h.sandbox.issueToken('admin', { expiresInSeconds: -60 });
    const result = await h.cli(['create', ...validCreateArgs(BY_ID)], {
      env: { TKT_TOKEN: expired, TKT_URL: h.sandbox.url },
    });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('tkt login');
    expect(h.sandbox.state.tickets.length).toBe(count);
  });

  it('lets a private user (Tickets.Create) create', async () => {
    const result = await h.cli(['--profile', 'private', '-q', 'create', ...REQUIRED]);
    expect(result.code).toBe(0);
    expect(ticketById(h, Number(result.stdout)).title).toBe('Printer on fire');
  });

  it('--dry-run resolves names, prints the form and registers nothing', async () => {
    const before = routeCount(h, REGISTER);
    const count = h.sandbox.state.tickets.length;
    const result = await h.cli(['create', ...REQUIRED, '--priority', 'crit', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('dry run: would send POST /api/TicketsApi/register (nothing was sent)');
    expect(result.stdout).toMatch(/SiteId:\s+1 \(Head Office\)/);
    expect(result.stdout).toMatch(/TicketPriorityId:\s+4 \(Critical\)/);
    expect(result.stdout).toMatch(/CreatorId:\s+\S+ \(Anna Berg\)/);
    expect(result.stdout).toMatch(/TicketType:\s+1/);
    expect(routeCount(h, REGISTER)).toBe(before);
    expect(h.sandbox.state.tickets.length).toBe(count);

    const json = await h.cli(['--json', 'create', ...REQUIRED, '--dry-run']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      dryRun: true,
      method: 'POST',
      path: '/api/TicketsApi/register',
      fields: { Title: 'Printer on fire', SiteId: 1, CreatorId: userId(h, 'aberg') },
      files: [],
    });
    expect(routeCount(h, REGISTER)).toBe(before);
  });

  it('sends --sla, --service, --impact, --urgency and --guid through to the service', async () => {
    const guid = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const result = await h.cli(['-q', 'create', ...REQUIRED, '--sla', '7', '--service', '4', '--impact', '3', '--urgency', '1', '--guid', guid]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(ticketById(h, Number(result.stdout))).toMatchObject({ slaId: 7, serviceId: 4, impactId: 3, urgencyId: 1, guid });
  });

  it('sends text composed (NFC): a title pasted decomposed, as from macOS, is stored composed and found by --search (README: Finding tickets)', async () => {
    const title = 'Gerät defekt – Jörg'.normalize('NFD');
    const description = 'Drucker im Büro'.normalize('NFD');
    expect(title).not.toBe(title.normalize('NFC'));
    const dryRun = await h.cli(['--json', 'create', ...validCreateArgs({ title, description }), '--dry-run']);
    expect(JSON.parse(dryRun.stdout)).toMatchObject({ fields: { Title: 'Gerät defekt – Jörg', Description: 'Drucker im Büro' } });

    const created = await h.cli(['-q', 'create', ...validCreateArgs({ title, description })]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const id = Number(created.stdout);
    expect(ticketById(h, id)).toMatchObject({ title: 'Gerät defekt – Jörg', description: 'Drucker im Büro' });
    const found = await h.cli(['list', '--search', 'Gerät', '-q', '--all']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout.split('\n')).toContain(String(id));

    // A --from row is sent the same way.
    const file = join(dir, 'decomposed.jsonl');
    await writeFile(file, `${JSON.stringify({ ...VALID_TICKET, title: 'Störung Kühlung'.normalize('NFD') })}\n`);
    const row = await h.cli(['-q', 'create', '--from', file]);
    expect(row.code, row.stderr).toBe(0);
    expect(h.sandbox.state.tickets.filter((ticket) => ticket.title === 'Störung Kühlung')).toHaveLength(1);
  });

  it('shows text escaped in dry-run output (a title holds none: it is one line)', async () => {
    const result = await h.cli(['create', ...validCreateArgs({ description: 'Evil \u001b]0;pwned\u0007 text' }), '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('\u001b');
    expect(result.stdout).toContain('^[]0;pwned^G');
  });
});

describe('tkt create --integration', () => {
  it('creates through the new endpoint with the requester username and server defaults', async () => {
    const before = routeCount(h, NEW);
    const result = await h.cli(['-q', 'create', ...integrationCreateArgs({ priority: 'low' })]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(routeCount(h, NEW)).toBe(before + 1);
    const created = ticketById(h, Number(result.stdout));
    expect(created).toMatchObject({ title: 'Build failed', source: 'Api', creatorId: userId(h, 'pnovak'), ticketPriorityId: 1 });
    expect(created.siteId).not.toBeNull();
  });

  it('sends IDs given as digits without any lookup request', async () => {
    const metadataBefore = routeCount(h, 'GET /api/TicketsApi/appmetadata');
    const before = routeCount(h, NEW);
    const result = await h.cli(['-q', '--refresh', 'create', ...integrationCreateArgs({ site: '1', priority: '1' })]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(routeCount(h, NEW)).toBe(before + 1);
    expect(ticketById(h, Number(result.stdout))).toMatchObject({ siteId: 1, ticketPriorityId: 1 });
    expect(routeCount(h, 'GET /api/TicketsApi/appmetadata')).toBe(metadataBefore);
  });

  it('works for a user without any permission (viewer)', async () => {
    const result = await h.cli(['--profile', 'viewer', '-q', 'create', ...integrationCreateArgs()]);
    expect(result.code).toBe(0);
    expect(ticketById(h, Number(result.stdout)).source).toBe('Api');
  });

  it('takes the requester by user ID, username or full name, sending the username', async () => {
    const byName = await h.cli(['create', ...integrationCreateArgs({ requester: 'Anna Berg' }), '-q']);
    expect(byName.code).toBe(0);
    const ticket = h.sandbox.state.tickets.find((t) => t.id === Number(byName.stdout.trim()))!;
    expect(ticket.creatorId).toBe(userId(h, 'aberg'));
  });

  it('is exit 2 with candidates for a requester nobody has, before sending; with an e-mail the service decides (not found: 3)', async () => {
    const sent = routeCount(h, 'POST /api/TicketsApi/new');
    const unknown = await h.cli(['create', ...integrationCreateArgs({ requester: 'ghost-user' })]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown');
    expect(unknown.stderr).toContain('ghost-user');
    expect(routeCount(h, 'POST /api/TicketsApi/new')).toBe(sent);
    const withEmail = await h.cli(['create', ...integrationCreateArgs({ requester: 'ghost-user', email: 'ghost@nowhere.example' })]);
    expect(withEmail.code).toBe(3);
    expect(withEmail.stderr).toBe(
      `error: not found (HTTP 400): POST ${h.sandbox.url}/api/TicketsApi/new\n  Requester "ghost-user" was not found (nor a user with e-mail ghost@nowhere.example).\n`,
    );
  });

  it('names no customer in CI for an unknown --requester (--dedup-key too): the error and where to list them, not the list', async () => {
    const sent = routeCount(h, NEW);
    for (const extra of [[], ['--dedup-key', 'k:1']]) {
      const result = await h.cli(['create', '-q', ...integrationCreateArgs({ requester: 'nobody-here' }), ...extra], { env: { CI: 'true' } });
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(
        'error: unknown requester "nobody-here"\n' +
          '  (candidates not listed in CI: they name people)\n' +
          'hint: see "tkt metadata --collection requesters"\n',
      );
    }
    expect(routeCount(h, NEW)).toBe(sent);
  });

  it('refuses options the new endpoint does not take and names the missing ones', async () => {
    const before = h.sandbox.stats.requests;
    const foreign = await h.cli(['create', ...integrationCreateArgs({ subcategory: 'VPN', assignee: '@me' })]);
    expect(foreign.code).toBe(2);
    expect(foreign.stderr).toContain('--subcategory, --assignee cannot be used with --integration');
    const missing = await h.cli(['create', '--integration', '--title', 'T']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing required options (no terminal to ask on)\n  --description, --requester\n');
    expect(h.sandbox.stats.requests).toBe(before);
  });
});

describe('tkt create at a terminal', () => {
  it('asks for everything when no option is given, with lists from the lookups', async () => {
    const run1 = await h.context({
      tty: true,
      answers: [
        { kind: 'input', message: 'Title', value: 'Asked for everything' },
        { kind: 'input', message: 'Description', value: '' },
        { kind: 'editor', message: 'Description', value: 'Typed in the editor\n' },
        { kind: 'search', message: 'Requester', name: 'Anna Lind (alind)' },
        { kind: 'select', message: 'Site', name: 'Harbour Depot' },
        { kind: 'select', message: 'Department', name: 'Finance' },
        { kind: 'select', message: 'Status', name: 'Open' },
        { kind: 'select', message: 'Priority', name: 'Medium' },
        { kind: 'select', message: 'Category', name: 'Network' },
        { kind: 'select', message: 'Sub-category', name: 'VPN' },
        { kind: 'select', message: 'Item', name: 'FortiClient' },
        { kind: 'select', message: 'Group', name: 'Network Team' },
        { kind: 'search', message: 'Assignee', name: '(none)' },
        { kind: 'confirm', message: 'Create this ticket?', value: true },
      ],
      globals: { quiet: true },
    });
    await run(options({}), run1.ctx);
    run1.prompter.assertDone();
    // The summary shown before the question: the fields as the prompts named them, the chosen
    // names with their IDs, the type in words.
    expect(run1.stderr()).toBe(
      [
        '',
        '  Title:         Asked for everything',
        '  Description:   Typed in the editor',
        // People by their usernames, as everywhere in tkt, not by their user IDs.
        '  Requester:     Anna Lind (alind)',
        '  Site:          Harbour Depot (2)',
        '  Department:    Finance (2)',
        '  Status:        Open (1)',
        '  Priority:      Medium (2)',
        '  Category:      Network (3)',
        '  Sub-category:  VPN (5)',
        '  Item:          FortiClient (8)',
        '  Group:         Network Team (2)',
        '  Type:          ticket',
        '',
      ].join('\n'),
    );
    const created = ticketById(h, Number(run1.stdout()));
    expect(created).toMatchObject({
      title: 'Asked for everything',
      description: 'Typed in the editor\n',
      creatorId: userId(h, 'alind'),
      siteId: 2,
      departmentId: 2,
      ticketStatusId: 1,
      ticketPriorityId: 2,
      ticketCategoryId: 3,
      ticketSubCategoryId: 5,
      itemId: 8,
      groupId: 2,
    });
    // The status list preselects Open; requesters are type-to-filter.
    expect(run1.prompter.asked.find((p) => p.message === 'Requester')?.choices).toContain('Anna Berg (aberg)');
  });

  it('asks only for the missing required values when some options are given', async () => {
    const run2 = await h.context({
      tty: true,
      answers: [
        { kind: 'select', message: 'Department', name: 'Sales' },
        { kind: 'select', message: 'Status', name: 'Pending' },
        { kind: 'confirm', message: 'Create this ticket?', value: true },
      ],
      globals: { quiet: true },
    });
    await run(options({ title: 'Half given', description: 'd', requester: 'aberg', site: 'Remote', priority: 'Low' }), run2.ctx);
    run2.prompter.assertDone();
    expect(ticketById(h, Number(run2.stdout()))).toMatchObject({ departmentId: 5, ticketStatusId: 4, siteId: 3, ticketPriorityId: 1 });
  });

  it('keeps the description written in the editor when the service refuses the ticket, and says where', async () => {
    const count = h.sandbox.state.tickets.length;
    const refused = await h.context({
      tty: true,
      globals: { profile: 'viewer' },
      answers: [
        { kind: 'input', message: 'Description', value: '' },
        { kind: 'editor', message: 'Description', value: 'Smoke from tray 2\n# Seen at\n#1234 too' },
        // A profile that is not the default is named in the question, as delete's is.
        { kind: 'confirm', message: 'Create this ticket on profile viewer?', value: true },
      ],
    });
    const { description: _given, ...values } = validCreateValues();
    const error = await run(options(values), refused.ctx).catch((caught: unknown) => caught);
    expect(exitCodeOf(error)).toBe(5);
    // Named after the profile, which is not the default (README, Drafts).
    const draft = join(h.configDir, 'drafts', 'viewer-description.txt');
    expect(await readFile(draft, 'utf8')).toBe('Smoke from tray 2\n# Seen at\n#1234 too\n');
    // After the summary that was confirmed: the line saying where.
    // Then the create that sends it, with the values given (README, Drafts).
    expect(refused.stderr().split('\n').slice(-4)).toEqual([
      '  Type:         ticket',
      `your description was saved to ${draft}`,
      `hint: send it with "tkt create --title 'Printer on fire' --requester aberg --site 1 --department 1 --status 1 --description-file ${draft} --profile viewer"`,
      '',
    ]);
    expect(h.sandbox.state.tickets.length).toBe(count);
  });

  it('keeps no draft of a description typed and then declined: saying no is dropping it, as gh does', async () => {
    const declined = await h.context({
      tty: true,
      answers: [
        { kind: 'input', message: 'Description', value: 'Typed, then declined' },
        { kind: 'confirm', message: 'Create this ticket?', value: false },
      ],
    });
    const { description: _given, ...values } = validCreateValues();
    await expect(run(options(values), declined.ctx)).rejects.toThrow('cancelled: nothing was created');
    expect(declined.stderr()).not.toContain('saved');
    expect(existsSync(join(h.configDir, 'drafts', 'description-2.txt'))).toBe(false);
  });

  it('sends nothing when the summary is not confirmed', async () => {
    const before = routeCount(h, REGISTER);
    const declined = await h.context({
      tty: true,
      answers: [
        { kind: 'select', message: 'Department', name: 'Sales' },
        { kind: 'select', message: 'Status', name: 'Pending' },
        { kind: 'confirm', message: 'Create this ticket?', value: false },
      ],
    });
    await expect(run(options({ title: 'Declined', description: 'd', requester: 'aberg', site: 'Remote' }), declined.ctx)).rejects.toThrow(
      'cancelled: nothing was created',
    );
    expect(routeCount(h, REGISTER)).toBe(before);
  });

  it('Ctrl-C at a prompt is InterruptedError and sends nothing', async () => {
    const before = routeCount(h, REGISTER);
    const run3 = await h.context({
      tty: true,
      answers: [{ kind: 'input', message: 'Title', value: 'Never sent' }, { kind: 'input', message: 'Description', value: 'd' }, { interrupt: true }],
    });
    await expect(run(options({}), run3.ctx)).rejects.toBeInstanceOf(InterruptedError);
    expect(routeCount(h, REGISTER)).toBe(before);
    expect(h.sandbox.state.tickets.some((t) => t.title === 'Never sent')).toBe(false);
  });

  it('keeps the description of a create stopped at a question, with a command that holds the values given and answered so far', async () => {
    const run6 = await h.context({
      tty: true,
      answers: [
        { kind: 'input', message: 'Title', value: "Printer's tray" },
        { kind: 'input', message: 'Description', value: 'Kept' },
        { kind: 'search', message: 'Requester', name: 'Anna Lind (alind)' },
        { interrupt: true },
      ],
    });
    await expect(run(options({ priority: 'Low' }, { dedupKey: 'ci:drafts' }), run6.ctx)).rejects.toBeInstanceOf(InterruptedError);
    const [saved, hint] = run6.stderr().split('\n');
    const draft = /^your description was saved to (.*description(-\d+)?\.txt)$/.exec(saved!)![1]!;
    expect(await readFile(draft, 'utf8')).toBe('Kept\n');
    // The site and the rest, not answered, are asked again.
    expect(hint).toBe(
      `hint: send it with "tkt create --priority Low --title 'Printer'\\''s tray' --requester ${userId(h, 'alind')} --dedup-key ci:drafts --description-file ${draft}"`,
    );
  });

  it('a Ctrl-C that arrived while names were resolved stops the create before it is sent', async () => {
    const before = routeCount(h, REGISTER);
    const run5 = await h.context();
    run5.abort.abort();
    await expect(
      run(options({ title: 'Aborted', description: 'd', requester: 'aberg', site: '1', department: '1', status: '1' }), run5.ctx),
    ).rejects.toBeInstanceOf(InterruptedError);
    expect(routeCount(h, REGISTER)).toBe(before);
  });

  it('with --integration asks for the requester username', async () => {
    const run4 = await h.context({
      tty: true,
      answers: [
        { kind: 'input', message: 'Requester username', value: 'kmensah' },
        { kind: 'confirm', message: 'Create this ticket?', value: true },
      ],
      globals: { quiet: true },
    });
    await run(options({ title: 'Integration asked', description: 'd' }, { integration: true }), run4.ctx);
    run4.prompter.assertDone();
    expect(ticketById(h, Number(run4.stdout())).creatorId).toBe(userId(h, 'kmensah'));
  });
});

describe('tkt create against a service that answers register its own way', () => {
  const registerWith = (status: number, headers: Record<string, string>, body: unknown) => (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || req.url !== REGISTER_PATH) return false;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
    return true;
  };

  async function createThrough(answer: ReturnType<typeof registerWith>) {
    const server = await startFrontServer(h, answer);
    try {
      const r = await h.context({ env: frontEnv(h, server) });
      await run(options({ title: 'Elsewhere', description: 'd', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open' }), r.ctx);
      expect(server.requests.filter((q) => q.url === REGISTER_PATH)).toHaveLength(1);
      return r.stdout();
    } finally {
      await server.close();
    }
  }

  it('takes the new ID from the body when there is no Location header', async () => {
    expect(await createThrough(registerWith(200, {}, { id: 4242, title: 'Elsewhere' }))).toBe('Created ticket #4242\n');
  });

  it('takes the new ID from the Location header when the body has no id', async () => {
    expect(await createThrough(registerWith(201, { location: '/api/TicketsApi/4343' }, { success: true }))).toBe('Created ticket #4343\n');
  });

  it('takes the ID from the body, never from a Location that names another host or another ticket', async () => {
    // A Location naming another host once made `create -q` print 999999 for ticket 132.
    expect(await createThrough(registerWith(201, { location: 'http://elsewhere.example/api/TicketsApi/999999' }, { id: 132 }))).toBe('Created ticket #132\n');
    expect(await createThrough(registerWith(201, { location: '/api/TicketsApi/999999' }, { id: 133 }))).toBe('Created ticket #133\n');
  });

  // --json prints the service's answer as it came: one naming no ticket fails the run all the same
  // (a script's `tkt create --json | jq .id` would otherwise go on with null, exit 0).
  it('prints an answer naming no ID with --json, then fails as the other outputs do (exit 1)', async () => {
    const server = await startFrontServer(h, registerWith(201, {}, { success: true }));
    try {
      const args = ['create', '--json', '--title', 'No ID', '--description', 'd', '--requester', 'aberg', '--site', 'Head Office', '--department', 'IT'];
      const result = await h.cli([...args, '--status', 'Open'], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(JSON.parse(result.stdout)).toEqual({ success: true });
      expect(result.stderr).toMatch(/^error: the service answered HTTP 201 but named no ticket ID\nhint: /);
    } finally {
      await server.close();
    }
  });

  it('ignores a Location on another host when the body names no ID: no ID rather than a wrong one', async () => {
    await expect(createThrough(registerWith(201, { location: 'http://elsewhere.example/api/TicketsApi/999999' }, { success: true }))).rejects.toThrow(
      'named no ticket ID',
    );
  });
});

// A service may answer a create 201 with the new ticket's address alone (its Location header)
// and no body: the spec's 201 carries both, and the Location counts when the body names no ID.
describe('tkt create answered 201 with an empty body and a Location header', () => {
  const addressOnly = (path: string, where: (id: string, frontUrl: string) => string) =>
    addressOnlyAnswers(h, (req) => req.method === 'POST' && req.url === path, where);

  it.each([
    [
      'register, an absolute Location',
      REGISTER_PATH,
      validCreateArgs({ ...BY_ID, title: 'address only absolute' }),
      (id: string, at: string) => `${at}/api/TicketsApi/${id}`,
    ],
    ['register, a relative Location', REGISTER_PATH, validCreateArgs({ ...BY_ID, title: 'address only relative' }), (id: string) => `/api/TicketsApi/${id}`],
    ['--integration', '/api/TicketsApi/new', integrationCreateArgs({ title: 'address only integration' }), (id: string) => `/api/TicketsApi/${id}`],
  ])('%s: prints the ID as usual (exit 0), and --json the ticket read from that address', async (_case, path, args, where) => {
    const title = args[args.indexOf('--title') + 1]!;
    const front = addressOnly(path, where);
    const server = await startFrontServer(h, front.answer);
    front.at(server.url);
    try {
      const env = frontEnv(h, server);
      const human = await h.cli(['create', ...args], { env });
      const [created] = h.sandbox.state.tickets.filter((t) => t.title === title);
      expect(human).toMatchObject({ code: 0, stdout: `Created ticket #${created!.id}\n`, stderr: '' });

      const quiet = await h.cli(['create', '-q', ...args], { env });
      const ids = h.sandbox.state.tickets.filter((t) => t.title === title).map((t) => t.id);
      expect(quiet).toMatchObject({ code: 0, stdout: `${ids[1]}\n`, stderr: '' });

      const json = await h.cli(['create', '--json', ...args], { env });
      const third = h.sandbox.state.tickets.filter((t) => t.title === title)[2]!;
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ id: third.id, title });
      expect(server.requests.filter((q) => q.method === 'POST' && q.url === path)).toHaveLength(3);
      // The ticket is read from its address for --json only.
      expect(server.requests.filter((q) => q.method === 'GET' && /^\/api\/TicketsApi\/\d+$/.test(q.url)).map((q) => q.url)).toEqual([
        `/api/TicketsApi/${third.id}`,
      ]);
    } finally {
      await server.close();
    }
  });

  it('--json whose read of the ticket fails says that the ticket was created, and how to see it (exit 1)', async () => {
    const front = addressOnly(REGISTER_PATH, (id) => `/api/TicketsApi/${id}`);
    const server = await startFrontServer(h, (req, res, body) => {
      if (req.method !== 'GET' || !/^\/api\/TicketsApi\/\d+$/.test(req.url!)) return front.answer(req, res, body);
      res.writeHead(500, { 'content-type': 'text/plain' }).end('database down');
      return true;
    });
    try {
      const result = await h.cli(['create', '--json', ...validCreateArgs({ ...BY_ID, title: 'address only unread' })], { env: frontEnv(h, server) });
      const [created] = h.sandbox.state.tickets.filter((t) => t.title === 'address only unread');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `error: ticket #${created!.id} was created, but reading it back failed (the service answered with its address only)\n` +
          `  failed (HTTP 500): GET ${server.url}/api/TicketsApi/${created!.id}: database down\n` +
          `hint: do not create it again: "tkt show ${created!.id} --json" shows it\n`,
      );
    } finally {
      await server.close();
    }
  });

  it('still names no ID from a Location on another host: exit 1, not a wrong ID', async () => {
    const front = addressOnly(REGISTER_PATH, (id) => `http://elsewhere.example/api/TicketsApi/${id}`);
    const server = await startFrontServer(h, front.answer);
    try {
      const result = await h.cli(['create', '-q', ...validCreateArgs({ ...BY_ID, title: 'address elsewhere' })], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^error: the service answered HTTP 201 but named no ticket ID\nhint: /);
    } finally {
      await server.close();
    }
  });
});

// A relay answers the create 200 with half of the service's body (docs/cli.md section 8): the
// service had the request and most likely created the ticket, so running the command again on
// exit 1 without a look would create a second one.
describe('tkt create answered 200 with a body cut in half', () => {
  it.each([
    ['register', validCreateArgs({ ...BY_ID, title: 'half create register' }), REGISTER_PATH],
    ['--integration', integrationCreateArgs({ title: 'half create integration' }), '/api/TicketsApi/new'],
  ])('%s: says the ticket is in doubt, not failed, with how to look for it (exit 1)', async (_endpoint, args, path) => {
    const title = args[args.indexOf('--title') + 1]!;
    const server = await startFrontServer(
      h,
      halvedAnswers(h, (req) => req.method === 'POST' && req.url === path),
    );
    try {
      const result = await h.cli(['create', '-q', ...args], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        new RegExp(
          `^error: in doubt \\(the service may have created it\\)\n` +
            `  unusable answer \\(HTTP 200\\): POST ${server.url}${path}: the service answered with JSON that does not parse [^\n]*\n` +
            `hint: look for it with "tkt list --search '${title}'" before running this again; --dedup-key makes a run safe to repeat\n$`,
        ),
      );
      // It was created: the doubt is real.
      expect(h.sandbox.state.tickets.filter((t) => t.title === title)).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

// The service takes the create and never answers (docs/cli.md section 8): it may have created the
// ticket, so a script that runs the command again on exit 1 must be told to look first.
describe('tkt create whose request was sent and never answered', () => {
  async function createUnanswered(args: string[], path: string) {
    const server = await startFrontServer(h, (req) => req.method === 'POST' && req.url === path);
    try {
      const env = frontEnv(h, server);
      // The lookups are cached first, so that the create is the only request the short --timeout bounds.
      expect((await h.cli(['create', ...args, '--dry-run'], { env })).code).toBe(0);
      const result = await h.cli(['create', ...args, '--timeout', '0.5'], { env });
      expect(server.requests.filter((request) => request.method === 'POST' && request.url === path)).toHaveLength(1);
      return { ...result, url: server.url };
    } finally {
      await server.close();
    }
  }

  it.each([
    ['register', validCreateArgs({ ...BY_ID, title: 'slow create' }), REGISTER_PATH],
    ['--integration', integrationCreateArgs({ title: 'slow create' }), '/api/TicketsApi/new'],
  ])('%s: says the ticket is in doubt, how to look for it, and exits 1 as a single ID in doubt does', async (_endpoint, args, path) => {
    const result = await createUnanswered(['-q', ...args], path);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: in doubt \\(the service may have created it\\)\n` +
          `  request timed out after [^:]+: POST ${result.url}${path}\n` +
          `hint: look for it with "tkt list --search 'slow create'" before running this again; --dedup-key makes a run safe to repeat\n$`,
      ),
    );
  });
});
