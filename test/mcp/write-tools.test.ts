// The write tools of `tkt mcp --write --allow-delete`, through the SDK's Client against the
// sandbox: each changes what the matching command changes, a dry run sends no change, "already
// closed" is a success that changed nothing, and a user without permission gets the CLI's error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, startFrontServer, ticketById, unusedTicket, useHarness, userId } from '../helpers/sandbox-state.js';
import { ensureBuilt } from '../helpers/terminal.js';
import { connectMcp, textOf, type McpSession } from './mcp-process.js';

type Change = {
  id?: number;
  changed?: boolean;
  note?: string;
  dry_run?: boolean;
  requests?: { method: string; path: string; fields?: Record<string, unknown> }[];
};

describe('tkt mcp: the write tools', () => {
  let h: Harness;
  let mcp: McpSession;
  useHarness({ login: 'tech', profiles: ['viewer', 'admin'] }, (harness) => (h = harness));
  beforeAll(async () => {
    await ensureBuilt();
    mcp = await connectMcp(['--write', '--allow-delete'], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url });
  }, 120_000);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  afterAll(async () => mcp?.close());

  const status = (name: string) => h.sandbox.state.lookups.status.find((s) => s.status === name)!.id;
  const isOpen = (t: { ticketStatusId: number }) => [status('Open'), status('In Progress')].includes(t.ticketStatusId);
  const writes = () =>
    Object.entries(h.sandbox.stats.byRoute)
      .filter(([route]) => !route.startsWith('GET '))
      .reduce((sum, [, count]) => sum + count, 0);
  async function change(name: string, args: Record<string, unknown>): Promise<Change> {
    const result = await mcp.call(name, args);
    expect(result.isError, textOf(result)).toBeFalsy();
    return result.structuredContent as Change;
  }

  it('every dry run answers with the request and changes nothing', async () => {
    const ticket = unusedTicket(h, (t) => isOpen(t) && t.assignedUser === null);
    const before = JSON.stringify(ticket);
    const sent = writes();
    const calls: [string, Record<string, unknown>][] = [
      ['pickup_ticket', { id: ticket.id }],
      ['resolve_ticket', { id: ticket.id, details: 'fixed' }],
      ['close_ticket', { id: ticket.id }],
      ['assign_ticket', { id: ticket.id, user: 'tech' }],
      // An open ticket reopened (to Open) is a change it already has: a status it has not.
      ['reopen_ticket', { id: ticket.id, status: 'In Progress' }],
      ['delete_ticket', { id: ticket.id }],
      ['update_ticket', { id: ticket.id, priority: 'High' }],
      ['reply_to_ticket', { id: ticket.id, message: 'hello' }],
      ['create_ticket', { title: 'Dry', description: 'd', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open' }],
    ];
    for (const [name, args] of calls) {
      const planned = await change(name, { ...args, dry_run: true });
      expect(planned.dry_run).toBe(true);
      expect(planned.requests!.length).toBeGreaterThan(0);
      expect(planned.requests![0]!.method).not.toBe('GET');
    }
    expect(writes()).toBe(sent);
    expect(JSON.stringify(ticket)).toBe(before);
    const assign = await change('assign_ticket', { id: ticket.id, user: 'tech', dry_run: true });
    expect(assign.requests![0]!.fields).toMatchObject({ AssignedUser: userId(h, 'tech') });
  });

  it('a dry run of a long message answers it whole once, in the structured content, and a bounded preview in the text', async () => {
    const ticket = unusedTicket(h, isOpen);
    const message = `${'a'.repeat(300_000)}THE END`;
    const result = await mcp.call('reply_to_ticket', { id: ticket.id, message, dry_run: true });
    expect(result.isError, textOf(result)).toBeFalsy();
    const planned = result.structuredContent as Change;
    expect(planned.requests![0]!.fields!.Message).toBe(message);
    const text = textOf(result);
    expect(text.length).toBeLessThan(6_000);
    expect(text).toMatch(/^Dry run: nothing was sent\. It would send:\nPOST \S+ \{/);
    expect(text).toContain('more characters: the structured content has the whole request]');
    expect(JSON.stringify(result).length).toBeLessThan(message.length + 10_000);
  });

  it('pickup, assign, update, reply, resolve, close, reopen and delete change the ticket', async () => {
    const ticket = unusedTicket(h, (t) => isOpen(t) && t.assignedUser === null);
    expect(await change('pickup_ticket', { id: ticket.id })).toEqual({ id: ticket.id, changed: true });
    expect(ticketById(h, ticket.id).assignedUser).toBe(userId(h, 'tech'));
    const again = await change('pickup_ticket', { id: ticket.id });
    expect(again.changed).toBe(false);

    // Named by prefix, said as the user list names who got it.
    const assigned = await mcp.call('assign_ticket', { id: ticket.id, user: 'ada' });
    expect(textOf(assigned)).toContain(`Ticket #${ticket.id} assigned to Ada Admin (admin).`);
    expect(ticketById(h, ticket.id).assignedUser).toBe(userId(h, 'admin'));
    await change('update_ticket', { id: ticket.id, priority: 'High', status: 'In Progress' });
    expect(ticketById(h, ticket.id).ticketStatusId).toBe(status('In Progress'));
    expect(ticketById(h, ticket.id).ticketPriorityId).toBe(h.sandbox.state.lookups.priorities.find((p) => p.priority === 'High')!.id);

    const replies = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).length;
    await change('reply_to_ticket', { id: ticket.id, message: 'We are on it.' });
    const conversation = h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id);
    expect(conversation).toHaveLength(replies + 1);
    expect(conversation.at(-1)).toMatchObject({ type: 'Reply', message: 'We are on it.', subject: `Re: ${ticket.title}` });

    await change('resolve_ticket', { id: ticket.id, details: 'Replaced the toner' });
    expect(ticketById(h, ticket.id).ticketStatusId).toBe(status('Resolved'));
    await change('close_ticket', { id: ticket.id, comments: 'done' });
    expect(ticketById(h, ticket.id).ticketStatusId).toBe(status('Closed'));
    expect((await change('close_ticket', { id: ticket.id })).changed).toBe(false);
    await change('reopen_ticket', { id: ticket.id });
    expect(ticketById(h, ticket.id).ticketStatusId).toBe(status('Open'));
    // Technicians may not delete (the service's 403 comes back as the CLI words it); admins may.
    const refused = await mcp.call('delete_ticket', { id: ticket.id });
    expect(textOf(refused)).toMatch(/^error: permission denied \(HTTP 403\)/);
    const admin = await connectMcp(['--write', '--allow-delete', '--profile', 'admin'], { TKT_CONFIG_DIR: h.configDir });
    try {
      expect((await admin.call('delete_ticket', { id: ticket.id })).structuredContent).toEqual({ id: ticket.id, changed: true });
    } finally {
      await admin.close();
    }
    expect(ticketById(h, ticket.id).isDeleted).toBe(true);
  });

  it('assign to the assignee it has and reopen of an open ticket send nothing and say so, as tkt assign and tkt reopen do', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === status('Open') && t.assignedUser === userId(h, 'tech'));
    const before = { ...ticketById(h, ticket.id) };
    const sent = writes();
    const assigned = await mcp.call('assign_ticket', { id: ticket.id, user: 'tech' });
    expect(assigned.isError).toBeFalsy();
    expect(assigned.structuredContent).toEqual({ id: ticket.id, changed: false, note: 'already assigned to Tom Tech (tech), nothing changed' });
    expect(textOf(assigned)).toContain(`Ticket #${ticket.id}: already assigned to Tom Tech (tech), nothing changed.`);
    const toMe = await change('assign_ticket', { id: ticket.id, user: '@me' });
    expect(toMe).toEqual({ id: ticket.id, changed: false, note: 'already assigned to you, nothing changed' });
    const reopened = await change('reopen_ticket', { id: ticket.id });
    expect(reopened).toEqual({ id: ticket.id, changed: false, note: 'already open, nothing changed' });
    const sameStatus = await change('reopen_ticket', { id: ticket.id, status: 'open' });
    expect(sameStatus).toEqual({ id: ticket.id, changed: false, note: 'already in status Open, nothing changed' });
    expect(writes()).toBe(sent);
    expect(ticketById(h, ticket.id)).toEqual(before);
  });

  it('a dry run of a change the ticket already has answers what the real call does: the note, and nothing it would send', async () => {
    const open = unusedTicket(h, (t) => t.ticketStatusId === status('Open') && t.assignedUser === userId(h, 'tech'));
    const inProgress = unusedTicket(h, (t) => t.ticketStatusId === status('In Progress'));
    const sent = writes();
    const calls: [string, Record<string, unknown>, string][] = [
      ['assign_ticket', { id: open.id, user: 'tech' }, 'already assigned to Tom Tech (tech), nothing changed'],
      ['reopen_ticket', { id: open.id }, 'already open, nothing changed'],
      // A settled status is refused (a re-open to Closed is no re-open).
      ['reopen_ticket', { id: inProgress.id, status: 'in progress' }, 'already in status In Progress, nothing changed'],
    ];
    for (const [name, args, note] of calls) {
      const result = await mcp.call(name, { ...args, dry_run: true });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toEqual({ id: args.id, dry_run: true, changed: false, note });
      expect(textOf(result)).toBe(`Dry run: ticket #${String(args.id)}: ${note}; nothing would be sent.`);
    }
    expect(writes()).toBe(sent);
  });

  it('create_ticket creates the ticket with its names resolved', async () => {
    const created = await change('create_ticket', {
      title: 'Printer jam on floor 2',
      description: 'Paper stuck',
      requester: 'aberg',
      site: 'head',
      department: 'IT',
      status: 'open',
      priority: 'low',
    });
    const ticket = ticketById(h, created.id!);
    expect(ticket.title).toBe('Printer jam on floor 2');
    expect(ticket.creatorId).toBe(userId(h, 'aberg'));
  });

  it("create_ticket says when the service's SLA replaced the due date given, and update_ticket with it keeps it", async () => {
    // The ticket was created with the SLA's date and the tool said only "Created ticket #N."
    const wanted = '2030-01-15T12:00:00.000Z';
    const result = await mcp.call('create_ticket', {
      title: 'SLA wins',
      description: 'd',
      requester: 'aberg',
      site: 'Head Office',
      department: 'IT',
      status: 'Open',
      priority: 'high',
      due: wanted,
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { id, note } = result.structuredContent as Change;
    expect(Date.parse(ticketById(h, id!).dueDate!)).not.toBe(Date.parse(wanted));
    expect(note).toMatch(new RegExp(`^the service set its due date to .* \\(its SLA\\), not .*; update_ticket with id ${id} and due "${wanted}" keeps yours`));
    expect(textOf(result)).toBe(`Created ticket #${id}. But ${note!}.`);
    await change('update_ticket', { id, due: wanted });
    expect(Date.parse(ticketById(h, id!).dueDate!)).toBe(Date.parse(wanted));
  });

  it('create_ticket and update_ticket take every field tkt create and tkt update take (level, client, the IDs, cc, tags)', async () => {
    const { tools } = await mcp.client.listTools();
    const argumentsOf = (name: string) => Object.keys(tools.find((tool) => tool.name === name)!.inputSchema.properties ?? {}).sort();
    const updated = ['requester', 'site', 'department', 'status', 'priority', 'category', 'subcategory', 'item', 'group', 'level', 'client', 'assignee'];
    const ids = ['type', 'service', 'impact', 'urgency', 'due'];
    expect(argumentsOf('update_ticket')).toEqual(['id', ...updated, ...ids, 'dry_run'].sort());
    expect(argumentsOf('create_ticket')).toEqual(['title', 'description', ...updated, ...ids, 'sla', 'cc', 'tag', 'guid', 'dry_run'].sort());

    const ticket = unusedTicket(h, isOpen);
    await change('update_ticket', { id: ticket.id, level: 'Tier 2', client: 'fabrikam', impact: '2', urgency: '3' });
    expect(ticketById(h, ticket.id)).toMatchObject({ tierLevelId: 2, clientId: 2, impactId: 2, urgencyId: 3 });
    const created = await change('create_ticket', {
      title: 'Badge reader offline',
      description: 'Door 3',
      requester: 'aberg',
      site: 'Head Office',
      department: 'IT',
      status: 'Open',
      level: 'tier 3',
      client: 'Contoso',
      cc: ['ops@example.com', 'desk@example.com'],
      tag: ['4', '5'],
    });
    const ticketCreated = ticketById(h, created.id!);
    expect(ticketCreated).toMatchObject({ tierLevelId: 3, clientId: 1, tags: [4, 5] });
    expect(ticketCreated.cc).toMatch(/ops@example\.com.*desk@example\.com/);
  });

  it("a value the service refuses as invalid (a site removed since the cache was filled) is looked up afresh: the next call sees the service's list", async () => {
    const ticket = unusedTicket(h, isOpen);
    const sites = h.sandbox.state.lookups.sites;
    const yarrow = { id: Math.max(...sites.map((site) => site.id)) + 1, title: 'Yarrow Annex' };
    sites.push(yarrow);
    // The cache (ten minutes) learns of the site; then the service drops it.
    expect((await change('update_ticket', { id: ticket.id, site: 'Yarrow' })).changed).toBe(true);
    sites.splice(sites.indexOf(yarrow), 1);
    const refused = await mcp.call('update_ticket', { id: ticket.id, site: 'Yarrow', priority: 'Low' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`Invalid SiteId: ${yarrow.id} does not exist.`);
    const again = await mcp.call('update_ticket', { id: ticket.id, site: 'Yarrow', priority: 'Low' });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/^error: unknown site "Yarrow"\n/);
    expect(textOf(again)).not.toContain('Yarrow Annex');
    expect(textOf(again)).toContain('hint: call lookups with kind "site"');
    expect(textOf(await mcp.call('lookups', { kind: 'site', search: 'Yarrow' }))).toBe('No site matches.');
  });

  it('a wrong name or a missing field is an error result, and nothing is sent', async () => {
    const ticket = unusedTicket(h, isOpen);
    const sent = writes();
    const unknown = await mcp.call('assign_ticket', { id: ticket.id, user: 'nobody-of-that-name' });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/^error: unknown user "nobody-of-that-name"/);
    // People are listed to the assistant, whose answers are no log (README: Lookup names).
    expect(textOf(unknown)).toMatch(/\n {2}(candidates|closest of \d+):\n {4}\S/);
    const missing = await mcp.call('create_ticket', { title: 'x', description: '', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open' });
    expect(missing.isError).toBe(true);
    expect(writes()).toBe(sent);
  });

  it('refuses an empty or blank text argument of every write tool, naming it, as the CLI refuses --comments "  ", and sends nothing', async () => {
    const ticket = unusedTicket(h, isOpen);
    const before = { ...ticketById(h, ticket.id) };
    const sent = writes();
    const create = { title: 'Blank', description: 'd', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open' };
    const calls: [string, Record<string, unknown>, string][] = [
      ['close_ticket', { id: ticket.id, comments: '  ' }, 'comments is empty (only whitespace)'],
      ['close_ticket', { id: ticket.id, comments: '' }, 'comments is empty'],
      ['resolve_ticket', { id: ticket.id, details: '\t' }, 'details is empty (only whitespace)'],
      ['reply_to_ticket', { id: ticket.id, message: '' }, 'message is empty'],
      ['reply_to_ticket', { id: ticket.id, message: 'hi', subject: ' ' }, 'subject is empty (only whitespace)'],
      ['reply_to_ticket', { id: ticket.id, message: 'hi', cc: '' }, 'cc is empty'],
      ['reopen_ticket', { id: ticket.id, status: '' }, 'status is empty'],
      ['assign_ticket', { id: ticket.id, user: ' ' }, 'user is empty (only whitespace)'],
      ['update_ticket', { id: ticket.id, priority: '', status: 'In Progress' }, 'priority is empty'],
      ['update_ticket', { id: ticket.id, priority: '' }, 'priority is empty'],
      ['update_ticket', { id: ticket.id, assignee: '' }, 'assignee is empty'],
      ['update_ticket', { id: ticket.id, due: '  ' }, 'due is empty (only whitespace)'],
      ['create_ticket', { ...create, priority: '' }, 'priority is empty'],
      ['create_ticket', { ...create, title: ' ' }, 'title is empty (only whitespace)'],
    ];
    for (const [name, args, message] of calls) {
      for (const dryRun of [false, true]) {
        const result = await mcp.call(name, { ...args, dry_run: dryRun });
        expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
        expect(textOf(result)).toBe(`error: ${message}`);
      }
    }
    expect(writes()).toBe(sent);
    expect(ticketById(h, ticket.id)).toEqual(before);
  });

  it('refuses an argument the tool does not take (update_ticket has no title), naming it, and changes nothing', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools).toHaveLength(13);
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    const ticket = unusedTicket(h, isOpen);
    const before = { ...ticketById(h, ticket.id) };
    const sent = writes();
    const result = await mcp.call('update_ticket', { id: ticket.id, title: 'A new title', priority: 'High' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/update_ticket: Unrecognized key: "title"/);
    expect(writes()).toBe(sent);
    expect(ticketById(h, ticket.id)).toEqual(before);
  });

  it('an update whose request was sent and never answered is in doubt, as the CLI and the other tools say it', async () => {
    const ticket = unusedTicket(h, isOpen);
    // The read of the read-modify-write goes through; the update is taken and never answered.
    const front = await startFrontServer(h, (req) => req.method === 'POST' && req.url === `/api/TicketsApi/update/${ticket.id}`);
    const stalled = await connectMcp(['--write', '--timeout', '0.2'], { TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, front) });
    try {
      const result = await stalled.call('update_ticket', { id: ticket.id, priority: 'High' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`#${ticket.id} in doubt (it may have been carried out)`);
      expect(textOf(result)).toContain('read the ticket (get_ticket) before trying again');
    } finally {
      await stalled.close();
      await front.close();
    }
  });

  it('a user without permission gets the error the CLI prints', async () => {
    const viewer = await connectMcp(['--write', '--profile', 'viewer'], { TKT_CONFIG_DIR: h.configDir });
    try {
      const ticket = unusedTicket(h, (t) => isOpen(t) && t.assignedUser === null);
      const result = await viewer.call('pickup_ticket', { id: ticket.id });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^error: permission denied \(HTTP 403\)/);
      expect(ticketById(h, ticket.id).assignedUser).toBeNull();
    } finally {
      await viewer.close();
    }
  });
});
