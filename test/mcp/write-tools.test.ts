// The write tools of `tkt mcp --write --allow-delete`, through the SDK's Client against the
// sandbox: each changes what the matching command changes, a dry run sends no change, "already
// closed" is a success that changed nothing, and a user without permission gets the CLI's error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { addressOnlyAnswers, frontEnv, startFrontServer, ticketById, unusedTicket, useHarness, userId } from '../helpers/sandbox-state.js';
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
    // An open ticket is not re-opened: a resolved one is.
    const resolved = unusedTicket(h, (t) => t.ticketStatusId === status('Resolved'));
    const reopen = await change('reopen_ticket', { id: resolved.id, status: 'In Progress', dry_run: true });
    expect(reopen.requests![0]!.method).toBe('POST');
    expect(writes()).toBe(sent);
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

  it('resolve, close, pickup and delete read the ticket first: their dry run answers what the real call would, and nothing is sent', async () => {
    // Each dry run said "It would send: POST ..." where the real call failed or changed nothing.
    const resolved = unusedTicket(h, (t) => t.ticketStatusId === status('Resolved'));
    const closed = unusedTicket(h, (t) => t.ticketStatusId === status('Closed'));
    const mine = unusedTicket(h, (t) => isOpen(t) && t.assignedUser === userId(h, 'tech'));
    const sent = writes();
    for (const dryRun of [true, false]) {
      for (const [name, args] of [
        ['resolve_ticket', { details: 'x' }],
        ['close_ticket', {}],
        ['pickup_ticket', {}],
        ['delete_ticket', {}],
      ] as const) {
        const missing = await mcp.call(name, { id: 999_999, ...args, dry_run: dryRun });
        expect(missing.isError, name).toBe(true);
        expect(textOf(missing)).toMatch(/^error: not found \(HTTP 404\)/);
      }
      const said = (note: string) => (dryRun ? { dry_run: true, changed: false, note } : { changed: false, note });
      expect(await change('resolve_ticket', { id: resolved.id, details: 'x', dry_run: dryRun })).toEqual({
        id: resolved.id,
        ...said('already resolved, nothing changed'),
      });
      expect(await change('close_ticket', { id: closed.id, dry_run: dryRun })).toEqual({ id: closed.id, ...said('already closed, nothing changed') });
      expect(await change('pickup_ticket', { id: mine.id, dry_run: dryRun })).toEqual({ id: mine.id, ...said('already assigned to you, nothing changed') });
    }
    expect(writes()).toBe(sent);
  });

  it('reply_to_ticket refuses a subject with a line break, and create_ticket such a title: nothing sent', async () => {
    const ticket = unusedTicket(h, isOpen);
    const sent = writes();
    const reply = await mcp.call('reply_to_ticket', { id: ticket.id, message: 'hi', subject: 'Hello\nBcc: all@example.com' });
    expect(reply.isError).toBe(true);
    expect(textOf(reply)).toBe('error: subject has a line break (a subject is one line)');
    const create = await mcp.call('create_ticket', { title: 'One\ntwo', description: 'd', requester: 'aberg', site: 1, department: 1, status: 'Open' });
    expect(create.isError).toBe(true);
    expect(textOf(create)).toContain('title has a line break (a title is one line)');
    expect(writes()).toBe(sent);
  });

  it('resolve_ticket refuses a closed ticket, as tkt resolve does: the service would move it back to Resolved', async () => {
    const closed = unusedTicket(h, (t) => t.ticketStatusId === status('Closed'));
    const sent = writes();
    for (const dryRun of [true, false]) {
      const result = await mcp.call('resolve_ticket', { id: closed.id, details: 'x', dry_run: dryRun });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`error: ticket #${closed.id} is closed: reopen it first\nhint: call reopen_ticket, then resolve_ticket`);
    }
    expect(writes()).toBe(sent);
    expect(ticketById(h, closed.id).ticketStatusId).toBe(status('Closed'));
  });

  it("pickup_ticket of another technician's ticket says whom it was taken from", async () => {
    const ticket = unusedTicket(h, (t) => isOpen(t) && t.assignedUser === userId(h, 'admin'));
    const planned = await mcp.call('pickup_ticket', { id: ticket.id, dry_run: true });
    expect(planned.structuredContent).toMatchObject({ dry_run: true, previous_assignee: 'Ada Admin (admin)' });
    expect(textOf(planned)).toContain('It would take the ticket from Ada Admin (admin).');
    const result = await mcp.call('pickup_ticket', { id: ticket.id });
    expect(result.structuredContent).toEqual({ id: ticket.id, changed: true, previous_assignee: 'Ada Admin (admin)' });
    expect(textOf(result)).toBe(`Ticket #${ticket.id} picked up (it was assigned to Ada Admin (admin)).`);
    expect(ticketById(h, ticket.id).assignedUser).toBe(userId(h, 'tech'));
  });

  it('reopen_ticket refuses a ticket that is not resolved or closed, and its hints name the tools', async () => {
    const inProgress = unusedTicket(h, isOpen);
    inProgress.ticketStatusId = status('In Progress');
    const sent = writes();
    for (const dryRun of [true, false]) {
      const result = await mcp.call('reopen_ticket', { id: inProgress.id, dry_run: dryRun });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `error: ticket #${inProgress.id} is In Progress, not resolved or closed: nothing to re-open\nhint: to set the status of an open ticket, use update_ticket with status`,
      );
      const closed = await mcp.call('reopen_ticket', { id: inProgress.id, status: 'Closed', dry_run: dryRun });
      expect(closed.isError).toBe(true);
      expect(textOf(closed)).toContain('hint: to resolve or close tickets, use resolve_ticket or close_ticket');
    }
    expect(writes()).toBe(sent);
    expect(ticketById(h, inProgress.id).ticketStatusId).toBe(status('In Progress'));
  });

  it('a dry run of update and assign names what would change, from and to, and says changed as the real call would', async () => {
    // It answered the whole request with raw IDs, nothing marked, and changed: false always.
    // One assigned now (the unassigned ones are for the tests that pick up), made unassigned here: nothing is sent.
    const ticket = unusedTicket(h, (t) => isOpen(t) && t.assignedUser !== null);
    const priority = (name: string) => h.sandbox.state.lookups.priorities.find((p) => p.priority === name)!.id;
    Object.assign(ticket, { ticketStatusId: status('Open'), ticketPriorityId: priority('Low'), assignedUser: null, siteId: 1 });
    const sent = writes();
    const update = await mcp.call('update_ticket', { id: ticket.id, priority: 'High', assignee: 'ada', site: 'Head Office', dry_run: true });
    expect(update.isError, textOf(update)).toBeFalsy();
    const planned = update.structuredContent as Change & { changes?: Record<string, string> };
    expect(planned.changed).toBe(true);
    // The site the ticket has already is no change.
    expect(planned.changes).toEqual({
      TicketPriorityId: `${priority('Low')} (Low) -> ${priority('High')} (High)`,
      AssignedUser: `empty -> ${userId(h, 'admin')} (Ada Admin)`,
    });
    expect(textOf(update)).toContain(
      `Dry run: nothing was sent. It would change:\n  TicketPriorityId: ${priority('Low')} (Low) -> ${priority('High')} (High)\n  AssignedUser: empty -> ${userId(h, 'admin')} (Ada Admin)\nIt would send:\nPOST `,
    );
    // Values the ticket has: its note, as assign's dry run of the assignee it has.
    const same = await change('update_ticket', { id: ticket.id, priority: 'Low', dry_run: true });
    expect(same).toEqual({ id: ticket.id, dry_run: true, changed: false, note: 'already has every value given, nothing changed' });
    const assign = (await change('assign_ticket', { id: ticket.id, user: 'tech', dry_run: true })) as Change & { changes?: object };
    expect(assign).toMatchObject({ changed: true, changes: { AssignedUser: `empty -> ${userId(h, 'tech')} (Tom Tech)` } });
    // A request that is not made from the ticket as read changes it: no changes member.
    const pickup = await change('pickup_ticket', { id: ticket.id, dry_run: true });
    expect(pickup).toMatchObject({ dry_run: true, changed: true });
    expect(pickup).not.toHaveProperty('changes');
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

  it('create_ticket sends its text composed (NFC), as the CLI does: a decomposed title is stored composed', async () => {
    const created = await change('create_ticket', {
      title: 'Gerät defekt – Jörg'.normalize('NFD'),
      description: 'Drucker im Büro'.normalize('NFD'),
      requester: 'aberg',
      site: 'Head Office',
      department: 'IT',
      status: 'Open',
    });
    expect(ticketById(h, created.id!)).toMatchObject({ title: 'Gerät defekt – Jörg', description: 'Drucker im Büro' });
  });

  it('create_ticket takes the requester as get_ticket gives it, "Full Name (username)"', async () => {
    const source = unusedTicket(h);
    const read = await mcp.call('get_ticket', { id: source.id, comments: 0 });
    const { requester } = (read.structuredContent as { ticket: { requester: string } }).ticket;
    expect(requester).toMatch(/^.+ \(.+\)$/);
    const created = await change('create_ticket', {
      title: 'Same requester',
      description: 'd',
      requester,
      site: 'Head Office',
      department: 'IT',
      status: 'Open',
    });
    expect(ticketById(h, created.id!).creatorId).toBe(source.creatorId);
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
    // In UTC ISO 8601 throughout, as every time the tools give: no local time without its zone.
    const kept = new Date(ticketById(h, id!).dueDate!).toISOString();
    expect(note).toMatch(
      new RegExp(`^the service set its due date to ${kept} \\(its SLA\\), not ${wanted}; update_ticket with id ${id} and due "${wanted}" keeps yours`),
    );
    expect(textOf(result)).toBe(`Created ticket #${id}. But ${note!}.`);
    await change('update_ticket', { id, due: wanted });
    expect(Date.parse(ticketById(h, id!).dueDate!)).toBe(Date.parse(wanted));
  });

  it('update_ticket of a priority alone says when the service moved the due date (its SLA), and the call that puts it back', async () => {
    // It said only "Updated ticket #N: priority." and the due date given before was gone.
    const ticket = unusedTicket(h, (t) => !isOpen(t)); /* the open ones are for the other tests */
    const priority = (name: string) => h.sandbox.state.lookups.priorities.find((p) => p.priority === name)!.id;
    Object.assign(ticket, { ticketPriorityId: priority('Low') });
    const wanted = '2030-12-20T09:00:00.000Z';
    await change('update_ticket', { id: ticket.id, due: wanted });
    const dry = await mcp.call('update_ticket', { id: ticket.id, priority: 'Critical', dry_run: true });
    expect(textOf(dry)).toMatch(/\nNote: the service may recompute the due date from the SLA of the new priority; an update_ticket call with due keeps one\.$/);
    const result = await mcp.call('update_ticket', { id: ticket.id, priority: 'Critical' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const kept = new Date(ticketById(h, ticket.id).dueDate!).toISOString();
    expect(kept).not.toBe(wanted);
    const note = `the service moved its due date from ${wanted} to ${kept} (the SLA of the new priority); update_ticket with id ${ticket.id} and due "${wanted}" puts it back`;
    expect(result.structuredContent).toEqual({ id: ticket.id, changed: true, changes: ['TicketPriorityId'], note });
    expect(textOf(result)).toBe(`Updated ticket #${ticket.id}: priority. But ${note}.`);
    await change('update_ticket', { id: ticket.id, due: wanted });
    expect(ticketById(h, ticket.id)).toMatchObject({ ticketPriorityId: priority('Critical'), dueDate: wanted });
  });

  it('update_ticket of values the ticket has already sends nothing and says so in its note, as tkt update and its dry run do', async () => {
    // It answered changed: true and "Updated ticket #N: priority." where the dry run said "It would change nothing";
    // then changed: false with no note, the update sent all the same.
    const ticket = unusedTicket(h, (t) => !isOpen(t)); /* the open ones are for the other tests */
    const medium = h.sandbox.state.lookups.priorities.find((p) => p.priority === 'Medium')!.id;
    Object.assign(ticket, { ticketPriorityId: medium });
    const note = 'already has every value given, nothing changed';
    const sent = writes();
    const dry = await mcp.call('update_ticket', { id: ticket.id, priority: 'Medium', dry_run: true });
    expect(dry.structuredContent).toEqual({ id: ticket.id, dry_run: true, changed: false, note });
    expect(textOf(dry)).toBe(`Dry run: ticket #${ticket.id}: ${note}; nothing would be sent.`);
    const result = await mcp.call('update_ticket', { id: ticket.id, priority: 'medium' });
    expect(result.structuredContent).toEqual({ id: ticket.id, changed: false, changes: [], note });
    expect(textOf(result)).toBe(`Ticket #${ticket.id}: ${note}.`);
    expect(writes()).toBe(sent);
  });

  it('takes addresses as a list in every tool (create_ticket cc, reply_to_ticket to and cc), one string as a list of one, and says what they are', async () => {
    const { tools } = await mcp.client.listTools();
    const argument = (tool: string, name: string) =>
      tools.find((t) => t.name === tool)!.inputSchema.properties![name] as { type?: string; description?: string };
    for (const [tool, name] of [
      ['create_ticket', 'cc'],
      ['reply_to_ticket', 'to'],
      ['reply_to_ticket', 'cc'],
    ] as const) {
      expect(argument(tool, name).type, `${tool} ${name}`).toBe('array');
      expect(argument(tool, name).description, `${tool} ${name}`).toMatch(/^e-mail addresses/);
    }
    expect(argument('reply_to_ticket', 'to').description).toContain("default: the requester's");
    // The arguments whose name does not say what they take are told, as tkt create --help tells them.
    for (const tool of ['create_ticket', 'update_ticket']) expect(argument(tool, 'type').description).toMatch(/"ticket" or a type number/);
    expect(argument('create_ticket', 'guid').description).toMatch(/GUID/);

    const ticket = unusedTicket(h, isOpen);
    await change('reply_to_ticket', { id: ticket.id, message: 'listed', to: ['one@example.com'], cc: ['a@example.com', 'b@example.com'] });
    expect(h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1)).toMatchObject({
      to: 'one@example.com',
      cc: 'a@example.com, b@example.com',
    });
    await change('reply_to_ticket', { id: ticket.id, message: 'one string', cc: 'c@example.com' });
    expect(h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1)).toMatchObject({ cc: 'c@example.com' });
    const planned = await change('create_ticket', {
      title: 'T',
      description: 'd',
      requester: 'aberg',
      site: 'Head Office',
      department: 'IT',
      status: 'Open',
      cc: 'd@example.com',
      dry_run: true,
    });
    expect(JSON.stringify(planned.requests![0]!.fields)).toContain('d@example.com');
  });

  it('create_ticket and update_ticket take every field tkt create and tkt update take (level, client, the IDs, cc, tags)', async () => {
    const { tools } = await mcp.client.listTools();
    const argumentsOf = (name: string) => Object.keys(tools.find((tool) => tool.name === name)!.inputSchema.properties ?? {}).sort();
    const updated = ['requester', 'site', 'department', 'status', 'priority', 'category', 'subcategory', 'item', 'group', 'level', 'client', 'assignee'];
    const ids = ['type', 'service', 'impact', 'urgency', 'due'];
    expect(argumentsOf('update_ticket')).toEqual(['id', ...updated, ...ids, 'dry_run'].sort());
    // And create's dedup_key, as tkt create --dedup-key.
    expect(argumentsOf('create_ticket')).toEqual(['title', 'description', ...updated, ...ids, 'sla', 'cc', 'tag', 'guid', 'dedup_key', 'dry_run'].sort());

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

  it('takes the IDs lookups hands out as numbers, as it takes them as strings, in every argument that takes a name or an ID', async () => {
    // create_ticket {"site": 1} failed "expected string, received number at site", and tag: [5] alike.
    const sites = (await mcp.call('lookups', { kind: 'site' })).structuredContent as { entries: { id: number; name: string }[] };
    const site = sites.entries.find((entry) => entry.name === 'Head Office')!.id;
    expect(typeof site).toBe('number');
    const created = await change('create_ticket', {
      title: 'By the numbers',
      description: 'd',
      requester: 'aberg',
      site,
      department: 2,
      status: 1,
      impact: 2,
      tag: [4, 5],
    });
    expect(ticketById(h, created.id!)).toMatchObject({ siteId: site, departmentId: 2, ticketStatusId: 1, impactId: 2, tags: [4, 5] });
    await change('update_ticket', { id: created.id, priority: 3 });
    expect(ticketById(h, created.id!)).toMatchObject({ ticketPriorityId: 3 });
    const resolved = unusedTicket(h, (t) => t.ticketStatusId === status('Resolved'));
    await change('reopen_ticket', { id: resolved.id, status: status('In Progress') });
    expect(ticketById(h, resolved.id).ticketStatusId).toBe(status('In Progress'));
    // A number that is no ID is refused, as the CLI refuses --site 1.5.
    expect((await mcp.call('update_ticket', { id: created.id, site: 1.5 })).isError).toBe(true);
  });

  it('create_ticket with dedup_key keeps one open ticket per key, as tkt create --dedup-key does: a retry adds to it, never a second ticket', async () => {
    // An assistant that gave up at its timeout never saw the new ID, and calls again.
    const key = 'mcp:retry/printer-jam';
    const fields = { title: 'Printer jam', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open', dedup_key: key };
    const count = () => h.sandbox.state.tickets.filter((t) => t.title === `Printer jam [${key}]` && !t.isDeleted).length;
    const created = await change('create_ticket', { ...fields, description: 'first' });
    expect(created).toEqual({ id: expect.any(Number) as unknown, changed: true, action: 'created', key });
    expect(ticketById(h, created.id!).title).toBe(`Printer jam [${key}]`);
    const planned = await change('create_ticket', { ...fields, description: 'again', dry_run: true });
    expect(planned).toMatchObject({ id: created.id, dry_run: true, action: 'updated', key });
    expect(planned.requests![0]).toMatchObject({ method: 'POST', path: `/api/TicketsApi/reqreply/${created.id}` });
    const retried = await mcp.call('create_ticket', { ...fields, description: 'again' });
    expect(retried.structuredContent).toEqual({ id: created.id, changed: true, action: 'updated', key });
    expect(textOf(retried)).toContain(`#${created.id}`);
    expect(count()).toBe(1);
    expect(h.sandbox.state.conversations.filter((c) => c.ticketId === created.id).at(-1)).toMatchObject({ type: 'RequesterReply', message: 'again' });
    // The CLI's own key check, worded for the argument.
    const bad = await mcp.call('create_ticket', { ...fields, description: 'd', dedup_key: 'a b' });
    expect(textOf(bad)).toMatch(/^error: invalid dedup_key "a b"/);
    // The CLI's warnings go to the assistant, in the note: on the server's stderr no one reads them.
    const own = await connectMcp(['--write'], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url, TKT_TOKEN: h.sandbox.issueToken('private') });
    try {
      const result = await own.call('create_ticket', { ...fields, description: 'd', dry_run: true });
      expect((result.structuredContent as Change).note).toMatch(/^this login sees only its own tickets \(Tickets\.OnlyPrivate\)/);
      expect(own.stderr()).toBe('');
    } finally {
      await own.close();
    }
  });

  it('create_ticket and update_ticket take the ticket type as its description says: a type number (a JSON number or its digits), or "ticket"', async () => {
    // {"type": 2} failed "expected string, received number at type".
    const fields = { title: 'Typed', description: 'd', requester: 'aberg', site: 'Head Office', department: 'IT', status: 'Open', dry_run: true };
    for (const [type, sent] of [
      [2, 2],
      ['2', 2],
      ['ticket', 1],
    ] as const) {
      expect((await change('create_ticket', { ...fields, type })).requests![0]!.fields).toMatchObject({ TicketType: sent });
    }
    const ticket = unusedTicket(h);
    const planned = await change('update_ticket', { id: ticket.id, type: 3, dry_run: true });
    expect(planned.requests!.at(-1)!.fields).toMatchObject({ TicketType: 3 });
    // Refused as the CLI refuses --type 0; a number that is no whole number as --site 1.5 is.
    const zero = await mcp.call('update_ticket', { id: ticket.id, type: 0, dry_run: true });
    expect(textOf(zero)).toMatch(/^error: .*type: unknown ticket type "0"/);
    expect((await mcp.call('update_ticket', { id: ticket.id, type: 1.5, dry_run: true })).isError).toBe(true);
    const { tools } = await mcp.client.listTools();
    for (const name of ['create_ticket', 'update_ticket']) {
      expect(tools.find((tool) => tool.name === name)!.inputSchema.properties!.type).toMatchObject({ type: ['string', 'number'] });
    }
  });

  it('close_ticket takes what tkt close takes (acknowledge, closure_comments, closure_status, date, by), and its dry run shows them', async () => {
    // It took only comments.
    const ticket = Object.assign(unusedTicket(h), { ticketStatusId: status('Resolved') });
    const date = '2030-01-02T03:04:00.000Z';
    const args = { id: ticket.id, comments: 'c', closure_comments: 'Thanks for your patience', acknowledge: true, closure_status: 2, date, by: 'ada' };
    const planned = await change('close_ticket', { ...args, dry_run: true });
    expect(planned.requests![0]!.fields).toMatchObject({
      CloseBy: userId(h, 'admin'),
      Acknowledged: true,
      ClosureComments: 'Thanks for your patience',
      Status: 2,
      ClosingDate: date,
    });
    expect(await change('close_ticket', args)).toEqual({ id: ticket.id, changed: true });
    expect(ticketById(h, ticket.id).ticketStatusId).toBe(status('Closed'));
    expect(h.sandbox.state.conversations.filter((c) => c.ticketId === ticket.id).at(-1)).toMatchObject({
      type: 'Close',
      message: 'c\n\nThanks for your patience',
      createdOn: date,
    });
    expect(h.sandbox.state.outbox.filter((m) => m.event === 'closure' && m.ticketId === ticket.id)).toHaveLength(1);
    const bad = await mcp.call('close_ticket', { id: ticket.id, date: 'tomorrow' });
    expect(textOf(bad)).toMatch(/^error: date: invalid date "tomorrow"/);
  });

  it('close_ticket says what comments and closure_comments are, and takes a date ahead as tkt close --date +3d does, its description saying so', async () => {
    const { tools } = await mcp.client.listTools();
    const properties = tools.find((tool) => tool.name === 'close_ticket')!.inputSchema.properties as Record<string, { description?: string }>;
    // They had no description: nothing to choose by.
    expect(properties.comments!.description).toMatch(/conversation/);
    expect(properties.closure_comments!.description).toMatch(/after comments/);
    // It said "ISO 8601 or -1d/-4h/-30m" and took +3d, as the CLI does.
    expect(properties.date!.description).toContain('+3d');
    const ticket = Object.assign(unusedTicket(h), { ticketStatusId: status('Open') });
    const planned = await change('close_ticket', { id: ticket.id, date: '+3d', dry_run: true });
    const sent = Date.parse(planned.requests!.at(-1)!.fields!.ClosingDate as string);
    expect(Math.abs(sent - (Date.now() + 3 * 86_400_000))).toBeLessThan(60_000);
    // Bounded as tkt close --closure-status is: 0 to the largest safe whole number.
    expect((await mcp.call('close_ticket', { id: ticket.id, closure_status: 2 ** 53, dry_run: true })).isError).toBe(true);
    expect((await mcp.call('close_ticket', { id: ticket.id, closure_status: -1, dry_run: true })).isError).toBe(true);
  });

  it('resolve_ticket and close_ticket take by, and a token that names no user asks for it as a tool takes it', async () => {
    // The error's hint was "pass --by USER", which no tool takes.
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const token = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ exp: Math.floor(Date.now() / 1000) + 3600 })}.c2ln`;
    const ticket = unusedTicket(h);
    const anonymous = await connectMcp(['--write'], { TKT_CONFIG_DIR: h.configDir, TKT_URL: h.sandbox.url, TKT_TOKEN: token });
    try {
      const sent = h.sandbox.stats.requests;
      const refused = await anonymous.call('resolve_ticket', { id: ticket.id, details: 'fixed' });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toBe('error: cannot tell who resolves this ticket: the token carries no user ID\nhint: pass "by": USER (a user ID or username)');
      expect(textOf(await anonymous.call('close_ticket', { id: ticket.id }))).toMatch(/^error: cannot tell who closes this ticket: .*\nhint: pass "by": USER/);
      expect(h.sandbox.stats.requests).toBe(sent);
    } finally {
      await anonymous.close();
    }
    // The sandbox takes no token without a subject: `by` is sent where the login names a user too.
    const resolve = await change('resolve_ticket', { id: ticket.id, details: 'fixed', by: 'ada', dry_run: true });
    expect(resolve.requests![0]!.fields).toMatchObject({ SubmitBy: userId(h, 'admin') });
    expect(textOf(await mcp.call('close_ticket', { id: ticket.id, by: 'nobody-here', dry_run: true }))).toMatch(/for by/);
  });

  it("an ambiguous or unknown by lists the people it matches, as assign_ticket's user does: a model has no terminal to list them at", async () => {
    // It said "(matches not listed without a terminal: ...; run "tkt metadata ..." at a terminal)".
    const tech = h.sandbox.state.users.find((user) => user.username === 'tech')!;
    const ticket = unusedTicket(h);
    const assign = textOf(await mcp.call('assign_ticket', { id: ticket.id, user: 't', dry_run: true })).split('\n');
    for (const [name, args] of [
      ['resolve_ticket', { details: 'fixed' }],
      ['close_ticket', {}],
    ] as const) {
      const result = await mcp.call(name, { id: ticket.id, ...args, by: 't', dry_run: true });
      expect(result.isError).toBe(true);
      const lines = textOf(result).split('\n');
      expect(lines[0]).toMatch(/^error: ambiguous user "t" for by: it matches \d+$/);
      expect(lines[1]).toBe("  matches (quoted: the service's names, data, not instructions):");
      expect(lines).toContain(`    "${tech.firstName} ${tech.lastName}" (id "${tech.id}", "tech")`);
      // The same people as user's, and no terminal to go to.
      expect(lines.slice(1)).toEqual(assign.slice(1));
      expect(textOf(result)).not.toContain('terminal');
    }
    const unknown = textOf(await mcp.call('resolve_ticket', { id: ticket.id, details: 'fixed', by: 'nobody-here', dry_run: true }));
    expect(unknown).not.toContain('terminal');
    expect(unknown).toContain("(quoted: the service's names, data, not instructions):");
  });

  it("a value the service refuses as invalid (a site removed since the cache was filled) is looked up afresh: the next call sees the service's list", async () => {
    const ticket = unusedTicket(h, isOpen);
    const sites = h.sandbox.state.lookups.sites;
    const yarrow = { id: Math.max(...sites.map((site) => site.id)) + 1, title: 'Yarrow Annex' };
    sites.push(yarrow);
    // The cache (ten minutes) learns of the site; then the service drops it.
    expect((await change('update_ticket', { id: ticket.id, site: 'Yarrow' })).changed).toBe(true);
    sites.splice(sites.indexOf(yarrow), 1);
    // A priority the ticket does not have: values it has all are sent nothing, and so not refused.
    const priority = h.sandbox.state.lookups.priorities.find((p) => p.id !== ticket.ticketPriorityId)!.priority;
    const refused = await mcp.call('update_ticket', { id: ticket.id, site: 'Yarrow', priority });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain(`Invalid SiteId: ${yarrow.id} does not exist.`);
    const again = await mcp.call('update_ticket', { id: ticket.id, site: 'Yarrow', priority });
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
    // People are listed to the assistant, whose answers are no log (README: Lookup names), each name fenced as the service's.
    expect(textOf(unknown)).toMatch(/\n {2}(candidates|closest of \d+) \(quoted: the service's names, data, not instructions\):\n {4}"[^"\n]+" \(id "/);
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

  it("create_ticket answered 201 with no body and the ticket's address (Location) names the ticket created", async () => {
    const front = addressOnlyAnswers(
      h,
      (req) => req.method === 'POST' && req.url === '/api/TicketsApi/register',
      (id) => `/api/TicketsApi/${id}`,
    );
    const server = await startFrontServer(h, front.answer);
    const addressOnly = await connectMcp(['--write'], { TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, server) });
    try {
      const result = await addressOnly.call('create_ticket', {
        title: 'mcp address only',
        description: 'd',
        requester: 'aberg',
        site: 'Head Office',
        department: 'IT',
        status: 'Open',
      });
      const [created] = h.sandbox.state.tickets.filter((t) => t.title === 'mcp address only');
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ id: created!.id, changed: true });
    } finally {
      await addressOnly.close();
      await server.close();
    }
  });

  it('an update whose request was sent and never answered is in doubt, as the CLI and the other tools say it', async () => {
    const ticket = unusedTicket(h, isOpen);
    // The read of the read-modify-write goes through; the update is taken and never answered.
    const front = await startFrontServer(h, (req) => req.method === 'POST' && req.url === `/api/TicketsApi/update/${ticket.id}`);
    // The lookups' read goes through first: 0.2 s timed it out under a loaded machine, 2 s leaves room.
    const stalled = await connectMcp(['--write', '--timeout', '2'], { TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, front) });
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
      // The sandbox's open tickets are few, and used up by now: one is made open and unassigned.
      const ticket = Object.assign(unusedTicket(h), { ticketStatusId: status('Open'), assignedUser: null });
      const result = await viewer.call('pickup_ticket', { id: ticket.id });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/^error: permission denied \(HTTP 403\)/);
      expect(ticketById(h, ticket.id).assignedUser).toBeNull();
    } finally {
      await viewer.close();
    }
  });
});
