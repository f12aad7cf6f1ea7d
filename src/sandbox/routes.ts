// The service's endpoints (spec 4.0-4.17) over the store. Each handler either
// answers or throws an HttpFailure; the order of checks follows ASP.NET:
// token (401), permission (403), model validation (400), then the action.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenClaims } from './jwt.js';
import { signToken, verifyToken } from './jwt.js';
import type { PermissionName, SandboxTicket, SandboxUser } from './model.js';
import { Permission } from './model.js';
import type { Form } from './http.js';
import {
  HttpFailure, discardUploads, emptyFailure, htmlFailure, messageFailure, notFound, problem, readForm, readJson, sendEmpty, sendJson,
} from './http.js';
import { FormFields, fieldsFromJson } from './form.js';
import { CLOSED_STATUS_ID, REOPEN_STATUS_ID, RESOLVED_STATUS_ID, SYSTEM_DEFAULTS, blankTicket, randomGuid } from './demo.js';
import { LIST_TYPES, SEARCH_FIELDS, listTickets, parseListType, parseSearchField } from './listing.js';
import type { SearchField } from './listing.js';
import type { SandboxStore } from './store.js';
import { appMetadata, fullName, ticketApiModel, ticketEntity, ticketListItem, ticketMetadata } from './views.js';

export interface SandboxConfig {
  updateMode: 'patch' | 'overwrite';
  allowedExtensions: ReadonlySet<string>;
  autoAssign: boolean;
  lockoutThreshold: number;
  lockoutMs: number;
  now: () => Date;
  uploadDir: string;
}

const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;
const TITLE_MAX = 255;
const LIST_BY_USERNAME_PAGE_SIZE = 25;

interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  store: SandboxStore;
  config: SandboxConfig;
  /** The path id, already checked to be an integer where the route has one. */
  id: number | undefined;
  baseUrl: string;
  /** Set on every route but authenticate. */
  caller: SandboxUser;
  claims: TokenClaims;
}

interface Route {
  method: string;
  /** Matched case-insensitively, as ASP.NET routes are; group 1 is the id. */
  pattern: RegExp;
  /** Stats key, e.g. "POST /api/TicketsApi/close/{id}". */
  key: string;
  anonymous?: boolean;
  /** 403 when the token lacks it (register checks its own, answering 400). */
  permission?: PermissionName;
  handle(call: Call): Promise<void> | void;
}

export function issueToken(store: SandboxStore, user: SandboxUser, now: Date, expiresInSeconds = TOKEN_LIFETIME_SECONDS): string {
  const iat = Math.floor(now.getTime() / 1000);
  return signToken({ sub: user.id, unique_name: user.username, email: user.email, permissions: [...user.permissions], iat, exp: iat + expiresInSeconds }, store.state.secret);
}

// ---- helpers shared by the handlers ----

function ticketOr400(call: Call): SandboxTicket {
  const ticket = call.store.liveTicket(call.id as number);
  if (!ticket) throw messageFailure(400, `Ticket ${call.id} was not found.`);
  return ticket;
}

function ticketOr404(call: Call): SandboxTicket {
  const ticket = call.store.liveTicket(call.id as number);
  if (!ticket) throw notFound(`Ticket ${call.id} was not found.`);
  return ticket;
}

/** Parses the form, runs `action`, and deletes the uploaded files if the action refuses the request. */
async function withForm(call: Call, action: (fields: FormFields, form: Form) => Promise<void> | void): Promise<void> {
  const form = await readForm(call.req, call.config.uploadDir, call.config.allowedExtensions);
  try {
    await action(new FormFields(form), form);
  } catch (error) {
    await discardUploads(form);
    throw error;
  }
}

function attachUploads(call: Call, ticket: SandboxTicket, form: Form): { id: number; fileName: string; size: number }[] {
  const createdOn = call.config.now().toISOString();
  return form.uploads.map((upload) => {
    const attachment = call.store.addAttachment({ ticketId: ticket.id, ...upload, createdOn });
    return { id: attachment.id, fileName: attachment.fileName, size: attachment.size };
  });
}

function requireIdMatch(fields: FormFields, name: string, value: number | undefined, pathId: number | undefined): void {
  if (value !== undefined && value !== pathId) fields.fail(name, `${name} ${value} does not match the ticket id ${pathId} in the path.`);
}

