import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { openSandbox, registerForm } from './helpers.js';

function demoTicketId(sandbox: RunningSandbox, title: string): number {
  const ticket = sandbox.state.tickets.find((t) => t.title === title);
  if (!ticket) throw new Error(`no demo ticket "${title}"`);
  return ticket.id;
}

function ticket(sandbox: RunningSandbox, id: number) {
  const found = sandbox.state.tickets.find((t) => t.id === id);
  if (!found) throw new Error(`no ticket ${id}`);
  return found;
}

const HOUR = 3_600_000;

describe('GET /api/TicketsApi/{id}', () => {
  test('answers the camelCase TicketApiModel with nested objects and conversations oldest first', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const id = demoTicketId(sandbox, 'Email bounce from customer domain');
    const reply = await request('GET', `/api/TicketsApi/${id}`, { as: 'viewer' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({
      id,
      title: 'Email bounce from customer domain',
      creatorId: userId('mgarcia'),
      assignedUser: userId('admin'),
      source: 'Manual',
      isDeleted: false,
      creator: { id: userId('mgarcia'), userName: 'mgarcia', fullName: 'Maria Garcia', email: 'mgarcia@example.com' },
      assignee: { userName: 'admin' },
      site: { id: 1, title: 'Head Office' },
      status: { status: 'In Progress', statusType: 1 },
      priority: { priority: 'Medium' },
      resolution: null,
    });
    expect(reply.body.conversations.map((c: { type: string }) => c.type)).toEqual(['Forward', 'RequesterReply']);
  });

  test('is 404 for unknown and for deleted tickets, 400 for a non-numeric id', async () => {
    const { sandbox, request } = await openSandbox();
    expect((await request('GET', '/api/TicketsApi/999999', { as: 'admin' })).status).toBe(404);
    const id = demoTicketId(sandbox, 'Monitor flickers');
    expect((await request('DELETE', `/api/TicketsApi/${id}`, { as: 'admin' })).status).toBe(200);
    const gone = await request('GET', `/api/TicketsApi/${id}`, { as: 'admin' });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatch(/not found/);
    expect((await request('GET', '/api/TicketsApi/abc', { as: 'admin' })).status).toBe(400);
  });
});

describe('POST /api/TicketsApi/register', () => {
  test('201 with the ticket and a Location; SLA due date from the priority wins over DueDate; auto-assigns and notifies', async () => {
    const clock = new Date('2026-03-02T09:00:00Z');
    const { sandbox, request, userId } = await openSandbox({ now: () => clock });
    const reply = await request('POST', '/api/TicketsApi/register', {
      as: 'tech',
      form: { ...registerForm(userId('aberg')), TicketPriorityId: 4, GroupId: 2, DueDate: '2030-01-01', SelectedTags: [3, 5], Cc: 'boss@example.com' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      title: 'Printer on fire',
      description: 'Smoke everywhere',
      siteId: 1,
      departmentId: 1,
      ticketStatusId: 1,
      ticketPriorityId: 4,
    });
    expect(reply.headers.get('location')).toBe(`${sandbox.url}/api/TicketsApi/${reply.body.id}`);
    const stored = ticket(sandbox, reply.body.id);
    expect(stored.source).toBe('Manual');
    expect(stored.dueDate).toBe(new Date(clock.getTime() + 4 * HOUR).toISOString());
    expect(stored.tags).toEqual([3, 5]);
    const groupTechnicians = sandbox.state.users.filter((u) => u.groupIds.includes(2) && u.role !== 'requester').map((u) => u.id);
    expect(groupTechnicians).toContain(stored.assignedUser);
    expect(
      sandbox.state.outbox
        .filter((m) => m.ticketId === stored.id && m.event === 'assignment')
        .map((m) => m.kind)
        .sort(),
    ).toEqual(['email', 'push']);
  });

  test('keeps DueDate when no priority (so no SLA) applies, and assigns nobody without a group', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const reply = await request('POST', '/api/TicketsApi/register', {
      as: 'admin',
      form: { ...registerForm(userId('alind')), DueDate: '2030-01-01T00:00:00Z' },
    });
    expect(reply.status).toBe(201);
    expect(ticket(sandbox, reply.body.id)).toMatchObject({ dueDate: '2030-01-01T00:00:00.000Z', assignedUser: null });
  });

  test('autoAssign: false leaves the ticket unassigned; AssignedUser is honoured', async () => {
    const { sandbox, request, userId } = await openSandbox({ autoAssign: false });
    const unassigned = await request('POST', '/api/TicketsApi/register', { as: 'admin', form: { ...registerForm(userId('alind')), GroupId: 1 } });
    expect(ticket(sandbox, unassigned.body.id).assignedUser).toBeNull();
    const assigned = await request('POST', '/api/TicketsApi/register', {
      as: 'admin',
      form: { ...registerForm(userId('alind')), AssignedUser: userId('ttorres') },
    });
    expect(ticket(sandbox, assigned.body.id).assignedUser).toBe(userId('ttorres'));
  });

  test('400 problem+json naming every missing required field', async () => {
    const { request } = await openSandbox();
    const reply = await request('POST', '/api/TicketsApi/register', { as: 'admin', form: { Cc: 'x@example.com' } });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/problem\+json/);
    expect(Object.keys(reply.body.errors).sort()).toEqual(['CreatorId', 'DepartmentId', 'Description', 'SiteId', 'TicketStatusId', 'TicketType', 'Title']);
  });

  test('400 for a title over 255, unknown CreatorId, SiteId or DepartmentId; none of them creates a ticket', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const before = sandbox.state.tickets.length;
    const cases: [Record<string, string | number>, RegExp][] = [
      [registerForm(userId('aberg'), { Title: 'x'.repeat(256) }), /255/],
      [registerForm('no-such-user'), /CreatorId/],
      [registerForm(userId('aberg'), { SiteId: 99 }), /SiteId/],
      [registerForm(userId('aberg'), { DepartmentId: 99 }), /DepartmentId/],
      [registerForm(userId('aberg'), { SiteId: 'HQ' }), /SiteId/],
    ];
    for (const [form, message] of cases) {
      const reply = await request('POST', '/api/TicketsApi/register', { as: 'admin', form });
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toMatch(message);
    }
    expect(sandbox.state.tickets.length).toBe(before);
    const exactly255 = await request('POST', '/api/TicketsApi/register', { as: 'admin', form: registerForm(userId('aberg'), { Title: 'x'.repeat(255) }) });
    expect(exactly255.status).toBe(201);
  });

  test('without Tickets.Create: 400 whose message says the permission is lacking; no token: 401', async () => {
    const { request, userId } = await openSandbox();
    const reply = await request('POST', '/api/TicketsApi/register', { as: 'viewer', form: registerForm(userId('aberg')) });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/permission/i);
    expect((await request('POST', '/api/TicketsApi/register', { form: registerForm(userId('aberg')) })).status).toBe(401);
  });

  // A file's write to disk may end after the next one's (a large file before a small one): the
  // ticket keeps them in the form's order, as tkt sent them (CI once saw them swapped).
  test('uploads are attached in the order of the form, whichever write ends first', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const names = Array.from({ length: 12 }, (_, i) => `part-${i}.log`);
    const files = names.map((name, i) => ({ name, content: new Uint8Array(i % 2 === 0 ? 2_000_000 : 1).fill(65) }));
    const reply = await request('POST', '/api/TicketsApi/register', { as: 'admin', form: registerForm(userId('aberg')), files });
    expect(reply.status).toBe(201);
    expect(sandbox.state.attachments.filter((a) => a.ticketId === reply.body.id).map((a) => a.fileName)).toEqual(names);
  });

  test('uploads are stored byte for byte; disallowed extensions are skipped silently', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256);
    const reply = await request('POST', '/api/TicketsApi/register', {
      as: 'admin',
      form: registerForm(userId('aberg')),
      files: [
        { name: 'dump.bin.zip', content: bytes },
        { name: 'virus.exe', content: 'MZ' },
      ],
    });
    expect(reply.status).toBe(201);
    const attachments = sandbox.state.attachments.filter((a) => a.ticketId === reply.body.id);
    expect(attachments.map((a) => a.fileName)).toEqual(['dump.bin.zip']);
    const [saved] = attachments;
    expect(saved?.size).toBe(bytes.length);
    expect(saved?.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(
      createHash('sha256')
        .update(readFileSync(saved?.path ?? ''))
        .digest('hex'),
    ).toBe(saved?.sha256);
  });
});

