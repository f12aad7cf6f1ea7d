// The ticket read model: every shape the service may send (the spec leaves the list item and
// most of the detail open) reads the same.
import { describe, expect, it } from 'vitest';
import { listedTicketId, overdueAt, readListItem, readTicket } from '../../src/model/ticket.js';
import { useTimeZone } from '../helpers/time-zone.js';

describe('readListItem', () => {
  it('reads the sandbox list item (ticketId, subject, plain names)', () => {
    const item = {
      ticketId: 7,
      subject: 'Printer on fire',
      status: 'Open',
      priority: 'High',
      requester: 'Anna Berg',
      assignee: null,
      dueDate: '2026-11-20T12:00:00Z',
      createdOn: '2026-11-01T08:00:00Z',
      isOverdue: true,
    };
    const ticket = readListItem(item);

    expect(ticket).toMatchObject({
      raw: item,
      id: 7,
      title: 'Printer on fire',
      status: 'Open',
      priority: 'High',
      requester: 'Anna Berg',
      assignee: undefined,
      overdue: true,
      settled: false,
    });
    expect(ticket.due?.toISOString()).toBe('2026-11-20T12:00:00.000Z');
    expect(ticket.created?.toISOString()).toBe('2026-11-01T08:00:00.000Z');
  });

  it('reads PascalCase members as camelCase ones', () => {
    const ticket = readListItem({
      TicketId: 8,
      Title: 'VPN',
      Status: { Id: 2, Status: 'On Hold' },
      DueDate: '2026-11-20T12:00:00Z',
      CreatedOn: '2026-11-01T08:00:00Z',
    });

    expect(ticket).toMatchObject({ id: 8, title: 'VPN', status: 'On Hold' });
    expect(ticket.field('status')).toMatchObject({ said: true, id: 2, name: 'On Hold' });
    expect(ticket.due).toBeDefined();
    expect(ticket.created).toBeDefined();
  });

  it('reads the other names a list may use for a field', () => {
    const ticket = readListItem({
      ticketNumber: '9',
      statusName: 'Closed',
      ticketPriority: { id: 3, priority: 'Low' },
      requesterName: 'Omar',
      assignedUserName: 'Lea',
      due: '2026-11-20',
      created: '2026-11-01',
    });

    expect(ticket).toMatchObject({ id: '9', status: 'Closed', priority: 'Low', requester: 'Omar', assignee: 'Lea', settled: true, overdue: false });
    expect(ticket.due).toBeDefined();
    expect(ticket.created).toBeDefined();
  });

  it('names a person of a list by their own name, as the list items do; the field keeps the username other commands take', () => {
    const ticket = readListItem({ assignee: { id: 'u-2', fullName: 'Lea Roy', userName: 'lea' } });

    expect(ticket.assignee).toBe('Lea Roy');
    expect(ticket.field('assignee')).toMatchObject({ id: 'u-2', name: 'Lea Roy (lea)', ownName: 'Lea Roy', username: 'lea', empty: false });
  });

  it('shows a person with no name by their user ID, and a lookup without a name not at all', () => {
    const ticket = readListItem({ assignedUser: 'u-2', ticketStatusId: 3 });

    expect(ticket.assignee).toBe('u-2');
    expect(ticket.status).toBeUndefined();
    expect(ticket.field('status')).toMatchObject({ said: true, id: 3, value: 3, name: undefined });
  });

  it('tells a field the item says nothing about from one it says is empty', () => {
    const ticket = readListItem({ ticketId: 1, assignedUser: null, group: '', site: { id: null, title: 'HQ' } });

    expect(ticket.field('assignee')).toMatchObject({ said: true, empty: true, id: undefined });
    expect(ticket.field('group')).toMatchObject({ said: true, empty: true });
    expect(ticket.field('site')).toMatchObject({ said: true, empty: true, name: 'HQ' });
    expect(ticket.field('department')).toMatchObject({ said: false, empty: true, id: undefined, name: undefined });
  });

  it('takes a number given for a name as the ID', () => {
    expect(readListItem({ priority: 4 }).field('priority')).toMatchObject({ id: 4, name: '4' });
  });

  it('judges overdue by the service flag, else not once resolved or closed', () => {
    expect(readListItem({ isOverdue: false, status: 'Open' }).overdue).toBe(false);
    expect(readListItem({ status: 'Open' }).overdue).toBeUndefined();
    expect(readListItem({ status: 'Resolved' })).toMatchObject({ overdue: false, settled: true });
    expect(readListItem({ status: 'Open', isClosed: true })).toMatchObject({ overdue: false, settled: true });
    // Names services give their settled statuses (the spec lets each name its own).
    for (const status of ['Done', 'Solved', 'Closed - duplicate']) expect(readListItem({ status })).toMatchObject({ overdue: false, settled: true });
    for (const status of ['Open', 'Awaiting customer']) expect(readListItem({ status }).settled, status).toBe(false);
  });

  it('reads nothing from what is not an object, and no ID from an empty one', () => {
    for (const raw of [null, 'text', 42, [], { ticketId: '' }]) {
      const ticket = readListItem(raw);
      expect(ticket).toMatchObject({ id: undefined, title: undefined, status: undefined, due: undefined, settled: false });
      expect(ticket.field('status').said).toBe(false);
    }
  });

  it('names a person by first and last name, in any case, when the record has no full name', () => {
    const ticket = readListItem({ assignee: { FirstName: 'Tom', lastname: 'Tech' } });
    expect(ticket.assignee).toBe('Tom Tech');
    expect(ticket.field('assignee')).toMatchObject({ said: true, name: 'Tom Tech', ownName: 'Tom Tech', empty: false, unread: false });
    expect(readListItem({ assignee: { fullName: 'Lea Roy', firstName: 'L' } }).assignee).toBe('Lea Roy');
  });

  it('gives a listed ticket its ID, or fails naming the members the item has', () => {
    expect(listedTicketId(readListItem({ TicketId: 7 }))).toBe(7);
    expect(() => listedTicketId(readListItem({ TicketNo: 7, subject: 'x' }))).toThrow(
      "a ticket in the service's list has no ID tkt knows: its members are TicketNo, subject",
    );
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`m${index}`, index]));
    expect(() => listedTicketId(readListItem(wide))).toThrow(/its members are m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, \.\.\.$/);
    expect(() => listedTicketId(readListItem('text'))).toThrow(/no ID tkt knows: it has no members$/);
  });

  it('says which of its due date, creation date and status the item has at all, null too', () => {
    const lean = readListItem({ ticketId: 1, subject: 'x' });
    expect([lean.says('due'), lean.says('created'), lean.says('settled')]).toEqual([false, false, false]);
    const full = readListItem({ ticketId: 1, dueDate: null, CreatedOn: '2026-11-01T00:00:00Z', status: 'Open' });
    expect([full.says('due'), full.says('created'), full.says('settled')]).toEqual([true, true, true]);
    expect(readListItem({ isClosed: false }).says('settled')).toBe(true);
  });

  it('judges overdue at a time, or says it cannot from what the item has', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    const past = '2026-11-26T12:00:00Z';
    expect(overdueAt(readListItem({ status: 'Open', dueDate: past }), now)).toBe(true);
    expect(overdueAt(readListItem({ status: 'Closed', dueDate: past }), now)).toBe(false);
    expect(overdueAt(readListItem({ status: 'Open', dueDate: '2026-11-28T12:00:00Z' }), now)).toBe(false);
    expect(overdueAt(readListItem({ status: 'Open', dueDate: null }), now)).toBe(false);
    expect(overdueAt(readListItem({ isOverdue: true }), now)).toBe(true);
    // No due date member, or past due without a status: the detail says.
    expect(overdueAt(readListItem({ status: 'Open' }), now)).toBeUndefined();
    expect(overdueAt(readListItem({ dueDate: past }), now)).toBeUndefined();
    expect(overdueAt(readListItem({ dueDate: '2026-11-28T12:00:00Z' }), now)).toBe(false);
  });

  it('tells a record it cannot read from an empty one: only the detail says who it is', () => {
    expect(readListItem({ assignee: { login: 'x' } }).field('assignee')).toMatchObject({ said: true, empty: false, unread: true });
    expect(readListItem({ assignee: {} }).field('assignee')).toMatchObject({ said: true, empty: true, unread: false });
    expect(readListItem({ assignee: { login: null } }).field('assignee')).toMatchObject({ empty: true, unread: false });
    // A record named but without an ID member names someone; one whose ID is empty stays empty.
    expect(readListItem({ assignee: { fullName: 'Lea Roy' } }).field('assignee')).toMatchObject({ empty: false, unread: false });
    expect(readListItem({ assignee: { id: null, fullName: 'Nobody' } }).field('assignee')).toMatchObject({ empty: true, unread: false });
  });
});