function recipients(list: string | null | undefined): string[] {
  return (list ?? '').split(/[;,]/).map((s) => s.trim()).filter((s) => s !== '');
}

function slaDueDate(call: Call, priorityId: number | null): string | null {
  const priority = call.store.state.lookups.priorities.find((p) => p.id === priorityId);
  return priority ? new Date(call.config.now().getTime() + priority.slaHours * 3_600_000).toISOString() : null;
}

/** Lookup ids must exist: the first unknown one is a 400 business error. */
function checkLookups(call: Call, values: Record<string, number | null | undefined>): void {
  const { lookups } = call.store.state;
  const collections: Record<string, readonly { id: number }[]> = {
    SiteId: lookups.sites, DepartmentId: lookups.departments, TicketStatusId: lookups.status, TicketPriorityId: lookups.priorities,
    TicketCategoryId: lookups.categories, TicketSubCategoryId: lookups.subCategories, ItemId: lookups.items, GroupId: lookups.groups,
    TierLevelId: lookups.levels, ClientId: lookups.clients,
  };
  for (const [name, id] of Object.entries(values)) {
    const collection = collections[name];
    if (id !== undefined && id !== null && collection && !collection.some((item) => item.id === id)) {
      throw messageFailure(400, `Invalid ${name}: ${id} does not exist.`);
    }
  }
}

function technicianOr400(call: Call, id: string | undefined): SandboxUser | undefined {
  if (id === undefined) return undefined;
  const technician = call.store.user(id);
  if (!technician || !call.store.technicians().includes(technician)) throw messageFailure(400, `AssignedUser ${id} is not a technician.`);
  return technician;
}

function autoAssignee(call: Call, groupId: number | null): SandboxUser | undefined {
  if (!call.config.autoAssign || groupId === null) return undefined;
  const members = call.store.technicians().filter((t) => t.groupIds.includes(groupId));
  if (members.length === 0) return undefined;
  const cursor = call.store.state.autoAssignCursor[groupId] ?? 0;
  call.store.state.autoAssignCursor[groupId] = cursor + 1;
  return members[cursor % members.length];
}

function notifyAssignment(call: Call, ticket: SandboxTicket, technician: SandboxUser): void {
  const createdOn = call.config.now().toISOString();
  const subject = `Ticket #${ticket.id} assigned to you: ${ticket.title}`;
  call.store.notify({ kind: 'email', event: 'assignment', ticketId: ticket.id, to: [technician.email], cc: [], subject, body: ticket.description, createdOn });
  call.store.notify({ kind: 'push', event: 'assignment', ticketId: ticket.id, to: [technician.id], cc: [], subject, body: '', createdOn });
}

function created(call: Call, ticket: SandboxTicket, body: unknown): void {
  sendJson(call.res, 201, body, { location: `${call.baseUrl}/api/TicketsApi/${ticket.id}` });
}

// ---- the endpoints ----

async function authenticate(call: Call): Promise<void> {
  const credentials = fieldsFromJson(await readJson(call.req));
  const read = (name: string): string => credentials.text(name) ?? '';
  const wrongCredentials = messageFailure(401, 'Username or password is incorrect.');
  const domain = read('Domain');
  // Only local accounts exist here: any directory domain is unknown.
  if (domain !== '') throw messageFailure(401, `Unknown domain "${domain}".`);
  const login = read('Email');
  const user = call.store.userByUsername(login) ?? call.store.userByEmail(login);
  if (!user || user.password === null) throw wrongCredentials;
  const now = call.config.now();
  if (user.lockedUntil !== null) {
    if (user.lockedUntil > now.toISOString()) throw lockedOut(user.lockedUntil);
    user.lockedUntil = null;
    user.failedLogins = 0;
  }
  if (read('Password') !== user.password) {
    user.failedLogins++;
    if (user.failedLogins >= call.config.lockoutThreshold) {
      user.failedLogins = 0;
      user.lockedUntil = new Date(now.getTime() + call.config.lockoutMs).toISOString();
      call.store.changed();
      throw lockedOut(user.lockedUntil);
    }
    call.store.changed();
    throw wrongCredentials;
  }
  user.failedLogins = 0;
  call.store.changed();
  sendJson(call.res, 200, {
    Id: user.id,
    Username: user.username,
    FirstName: user.firstName,
    LastName: user.lastName,
    Email: user.email,
    Avatar: `${call.baseUrl}/avatars/${user.username}.png`,
    UserSettings: { Theme: 'light', Language: 'en-GB', TimeZone: 'UTC' },
    Token: issueToken(call.store, user, now),
  });
}