describe('POST /api/TicketsApi/update/{id}', () => {
  test('204; status applied only when > 0 and different; priority change recalculates the SLA; technician change notifies', async () => {
    const clock = new Date('2026-03-02T09:00:00Z');
    const { sandbox, request, userId } = await openSandbox({ now: () => clock });
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const creatorId = userId('fkhan');
    const zeroStatus = await request('POST', `/api/TicketsApi/update/${id}`, { as: 'tech', form: { Id: id, CreatorId: creatorId, TicketStatusId: 0 } });
    expect(zeroStatus.status).toBe(204);
    expect(ticket(sandbox, id).ticketStatusId).toBe(1);
    const reply = await request('POST', `/api/TicketsApi/update/${id}`, {
      as: 'tech',
      form: { Id: id, CreatorId: creatorId, TicketStatusId: 3, TicketPriorityId: 3, AssignedUser: userId('ohaddad') },
    });
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(ticket(sandbox, id)).toMatchObject({
      ticketStatusId: 3,
      ticketPriorityId: 3,
      assignedUser: userId('ohaddad'),
      dueDate: new Date(clock.getTime() + 24 * HOUR).toISOString(),
    });
    const notes = sandbox.state.outbox.filter((m) => m.ticketId === id);
    expect(notes.map((m) => [m.kind, m.to[0]])).toEqual([
      ['email', 'ohaddad@example.com'],
      ['push', userId('ohaddad')],
    ]);
  });

  test("patch mode leaves absent fields alone; 'overwrite' mode clears every absent optional field", async () => {
    for (const updateMode of ['patch', 'overwrite'] as const) {
      const { sandbox, request, userId } = await openSandbox({ updateMode });
      const id = demoTicketId(sandbox, 'Laptop will not boot after update');
      const reply = await request('POST', `/api/TicketsApi/update/${id}`, { as: 'admin', form: { CreatorId: userId('aberg'), TicketCategoryId: 2 } });
      expect(reply.status).toBe(204);
      const stored = ticket(sandbox, id);
      expect(stored.ticketCategoryId).toBe(2);
      if (updateMode === 'patch') expect(stored).toMatchObject({ itemId: 1, groupId: 1, assignedUser: userId('tech'), ticketPriorityId: 3 });
      else expect(stored).toMatchObject({ itemId: null, groupId: null, assignedUser: null, dueDate: null, siteId: null });
    }
  });

  test('400 for an unknown ticket, a missing CreatorId or an id mismatch; 403 without Tickets.Update', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    expect((await request('POST', '/api/TicketsApi/update/999999', { as: 'admin', form: { CreatorId: userId('fkhan') } })).status).toBe(400);
    const missing = await request('POST', `/api/TicketsApi/update/${id}`, { as: 'admin', form: { TicketStatusId: 2 } });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.CreatorId).toBeDefined();
    expect((await request('POST', `/api/TicketsApi/update/${id}`, { as: 'admin', form: { Id: id + 1, CreatorId: userId('fkhan') } })).status).toBe(400);
    expect((await request('POST', `/api/TicketsApi/update/${id}`, { as: 'viewer', form: { CreatorId: userId('fkhan') } })).status).toBe(403);
  });
});