describe('readTicket', () => {
  // The sandbox's TicketApiModel, trimmed.
  const detail = {
    id: 7,
    title: 'Printer on fire',
    description: 'Smoke.',
    siteId: 2,
    ticketStatusId: 5,
    creatorId: 'u-1',
    assignedUser: null,
    dueDate: '2026-11-20T12:00:00Z',
    createdOn: '2026-11-01T08:00:00Z',
    updatedOn: '2026-11-02T08:00:00Z',
    source: 'Manual',
    cc: '',
    isDeleted: false,
    templateId: 'tpl',
    creator: { id: 'u-1', userName: 'anna', fullName: 'Anna Berg', email: ' anna@example.com ' },
    assignee: null,
    site: { id: 2, title: 'HQ' },
    status: { id: 5, status: 'Closed', statusType: 2 },
    resolution: { details: 'Replaced.', submitBy: 'u-3', submitDate: '2026-11-03T08:00:00Z' },
    conversations: [
      {
        type: 'RequesterReply',
        from: { fullName: 'Anna Berg' },
        to: 'desk@example.com',
        subject: 'Re',
        message: 'Thanks',
        isDraft: true,
        createdOn: '2026-11-02T09:00:00Z',
      },
    ],
    attachments: [{ fileName: 'log.txt', size: 2048, createdOn: '2026-11-02T10:00:00Z' }],
  };

  it('reads a detail: text, people, related records, dates', () => {
    const ticket = readTicket(detail);

    expect(ticket).toMatchObject({
      raw: detail,
      id: 7,
      title: 'Printer on fire',
      description: 'Smoke.',
      status: 'Closed',
      requester: 'Anna Berg',
      assignee: undefined,
      source: 'Manual',
      cc: undefined,
      deleted: undefined,
      templateId: 'tpl',
      requesterEmail: 'anna@example.com',
      settled: true,
    });
    expect(ticket.updated?.toISOString()).toBe('2026-11-02T08:00:00.000Z');
    expect(ticket.field('site')).toMatchObject({ id: 2, name: 'HQ' });
    // tkt show's header names the username too: the field's name.
    expect(ticket.field('requester')).toMatchObject({ id: 'u-1', value: 'u-1', name: 'Anna Berg (anna)', ownName: 'Anna Berg' });
  });

  it('reads the conversation, the attachments and a resolution record', () => {
    const ticket = readTicket(detail);

    expect(ticket.conversation).toEqual([
      {
        type: 'RequesterReply',
        draft: true,
        from: 'Anna Berg',
        to: 'desk@example.com',
        cc: undefined,
        at: new Date('2026-11-02T09:00:00Z'),
        subject: 'Re',
        message: 'Thanks',
      },
    ]);
    expect(ticket.attachments).toEqual([{ name: 'log.txt', size: 2048, at: new Date('2026-11-02T10:00:00Z') }]);
    expect(ticket.resolution).toEqual({ by: 'u-3', at: new Date('2026-11-03T08:00:00Z'), details: 'Replaced.' });
  });

  it('reads a PascalCase detail with other names the same', () => {
    const ticket = readTicket({
      Id: 8,
      Subject: 'VPN',
      Body: 'Down.',
      IsDeleted: true,
      DeletedOn: '2026-11-05T08:00:00Z',
      Resolution: 'Rebooted.',
      Thread: [{ Kind: 'Note', Sender: 'Lea', Body: 'Looking' }],
      Files: [{ Name: 'a.png', FileSize: 'big' }],
      RequesterEmail: 'omar@example.com',
    });

    expect(ticket).toMatchObject({ id: 8, title: 'VPN', description: 'Down.', resolution: { text: 'Rebooted.' }, requesterEmail: 'omar@example.com' });
    expect(ticket.deleted?.on?.toISOString()).toBe('2026-11-05T08:00:00.000Z');
    expect(ticket.conversation[0]).toMatchObject({ type: 'Note', from: 'Lea', message: 'Looking', draft: false });
    expect(ticket.attachments[0]).toEqual({ name: 'a.png', size: undefined, at: undefined });
  });

  it("gives the update form the current values: own members as they are, else the related record's ID", () => {
    const ticket = readTicket({
      Id: 7,
      SiteId: 2,
      category: { id: 4, name: 'Network' },
      creator: { id: 'u-1' },
      TicketPriorityId: null,
      assignedUser: null,
      assignee: null,
    });

    expect(ticket.field('site').value).toBe(2);
    expect(ticket.field('category').value).toBe(4);
    expect(ticket.field('requester').value).toBe('u-1');
    expect(ticket.field('priority').value).toBeUndefined();
    expect(ticket.field('assignee').value).toBeUndefined();
  });

  it('reads a detail with none of the optional parts as empty, not as an error', () => {
    const ticket = readTicket({ id: 1 });

    expect(ticket).toMatchObject({
      id: 1,
      description: undefined,
      resolution: undefined,
      conversation: [],
      attachments: [],
      requesterEmail: undefined,
      templateId: undefined,
    });
  });
});

