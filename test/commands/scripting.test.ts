// Contract section 9 through the real CLI against the sandbox: --query, --raw, --fields,
// --csv and --columns, and piped TSV with ISO timestamps.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { run as runList } from '../../src/commands/list.js';
import { BY_ID, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { sendsNothing, unusedTickets, useHarness } from '../helpers/sandbox-state.js';
import { plans } from '../../src/api/plans.js';

let h: Harness;
useHarness({ sandbox: { seedTickets: 120 } }, (harness) => (h = harness));

const CLOSED = 7;
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);

/** Every ticket the service lists, as the list items it sends. */
async function allItems(): Promise<Record<string, unknown>[]> {
  const { ctx } = await h.context();
  return (await (await ctx.api()).send(plans.listTickets({ page: 1, length: 100000, listType: 'AllTickets' }))).body as Record<string, unknown>[];
}

describe('--query', () => {
  it('applies JMESPath to list --all, page by page, in order', async () => {
    const items = await allItems();
    const open = items.filter((item) => item.status === 'Open').map((item) => ({ id: item.ticketId, title: item.subject }));
    expect(open.length).toBeGreaterThan(3);
    const query = "[?status=='Open'].{id: ticketId, title: subject}";
    const result = await h.cli(['list', '--all', '--page', '1', '--limit', '7', '--view', 'all-tickets', '--query', query]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(open);
  });

  it('evaluates an expression over the whole array when it is not a projection', async () => {
    const items = await allItems();
    const result = await h.cli(['list', '--all', '--page', '1', '--limit', '9', '--view', 'all-tickets', '--query', 'length(@)']);
    expect(result.stdout).toBe(`${items.length}\n`);
    const sorted = await h.cli(['list', '--all', '--page', '1', '--limit', '9', '--view', 'all-tickets', '--query', 'sort_by(@, &ticketId)[-1].ticketId']);
    expect(Number(sorted.stdout)).toBe(Math.max(...items.map((item) => item.ticketId as number)));
  });

  it('prints --raw strings bare and arrays one element per line', async () => {
    const items = await allItems();
    const ids = await h.cli(['list', '--all', '--page', '1', '--limit', '50', '--view', 'all-tickets', '--query', '[].ticketId', '--raw']);
    expect(ids.stdout).toBe(items.map((item) => `${item.ticketId as number}\n`).join(''));
    const titles = await h.cli(['list', '--limit', '3', '--view', 'all-tickets', '--query', '[].subject', '--raw']);
    expect(titles.stdout).toBe(
      items
        .slice(0, 3)
        .map((item) => `${item.subject as string}\n`)
        .join(''),
    );
    const [ticket] = unusedTickets(h, 1);
    const title = await h.cli(['show', String(ticket!.id), '--query', 'title', '--raw']);
    expect(title.stdout).toBe(`${ticket!.title}\n`);
    const quoted = await h.cli(['show', String(ticket!.id), '--query', 'title']);
    expect(quoted.stdout).toBe(`${JSON.stringify(ticket!.title)}\n`);
  });

  // A script reads --raw's output by lines (create --from - takes JSON Lines): an object whole is
  // one line too, as an array's objects are; without --raw it stays indented.
  it('prints an object result with --raw as one line of compact JSON', async () => {
    const [ticket] = unusedTickets(h, 1);
    const query = '{id: id, title: title}';
    const raw = await h.cli(['show', String(ticket!.id), '--query', query, '--raw']);
    expect(raw.stdout).toBe(`${JSON.stringify({ id: ticket!.id, title: ticket!.title })}\n`);
    const indented = await h.cli(['show', String(ticket!.id), '--query', query]);
    expect(indented.stdout).toBe(`${JSON.stringify({ id: ticket!.id, title: ticket!.title }, null, 2)}\n`);
  });

  it('applies to each JSON Line of an ID... command', async () => {
    const tickets = unusedTickets(h, 2, (t) => t.ticketStatusId !== CLOSED);
    const result = await h.cli(['close', ...tickets.map((t) => String(t.id)), '--query', '{id: id, ok: ok}', '--concurrency', '1']);
    expect(result.code, result.stderr).toBe(0);
    expect(jsonLines(result.stdout)).toEqual(tickets.map((t) => ({ id: t.id, ok: true })));
    const raw = await h.cli(['close', ...tickets.map((t) => String(t.id)), '--query', 'id', '--raw', '--concurrency', '1']);
    expect(raw.stdout).toBe(tickets.map((t) => `${t.id}\n`).join(''));
  });

  it('refuses a malformed expression or an unknown function with exit 2, sending nothing', async () => {
    const [ticket] = unusedTickets(h, 1, (t) => t.ticketStatusId !== CLOSED);
    for (const argv of [
      ['list', '--query', '[?status=='],
      ['show', '1', '--query', 'foo(@)'],
      ['close', String(ticket!.id), '--query', '[.'],
    ]) {
      const result = await sendsNothing(h, () => h.cli(argv));
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: invalid --query/m);
    }
    expect(h.sandbox.state.tickets.find((t) => t.id === ticket!.id)!.ticketStatusId).not.toBe(CLOSED);
    const rawAlone = await sendsNothing(h, () => h.cli(['list', '--raw']));
    expect(rawAlone.code).toBe(2);
    expect(rawAlone.stderr).toContain('--raw goes with --query');
  });

  it('shows no member name in a hint given before any answer: the service decides them (the spec does not describe list items)', async () => {
    const rawAlone = await h.cli(['list', '--raw']);
    const malformed = await h.cli(['show', '1001', '--query', '[?x==']);

    for (const result of [rawAlone, malformed]) {
      expect(result.code).toBe(2);
      const hint = /^hint: (.*)$/m.exec(result.stderr)?.[1];
      expect(hint).toBeDefined();
      expect(hint).not.toMatch(/\bid\b|ticketId|subject/i);
    }
  });

  it('names the members of the answer when a --query finds nothing because it names one the answer lacks', async () => {
    const items = await allItems();
    const listed = await h.cli(['list', '--query', '[].id', '--raw']);
    const paged = await h.cli(['list', '--all', '--query', '[].Id', '--raw']);
    const shown = await h.cli(['show', '1001', '--query', 'ticketID']);

    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^hint: the answer has no member "id" \(did you mean "ticketId"\? names are case-sensitive\); its members: ticketId, /m);
    expect(Object.keys(items[0]!)).toContain('ticketId');
    expect(paged.stderr.match(/^hint: /gm)).toHaveLength(1);
    expect(paged.stderr).toContain('did you mean "ticketId"?');
    expect(shown.stderr).toMatch(/^hint: the answer has no member "ticketID" \(did you mean "id"\?|did you mean "ticketId"\?/m);
  });

  it('says so too of a member the answer has only deeper down (a ticket has no subject, its conversation entries do)', async () => {
    const shown = await h.cli(['show', '1013', '--query', 'subject']);
    const deeper = await h.cli(['show', '1013', '--query', 'conversations[].subject']);
    const listed = await h.cli(['list', '--query', '[].id']);

    expect(shown).toMatchObject({ code: 0, stdout: 'null\n' });
    expect(shown.stderr).toMatch(/^hint: the answer has no member "subject"; its members: id, title, /m);
    expect(JSON.parse(deeper.stdout)).not.toHaveLength(0);
    expect(deeper.stderr).toBe('');
    // A list's items are what a projection reads: their members, not the list's, are listed.
    expect(listed.stderr).toMatch(/^hint: the answer has no member "id" .*; its members: ticketId, /m);
  });

  it('names the members where the query lacks one, not the top of the answer (status: urgent[] items have ticketId)', async () => {
    const status = await h.cli(['status', '--query', 'urgent[].id']);
    const deeper = await h.cli(['show', '1013', '--query', 'conversations[].Subject']);

    expect(status).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(status.stderr).toMatch(
      /^hint: the answer's urgent\[\] has no member "id" \(did you mean "ticketId"\? names are case-sensitive\); its members: ticketId, /m,
    );
    expect(status.stderr).not.toMatch(/members: counts/);
    expect(deeper.stderr).toMatch(/^hint: the answer's conversations\[\] has no member "Subject" \(did you mean "subject"\?.*; its members: .*\bsubject\b/m);
  });

  it('gives no such hint when the query found something, or found nothing with names the answer has', async () => {
    const found = await h.cli(['list', '--query', '[].ticketId', '--raw']);
    const filtered = await h.cli(['list', '--query', "[?subject=='no such title'].ticketId"]);
    // No ticket found: nothing was read, so no name is missing.
    const none = await h.cli(['list', '--search', 'zzzznothing', '--query', '[].ticketId', '--raw']);

    expect(found.stderr).toBe('');
    expect(filtered.stdout).toBe('[]\n');
    expect(filtered.stderr).toBe('');
    expect(none).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('--fields', () => {
  it('limits JSON to the named members, any case, in the order asked', async () => {
    const items = await allItems();
    const result = await h.cli(['list', '--limit', '5', '--view', 'all-tickets', '--fields', 'SUBJECT, ticketid']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"subject"');
    expect(JSON.parse(result.stdout)).toEqual(items.slice(0, 5).map((item) => ({ subject: item.subject, ticketId: item.ticketId })));
    const [ticket] = unusedTickets(h, 1);
    const show = await h.cli(['show', String(ticket!.id), '--fields', 'id,title']);
    expect(JSON.parse(show.stdout)).toEqual({ id: ticket!.id, title: ticket!.title });
    const site = await h.cli(['metadata', '--collection', 'sites', '--fields', 'title']);
    expect(JSON.parse(site.stdout)).toEqual(h.sandbox.state.lookups.sites.map((s) => ({ title: s.title })));
  });

  it('combines with --query, fields first', async () => {
    const items = await allItems();
    const result = await h.cli(['list', '--all', '--view', 'all-tickets', '--fields', 'ticketId', '--query', '[].keys(@)[0]', '--raw']);
    expect(result.stdout).toBe(items.map(() => 'ticketId\n').join(''));
  });

  it('refuses a field no item has, naming the ones that exist', async () => {
    const result = await h.cli(['list', '--all', '--view', 'all-tickets', '--fields', 'ticketId,colour']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: --fields: no such field "colour"');
    expect(result.stderr).toMatch(/fields: ticketId, subject, status/);
    const typo = await h.cli(['list', '--fields', 'ticketId,stauts']);
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toMatch(/^error: --fields: no such field "stauts"\n(.*\n)*hint: did you mean status\?\n$/);
    const [ticket] = unusedTickets(h, 1);
    const show = await h.cli(['show', String(ticket!.id), '--fields', 'nope']);
    expect(show.code).toBe(2);
    expect(show.stderr).toMatch(/fields: .*title/);
    // A detail has thirty-odd members: listed within 80 columns, continued under the first line.
    const lines = show.stderr.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.slice(2).every((line) => line.startsWith('    '))).toBe(true);
    expect(show.stderr).toMatch(/\battachments\n$/);
  });

  it('works on create', async () => {
    const result = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'Fields on create' }), '--fields', 'id,title']);
    expect(result.code, result.stderr).toBe(0);
    const body = JSON.parse(result.stdout) as { id: number; title: string };
    expect(body).toEqual({ id: expect.any(Number), title: 'Fields on create' });
    expect(h.sandbox.state.tickets.find((t) => t.id === body.id)?.title).toBe('Fields on create');
  });
});

describe('create --dry-run with --fields and --query: they shape the form it would send, which stands for the ticket', () => {
  const dryRun = async (...shaping: string[]) => {
    const tickets = h.sandbox.state.tickets.length;
    const result = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'Dry shaped', due: '2030-01-02T03:04:05Z' }), '--dry-run', ...shaping]);
    expect(h.sandbox.state.tickets).toHaveLength(tickets);
    return result;
  };

  it('--fields picks the form fields, by the names of the ticket members they fill, in any case', async () => {
    const result = await dryRun('--fields', 'title,dueDate');
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ Title: 'Dry shaped', DueDate: '2030-01-02T03:04:05.000Z' });
  });

  it('--query sees the form fields as sent', async () => {
    const result = await dryRun('--query', 'Title', '--raw');
    expect(result).toMatchObject({ code: 0, stdout: 'Dry shaped\n' });
  });

  it('a member only the answer has (the new ID) is exit 2 with --fields saying why, a hint with --query', async () => {
    const fields = await dryRun('--fields', 'id,title');
    expect(fields.code).toBe(2);
    expect(fields.stdout).toBe('');
    expect(fields.stderr).toMatch(/^error: --fields: no such field "id"\n/);
    expect(fields.stderr).toMatch(/fields: Title, Description, CreatorId, SiteId/);
    expect(fields.stderr).toMatch(/hint: a dry run has no ticket yet: --fields and --query see the form it would send/);
    const query = await dryRun('--query', 'id');
    expect(query).toMatchObject({ code: 0, stdout: 'null\n' });
    expect(query.stderr).toMatch(/^hint: the request has no member "id".*; its members: Title, Description.*\nhint: a dry run has no ticket yet/);
  });

  it('--json alone prints the whole request, as every dry run does', async () => {
    const result = await dryRun('--json');
    expect(JSON.parse(result.stdout)).toMatchObject({ dryRun: true, method: 'POST', path: '/api/TicketsApi/register', fields: { Title: 'Dry shaped' } });
  });
});

