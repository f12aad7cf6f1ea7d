// What every route handler of the sandbox gets (a Call) and the checks and effects several of them
// share: the ticket of the path, the form, uploads, SLA due dates, lookups, auto-assignment.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TokenClaims } from './jwt.js';
import type { SandboxTicket, SandboxUser } from './model.js';
import type { Form } from './http.js';
import { discardUploads, messageFailure, notFound, readForm, sendJson } from './http.js';
import { FormFields } from './form.js';
import type { SandboxStore } from './store.js';
export interface SandboxConfig {
  updateMode: 'patch' | 'overwrite';
  allowedExtensions: ReadonlySet<string>;
  autoAssign: boolean;
  lockoutThreshold: number;
  lockoutMs: number;
  now: () => Date;
  uploadDir: string;
}

export interface Call {
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

export function ticketOr400(call: Call): SandboxTicket {
  const ticket = call.store.liveTicket(call.id as number);
  if (!ticket) throw messageFailure(400, `Ticket ${call.id} was not found.`);
  return ticket;
}

export function ticketOr404(call: Call): SandboxTicket {
  const ticket = call.store.liveTicket(call.id as number);
  if (!ticket) throw notFound(`Ticket ${call.id} was not found.`);
  return ticket;
}

/** Parses the form, runs `action`, and deletes the uploaded files if the action refuses the request. */
export async function withForm(call: Call, action: (fields: FormFields, form: Form) => Promise<void> | void): Promise<void> {
  const form = await readForm(call.req, call.config.uploadDir, call.config.allowedExtensions);
  try {
    await action(new FormFields(form), form);
  } catch (error) {
    await discardUploads(form);
    throw error;
  }
}

export function attachUploads(call: Call, ticket: SandboxTicket, form: Form): { id: number; fileName: string; size: number }[] {
  const createdOn = call.config.now().toISOString();
  return form.uploads.map((upload) => {
    const attachment = call.store.addAttachment({ ticketId: ticket.id, ...upload, createdOn });
    return { id: attachment.id, fileName: attachment.fileName, size: attachment.size };
  });
}

export function requireIdMatch(fields: FormFields, name: string, value: number | undefined, pathId: number | undefined): void {
  if (value !== undefined && value !== pathId) fields.fail(name, `${name} ${value} does not match the ticket id ${pathId} in the path.`);
}

export function recipients(list: string | null | undefined): string[] {
  return (list ?? '')
    .split(/[;,]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function slaDueDate(call: Call, priorityId: number | null): string | null {
  const priority = call.store.state.lookups.priorities.find((p) => p.id === priorityId);
  return priority ? new Date(call.config.now().getTime() + priority.slaHours * 3_600_000).toISOString() : null;
}

/** Lookup ids must exist: the first unknown one is a 400 business error. */
export function checkLookups(call: Call, values: Record<string, number | null | undefined>): void {
  const { lookups } = call.store.state;
  const collections: Record<string, readonly { id: number }[]> = {
    SiteId: lookups.sites,
    DepartmentId: lookups.departments,
    TicketStatusId: lookups.status,
    TicketPriorityId: lookups.priorities,
    TicketCategoryId: lookups.categories,
    TicketSubCategoryId: lookups.subCategories,
    ItemId: lookups.items,
    GroupId: lookups.groups,
    TierLevelId: lookups.levels,
    ClientId: lookups.clients,
  };
  for (const [name, id] of Object.entries(values)) {
    const collection = collections[name];
    if (id !== undefined && id !== null && collection && !collection.some((item) => item.id === id)) {
      throw messageFailure(400, `Invalid ${name}: ${id} does not exist.`);
    }
  }
}

export function technicianOr400(call: Call, id: string | undefined): SandboxUser | undefined {
  if (id === undefined) return undefined;
  const technician = call.store.user(id);
  if (!technician || !call.store.technicians().includes(technician)) throw messageFailure(400, `AssignedUser ${id} is not a technician.`);
  return technician;
}

export function autoAssignee(call: Call, groupId: number | null): SandboxUser | undefined {
  if (!call.config.autoAssign || groupId === null) return undefined;
  const members = call.store.technicians().filter((t) => t.groupIds.includes(groupId));
  if (members.length === 0) return undefined;
  const cursor = call.store.state.autoAssignCursor[groupId] ?? 0;
  call.store.state.autoAssignCursor[groupId] = cursor + 1;
  return members[cursor % members.length];
}

export function notifyAssignment(call: Call, ticket: SandboxTicket, technician: SandboxUser): void {
  const createdOn = call.config.now().toISOString();
  const subject = `Ticket #${ticket.id} assigned to you: ${ticket.title}`;
  call.store.notify({ kind: 'email', event: 'assignment', ticketId: ticket.id, to: [technician.email], cc: [], subject, body: ticket.description, createdOn });
  call.store.notify({ kind: 'push', event: 'assignment', ticketId: ticket.id, to: [technician.id], cc: [], subject, body: '', createdOn });
}

export function created(call: Call, ticket: SandboxTicket, body: unknown): void {
  sendJson(call.res, 201, body, { location: `${call.baseUrl}/api/TicketsApi/${ticket.id}` });
}

// ---- the endpoints ----
