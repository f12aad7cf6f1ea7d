// The sandbox's data model: what it stores, persists to --data and exposes as
// RunningSandbox.state. Field names follow the service's camelCase JSON.

export const Permission = {
  create: 'Tickets.Create',
  update: 'Tickets.Update',
  forward: 'Tickets.Forward',
  reply: 'Tickets.Reply',
  close: 'Tickets.Close',
  resolve: 'Tickets.Resolve',
  pickup: 'Tickets.Pickup',
  delete: 'Tickets.Delete',
  onlyPrivate: 'Tickets.OnlyPrivate',
} as const;
export type PermissionName = (typeof Permission)[keyof typeof Permission];

/**
 * statusType codes of the status lookup. The spec leaves their meaning unstated;
 * these are the sandbox's own, and every list type is defined in terms of them.
 */
export const StatusType = {
  open: 1,
  onHold: 2,
  pending: 3,
  escalated: 4,
  resolved: 5,
  closed: 6,
} as const;

export interface StatusLookup {
  id: number;
  status: string;
  statusType: number;
}
export interface PriorityLookup {
  id: number;
  priority: string;
  /** SLA: hours from now to the due date. */ slaHours: number;
}
export interface TitledLookup {
  id: number;
  title: string;
}
export interface NamedLookup {
  id: number;
  name: string;
}
export interface SubCategoryLookup extends NamedLookup {
  categoryId: number;
}
export interface ItemLookup extends NamedLookup {
  subCategoryId: number;
}
export interface GroupLookup {
  id: number;
  group: string;
}

export interface Lookups {
  sites: TitledLookup[];
  departments: TitledLookup[];
  status: StatusLookup[];
  priorities: PriorityLookup[];
  categories: NamedLookup[];
  subCategories: SubCategoryLookup[];
  items: ItemLookup[];
  groups: GroupLookup[];
  levels: TitledLookup[];
  clients: NamedLookup[];
}

export type UserRole = 'admin' | 'technician' | 'private' | 'viewer' | 'requester';

export interface SandboxUser {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  email: string;
  role: UserRole;
  /** Only the demo logins have one; other users cannot authenticate. */
  password: string | null;
  permissions: PermissionName[];
  groupIds: number[];
  failedLogins: number;
  /** ISO time until which authentication is refused. */
  lockedUntil: string | null;
}

export interface TicketTask {
  id: number;
  assignedTo: string;
  done: boolean;
  title: string;
}

export interface Resolution {
  details: string;
  submitBy: string;
  submitDate: string;
}

export interface SandboxTicket {
  id: number;
  title: string;
  description: string;
  ticketType: number;
  siteId: number | null;
  departmentId: number | null;
  ticketStatusId: number;
  ticketPriorityId: number | null;
  ticketCategoryId: number | null;
  ticketSubCategoryId: number | null;
  itemId: number | null;
  groupId: number | null;
  tierLevelId: number | null;
  clientId: number | null;
  serviceId: number | null;
  impactId: number | null;
  urgencyId: number | null;
  slaId: number | null;
  creatorId: string;
  assignedUser: string | null;
  dueDate: string | null;
  createdOn: string;
  updatedOn: string;
  source: 'Manual' | 'Api';
  guid: string;
  cc: string | null;
  tags: number[];
  isRead: boolean;
  isDeleted: boolean;
  deletedOn: string | null;
  /** A locked ticket is not re-opened by a requester reply. */
  locked: boolean;
  resolution: Resolution | null;
  tasks: TicketTask[];
}

export type ConversationType = 'Reply' | 'Forward' | 'Close' | 'RequesterReply';

export interface SandboxConversation {
  id: number;
  ticketId: number;
  type: ConversationType;
  from: string;
  to: string | null;
  cc: string | null;
  subject: string | null;
  message: string | null;
  draft: boolean;
  createdOn: string;
}

export interface SandboxAttachment {
  id: number;
  ticketId: number;
  fileName: string;
  size: number;
  sha256: string;
  /** Where the bytes are on disk. */
  path: string;
  createdOn: string;
}

/** A notification the real service would have sent (e-mail or push). */
export interface OutboxMessage {
  id: number;
  kind: 'email' | 'push';
  event: 'assignment' | 'forward' | 'reply' | 'closure' | 'resolution' | 'requester-reply';
  ticketId: number;
  to: string[];
  cc: string[];
  subject: string;
  body: string;
  createdOn: string;
}

export interface SandboxState {
  /** HS256 key; persisted so tokens survive a restart with --data. */
  secret: string;
  lookups: Lookups;
  users: SandboxUser[];
  /** Every ticket in id order, soft-deleted ones included. */
  tickets: SandboxTicket[];
  conversations: SandboxConversation[];
  attachments: SandboxAttachment[];
  outbox: OutboxMessage[];
  nextId: { ticket: number; conversation: number; attachment: number; outbox: number };
  /** Round-robin position per group for technician auto-assignment. */
  autoAssignCursor: Record<string, number>;
}