function lockedOut(until: string): HttpFailure {
  return messageFailure(401, `The account is locked out after too many failed sign-in attempts. Try again after ${until}.`);
}

async function list(call: Call): Promise<void> {
  const table = fieldsFromJson(await readJson(call.req));
  const page = table.int('page') ?? 1;
  const length = table.int('length') ?? 10;
  const listTypeText = table.text('listType');
  const listType = listTypeText === undefined ? 'AllTickets' : parseListType(listTypeText);
  if (listType === undefined) table.fail('listType', `Unknown list type "${listTypeText}". Valid: ${LIST_TYPES.join(', ')}.`);
  const searchIn: SearchField[] = [];
  for (const name of recipients(table.text('filterBy'))) {
    const field = parseSearchField(name);
    if (field) searchIn.push(field);
    else table.fail('filterBy', `Unknown filter "${name}". Valid: ${SEARCH_FIELDS.join(', ')}.`);
  }
  table.check();
  const now = call.config.now();
  const result = listTickets(call.store, call.caller, call.claims.permissions, {
    listType: listType ?? 'AllTickets', search: table.text('search'), searchIn, page: Math.max(page, 1), length: length > 0 ? length : 10,
  }, now);
  sendJson(call.res, 200, result.page.map((t) => ticketListItem(call.store, t, now)), { 'x-total-count': String(result.total) });
}

function getTicket(call: Call): void {
  sendJson(call.res, 200, ticketApiModel(call.store, ticketOr404(call)));
}

async function register(call: Call): Promise<void> {
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
      TicketCategoryId: fields.int('TicketCategoryId'), TicketSubCategoryId: fields.int('TicketSubCategoryId'), ItemId: fields.int('ItemId'),
      TierLevelId: fields.int('TierLevelId'), GroupId: fields.int('GroupId'), ClientId: fields.int('ClientId'), TicketPriorityId: fields.int('TicketPriorityId'),
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
      title: title as string, description: description as string, creatorId: creator.id, createdOn: now, ticketType: ticketType as number,
      siteId: siteId as number, departmentId: departmentId as number, ticketStatusId: ticketStatusId as number, ticketPriorityId: priorityId,
      ticketCategoryId: optional.TicketCategoryId ?? null, ticketSubCategoryId: optional.TicketSubCategoryId ?? null, itemId: optional.ItemId ?? null,
      tierLevelId: optional.TierLevelId ?? null, groupId: optional.GroupId ?? null, clientId: optional.ClientId ?? null,
      serviceId: numbers.ServiceId ?? null, impactId: numbers.ImpactId ?? null, urgencyId: numbers.UrgencyId ?? null,
      // The SLA comes from the priority and wins over a DueDate given by the caller.
      slaId: numbers.SLAId ?? priorityId, dueDate: slaDueDate(call, priorityId) ?? dueDate ?? null,
      assignedUser: assignee?.id ?? null, source: 'Manual', guid: fields.text('Guid') ?? randomGuid(), cc: fields.text('Cc') ?? null, tags,
    });
    call.store.addTicket(ticket);
    attachUploads(call, ticket, form);
    if (assignee) notifyAssignment(call, ticket, assignee);
    created(call, ticket, ticketEntity(ticket));
  });
}

const UPDATE_INT_FIELDS = [
  ['TicketCategoryId', 'ticketCategoryId'], ['TicketSubCategoryId', 'ticketSubCategoryId'], ['ItemId', 'itemId'], ['TierLevelId', 'tierLevelId'],
  ['ClientId', 'clientId'], ['SiteId', 'siteId'], ['DepartmentId', 'departmentId'], ['GroupId', 'groupId'], ['ServiceId', 'serviceId'],
  ['ImpactId', 'impactId'], ['UrgencyId', 'urgencyId'], ['TicketPriorityId', 'ticketPriorityId'],
] as const;