describe('forward and reply', () => {
  for (const [verb, type, event] of [
    ['forward', 'Forward', 'forward'],
    ['reply', 'Reply', 'reply'],
  ] as const) {
    test(`${verb}: 200 logs a conversation and sends an e-mail; 400 id mismatch, missing fields, unknown ticket; 403`, async () => {
      const { sandbox, request } = await openSandbox();
      const id = demoTicketId(sandbox, 'Monitor flickers');
      const form = { Id: id, Title: 'About your monitor', SendTo: 'vendor@example.com', CcTo: 'a@example.com; b@example.com', Message: 'Please check' };
      const reply = await request('POST', `/api/TicketsApi/${verb}/${id}`, { as: 'tech', form, files: [{ name: 'photo.png', content: 'png' }] });
      expect(reply.status).toBe(200);
      expect(sandbox.state.conversations.filter((c) => c.ticketId === id)).toMatchObject([
        { type, to: 'vendor@example.com', subject: 'About your monitor', message: 'Please check' },
      ]);
      expect(sandbox.state.outbox).toMatchObject([{ kind: 'email', event, to: ['vendor@example.com'], cc: ['a@example.com', 'b@example.com'] }]);
      expect(sandbox.state.attachments.filter((a) => a.ticketId === id).map((a) => a.fileName)).toEqual(['photo.png']);

      const mismatch = await request('POST', `/api/TicketsApi/${verb}/${id}`, { as: 'tech', form: { ...form, Id: id + 1 } });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.errors.Id).toBeDefined();
      const missing = await request('POST', `/api/TicketsApi/${verb}/${id}`, { as: 'tech', form: { Id: id } });
      expect(Object.keys(missing.body.errors).sort()).toEqual(['SendTo', 'Title']);
      expect((await request('POST', `/api/TicketsApi/${verb}/999999`, { as: 'tech', form: { ...form, Id: 999999 } })).status).toBe(400);
      expect((await request('POST', `/api/TicketsApi/${verb}/${id}`, { as: 'private', form })).status).toBe(403);
    });
  }

  test('a forward saved as a draft is logged but not e-mailed', async () => {
    const { sandbox, request } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const reply = await request('POST', `/api/TicketsApi/forward/${id}`, {
      as: 'tech',
      form: { Id: id, Title: 'Draft', SendTo: 'x@example.com', HasDraft: true },
    });
    expect(reply.status).toBe(200);
    expect(sandbox.state.conversations.filter((c) => c.ticketId === id)).toMatchObject([{ draft: true }]);
    expect(sandbox.state.outbox).toEqual([]);
  });
});