describe('times without an offset', () => {
  // Far from UTC, so that reading them as local time would move them by hours.
  useTimeZone('America/Los_Angeles');

  it('are read as UTC, as a .NET service that drops the Z means them, not as the local time of whoever runs tkt', () => {
    const item = readListItem({ ticketId: 1, dueDate: '2026-11-28T17:13:18.133', createdDate: '2026-11-28 09:00:00' });
    expect(item.due?.toISOString()).toBe('2026-11-28T17:13:18.133Z');
    expect(item.created?.toISOString()).toBe('2026-11-28T09:00:00.000Z');
    const ticket = readTicket({ id: 1, updatedOn: '2026-11-28T17:13:18.1234567' });
    expect(ticket.updated?.toISOString()).toBe('2026-11-28T17:13:18.123Z');
  });

  it('keep an offset or Z they carry, and a date alone stays that day', () => {
    expect(readListItem({ ticketId: 1, dueDate: '2026-11-28T17:13:18-08:00' }).due?.toISOString()).toBe('2026-11-29T01:13:18.000Z');
    expect(readListItem({ ticketId: 1, dueDate: '2026-11-28T17:13:18Z' }).due?.toISOString()).toBe('2026-11-28T17:13:18.000Z');
    expect(readListItem({ ticketId: 1, dueDate: '2026-11-28' }).due?.toISOString()).toBe('2026-11-28T00:00:00.000Z');
  });
});