describe('-q with --fields or --query on create: the output asked for wins over quiet', () => {
  it('prints the members asked for', async () => {
    const result = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'Quiet fields' }), '-q', '--fields', 'id,title']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ id: expect.any(Number), title: 'Quiet fields' });
    expect(result.stderr).toBe('');
  });

  it('still prints the new ID on stdout when they fail on the answer, as -q promises, and exits 1', async () => {
    const result = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'Quiet fields failed' }), '-q', '--fields', 'id,colour']);
    expect(result.code).toBe(1);
    const ticket = h.sandbox.state.tickets.find((t) => t.title === 'Quiet fields failed')!;
    expect(result.stdout).toBe(`${ticket.id}\n`);
    expect(result.stderr).toMatch(/^error: --fields: no such field "colour"/);
    expect(result.stderr).toContain('hint: the change was made; only its output failed: do not run the command again for it');
  });
});

describe('--fields and --query on the answer of a change', () => {
  const created = () => h.sandbox.state.tickets.filter((t) => t.title === 'Shaped after the change');

  it("accept the read model's other names of a ticket member: ticketId on a detail, id on a list item", async () => {
    const create = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'Aliased fields' }), '--fields', 'ticketId,subject']);
    expect(create.code, create.stderr).toBe(0);
    const body = JSON.parse(create.stdout) as { id: number };
    // The members keep the names the service gave them.
    expect(body).toEqual({ id: expect.any(Number), title: 'Aliased fields' });
    const items = await allItems();
    const list = await h.cli(['list', '--limit', '2', '--view', 'all-tickets', '--fields', 'ID,title']);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toEqual(items.slice(0, 2).map((item) => ({ ticketId: item.ticketId, subject: item.subject })));
    // Another kind of answer has no ticket's names.
    const sites = await h.cli(['metadata', '--collection', 'sites', '--fields', 'ticketId']);
    expect(sites.code).toBe(2);
  });

  it('say on stderr what was done and exit 1 when the created ticket answer cannot be shaped', async () => {
    for (const shaping of [
      ['--query', 'abs(@)'],
      ['--fields', 'colour'],
    ]) {
      const before = created().length;
      const result = await h.cli(['create', ...validCreateArgs({ ...BY_ID, title: 'Shaped after the change' }), ...shaping]);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe('');
      expect(created()).toHaveLength(before + 1);
      const ticket = created().at(-1)!;
      expect(result.stderr).toMatch(
        new RegExp(`^Created ticket #${ticket.id}\nerror: --${shaping[0] === '--query' ? 'query failed' : 'fields: no such field "colour"'}`),
      );
      expect(result.stderr).toContain('hint: the change was made; only its output failed: do not run the command again for it');
    }
  });

  it('say each ID done on stderr and exit 1 when the lines of an ID command cannot be shaped', async () => {
    const [one, two, three] = unusedTickets(h, 3, (t) => t.assignedUser === null);
    const single = await h.cli(['pickup', String(one!.id), '--query', 'abs(@)']);
    expect(single.code, single.stderr).toBe(1);
    expect(single.stdout).toBe('');
    expect(single.stderr).toMatch(new RegExp(`^✓ #${one!.id} picked up\nerror: --query failed`));
    expect(one!.assignedUser).not.toBeNull();
    const many = await h.cli(['pickup', String(two!.id), String(three!.id), '--query', 'abs(@)']);
    expect(many.code, many.stderr).toBe(1);
    expect(many.stdout).toBe('');
    expect(many.stderr).toContain(`✓ #${two!.id} picked up\n`);
    expect(many.stderr).toContain(`✓ #${three!.id} picked up\n`);
    expect(many.stderr.match(/^error: /gm)).toHaveLength(1);
    expect(many.stderr).toContain('error: --query failed');
  });

  it('stay usage errors (exit 2) when nothing was changed', async () => {
    const tickets = h.sandbox.state.tickets.length;
    // The dry run reads the requester's ID (a lookup), and changes nothing.
    const dryRun = await h.cli(['create', ...validCreateArgs(BY_ID), '--dry-run', '--query', 'abs(@)']);
    expect(dryRun.code).toBe(2);
    expect(h.sandbox.state.tickets).toHaveLength(tickets);
    const [ticket] = unusedTickets(h, 1);
    const show = await h.cli(['show', String(ticket!.id), '--query', 'abs(@)']);
    expect(show.code).toBe(2);
    expect(show.stderr).not.toContain('change was made');
  });
});