describe('POST /api/TicketsApi/close/{id}', () => {
  test('204 closes and logs; the e-mail goes out only when Acknowledged; 200 when already closed', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const quiet = demoTicketId(sandbox, 'Monitor flickers');
    const loud = demoTicketId(sandbox, 'Mouse double-clicks');
    expect(
      (await request('POST', `/api/TicketsApi/close/${quiet}`, { as: 'tech', form: { TicketId: quiet, CloseBy: userId('tech'), Comments: 'done' } })).status,
    ).toBe(204);
    expect(sandbox.state.outbox).toEqual([]);
    expect(ticket(sandbox, quiet).ticketStatusId).toBe(7);
    expect(sandbox.state.conversations.filter((c) => c.ticketId === quiet)).toMatchObject([{ type: 'Close', message: 'done' }]);
    expect(
      (await request('POST', `/api/TicketsApi/close/${loud}`, { as: 'tech', form: { TicketId: loud, CloseBy: userId('tech'), Acknowledged: true } })).status,
    ).toBe(204);
    expect(sandbox.state.outbox).toMatchObject([{ event: 'closure', to: ['jmuller@example.com'] }]);
    const again = await request('POST', `/api/TicketsApi/close/${loud}`, { as: 'tech', form: { TicketId: loud, CloseBy: userId('tech'), Acknowledged: true } });
    expect(again.status).toBe(200);
    expect(sandbox.state.outbox).toHaveLength(1);
  });

  test('404 unknown ticket, 403 without Tickets.Close, 400 id mismatch or missing CloseBy, 400/500 on save errors', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const form = { TicketId: id, CloseBy: userId('tech') };
    expect((await request('POST', '/api/TicketsApi/close/999999', { as: 'tech', form: { ...form, TicketId: 999999 } })).status).toBe(404);
    expect((await request('POST', `/api/TicketsApi/close/${id}`, { as: 'viewer', form })).status).toBe(403);
    expect((await request('POST', `/api/TicketsApi/close/${id}`, { as: 'tech', form: { ...form, TicketId: 1 } })).status).toBe(400);
    expect((await request('POST', `/api/TicketsApi/close/${id}`, { as: 'tech', form: { TicketId: id } })).body.errors.CloseBy).toBeDefined();
    sandbox.failNext('POST /api/TicketsApi/close/{id}', 400);
    const saveError = await request('POST', `/api/TicketsApi/close/${id}`, { as: 'tech', form });
    expect(saveError.status).toBe(400);
    expect(ticket(sandbox, id).ticketStatusId).toBe(1);
    expect((await request('POST', `/api/TicketsApi/close/${id}`, { as: 'tech', form })).status).toBe(204);
  });
});