async function update(call: Call): Promise<void> {
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

function sendMessage(type: 'Forward' | 'Reply'): (call: Call) => Promise<void> {
  return (call) => withForm(call, (fields, form) => {
    requireIdMatch(fields, 'Id', fields.int('Id', { required: true }), call.id);
    const subject = fields.text('Title', { required: true }) as string;
    const sendTo = fields.text('SendTo', { required: true }) as string;
    if (sendTo !== undefined && !sendTo.includes('@')) fields.fail('SendTo', 'The SendTo field is not a valid e-mail address.');
    const draft = type === 'Forward' ? fields.bool('HasDraft') ?? false : false;
    fields.check();
    const ticket = ticketOr400(call);
    const now = call.config.now().toISOString();
    const cc = fields.text('CcTo') ?? null;
    const message = fields.text('Message') ?? null;
    const conversation = call.store.addConversation({ ticketId: ticket.id, type, from: call.caller.email, to: sendTo, cc, subject, message, draft, createdOn: now });
    const attachments = attachUploads(call, ticket, form);
    // A draft is logged on the ticket but not sent.
    if (!draft) {
      call.store.notify({ kind: 'email', event: type === 'Forward' ? 'forward' : 'reply', ticketId: ticket.id, to: recipients(sendTo), cc: recipients(cc), subject, body: message ?? '', createdOn: now });
    }
    ticket.updatedOn = now;
    sendJson(call.res, 200, { success: true, conversationId: conversation.id, attachments, skipped: form.skipped });
  });
}

async function close(call: Call): Promise<void> {
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
    call.store.addConversation({ ticketId: ticket.id, type: 'Close', from: closer.email, to: null, cc: null, subject: `Closed: ${ticket.title}`, message, draft: false, createdOn: now });
    attachUploads(call, ticket, form);
    const requester = call.store.user(ticket.creatorId);
    if (acknowledged && requester) {
      call.store.notify({ kind: 'email', event: 'closure', ticketId: ticket.id, to: [requester.email], cc: recipients(ticket.cc), subject: `Ticket #${ticket.id} closed: ${ticket.title}`, body: message, createdOn: ticket.updatedOn });
    }
    sendEmpty(call.res, 204);
  });
}

async function resolve(call: Call): Promise<void> {
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
    ticket.resolution = { details, submitBy: resolver.id, submitDate: ticket.resolution ? submitDate ?? ticket.resolution.submitDate : submitDate ?? now };
    ticket.ticketStatusId = RESOLVED_STATUS_ID;
    ticket.updatedOn = now;
    const requester = call.store.user(ticket.creatorId);
    if (requester) {
      call.store.notify({
        kind: 'email', event: 'resolution', ticketId: ticket.id, to: [requester.email], cc: recipients(ticket.cc), subject: `Ticket #${ticket.id} resolved: ${ticket.title}`,
        body: `${details}\n\nClose the ticket: ${call.baseUrl}/tickets/${ticket.id}/close`, createdOn: now,
      });
    }
    call.store.changed();
    sendJson(call.res, 200, `Ticket ${ticket.id} resolved.`);
  });
}

