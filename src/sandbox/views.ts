// The JSON shapes the sandbox answers with. Three different ticket shapes on
// purpose, as a real service has them: the flat entity (register, delete), the
// detailed TicketApiModel (get, new, list by username) and the TicketList item
// of the paginated list, whose names differ again (ticketId, subject...).
import type { SandboxTicket, SandboxUser } from './model.js';
import type { SandboxStore } from './store.js';

function person(user: SandboxUser | undefined): { id: string; userName: string; fullName: string; email: string } | null {
  return user ? { id: user.id, userName: user.username, fullName: fullName(user), email: user.email } : null;
}

export function fullName(user: SandboxUser): string {
  return `${user.firstName} ${user.lastName}`.trim();
}

/** The Ticket entity as register and delete return it. */
export function ticketEntity(ticket: SandboxTicket): Record<string, unknown> {
  return {
    id: ticket.id,
    title: ticket.title,
    description: ticket.description,
    ticketType: ticket.ticketType,
    siteId: ticket.siteId,
    departmentId: ticket.departmentId,
    ticketStatusId: ticket.ticketStatusId,
    ticketPriorityId: ticket.ticketPriorityId,
    ticketCategoryId: ticket.ticketCategoryId,
    ticketSubCategoryId: ticket.ticketSubCategoryId,
    itemId: ticket.itemId,
    groupId: ticket.groupId,
    tierLevelId: ticket.tierLevelId,
    clientId: ticket.clientId,
    creatorId: ticket.creatorId,
    assignedUser: ticket.assignedUser,
    dueDate: ticket.dueDate,
    createdOn: ticket.createdOn,
    updatedOn: ticket.updatedOn,
    source: ticket.source,
    guid: ticket.guid,
    cc: ticket.cc,
    isRead: ticket.isRead,
    isDeleted: ticket.isDeleted,
    deletedOn: ticket.deletedOn,
  };
}

export function ticketApiModel(store: SandboxStore, ticket: SandboxTicket): Record<string, unknown> {
  const { lookups } = store.state;
  const status = lookups.status.find((s) => s.id === ticket.ticketStatusId);
  const priority = lookups.priorities.find((p) => p.id === ticket.ticketPriorityId);
  const category = lookups.categories.find((c) => c.id === ticket.ticketCategoryId);
  const subCategory = lookups.subCategories.find((c) => c.id === ticket.ticketSubCategoryId);
  const site = lookups.sites.find((s) => s.id === ticket.siteId);
  const department = lookups.departments.find((d) => d.id === ticket.departmentId);
  const group = lookups.groups.find((g) => g.id === ticket.groupId);
  const resolver = store.user(ticket.resolution?.submitBy);
  return {
    ...ticketEntity(ticket),
    tags: ticket.tags,
    creator: person(store.user(ticket.creatorId)),
    assignee: person(store.user(ticket.assignedUser)),
    site: site ? { id: site.id, title: site.title } : null,
    department: department ? { id: department.id, title: department.title } : null,
    category: category ? { id: category.id, name: category.name } : null,
    subCategory: subCategory ? { id: subCategory.id, name: subCategory.name } : null,
    group: group ? { id: group.id, group: group.group } : null,
    status: status ? { id: status.id, status: status.status, statusType: status.statusType } : null,
    priority: priority ? { id: priority.id, priority: priority.priority } : null,
    resolution: ticket.resolution
      ? {
          details: ticket.resolution.details,
          submitBy: ticket.resolution.submitBy,
          submitByName: resolver ? fullName(resolver) : null,
          submitDate: ticket.resolution.submitDate,
        }
      : null,
    conversations: store.conversationsOf(ticket.id).map((c) => ({
      id: c.id,
      type: c.type,
      from: c.from,
      to: c.to,
      cc: c.cc,
      subject: c.subject,
      message: c.message,
      isDraft: c.draft,
      createdOn: c.createdOn,
    })),
    attachments: store.attachmentsOf(ticket.id).map((a) => ({ id: a.id, fileName: a.fileName, size: a.size, createdOn: a.createdOn })),
  };
}

export function ticketListItem(store: SandboxStore, ticket: SandboxTicket, now: Date): Record<string, unknown> {
  const { lookups } = store.state;
  const requester = store.user(ticket.creatorId);
  const assignee = store.user(ticket.assignedUser);
  return {
    ticketId: ticket.id,
    subject: ticket.title,
    status: lookups.status.find((s) => s.id === ticket.ticketStatusId)?.status ?? null,
    priority: lookups.priorities.find((p) => p.id === ticket.ticketPriorityId)?.priority ?? null,
    requester: requester ? fullName(requester) : null,
    assignee: assignee ? fullName(assignee) : null,
    group: lookups.groups.find((g) => g.id === ticket.groupId)?.group ?? null,
    dueDate: ticket.dueDate,
    createdOn: ticket.createdOn,
    isRead: ticket.isRead,
    isOverdue: isOverdue(store, ticket, now),
  };
}

function isOverdue(store: SandboxStore, ticket: SandboxTicket, now: Date): boolean {
  return ticket.dueDate !== null && ticket.dueDate < now.toISOString() && !store.isCompleted(ticket);
}

function personLookup(user: SandboxUser): { id: string; fullName: string; userName: string } {
  return { id: user.id, fullName: fullName(user), userName: user.username };
}

/** appmetadata (docs/service.md 4.14): the lookups every form needs. */
export function appMetadata(store: SandboxStore): Record<string, unknown> {
  const { lookups } = store.state;
  return {
    groups: lookups.groups,
    levels: lookups.levels,
    priorities: lookups.priorities.map((p) => ({ id: p.id, priority: p.priority })),
    categories: lookups.categories,
    status: lookups.status,
    clients: lookups.clients,
    sites: lookups.sites,
    departments: lookups.departments,
  };
}

/** metadata/{id?} (docs/service.md 4.13): scoped to the ticket when one is given. */
export function ticketMetadata(store: SandboxStore, ticket: SandboxTicket | undefined): Record<string, unknown> {
  const { lookups } = store.state;
  const names = (list: readonly { id: number; name: string }[]): { id: number; name: string }[] => list.map((x) => ({ id: x.id, name: x.name }));
  if (ticket === undefined) {
    return {
      ...appMetadata(store),
      sub_categories: names(lookups.subCategories),
      items: names(lookups.items),
      technicians: store.technicians().map(personLookup),
      requesters: store.state.users.map(personLookup),
    };
  }
  const technicians = ticket.groupId === null ? store.technicians() : store.technicians().filter((t) => t.groupIds.includes(ticket.groupId as number));
  return {
    ...appMetadata(store),
    sub_categories: names(lookups.subCategories.filter((s) => s.categoryId === ticket.ticketCategoryId)),
    items: names(lookups.items.filter((i) => i.subCategoryId === ticket.ticketSubCategoryId)),
    technicians: technicians.map(personLookup),
  };
}