describe('POST /api/TicketsApi/resolve/{id}', () => {
  test('200 resolves with a resolution record and an e-mail with a close link; already resolved: 200, no change', async () => {
    const clock = new Date('2026-03-02T09:00:00Z');
    const { sandbox, request, userId } = await openSandbox({ now: () => clock });
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const form = { TicketId: id, Details: 'Replaced the cable', SubmitBy: userId('tech') };
    expect((await request('POST', `/api/TicketsApi/resolve/${id}`, { as: 'tech', form })).status).toBe(200);
    expect(ticket(sandbox, id)).toMatchObject({
      ticketStatusId: 6,
      resolution: { details: 'Replaced the cable', submitBy: userId('tech'), submitDate: clock.toISOString() },
    });
    expect(sandbox.state.outbox).toMatchObject([{ event: 'resolution', to: ['fkhan@example.com'] }]);
    expect(sandbox.state.outbox[0]?.body).toContain(`/tickets/${id}/close`);
    const again = await request('POST', `/api/TicketsApi/resolve/${id}`, { as: 'tech', form: { ...form, Details: 'other' } });
    expect(again.status).toBe(200);
    expect(ticket(sandbox, id).resolution?.details).toBe('Replaced the cable');
    expect(sandbox.state.outbox).toHaveLength(1);
  });

  test('400 unknown ticket, 403 without Tickets.Resolve, 500 on an unexpected error', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const form = { TicketId: id, Details: 'x', SubmitBy: userId('tech') };
    expect((await request('POST', '/api/TicketsApi/resolve/999999', { as: 'tech', form: { ...form, TicketId: 999999 } })).status).toBe(400);
    expect((await request('POST', `/api/TicketsApi/resolve/${id}`, { as: 'private', form })).status).toBe(403);
    sandbox.failNext('POST /api/TicketsApi/resolve/{id}');
    const failure = await request('POST', `/api/TicketsApi/resolve/${id}`, { as: 'tech', form });
    expect(failure.status).toBe(500);
    expect(failure.headers.get('content-type')).toMatch(/html/);
    expect(ticket(sandbox, id).ticketStatusId).toBe(1);
  });
});