function pickup(call: Call): void {
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

function markRead(call: Call): void {
  call.req.resume();
  const ticket = ticketOr404(call);
  if (!ticket.isRead) {
    ticket.isRead = true;
    call.store.changed();
  }
  sendJson(call.res, 200, { id: ticket.id, isRead: true });
}

async function addFiles(call: Call): Promise<void> {
  await withForm(call, (_fields, form) => {
    if (form.uploads.length === 0 && form.skipped.length === 0) throw problem(400, { Uploads: ['The Uploads field is required.'] });
    const ticket = ticketOr404(call);
    const saved = attachUploads(call, ticket, form);
    sendJson(call.res, 200, { saved, skipped: form.skipped });
  });
}

function deleteTicket(call: Call): void {
  const ticket = ticketOr404(call);
  const now = call.config.now().toISOString();
  ticket.isDeleted = true;
  ticket.deletedOn = now;
  ticket.updatedOn = now;
  call.store.changed();
  sendJson(call.res, 200, ticketEntity(ticket));
}

function metadata(call: Call): void {
  if (call.id === undefined) {
    sendJson(call.res, 200, ticketMetadata(call.store, undefined));
    return;
  }
  const ticket = call.store.liveTicket(call.id);
  if (!ticket) throw messageFailure(400, `Error loading metadata: ticket ${call.id} was not found.`);
  sendJson(call.res, 200, ticketMetadata(call.store, ticket));
}

async function newTicket(call: Call): Promise<void> {
  await withForm(call, (fields, form) => {
    const title = fields.text('Title', { required: true, maxLength: TITLE_MAX }) as string;
    const description = fields.text('Description', { required: true }) as string;
    const username = fields.text('Requester', { required: true }) as string;
    const email = fields.text('Email');
    const given = {
      TierLevelId: fields.int('TierLevelId'), GroupId: fields.int('GroupId'), SiteId: fields.int('SiteId'), DepartmentId: fields.int('DepartmentId'),
      ClientId: fields.int('ClientId'), TicketStatusId: fields.int('TicketStatusId'), TicketPriorityId: fields.int('TicketPriorityId'), TicketCategoryId: fields.int('TicketCategoryId'),
    };
    fields.check();
    const requester = call.store.userByUsername(username) ?? (email === undefined ? undefined : call.store.userByEmail(email));
    if (!requester) throw messageFailure(400, `Requester "${username}" was not found${email ? ` (nor a user with e-mail ${email})` : ''}.`);
    checkLookups(call, given);
    const priorityId = given.TicketPriorityId ?? SYSTEM_DEFAULTS.ticketPriorityId;
    const groupId = given.GroupId ?? null;
    const assignee = autoAssignee(call, groupId);
    const ticket = blankTicket(call.store.takeTicketId(), {
      title, description, creatorId: requester.id, createdOn: call.config.now().toISOString(), source: 'Api',
      tierLevelId: given.TierLevelId ?? SYSTEM_DEFAULTS.tierLevelId, siteId: given.SiteId ?? SYSTEM_DEFAULTS.siteId,
      ticketStatusId: given.TicketStatusId ?? SYSTEM_DEFAULTS.ticketStatusId, ticketPriorityId: priorityId,
      ticketCategoryId: given.TicketCategoryId ?? SYSTEM_DEFAULTS.ticketCategoryId, departmentId: given.DepartmentId ?? null,
      clientId: given.ClientId ?? null, groupId, assignedUser: assignee?.id ?? null, slaId: priorityId, dueDate: slaDueDate(call, priorityId),
    });
    call.store.addTicket(ticket);
    attachUploads(call, ticket, form);
    if (assignee) notifyAssignment(call, ticket, assignee);
    created(call, ticket, ticketApiModel(call.store, ticket));
  });
}

async function listByUsername(call: Call): Promise<void> {
  await withForm(call, (fields) => {
    const username = fields.text('username', { required: true }) as string;
    const page = Math.max(fields.int('page') ?? 1, 1);
    fields.check();
    const requester = call.store.userByUsername(username);
    const first = (page - 1) * LIST_BY_USERNAME_PAGE_SIZE;
    const own = requester ? call.store.newestFirst.filter((t) => !t.isDeleted && t.creatorId === requester.id) : [];
    sendJson(call.res, 200, own.slice(first, first + LIST_BY_USERNAME_PAGE_SIZE).map((t) => ticketApiModel(call.store, t)));
  });
}

async function requesterReply(call: Call): Promise<void> {
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
    call.store.addConversation({ ticketId: ticket.id, type: 'RequesterReply', from: requester.email, to: null, cc: null, subject, message, draft: false, createdOn: now });
    attachUploads(call, ticket, form);
    const reopened = call.store.isCompleted(ticket) && !ticket.locked;
    if (reopened) ticket.ticketStatusId = REOPEN_STATUS_ID;
    ticket.updatedOn = now;
    ticket.isRead = false;
    const technician = call.store.user(ticket.assignedUser);
    if (technician) {
      call.store.notify({ kind: 'email', event: 'requester-reply', ticketId: ticket.id, to: [technician.email], cc: [], subject: `${fullName(requester)} replied: ${subject}`, body: message ?? '', createdOn: now });
    }
    sendJson(call.res, 200, { success: true, reopened });
  });
}

