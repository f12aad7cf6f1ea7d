// One ticket's endpoints (docs/service.md 4.2-4.12, 4.15, 4.17): read, create, update, reply, close, resolve...
import { Permission, type SandboxTicket } from './model.js';
import { messageFailure, problem, sendEmpty, sendJson } from './http.js';
import { CLOSED_STATUS_ID, REOPEN_STATUS_ID, RESOLVED_STATUS_ID, SYSTEM_DEFAULTS, blankTicket, randomGuid } from './demo.js';
import { fullName, ticketApiModel, ticketEntity } from './views.js';
import {
  ticketOr400,
  ticketOr404,
  withForm,
  attachUploads,
  requireIdMatch,
  recipients,
  slaDueDate,
  checkLookups,
  technicianOr400,
  autoAssignee,
  notifyAssignment,
  created,
  type Call,
} from './call.js';
const TITLE_MAX = 255;

export function getTicket(call: Call): void {
  sendJson(call.res, 200, ticketApiModel(call.store, ticketOr404(call)));
}

export async function register(call: Call): Promise<void> {
  if (!call.claims.permissions.includes(Permission.create)) {
    call.req.resume();
    throw messageFailure(400, 'You do not have permission to create tickets (Tickets.Create is missing).');
  }
  await withForm(call, (fields, form) => {
    const title = fields.text('Title', { required: true, maxLength: TITLE_MAX });
    const description = fields.text('Description', { required: true });
    const creatorId = fields.text('CreatorId', { required: true });
    const siteId = fields.int('SiteId', { required: true });
    const departmentId = fields.int('DepartmentId', { required: true });
    const ticketStatusId = fields.int('TicketStatusId', { required: true });
    const ticketType = fields.int('TicketType', { required: true });
    if (ticketType !== undefined && ticketType < 1) fields.fail('TicketType', `The value '${ticketType}' is not valid for TicketType.`);
    const optional = {
      TicketCategoryId: fields.int('TicketCategoryId'),
      TicketSubCategoryId: fields.int('TicketSubCategoryId'),
      ItemId: fields.int('ItemId'),
      TierLevelId: fields.int('TierLevelId'),
      GroupId: fields.int('GroupId'),
      ClientId: fields.int('ClientId'),
      TicketPriorityId: fields.int('TicketPriorityId'),
    };
    const numbers = { SLAId: fields.int('SLAId'), ServiceId: fields.int('ServiceId'), ImpactId: fields.int('ImpactId'), UrgencyId: fields.int('UrgencyId') };
    const dueDate = fields.date('DueDate');
    const tags = fields.ints('SelectedTags');
    fields.check();
    const creator = call.store.user(creatorId);
    if (!creator) throw messageFailure(400, `CreatorId ${creatorId} does not match any user.`);
    checkLookups(call, { SiteId: siteId, DepartmentId: departmentId, TicketStatusId: ticketStatusId, ...optional });
    const assignee = technicianOr400(call, fields.text('AssignedUser')) ?? autoAssignee(call, optional.GroupId ?? null);
    const now = call.config.now().toISOString();
    const priorityId = optional.TicketPriorityId ?? null;
    const ticket = blankTicket(call.store.takeTicketId(), {
      title: title as string,
      description: description as string,
      creatorId: creator.id,
      createdOn: now,
      ticketType: ticketType as number,
      siteId: siteId as number,
      departmentId: departmentId as number,
      ticketStatusId: ticketStatusId as number,
      ticketPriorityId: priorityId,
      ticketCategoryId: optional.TicketCategoryId ?? null,
      ticketSubCategoryId: optional.TicketSubCategoryId ?? null,
      itemId: optional.ItemId ?? null,
      tierLevelId: optional.TierLevelId ?? null,
      groupId: optional.GroupId ?? null,
      clientId: optional.ClientId ?? null,
      serviceId: numbers.ServiceId ?? null,
      impactId: numbers.ImpactId ?? null,
      urgencyId: numbers.UrgencyId ?? null,
      // The SLA comes from the priority and wins over a DueDate given by the caller.
      slaId: numbers.SLAId ?? priorityId,
      dueDate: slaDueDate(call, priorityId) ?? dueDate ?? null,
      assignedUser: assignee?.id ?? null,
      source: 'Manual',
      guid: fields.text('Guid') ?? randomGuid(),
      cc: fields.text('Cc') ?? null,
      tags,
    });
    call.store.addTicket(ticket);
    attachUploads(call, ticket, form);
    if (assignee) notifyAssignment(call, ticket, assignee);
    created(call, ticket, ticketEntity(ticket));
  });
}