describe('pickup, read, addfiles, delete', () => {
  test('pickup: 200 assigns the caller; 200 no change when already theirs; 404; 403; 500', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'tech' })).status).toBe(200);
    expect(ticket(sandbox, id).assignedUser).toBe(userId('tech'));
    const updatedOn = ticket(sandbox, id).updatedOn;
    const again = await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'tech' });
    expect(again.status).toBe(200);
    expect(again.body.changed).toBe(false);
    expect(ticket(sandbox, id).updatedOn).toBe(updatedOn);
    expect((await request('POST', '/api/TicketsApi/pickup/999999', { as: 'tech' })).status).toBe(404);
    expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'viewer' })).status).toBe(403);
    sandbox.failNext('POST /api/TicketsApi/pickup/{id}');
    expect((await request('POST', `/api/TicketsApi/pickup/${id}`, { as: 'admin' })).status).toBe(500);
    expect(ticket(sandbox, id).assignedUser).toBe(userId('tech'));
  });

  test('read: 200 marks read (any valid token), 404 unknown', async () => {
    const { sandbox, request } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    expect((await request('POST', `/api/TicketsApi/read/${id}`, { as: 'viewer' })).status).toBe(200);
    expect(ticket(sandbox, id).isRead).toBe(true);
    expect((await request('POST', `/api/TicketsApi/read/${id}`, { as: 'viewer' })).status).toBe(200);
    expect((await request('POST', '/api/TicketsApi/read/999999', { as: 'viewer' })).status).toBe(404);
  });

  test('addfiles: 200 listing saved and skipped files; 400 without files', async () => {
    const { sandbox, request } = await openSandbox();
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const reply = await request('POST', `/api/TicketsApi/addfiles/${id}`, {
      as: 'viewer',
      files: [
        { name: 'Report.PDF', content: '%PDF' },
        { name: 'run.sh', content: 'rm -rf' },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ saved: [{ fileName: 'Report.PDF', size: 4 }], skipped: ['run.sh'] });
    expect((await request('POST', `/api/TicketsApi/addfiles/${id}`, { as: 'viewer', form: {} })).status).toBe(400);
    expect((await request('POST', '/api/TicketsApi/addfiles/999999', { as: 'viewer', files: [{ name: 'a.txt', content: 'a' }] })).status).toBe(404);
  });

  test('honours a custom list of allowed extensions', async () => {
    const { sandbox, request } = await openSandbox({ allowedExtensions: ['sh'] });
    const id = demoTicketId(sandbox, 'Monitor flickers');
    const reply = await request('POST', `/api/TicketsApi/addfiles/${id}`, {
      as: 'viewer',
      files: [
        { name: 'a.txt', content: 'a' },
        { name: 'run.sh', content: 'x' },
      ],
    });
    expect(reply.body).toMatchObject({ saved: [{ fileName: 'run.sh' }], skipped: ['a.txt'] });
  });

  test('delete: 200 with the soft-deleted ticket; 404 afterwards; 403 without Tickets.Delete; 500 on save error', async () => {
    const clock = new Date('2026-03-02T09:00:00Z');
    const { sandbox, request } = await openSandbox({ now: () => clock });
    const id = demoTicketId(sandbox, 'Monitor flickers');
    expect((await request('DELETE', `/api/TicketsApi/${id}`, { as: 'tech' })).status).toBe(403);
    sandbox.failNext('DELETE /api/TicketsApi/{id}');
    expect((await request('DELETE', `/api/TicketsApi/${id}`, { as: 'admin' })).status).toBe(500);
    const reply = await request('DELETE', `/api/TicketsApi/${id}`, { as: 'admin' });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id, isDeleted: true, deletedOn: clock.toISOString() });
    expect(ticket(sandbox, id).isDeleted).toBe(true);
    expect((await request('DELETE', `/api/TicketsApi/${id}`, { as: 'admin' })).status).toBe(404);
  });
});