describe('--csv, --columns and piped TSV', () => {
  it('round-trips titles with commas, quotes and line breaks through a CSV parser', async () => {
    const titles = ['Printer, 2nd floor', 'Says "PC LOAD LETTER"', 'Line one\nline two', 'All, "of"\nthem'];
    const tickets = unusedTickets(h, titles.length);
    tickets.forEach((t, i) => (t.title = titles[i]!));
    const result = await h.cli(['list', '--all', '--view', 'all-tickets', '--csv', '--columns', 'id,title,due,created']);
    expect(result.code, result.stderr).toBe(0);
    // No byte-order mark, as the README says (a spreadsheet opened by double-click is told to import it instead).
    expect(result.stdout.startsWith('id,')).toBe(true);
    const rows = parse(result.stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual(['id', 'title', 'due', 'created']);
    const byId = new Map(rows.map((row) => [Number(row.id), row]));
    for (const t of tickets) {
      expect(byId.get(t.id)?.title).toBe(t.title);
      expect(byId.get(t.id)?.created).toBe(new Date(t.createdOn).toISOString());
      expect(byId.get(t.id)?.due).toBe(t.dueDate === null ? '' : new Date(t.dueDate).toISOString());
    }
    expect(rows).toHaveLength((await allItems()).length);
  });

  it('carries control characters as the service sent them when piped, where piped TSV shows them as a table does', async () => {
    const title = 'Bell\u0007 ESC\u001b[31m C1\u009b NUL\u0000, CRLF\r\nCR\rtab\t.';
    const [ticket] = unusedTickets(h, 1);
    ticket!.title = title;
    const search = ['list', '--search', String(ticket!.id), '--in', 'ticket-id', '--columns', 'id,title'];
    const csv = await h.cli([...search, '--csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(parse(csv.stdout, { columns: true })).toEqual([{ id: String(ticket!.id), title }]);
    // TSV is the human output in a pipe (for grep, cut, awk): one line per row, nothing a terminal acts on.
    const tsv = await h.cli(search);
    expect(tsv.stdout).toBe(`${ticket!.id}\tBell^G ESC^[[31m C1<U+009B> NUL^@, CRLF CR^Mtab .\n`);
  });

  it('prints the default ticket columns with a header, and ISO timestamps when piped as TSV', async () => {
    const overdue = h.sandbox.state.tickets.find((t) => t.dueDate !== null && t.dueDate < new Date().toISOString() && !t.isDeleted)!;
    const csv = await h.cli(['list', '--limit', '1', '--search', String(overdue.id), '--in', 'ticket-id', '--csv']);
    expect(csv.stdout.split('\r\n')[0]).toBe('id,title,status,priority,requester,assignee,due');
    const tsv = await h.cli(['list', '--limit', '1', '--search', String(overdue.id), '--in', 'ticket-id', '--columns', 'id,due,isOverdue']);
    expect(tsv.stdout).toBe(`${overdue.id}\t${new Date(overdue.dueDate!).toISOString()}\ttrue\n`);
    expect(tsv.stdout).not.toContain('overdue');
  });

  it("names tkt's own columns in the CSV header as it names them, however --columns wrote them, when nothing matched too", async () => {
    const [ticket] = unusedTickets(h, 1);
    const columns = ['--csv', '--columns', 'ID,Title,isOverdue'];
    const found = await h.cli(['list', '--search', String(ticket!.id), '--in', 'ticket-id', ...columns]);
    expect(found.stdout.split('\r\n')[0]).toBe('id,title,isOverdue');
    // The header alone, the same: `tkt close -` skips it as it skips every CSV header of tkt's.
    const none = await h.cli(['list', '--search', 'no ticket says this', ...columns]);
    expect(none).toEqual({ code: 0, stdout: 'id,title,isOverdue\r\n', stderr: '' });
  });

  it('chooses the columns of the table at a terminal, with human due dates there', async () => {
    const overdue = h.sandbox.state.tickets.find(
      (t) => t.dueDate !== null && t.dueDate < new Date(Date.now() - 3 * 86400_000).toISOString() && !t.isDeleted && t.ticketStatusId < 6,
    )!;
    const r = await h.context({ tty: true, globals: { columns: 'id,due,subject' } });
    await runList({ search: String(overdue.id), in: 'ticket-id', limit: '1' }, r.ctx);
    const lines = r.stdout().split('\n');
    expect(lines.find((line) => line.includes('ID'))).toMatch(/ID.*DUE.*SUBJECT/);
    expect(r.stdout()).toMatch(new RegExp(`${overdue.id}\\D+\\d+[a-z] overdue`));
    expect(r.stdout()).not.toContain('STATUS');
  });

  it('refuses an unknown column naming the columns and fields, and --csv with JSON flags', async () => {
    const bad = await h.cli(['list', '--columns', 'id,colour']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no such field "colour"');
    expect(bad.stderr).toContain('columns: id, title, status, priority, requester, assignee, due, created');
    const conflict = await sendsNothing(h, () => h.cli(['list', '--csv', '--json']));
    expect(conflict.code).toBe(2);
    const noCollection = await sendsNothing(h, () => h.cli(['metadata', '--csv']));
    expect(noCollection.code).toBe(2);
    expect(noCollection.stderr).toContain('add --collection');
  });

  it('prints one metadata collection as CSV with chosen columns', async () => {
    const result = await h.cli(['metadata', '--collection', 'requesters', '--csv', '--columns', 'userName,fullName']);
    const rows = parse(result.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toEqual(h.sandbox.state.users.map((u) => ({ userName: u.username, fullName: `${u.firstName} ${u.lastName}`.trim() })));
  });
});

describe('--fields and --columns: one rule whatever the answer holds', () => {
  // An empty result: the search matches no ticket.
  const nothing = ['list', '--all', '--search', 'zzzznothing'];

  it('warns of a name tkt does not know when no ticket came back to check it against, exit 0', async () => {
    const columns = await h.cli([...nothing, '--csv', '--columns', 'id,nosuch']);
    expect(columns).toMatchObject({ code: 0, stdout: 'id,nosuch\r\n' });
    expect(columns.stderr).toBe('warning: --columns: nosuch is not a column tkt knows, and no tickets came back to check it against\n');
    const fields = await h.cli([...nothing, '--fields', 'ticketId,nosuch']);
    expect(fields).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(fields.stderr).toBe('warning: --fields: nosuch is not a field tkt knows, and no tickets came back to check it against\n');
    const queried = await h.cli([...nothing, '--fields', 'nosuch', '--query', '[].nosuch']);
    expect(queried).toMatchObject({ code: 0, stdout: '[]\n' });
    expect(queried.stderr).toContain('warning: --fields: nosuch is not a field tkt knows');
    // With tickets, the same name is a typo: exit 2.
    for (const shaping of [
      ['--csv', '--columns', 'id,nosuch'],
      ['--fields', 'ticketId,nosuch'],
    ]) {
      const busy = await h.cli(['list', '--limit', '3', ...shaping]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(`error: ${shaping.at(-2)}: no such field "nosuch"`);
    }
  });

  it('passes the member names tkt reads tickets by on an empty answer, and with tickets checks them as any name (contract section 9)', async () => {
    const items = await allItems();
    // A list item has no updatedOn (a detail has): a name tkt reads tickets by.
    expect(Object.keys(items[0]!)).not.toContain('updatedOn');
    for (const shaping of [
      ['--csv', '--columns', 'id,created,updatedOn,ticketNumber'],
      ['--fields', 'ticketId,dueDate,updatedOn,resolution'],
    ]) {
      const quiet = await h.cli([...nothing, ...shaping]);
      expect(quiet, shaping.join(' ')).toMatchObject({ code: 0, stderr: '' });
      // "A field that no returned item has is an error naming the fields that exist."
      const busy = await h.cli(['list', '--limit', '2', '--view', 'all-tickets', ...shaping]);
      expect(busy.code, busy.stderr).toBe(2);
      expect(busy.stderr).toContain('no such field "updatedOn"');
    }
    const csv = await h.cli(['list', '--limit', '2', '--view', 'all-tickets', '--csv', '--columns', 'created,ticketNumber']);
    // ticketNumber is another name of the ID: read under the name the service used.
    expect(csv.code, csv.stderr).toBe(0);
    expect((parse(csv.stdout, { columns: true }) as Record<string, string>[]).map((row) => row.ticketNumber)).toEqual(
      items.slice(0, 2).map((item) => String(item.ticketId)),
    );
  });

  it('holds for metadata too: another kind of answer knows no ticket names', async () => {
    const sites = h.sandbox.state.lookups.sites;
    h.sandbox.state.lookups.sites = [];
    try {
      const empty = await h.cli(['metadata', '--collection', 'sites', '--csv', '--columns', 'nosuch']);
      expect(empty).toMatchObject({ code: 0, stdout: 'nosuch\r\n' });
      expect(empty.stderr).toBe('warning: --columns: nosuch is not a column tkt knows, and no sites came back to check it against\n');
      const fields = await h.cli(['metadata', '--collection', 'sites', '--fields', 'ticketId']);
      expect(fields).toMatchObject({ code: 0, stdout: '[]\n' });
      expect(fields.stderr).toContain('warning: --fields: ticketId is not a field tkt knows, and no sites came back');
    } finally {
      h.sandbox.state.lookups.sites = sites;
    }
  });

  it('warns as for an empty answer when what came back holds no object to check the names against', async () => {
    const sites = h.sandbox.state.lookups.sites;
    // A service whose sites are bare names: items, but none with members.
    h.sandbox.state.lookups.sites = ['Head Office', 'Remote'] as unknown as typeof sites;
    try {
      const collection = ['metadata', '--collection', 'sites'];
      for (const shaping of [['--csv', '--columns', 'nosuch'], ['--columns', 'nosuch'], ['--fields', 'nosuch'], ['--json']]) {
        const run = await h.cli([...collection, ...shaping]);
        const warned =
          shaping[0] === '--json'
            ? ''
            : `warning: ${shaping.at(-2)}: nosuch is not a ${shaping.at(-2) === '--fields' ? 'field' : 'column'} tkt knows, and no sites came back to check it against\n`;
        expect(run, shaping.join(' ')).toMatchObject({ code: 0, stderr: warned });
      }
    } finally {
      h.sandbox.state.lookups.sites = sites;
    }
  });
});

describe('--columns named twice', () => {
  it('shows a column once, where first named: any case, and the names of one member', async () => {
    const items = await allItems();
    const list = ['list', '--limit', '2', '--view', 'all-tickets', '--csv', '--columns'];
    const byCase = await h.cli([...list, 'id,ID']);
    expect(byCase.stdout.split('\r\n')[0]).toBe('id');
    const byMember = await h.cli([...list, 'title,subject,Title,id,ticketId']);
    expect(byMember.code, byMember.stderr).toBe(0);
    expect(parse(byMember.stdout, { columns: true })).toEqual(items.slice(0, 2).map((item) => ({ title: item.subject, id: String(item.ticketId) })));
    const tsv = await h.cli(['list', '--limit', '1', '--view', 'all-tickets', '--columns', 'subject,title,created,createdOn']);
    expect(tsv.stdout).toBe(`${String(items[0]!.subject)}\t${new Date(String(items[0]!.createdOn)).toISOString()}\n`);
    const empty = await h.cli(['list', '--search', 'zzzznothing', '--csv', '--columns', 'id,ID,dueDate,due']);
    expect(empty).toMatchObject({ code: 0, stdout: 'id,dueDate\r\n', stderr: '' });
  });
});

describe('-q with --columns', () => {
  it('is exit 2 before any request, as --csv -q and --json --columns are', async () => {
    const result = await sendsNothing(h, () => h.cli(['list', '--limit', '1', '-q', '--columns', 'id,title']));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(/^error: --columns cannot be combined with -q\nhint: /);
    const metadata = await sendsNothing(h, () => h.cli(['metadata', '--collection', 'sites', '-q', '--columns', 'id']));
    expect(metadata.code).toBe(2);
  });
});