const UPDATE_INT_FIELDS = [
  ['TicketCategoryId', 'ticketCategoryId'],
  ['TicketSubCategoryId', 'ticketSubCategoryId'],
  ['ItemId', 'itemId'],
  ['TierLevelId', 'tierLevelId'],
  ['ClientId', 'clientId'],
  ['SiteId', 'siteId'],
  ['DepartmentId', 'departmentId'],
  ['GroupId', 'groupId'],
  ['ServiceId', 'serviceId'],
  ['ImpactId', 'impactId'],
  ['UrgencyId', 'urgencyId'],
  ['TicketPriorityId', 'ticketPriorityId'],
] as const;

export async function update(call: Call): Promise<void> {
  await withForm(call, (fields) => {
    requireIdMatch(fields, 'Id', fields.int('Id'), call.id);
    const creatorId = fields.text('CreatorId', { required: true });
    const values = new Map(UPDATE_INT_FIELDS.map(([name]) => [name, fields.int(name)]));
    const dueDate = fields.date('DueDate');
    const statusId = fields.int('TicketStatusId');
    const ticketType = fields.int('TicketType');
    fields.check();
    const ticket = ticketOr400(call);
    const creator = call.store.user(creatorId);
    if (!creator) throw messageFailure(400, `CreatorId ${creatorId} does not match any user.`);
    checkLookups(call, { ...Object.fromEntries(values), TicketStatusId: statusId !== undefined && statusId > 0 ? statusId : undefined });
    const assigneeId = fields.text('AssignedUser');
    const newAssignee = technicianOr400(call, assigneeId);
    // 'overwrite' models a server that binds the whole model: what is not sent becomes null.
    const sent = (name: string): boolean => call.config.updateMode === 'overwrite' || fields.has(name);
    const previousPriority = ticket.ticketPriorityId;
    const previousAssignee = ticket.assignedUser;
    ticket.creatorId = creator.id;
    for (const [name, property] of UPDATE_INT_FIELDS) if (sent(name)) ticket[property] = values.get(name) ?? null;
    if (sent('DueDate')) ticket.dueDate = dueDate ?? null;
    if (sent('AssignedUser')) ticket.assignedUser = newAssignee?.id ?? null;
    if (ticketType !== undefined && ticketType > 0) ticket.ticketType = ticketType;
    if (statusId !== undefined && statusId > 0 && statusId !== ticket.ticketStatusId) ticket.ticketStatusId = statusId;
    if (ticket.ticketPriorityId !== previousPriority) {
      ticket.dueDate = slaDueDate(call, ticket.ticketPriorityId) ?? ticket.dueDate;
      ticket.slaId = ticket.ticketPriorityId;
    }
    if (newAssignee && newAssignee.id !== previousAssignee) notifyAssignment(call, ticket, newAssignee);
    ticket.updatedOn = call.config.now().toISOString();
    call.store.changed();
    sendEmpty(call.res, 204);
  });
}

export function sendMessage(type: 'Forward' | 'Reply'): (call: Call) => Promise<void> {
  return (call) =>
    withForm(call, (fields, form) => {
      requireIdMatch(fields, 'Id', fields.int('Id', { required: true }), call.id);
      const subject = fields.text('Title', { required: true }) as string;
      const sendTo = fields.text('SendTo', { required: true });
      if (sendTo !== undefined && !sendTo.includes('@')) fields.fail('SendTo', 'The SendTo field is not a valid e-mail address.');
      const draft = type === 'Forward' ? (fields.bool('HasDraft') ?? false) : false;
      fields.check();
      // There once check() passed: it throws for a missing required field.
      const to = sendTo as string;
      const ticket = ticketOr400(call);
      const now = call.config.now().toISOString();
      const cc = fields.text('CcTo') ?? null;
      const message = fields.text('Message') ?? null;
      const conversation = call.store.addConversation({ ticketId: ticket.id, type, from: call.caller.email, to, cc, subject, message, draft, createdOn: now });
      const attachments = attachUploads(call, ticket, form);
      // A draft is logged on the ticket but not sent.
      if (!draft) {
        call.store.notify({
          kind: 'email',
          event: type === 'Forward' ? 'forward' : 'reply',
          ticketId: ticket.id,
          to: recipients(to),
          cc: recipients(cc),
          subject,
          body: message ?? '',
          createdOn: now,
        });
      }
      ticket.updatedOn = now;
      sendJson(call.res, 200, { success: true, conversationId: conversation.id, attachments, skipped: form.skipped });
    });
}