/** A route's stats key, e.g. "POST /api/TicketsApi/close/{id}", is also what it matches. */
type RouteSpec = Omit<Route, 'method' | 'pattern' | 'key'>;

const ID = '(-?\\d+|[^/]+)';

/** "POST /api/TicketsApi/close/{id}" as a route: matched case-insensitively, as ASP.NET routes are. */
function route(key: string, spec: RouteSpec): Route {
  const [method, path] = key.split(' ') as [string, string];
  const source = path
    .split('{id}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join(ID);
  return { method, pattern: new RegExp(`^${source}$`, 'i'), key, ...spec };
}

const ROUTES: Route[] = [
  route('POST /api/Users/authenticate', { anonymous: true, handle: authenticate }),
  route('POST /api/TicketsApi', { handle: list }),
  route('GET /api/TicketsApi/appmetadata', { handle: (call) => sendJson(call.res, 200, appMetadata(call.store)) }),
  route('GET /api/TicketsApi/metadata', { handle: metadata }),
  route('GET /api/TicketsApi/metadata/{id}', { handle: metadata }),
  route('POST /api/TicketsApi/register', { handle: register }),
  route('POST /api/TicketsApi/new', { handle: newTicket }),
  route('POST /api/TicketsApi/list', { handle: listByUsername }),
  route('POST /api/TicketsApi/update/{id}', { permission: Permission.update, handle: update }),
  route('POST /api/TicketsApi/forward/{id}', { permission: Permission.forward, handle: sendMessage('Forward') }),
  route('POST /api/TicketsApi/reply/{id}', { permission: Permission.reply, handle: sendMessage('Reply') }),
  route('POST /api/TicketsApi/close/{id}', { permission: Permission.close, handle: close }),
  route('POST /api/TicketsApi/resolve/{id}', { permission: Permission.resolve, handle: resolve }),
  route('POST /api/TicketsApi/pickup/{id}', { permission: Permission.pickup, handle: pickup }),
  route('POST /api/TicketsApi/read/{id}', { handle: markRead }),
  route('POST /api/TicketsApi/addfiles/{id}', { handle: addFiles }),
  route('POST /api/TicketsApi/reqreply/{id}', { handle: requesterReply }),
  route('GET /api/TicketsApi/{id}', { handle: getTicket }),
  route('DELETE /api/TicketsApi/{id}', { permission: Permission.delete, handle: deleteTicket }),
];

export interface Match { route: Route; id: string | undefined }

/** The route for a request, or the stats key of an unmatched one. */
export function matchRoute(method: string, path: string): Match | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const found = route.pattern.exec(path);
    if (found) return { route, id: found[1] };
  }
  return undefined;
}

/** Runs a matched route: token, permission, injected fault, path id, handler. */
export async function runRoute(
  match: Match, req: IncomingMessage, res: ServerResponse, store: SandboxStore, config: SandboxConfig, baseUrl: string, takeFault: () => number | undefined,
): Promise<void> {
  const { route } = match;
  let caller: SandboxUser | undefined;
  let claims: TokenClaims | undefined;
  if (!route.anonymous) {
    const header = req.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    claims = token === undefined ? undefined : verifyToken(token, store.state.secret, config.now());
    caller = store.user(claims?.sub);
    if (!claims || !caller) {
      throw emptyFailure(401, { 'www-authenticate': token === undefined ? 'Bearer' : 'Bearer error="invalid_token"' });
    }
    if (route.permission && !claims.permissions.includes(route.permission)) throw emptyFailure(403);
  }
  const fault = takeFault();
  if (fault !== undefined) {
    throw fault >= 500 ? htmlFailure(fault, 'An unexpected error occurred while saving the ticket.') : messageFailure(fault, 'The ticket could not be saved.');
  }
  let id: number | undefined;
  if (match.id !== undefined) {
    if (!/^-?\d+$/.test(match.id) || !Number.isSafeInteger(Number(match.id))) throw problem(400, { id: [`The value '${decodeURIComponent(match.id)}' is not valid.`] });
    id = Number(match.id);
  }
  await route.handle({ req, res, store, config, id, baseUrl, caller: caller as SandboxUser, claims: claims as TokenClaims });
}