describe('POST /api/TicketsApi/new', () => {
  test('201 with a TicketApiModel, Location, Source Api and the system defaults; needs no Tickets.Create', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const reply = await request('POST', '/api/TicketsApi/new', { as: 'viewer', form: { Title: 'From CI', Description: 'Build broke', Requester: 'PNovak' } });
    expect(reply.status).toBe(201);
    expect(reply.headers.get('location')).toBe(`${sandbox.url}/api/TicketsApi/${reply.body.id}`);
    expect(reply.body).toMatchObject({
      title: 'From CI',
      source: 'Api',
      creatorId: userId('pnovak'),
      tierLevelId: 1,
      siteId: 1,
      ticketStatusId: 1,
      ticketPriorityId: 2,
      ticketCategoryId: 2,
    });
    expect(reply.body.creator.userName).toBe('pnovak');
  });

  test('the e-mail finds the requester when the username does not; 400 when neither matches or fields are invalid', async () => {
    const { request, userId } = await openSandbox();
    const byEmail = await request('POST', '/api/TicketsApi/new', {
      as: 'viewer',
      form: { Title: 't', Description: 'd', Requester: 'anna.b', Email: 'aberg@example.com' },
    });
    expect(byEmail.status).toBe(201);
    expect(byEmail.body.creatorId).toBe(userId('aberg'));
    const nobody = await request('POST', '/api/TicketsApi/new', { as: 'viewer', form: { Title: 't', Description: 'd', Requester: 'ghost' } });
    expect(nobody.status).toBe(400);
    expect(nobody.body.message).toMatch(/ghost/);
    const missing = await request('POST', '/api/TicketsApi/new', { as: 'viewer', form: { Title: 'x'.repeat(256) } });
    expect(Object.keys(missing.body.errors).sort()).toEqual(['Description', 'Requester', 'Title']);
    expect(
      (await request('POST', '/api/TicketsApi/new', { as: 'viewer', form: { Title: 't', Description: 'd', Requester: 'aberg', SiteId: 42 } })).status,
    ).toBe(400);
  });
});

describe('POST /api/TicketsApi/list (by username)', () => {
  test('25 TicketApiModel items a page, newest first', async () => {
    const { sandbox, request, userId } = await openSandbox({ seedTickets: 600 });
    const own = sandbox.state.tickets.filter((t) => t.creatorId === userId('aberg')).sort((a, b) => b.createdOn.localeCompare(a.createdOn));
    expect(own.length).toBeGreaterThan(30);
    const first = await request('POST', '/api/TicketsApi/list', { as: 'viewer', form: { username: 'aberg' } });
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(25);
    expect(first.body.map((t: { id: number }) => t.id)).toEqual(own.slice(0, 25).map((t) => t.id));
    expect(first.body[0].creator.userName).toBe('aberg');
    const second = await request('POST', '/api/TicketsApi/list', { as: 'viewer', form: { username: 'aberg', page: 2 } });
    expect(second.body.map((t: { id: number }) => t.id)).toEqual(own.slice(25, 50).map((t) => t.id));
    expect((await request('POST', '/api/TicketsApi/list', { as: 'viewer', form: {} })).status).toBe(400);
  });

  test('shows a ticket created or deleted since the last page at once', async () => {
    const { request, userId } = await openSandbox({ seedTickets: 100 });
    const page = async () =>
      ((await request('POST', '/api/TicketsApi/list', { as: 'viewer', form: { username: 'aberg' } })).body as { id: number }[]).map((t) => t.id);
    const before = await page();
    const created = await request('POST', '/api/TicketsApi/register', { as: 'admin', form: registerForm(userId('aberg')) });
    expect(created.status).toBe(201);
    expect((await page())[0]).toBe(created.body.id);
    expect((await request('DELETE', `/api/TicketsApi/${created.body.id}`, { as: 'admin' })).status).toBe(200);
    expect(await page()).toEqual(before);
  });
});