export async function close(call: Call): Promise<void> {
  await withForm(call, (fields, form) => {
    requireIdMatch(fields, 'TicketId', fields.int('TicketId', { required: true }), call.id);
    const closeBy = fields.text('CloseBy', { required: true });
    const acknowledged = fields.bool('Acknowledged') ?? false;
    const closingDate = fields.date('ClosingDate');
    // ClosureStatus codes are not shown in the spec: only checked to be a number.
    fields.int('Status');
    fields.check();
    const ticket = ticketOr404(call);
    if (ticket.ticketStatusId === CLOSED_STATUS_ID) {
      sendJson(call.res, 200, { message: `Ticket ${ticket.id} is already closed.` });
      return;
    }
    const closer = call.store.user(closeBy);
    if (!closer) throw messageFailure(400, `CloseBy ${closeBy} does not match any user; the ticket was not saved.`);
    const now = closingDate ?? call.config.now().toISOString();
    ticket.ticketStatusId = CLOSED_STATUS_ID;
    ticket.updatedOn = call.config.now().toISOString();
    const message = [fields.text('Comments'), fields.text('ClosureComments')].filter((s) => s !== undefined).join('\n\n');
    call.store.addConversation({
      ticketId: ticket.id,
      type: 'Close',
      from: closer.email,
      to: null,
      cc: null,
      subject: `Closed: ${ticket.title}`,
      message,
      draft: false,
      createdOn: now,
    });
    attachUploads(call, ticket, form);
    if (acknowledged)
      emailRequester(call, ticket, 'closure', { subject: `Ticket #${ticket.id} closed: ${ticket.title}`, body: message, createdOn: ticket.updatedOn });
    sendEmpty(call.res, 204);
  });
}

/** The e-mail the service sends the ticket's requester (copying its Cc) about a closure or a resolution. */
function emailRequester(call: Call, ticket: SandboxTicket, event: 'closure' | 'resolution', mail: { subject: string; body: string; createdOn: string }): void {
  const requester = call.store.user(ticket.creatorId);
  if (requester) call.store.notify({ kind: 'email', event, ticketId: ticket.id, to: [requester.email], cc: recipients(ticket.cc), ...mail });
}

export async function resolve(call: Call): Promise<void> {
  await withForm(call, (fields) => {
    requireIdMatch(fields, 'TicketId', fields.int('TicketId', { required: true }), call.id);
    const details = fields.text('Details', { required: true }) as string;
    const submitBy = fields.text('SubmitBy', { required: true }) as string;
    const submitDate = fields.date('SubmitDate');
    fields.check();
    const ticket = ticketOr400(call);
    if (ticket.ticketStatusId === RESOLVED_STATUS_ID) {
      sendJson(call.res, 200, `Ticket ${ticket.id} is already resolved.`);
      return;
    }
    const resolver = call.store.user(submitBy);
    if (!resolver) throw messageFailure(400, `SubmitBy ${submitBy} does not match any user; the ticket was not saved.`);
    const now = call.config.now().toISOString();
    ticket.resolution = { details, submitBy: resolver.id, submitDate: ticket.resolution ? (submitDate ?? ticket.resolution.submitDate) : (submitDate ?? now) };
    ticket.ticketStatusId = RESOLVED_STATUS_ID;
    ticket.updatedOn = now;
    emailRequester(call, ticket, 'resolution', {
      subject: `Ticket #${ticket.id} resolved: ${ticket.title}`,
      body: `${details}\n\nClose the ticket: ${call.baseUrl}/tickets/${ticket.id}/close`,
      createdOn: now,
    });
    call.store.changed();
    sendJson(call.res, 200, `Ticket ${ticket.id} resolved.`);
  });
}

export function pickup(call: Call): void {
  call.req.resume();
  const ticket = ticketOr404(call);
  if (ticket.assignedUser === call.caller.id) {
    sendJson(call.res, 200, { message: `Ticket ${ticket.id} is already assigned to you.`, changed: false });
    return;
  }
  ticket.assignedUser = call.caller.id;
  ticket.updatedOn = call.config.now().toISOString();
  call.store.changed();
  sendJson(call.res, 200, { message: `Ticket ${ticket.id} picked up.`, changed: true });
}

export function markRead(call: Call): void {
  call.req.resume();
  const ticket = ticketOr404(call);
  if (!ticket.isRead) {
    ticket.isRead = true;
    call.store.changed();
  }
  sendJson(call.res, 200, { id: ticket.id, isRead: true });
}

