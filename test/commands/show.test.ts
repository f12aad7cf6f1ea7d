import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/show.js';
import { createLookups } from '../../src/lookups/index.js';
import { displayWidth } from '../../src/output/width.js';
import { renderTicketDetail } from '../../src/reading/detail.js';
import { BY_ID, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, sendsNothing, startFrontServer, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { plans } from '../../src/api/plans.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir = '';
useTempDir('tkt-show-', (path) => (dir = path));

const ticketTitled = (title: string) => h.sandbox.state.tickets.find((t) => t.title === title)!;

describe('tkt show', () => {
  it('says a ticket ID too large for a number is out of range, sending nothing', async () => {
    const result = await sendsNothing(h, () => h.cli(['show', '99999999999999999999']));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe(`error: invalid ticket ID "99999999999999999999": out of range: IDs go up to ${Number.MAX_SAFE_INTEGER}\n`);
  });

  // ID... commands take ranges as tkt prints them (`read 1001-1010`); show takes one ID, and says so.
  it('refuses a range or a list, saying it takes one ticket ID, sending nothing', async () => {
    const range = await sendsNothing(h, () => h.cli(['show', '1001-1010']));
    expect(range).toMatchObject({ code: 2, stdout: '', stderr: 'error: invalid ticket ID "1001-1010": show takes one ticket ID, not a range\n' });
    const list = await sendsNothing(h, () => h.cli(['show', '#1001, #1013']));
    expect(list.stderr).toBe('error: invalid ticket ID "#1001, #1013": show takes one ticket ID, not a list\n');
  });

  it('shows the header with names, the description and the conversation oldest first', async () => {
    const ticket = ticketTitled('Email bounce from customer domain');
    const r = await h.context();
    await run({ id: String(ticket.id), markRead: false, pager: false }, r.ctx);
    const out = r.stdout();
    expect(out).toMatch(new RegExp(`^ID:\\s+${ticket.id}$`, 'm'));
    expect(out).toMatch(/^Title:\s+Email bounce from customer domain$/m);
    expect(out).toMatch(/^Status:\s+In Progress$/m);
    expect(out).toMatch(/^Priority:\s+Medium$/m);
    expect(out).toMatch(/^Requester:\s+Maria Garcia \(mgarcia\)$/m);
    expect(out).toMatch(/^Assignee:\s+Ada Admin \(admin\)$/m);
    expect(out).toMatch(/^Category:\s+Software$/m);
    expect(out).toMatch(/^Group:\s+Applications$/m);
    expect(out).toMatch(/^Due:\s+\d{4}-\d\d-\d\d \d\d:\d\d \(/m);
    expect(out).toContain('Description');
    expect(out).toContain('Conversation (2)');
    const forward = out.indexOf('Forwarding to the mail provider.');
    const reply = out.indexOf('It still happens this morning.');
    expect(forward).toBeGreaterThan(0);
    expect(reply).toBeGreaterThan(forward);
    expect(r.stderr()).toBe('');
  });

  it('takes the ID as tkt prints it, #42', async () => {
    const ticket = ticketTitled('Email bounce from customer domain');
    const shown = await h.cli(['show', `#${ticket.id}`, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ id: ticket.id });
    const read = await h.cli(['read', `#${ticket.id}`, '--json']);
    expect(read.code, read.stderr).toBe(0);
    expect(JSON.parse(read.stdout)).toMatchObject({ id: ticket.id, ok: true });
  });

  it('shows the resolution and the attachments', async () => {
    const ticket = ticketTitled('VPN certificate expired');
    const r = await h.context();
    await run({ id: String(ticket.id), markRead: false, pager: false }, r.ctx);
    const out = r.stdout();
    expect(out).toContain('Resolution');
    expect(out).toContain('Issued a new certificate.');
    expect(out).toContain('Attachments (1)');
    expect(out).toMatch(/vpn\.log\s+\d+ B/);
  });

  it('prints the TicketApiModel as received with --json', async () => {
    const ticket = ticketTitled('VPN certificate expired');
    const { ctx } = await h.context();
    const reference = (await (await ctx.api()).send(plans.getTicket(ticket.id))).body;
    const r = await h.context({ globals: { json: true } });
    await run({ id: String(ticket.id), markRead: false, pager: false }, r.ctx);
    expect(JSON.parse(r.stdout())).toEqual(reference);
  });

  it('escapes control characters in human output and keeps them in --json', async () => {
    const ticket = ticketTitled('Monitor flickers');
    const evil = 'Flicker \u001b[2J\u001b]0;hacked\u0007 done';
    ticket.title = evil;
    ticket.description = 'line one\r\u001b[1Aline two';
    const human = await h.context();
    await run({ id: String(ticket.id), markRead: false, pager: false }, human.ctx);
    expect(human.stdout()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(human.stdout()).toContain('Flicker ^[[2J^[]0;hacked^G done');
    const json = await h.context({ globals: { json: true } });
    await run({ id: String(ticket.id), markRead: false, pager: false }, json.ctx);
    expect((JSON.parse(json.stdout()) as { title: string }).title).toBe(evil);
  });

  it("piped, keeps each header field on its line, a value's tabs and line breaks a space as list's; the description keeps its lines", async () => {
    const title = 'evil\ttab\u001b[2Jx\rcr\nnext';
    const created = await h.cli(['-q', 'create', ...validCreateArgs({ ...BY_ID, title: 'piped-fields', description: 'first\tcell\nsecond line' })]);
    const ticket = ticketTitled('piped-fields');
    // Set here: the service as it stores it, a title tkt create would refuse for its line break.
    ticket.title = title;
    ticket.cc = 'a@example.com,\tb@example.com';
    const shown = await h.cli(['show', created.stdout.trim(), '--no-pager']);
    expect(shown.code, shown.stderr).toBe(0);
    const lines = shown.stdout.split('\n');
    const field = (label: string) => lines.find((line) => line.startsWith(`${label}:`))?.replace(/^\w+: +/, '');
    expect(lines[1]).toMatch(/^Title: /);
    expect(field('Title')).toBe('evil tab^[[2Jx^Mcr next');
    expect(lines[2]).toMatch(/^Status: /);
    expect(field('CC')).toBe('a@example.com, b@example.com');
    const listed = await h.cli(['list', '--search', 'evil', '--columns', 'title']);
    expect(listed.stdout).toBe('evil tab^[[2Jx^Mcr next\n');
    // A block of text keeps its lines and tabs (README: tkt show), only its controls made visible.
    expect(shown.stdout).toContain('\nDescription\n  first\tcell\n  second line\n');
    // At a terminal the header is as before: a value's lines under its column, its tab kept.
    const terminal = await h.context({ tty: true, size: { columns: 120 } });
    await run({ id: String(ticket.id), markRead: false, pager: false }, terminal.ctx);
    expect(terminal.stdout()).toMatch(/^Title: +evil\ttab\^\[\[2Jx\^Mcr\n +next$/m);
  });

  it('marks the ticket read with --mark-read', async () => {
    const ticket = h.sandbox.state.tickets.find((t) => !t.isRead && !t.isDeleted)!;
    const r = await h.context();
    await run({ id: String(ticket.id), markRead: true, pager: false }, r.ctx);
    expect(ticket.isRead).toBe(true);
    expect(r.stdout()).toContain(ticket.title);
  });

  it('exits 3 for a missing ticket and 2 for an invalid ID before any request', async () => {
    const missing = await h.cli(['show', '987654']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^error: /);
    const before = h.sandbox.stats.requests;
    for (const id of ['abc', '-4', '0', '99999999999999999999']) {
      const result = await h.cli(['show', id]);
      expect(result.code, id).toBe(2);
    }
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('answers to the alias view, with --help examples', async () => {
    const ticket = ticketTitled('Printer toner low');
    const viewed = await h.cli(['view', String(ticket.id)]);
    expect(viewed.code).toBe(0);
    expect(viewed.stdout).toMatch(/^Status:\s+Open$/m);
    const help = await h.cli(['show', '--help']);
    expect(help.stdout).toContain('$ tkt show 42');
  });
});

describe('renderTicketDetail', () => {
  it('names IDs through the lookups when the ticket has no nested objects', async () => {
    const { ctx } = await h.context();
    const tech = h.sandbox.state.users.find((u) => u.username === 'tech')!;
    const text = await renderTicketDetail(
      {
        Id: 5,
        Title: 'Flat ticket',
        TicketStatusId: 3,
        SiteId: 2,
        DepartmentId: 4,
        TicketPriorityId: 99,
        AssignedUser: tech.id,
        resolution: { details: 'Done.', submitBy: tech.id },
      },
      { lookups: createLookups(ctx), now: new Date(), color: false },
    );
    expect(text).toMatch(/^Status:\s+On Hold$/m);
    expect(text).toMatch(/^Site:\s+Harbour Depot$/m);
    expect(text).toMatch(/^Department:\s+Operations$/m);
    // Unknown to the lookups: the ID still says something.
    expect(text).toMatch(/^Priority:\s+99$/m);
    expect(text).toMatch(/^Assignee:\s+Tom Tech$/m);
    expect(text).toContain('by Tom Tech');
  });

  it('sorts conversations oldest first whatever order they come in', async () => {
    const { ctx } = await h.context();
    const text = await renderTicketDetail(
      {
        id: 1,
        title: 'x',
        conversations: [
          { type: 'Reply', message: 'second', createdOn: '2026-01-02T10:00:00Z' },
          { type: 'Forward', message: 'first', createdOn: '2026-01-01T10:00:00Z' },
        ],
      },
      { lookups: createLookups(ctx), now: new Date(), color: false },
    );
    expect(text.indexOf('first')).toBeLessThan(text.indexOf('second'));
  });
});

describe('tkt show against a service that sends PascalCase', () => {
  const pascal = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(pascal);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key[0]!.toUpperCase() + key.slice(1), pascal(inner)]));
  };
  const headerOf = (text: string) => text.slice(0, text.indexOf('\nDescription'));

  it('renders the same header from PascalCase fields and nested objects', async () => {
    const ticket = ticketTitled('Email bounce from customer domain');
    const now = new Date();
    const reference = await h.context();
    await run({ id: String(ticket.id), markRead: false, pager: false }, { ...reference.ctx, now: () => now });
    const model = pascal((await (await reference.ctx.api()).send(plans.getTicket(ticket.id))).body);
    expect(model).toMatchObject({ Title: ticket.title, Status: expect.any(Object) });

    const path = `/api/TicketsApi/${ticket.id}`;
    const server = await startFrontServer(h, (req, res) => {
      if (req.method !== 'GET' || req.url !== path) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(model));
      return true;
    });
    try {
      const r = await h.context({ env: frontEnv(h, server) });
      await run({ id: String(ticket.id), markRead: false, pager: false }, { ...r.ctx, now: () => now });
      expect(server.requests.map((q) => q.url)).toContain(path);
      expect(headerOf(r.stdout())).toMatch(/^Requester:\s+Maria Garcia \(mgarcia\)$/m);
      expect(headerOf(r.stdout())).toBe(headerOf(reference.stdout()));
    } finally {
      await server.close();
    }
  });
});

describe('tkt show at a terminal', () => {
  const longMessage = 'The customer domain rejects every message from our relay since this morning, and the bounce says the SPF record is missing.';

  async function ticketWithLongReply(): Promise<number> {
    const created = await h.cli(['-q', 'create', ...validCreateArgs({ ...BY_ID, title: 'Wrapping', description: longMessage })]);
    const id = Number(created.stdout);
    expect((await h.cli(['reply', String(id), '--as-requester', 'aberg', '--message', 'first'])).code).toBe(0);
    expect((await h.cli(['forward', String(id), '--to', 'a@example.com', '--message', 'drafted', '--draft'])).code).toBe(0);
    expect((await h.cli(['reply', String(id), '--as-requester', 'aberg', '--message', longMessage])).code).toBe(0);
    return id;
  }

  it('wraps by words at the terminal width keeping indents, and names entry types in words', async () => {
    const id = await ticketWithLongReply();
    const r = await h.context({ tty: true, size: { columns: 60 } });
    await run({ id: String(id), markRead: false, pager: false }, r.ctx);
    const out = r.stdout();
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(60);
    // Continuations keep the indent; no word is cut.
    const description = out.slice(out.indexOf('Description'), out.indexOf('Conversation'));
    expect(description.split('\n').filter((line) => line.startsWith('  ')).length).toBeGreaterThan(1);
    expect(out.replace(/\n\s+/g, ' ')).toContain(longMessage);
    expect(out).toContain('Reply from requester');
    expect(out).toContain('Forward (draft)');
    expect(out).not.toContain('RequesterReply');
  });

  // 32 columns left the header values no column beside the labels: they ran on as one long line.
  it('never runs the header past a narrow terminal: each value goes under its label, and none is lost', async () => {
    const ticket = h.sandbox.state.tickets.find((t) => !t.isDeleted)!;
    const title = ticket.title;
    ticket.title = 'Printer on the second floor jams on every double-sided job since the update';
    try {
      for (const columns of [32, 33]) {
        const r = await h.context({ tty: true, size: { columns } });
        await run({ id: String(ticket.id), markRead: false, pager: false }, r.ctx);
        const out = r.stdout();
        for (const line of out.split('\n')) expect(displayWidth(line), `${columns}: ${line}`).toBeLessThanOrEqual(columns);
        expect(out.replace(/\n\s+/g, ' '), String(columns)).toContain(ticket.title);
      }
    } finally {
      ticket.title = title;
    }
  });

  it('breaks text without spaces (CJK, a long URL) by display width, keeping the indent', async () => {
    const ticket = h.sandbox.state.tickets.find((t) => !t.isDeleted)!;
    const description = ticket.description;
    const url = `https://example.com/${'path/'.repeat(20)}end`;
    ticket.description = `${'打印机卡纸了'.repeat(20)}\n${url}`;
    try {
      const r = await h.context({ tty: true, size: { columns: 40 } });
      await run({ id: String(ticket.id), markRead: false, pager: false }, r.ctx);
      const out = r.stdout();
      const following = out.slice(out.indexOf('Description\n') + 'Description\n'.length).split('\n');
      // The description's lines: up to the next section or the end.
      const body = following.slice(
        0,
        following.findIndex((line) => !line.startsWith(' ')),
      );
      for (const line of body) {
        expect(displayWidth(line), line).toBeLessThanOrEqual(40);
        expect(line).toMatch(/^ {2}\S/);
      }
      expect(
        body
          .filter((line) => line.includes('打印机'))
          .map((line) => line.trim())
          .join(''),
      ).toBe('打印机卡纸了'.repeat(20));
      expect(
        body
          .filter((line) => !line.includes('打印机'))
          .map((line) => line.trim())
          .join(''),
      ).toBe(url);
    } finally {
      ticket.description = description;
    }
  });

  it('--comments N shows the last N entries', async () => {
    const id = await ticketWithLongReply();
    const r = await h.context();
    await run({ id: String(id), markRead: false, pager: false, comments: '1' }, r.ctx);
    expect(r.stdout()).toContain('Conversation (last 1 of 3)');
    expect(r.stdout()).not.toContain('first');
    const bad = await h.cli(['show', String(id), '--comments', 'lots']);
    expect(bad.code).toBe(2);
  });

  it('pages through $PAGER at a terminal, and not with --no-pager or when piped', async () => {
    const id = await ticketWithLongReply();
    const paged = join(dir, 'paged.txt');
    const env = { PAGER: `cat > '${paged}'` };
    const r = await h.context({ tty: true, env });
    await run({ id: String(id), markRead: false, pager: true }, r.ctx);
    expect(r.stdout()).toBe('');
    expect(readFileSync(paged, 'utf8')).toContain('Title:');

    const direct = await h.context({ tty: true, env: { PAGER: `echo used > '${paged}'` } });
    await run({ id: String(id), markRead: false, pager: false }, direct.ctx);
    expect(direct.stdout()).toContain('Title:');
    const piped = await h.context({ env: { PAGER: `echo used > '${paged}'` } });
    await run({ id: String(id), markRead: false, pager: true }, piped.ctx);
    expect(piped.stdout()).toContain('Title:');
    expect(readFileSync(paged, 'utf8')).toContain('Title:');
  });

  it('never starts a pager nobody can answer: under CI, with --no-input, at a terminal of unknown size', async () => {
    const id = await ticketWithLongReply();
    const paged = join(dir, 'not-paged.txt');
    const env = { PAGER: `echo used > '${paged}'` };
    const runs = [
      await h.context({ tty: true, env: { ...env, CI: 'true' } }),
      await h.context({ tty: true, env, globals: { input: false } }),
      await h.context({ tty: true, env, size: { columns: 120, rowsReported: false } }),
    ];
    for (const r of runs) {
      await run({ id: String(id), markRead: false, pager: true }, r.ctx);
      expect(r.stdout()).toContain('Title:');
    }
    expect(existsSync(paged)).toBe(false);
    // CI=false is no CI: the pager runs.
    const local = await h.context({ tty: true, env: { ...env, CI: 'false' } });
    await run({ id: String(id), markRead: false, pager: true }, local.ctx);
    expect(readFileSync(paged, 'utf8')).toBe('used\n');
  });

  it("gives the pager git's LESS=FRX unless the user set LESS", async () => {
    const id = await ticketWithLongReply();
    const seen = join(dir, 'less-env.txt');
    const pager = `cat > /dev/null; printf '%s' "$LESS" > '${seen}'`;
    await run({ id: String(id), markRead: false, pager: true }, (await h.context({ tty: true, env: { PAGER: pager } })).ctx);
    expect(readFileSync(seen, 'utf8')).toBe('FRX');
    await run({ id: String(id), markRead: false, pager: true }, (await h.context({ tty: true, env: { PAGER: pager, LESS: 'R' } })).ctx);
    expect(readFileSync(seen, 'utf8')).toBe('R');
  });

  it('a pager that fails (exits non-zero) is a warning naming it and its status, and the ticket is printed', async () => {
    const id = await ticketWithLongReply();
    const failing: [Record<string, string>, string][] = [
      [{ PAGER: 'false' }, 'warning: the pager "false" ($PAGER) exited with status 1: the ticket is printed instead\n'],
      [{ PAGER: 'cat --bogus 2>/dev/null' }, 'warning: the pager "cat --bogus 2>/dev/null" ($PAGER) exited with status 1: the ticket is printed instead\n'],
    ];
    for (const [env, warning] of failing) {
      const r = await h.context({ tty: true, env });
      await run({ id: String(id), markRead: false, pager: true }, r.ctx);
      expect(r.stdout(), env.PAGER).toContain('Title:');
      expect(r.stderr()).toBe(warning);
    }
    // The same pager saved with tkt config set is named as such.
    expect((await h.cli(['config', 'set', 'pager', 'exit 3'])).code).toBe(0);
    try {
      const saved = await h.context({ tty: true, env: { PAGER: '' } });
      await run({ id: String(id), markRead: false, pager: true }, saved.ctx);
      expect(saved.stdout()).toContain('Title:');
      expect(saved.stderr()).toBe('warning: the pager "exit 3" ("tkt config get pager") exited with status 3: the ticket is printed instead\n');
    } finally {
      await h.cli(['config', 'unset', 'pager']);
    }
    // Quit by the user (Ctrl-C, sh's 130): the ticket was seen, nothing printed twice.
    const quit = await h.context({ tty: true, env: { PAGER: 'cat > /dev/null; exit 130' } });
    await run({ id: String(id), markRead: false, pager: true }, quit.ctx);
    expect({ stdout: quit.stdout(), stderr: quit.stderr() }).toEqual({ stdout: '', stderr: '' });
  });

  it('a pager that is a path with spaces, given unquoted, gets the hint to quote it where it was set; quoted, it runs', async () => {
    const id = await ticketWithLongReply();
    const pager = join(dir, 'Program Files', 'pager.sh');
    const paged = join(dir, 'quoted-pager.txt');
    mkdirSync(join(dir, 'Program Files'), { recursive: true });
    writeFileSync(pager, `#!/bin/sh\ncat > '${paged}'\n`, { mode: 0o755 });
    const quoted = `'"${pager}"'`;
    const unquoted = await h.context({ tty: true, env: { PAGER: pager } });
    await run({ id: String(id), markRead: false, pager: true }, unquoted.ctx);
    expect(unquoted.stdout()).toContain('Title:');
    expect(unquoted.stderr()).toBe(
      `warning: the pager "${pager}" ($PAGER) could not be run: the ticket is printed instead\nhint: $PAGER is a path with spaces, which the shell splits: quote it: export PAGER=${quoted}\n`,
    );
    expect((await h.cli(['config', 'set', 'pager', pager])).code).toBe(0);
    try {
      const saved = await h.context({ tty: true, env: { PAGER: '' } });
      await run({ id: String(id), markRead: false, pager: true }, saved.ctx);
      expect(saved.stderr()).toContain(`\nhint: the pager setting is a path with spaces, which the shell splits: quote it: tkt config set pager ${quoted}\n`);
    } finally {
      await h.cli(['config', 'unset', 'pager']);
    }
    const works = await h.context({ tty: true, env: { PAGER: `"${pager}"` } });
    await run({ id: String(id), markRead: false, pager: true }, works.ctx);
    expect({ stdout: works.stdout(), stderr: works.stderr() }).toEqual({ stdout: '', stderr: '' });
    expect(readFileSync(paged, 'utf8')).toContain('Title:');
  });

  it('prints the text itself, once, when the pager cannot run (sh: 127 not found, 126 not runnable), after a warning naming it', async () => {
    const id = await ticketWithLongReply();
    const unrunnable = join(dir, 'not-executable-pager');
    writeFileSync(unrunnable, 'cat\n', { mode: 0o644 });
    for (const pager of ['no-such-pager-anywhere', unrunnable]) {
      const r = await h.context({ tty: true, env: { PAGER: pager } });
      await run({ id: String(id), markRead: false, pager: true }, r.ctx);
      expect(r.stdout().split('Title:').length - 1, pager).toBe(1);
      // sh's own "not found" names neither tkt nor where the pager was set.
      expect(r.stderr()).toBe(`warning: the pager "${pager}" ($PAGER) could not be run: the ticket is printed instead\n`);
    }
  });
});