describe('POST /api/TicketsApi/reqreply/{id}', () => {
  test('re-opens a resolved ticket, not a locked one, and notifies the technician', async () => {
    const { sandbox, request } = await openSandbox();
    const resolved = demoTicketId(sandbox, 'Wi-Fi drops in meeting room B');
    const locked = demoTicketId(sandbox, 'Keyboard missing keys');
    const reply = await request('POST', `/api/TicketsApi/reqreply/${resolved}`, {
      as: 'viewer',
      form: { Id: resolved, Username: 'lwei', Title: 'Still broken', Message: 'Again today' },
    });
    expect(reply.status).toBe(200);
    expect(ticket(sandbox, resolved).ticketStatusId).toBe(1);
    expect(sandbox.state.conversations.filter((c) => c.ticketId === resolved)).toMatchObject([
      { type: 'RequesterReply', from: 'lwei@example.com', message: 'Again today' },
    ]);
    expect(sandbox.state.outbox).toMatchObject([{ event: 'requester-reply', to: ['ohaddad@example.com'] }]);
    expect((await request('POST', `/api/TicketsApi/reqreply/${locked}`, { as: 'viewer', form: { Id: locked, Username: 'pnovak', Title: 'Hm' } })).status).toBe(
      200,
    );
    expect(ticket(sandbox, locked).ticketStatusId).toBe(6);
  });

  test('re-opens a closed ticket too, with the reply logged and the technician notified', async () => {
    const { sandbox, request, userId } = await openSandbox();
    const closed = demoTicketId(sandbox, 'Password reset for shared mailbox');
    expect(ticket(sandbox, closed).ticketStatusId).toBe(7);
    const reply = await request('POST', `/api/TicketsApi/reqreply/${closed}`, {
      as: 'viewer',
      form: { Id: closed, Username: 'soneil', Title: 'Locked out again', Message: 'Same problem' },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ reopened: true });
    expect(ticket(sandbox, closed)).toMatchObject({ ticketStatusId: 1, isRead: false });
    expect(sandbox.state.conversations.filter((c) => c.ticketId === closed).at(-1)).toMatchObject({
      type: 'RequesterReply',
      from: 'soneil@example.com',
      message: 'Same problem',
    });
    expect(sandbox.state.outbox).toMatchObject([{ event: 'requester-reply', to: [sandbox.state.users.find((u) => u.id === userId('tech'))?.email] }]);
  });

  test('400 problem+json for a validation failure (missing Title): nothing logged, not re-opened', async () => {
    const { sandbox, request } = await openSandbox();
    const id = demoTicketId(sandbox, 'Wi-Fi drops in meeting room B');
    const reply = await request('POST', `/api/TicketsApi/reqreply/${id}`, { as: 'viewer', form: { Id: id, Username: 'lwei', Message: 'No subject' } });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/problem\+json/);
    expect(Object.keys(reply.body.errors)).toEqual(['Title']);
    expect(ticket(sandbox, id).ticketStatusId).toBe(6);
    expect(sandbox.state.conversations.filter((c) => c.ticketId === id)).toEqual([]);
    expect(sandbox.state.outbox).toEqual([]);
  });

  test('400 for an id mismatch, an unknown user or an unknown ticket', async () => {
    const { sandbox, request } = await openSandbox();
    const id = demoTicketId(sandbox, 'Wi-Fi drops in meeting room B');
    expect((await request('POST', `/api/TicketsApi/reqreply/${id}`, { as: 'viewer', form: { Id: id + 1, Username: 'lwei', Title: 't' } })).status).toBe(400);
    expect((await request('POST', `/api/TicketsApi/reqreply/${id}`, { as: 'viewer', form: { Id: id, Username: 'ghost', Title: 't' } })).status).toBe(400);
    expect((await request('POST', '/api/TicketsApi/reqreply/999999', { as: 'viewer', form: { Id: 999999, Username: 'lwei', Title: 't' } })).status).toBe(400);
    expect(ticket(sandbox, id).ticketStatusId).toBe(6);
  });
});

test('stats count requests per route', async () => {
  const { sandbox, request } = await openSandbox();
  await request('POST', '/api/TicketsApi/close/5', { as: 'viewer' });
  await request('GET', '/nowhere');
  expect(sandbox.stats.byRoute).toEqual({ 'POST /api/TicketsApi/close/{id}': 1, 'GET (unmatched)': 1 });
  expect(sandbox.stats.requests).toBe(2);
  sandbox.resetStats();
  expect(sandbox.stats.requests).toBe(0);
});