export async function addFiles(call: Call): Promise<void> {
  await withForm(call, (_fields, form) => {
    if (form.uploads.length === 0 && form.skipped.length === 0) throw problem(400, { Uploads: ['The Uploads field is required.'] });
    const ticket = ticketOr404(call);
    const saved = attachUploads(call, ticket, form);
    sendJson(call.res, 200, { saved, skipped: form.skipped });
  });
}

export function deleteTicket(call: Call): void {
  const ticket = ticketOr404(call);
  const now = call.config.now().toISOString();
  ticket.isDeleted = true;
  ticket.deletedOn = now;
  ticket.updatedOn = now;
  call.store.changed();
  sendJson(call.res, 200, ticketEntity(ticket));
}

export async function newTicket(call: Call): Promise<void> {
  await withForm(call, (fields, form) => {
    const title = fields.text('Title', { required: true, maxLength: TITLE_MAX }) as string;
    const description = fields.text('Description', { required: true }) as string;
    const username = fields.text('Requester', { required: true }) as string;
    const email = fields.text('Email');
    const given = {
      TierLevelId: fields.int('TierLevelId'),
      GroupId: fields.int('GroupId'),
      SiteId: fields.int('SiteId'),
      DepartmentId: fields.int('DepartmentId'),
      ClientId: fields.int('ClientId'),
      TicketStatusId: fields.int('TicketStatusId'),
      TicketPriorityId: fields.int('TicketPriorityId'),
      TicketCategoryId: fields.int('TicketCategoryId'),
    };
    fields.check();
    const requester = call.store.userByUsername(username) ?? (email === undefined ? undefined : call.store.userByEmail(email));
    if (!requester) throw messageFailure(400, `Requester "${username}" was not found${email ? ` (nor a user with e-mail ${email})` : ''}.`);
    checkLookups(call, given);
    const priorityId = given.TicketPriorityId ?? SYSTEM_DEFAULTS.ticketPriorityId;
    const groupId = given.GroupId ?? null;
    const assignee = autoAssignee(call, groupId);
    const ticket = blankTicket(call.store.takeTicketId(), {
      title,
      description,
      creatorId: requester.id,
      createdOn: call.config.now().toISOString(),
      source: 'Api',
      tierLevelId: given.TierLevelId ?? SYSTEM_DEFAULTS.tierLevelId,
      siteId: given.SiteId ?? SYSTEM_DEFAULTS.siteId,
      ticketStatusId: given.TicketStatusId ?? SYSTEM_DEFAULTS.ticketStatusId,
      ticketPriorityId: priorityId,
      ticketCategoryId: given.TicketCategoryId ?? SYSTEM_DEFAULTS.ticketCategoryId,
      departmentId: given.DepartmentId ?? null,
      clientId: given.ClientId ?? null,
      groupId,
      assignedUser: assignee?.id ?? null,
      slaId: priorityId,
      dueDate: slaDueDate(call, priorityId),
    });
    call.store.addTicket(ticket);
    attachUploads(call, ticket, form);
    if (assignee) notifyAssignment(call, ticket, assignee);
    created(call, ticket, ticketApiModel(call.store, ticket));
  });
}

export async function requesterReply(call: Call): Promise<void> {
  await withForm(call, (fields, form) => {
    requireIdMatch(fields, 'Id', fields.int('Id', { required: true }), call.id);
    const username = fields.text('Username', { required: true }) as string;
    const subject = fields.text('Title', { required: true }) as string;
    fields.check();
    const requester = call.store.userByUsername(username);
    if (!requester) throw messageFailure(400, `User "${username}" was not found.`);
    const ticket = ticketOr400(call);
    const now = call.config.now().toISOString();
    const message = fields.text('Message') ?? null;
    call.store.addConversation({
      ticketId: ticket.id,
      type: 'RequesterReply',
      from: requester.email,
      to: null,
      cc: null,
      subject,
      message,
      draft: false,
      createdOn: now,
    });
    attachUploads(call, ticket, form);
    const reopened = call.store.isCompleted(ticket) && !ticket.locked;
    if (reopened) ticket.ticketStatusId = REOPEN_STATUS_ID;
    ticket.updatedOn = now;
    ticket.isRead = false;
    const technician = call.store.user(ticket.assignedUser);
    if (technician) {
      call.store.notify({
        kind: 'email',
        event: 'requester-reply',
        ticketId: ticket.id,
        to: [technician.email],
        cc: [],
        subject: `${fullName(requester)} replied: ${subject}`,
        body: message ?? '',
        createdOn: now,
      });
    }
    sendJson(call.res, 200, { success: true, reopened });
  });
}
