// The sandbox's fixed demo data: lookups, users (four documented logins plus
// requesters) and a few dozen tickets in every state. Times are relative to
// the clock, so "overdue" and "due today" stay true whenever it starts.
import { createHash, randomBytes } from 'node:crypto';
import type { Lookups, PermissionName, SandboxState, SandboxTicket, SandboxUser, UserRole } from './model.js';
import { Permission } from './model.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

function demoLookups(): Lookups {
  return {
    sites: [
      { id: 1, title: 'Head Office' },
      { id: 2, title: 'Harbour Depot' },
      { id: 3, title: 'Remote' },
    ],
    departments: [
      { id: 1, title: 'IT' },
      { id: 2, title: 'Finance' },
      { id: 3, title: 'Human Resources' },
      { id: 4, title: 'Operations' },
      { id: 5, title: 'Sales' },
    ],
    status: [
      { id: 1, status: 'Open', statusType: 1 },
      { id: 2, status: 'In Progress', statusType: 1 },
      { id: 3, status: 'On Hold', statusType: 2 },
      { id: 4, status: 'Pending', statusType: 3 },
      { id: 5, status: 'Escalated', statusType: 4 },
      { id: 6, status: 'Resolved', statusType: 5 },
      { id: 7, status: 'Closed', statusType: 6 },
    ],
    priorities: [
      { id: 1, priority: 'Low', slaHours: 7 * 24 },
      { id: 2, priority: 'Medium', slaHours: 3 * 24 },
      { id: 3, priority: 'High', slaHours: 24 },
      { id: 4, priority: 'Critical', slaHours: 4 },
    ],
    categories: [
      { id: 1, name: 'Hardware' },
      { id: 2, name: 'Software' },
      { id: 3, name: 'Network' },
      { id: 4, name: 'Access' },
    ],
    subCategories: [
      { id: 1, name: 'Laptop', categoryId: 1 },
      { id: 2, name: 'Printer', categoryId: 1 },
      { id: 3, name: 'Email', categoryId: 2 },
      { id: 4, name: 'ERP', categoryId: 2 },
      { id: 5, name: 'VPN', categoryId: 3 },
      { id: 6, name: 'Wi-Fi', categoryId: 3 },
      { id: 7, name: 'Password reset', categoryId: 4 },
      { id: 8, name: 'New account', categoryId: 4 },
    ],
    items: [
      { id: 1, name: 'ThinkPad T14', subCategoryId: 1 },
      { id: 2, name: 'MacBook Pro', subCategoryId: 1 },
      { id: 3, name: 'HP LaserJet', subCategoryId: 2 },
      { id: 4, name: 'Brother MFC', subCategoryId: 2 },
      { id: 5, name: 'Outlook', subCategoryId: 3 },
      { id: 6, name: 'Thunderbird', subCategoryId: 3 },
      { id: 7, name: 'SAP GUI', subCategoryId: 4 },
      { id: 8, name: 'FortiClient', subCategoryId: 5 },
      { id: 9, name: 'Office access point', subCategoryId: 6 },
    ],
    groups: [
      { id: 1, group: 'Service Desk' },
      { id: 2, group: 'Network Team' },
      { id: 3, group: 'Hardware Team' },
      { id: 4, group: 'Applications' },
    ],
    levels: [
      { id: 1, title: 'Tier 1' },
      { id: 2, title: 'Tier 2' },
      { id: 3, title: 'Tier 3' },
    ],
    clients: [
      { id: 1, name: 'Contoso' },
      { id: 2, name: 'Fabrikam' },
      { id: 3, name: 'Northwind Traders' },
    ],
  };
}

/** Defaults of the integration endpoint `new` when a field is omitted (docs/service.md 4.15). */
export const SYSTEM_DEFAULTS = { tierLevelId: 1, siteId: 1, ticketStatusId: 1, ticketPriorityId: 2, ticketCategoryId: 2 } as const;
export const CLOSED_STATUS_ID = 7;
export const RESOLVED_STATUS_ID = 6;
/** Where a requester reply re-opens a resolved or closed ticket. */
export const REOPEN_STATUS_ID = 1;

const ALL_PERMISSIONS: PermissionName[] = [
  Permission.create,
  Permission.update,
  Permission.forward,
  Permission.reply,
  Permission.close,
  Permission.resolve,
  Permission.pickup,
  Permission.delete,
];
const TECHNICIAN_PERMISSIONS: PermissionName[] = ALL_PERMISSIONS.filter((p) => p !== Permission.delete);

/** A stable GUID-shaped user id, so documentation and tests can name users. */
function userId(username: string): string {
  const hex = createHash('sha256').update(`tkt-sandbox:${username}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

function user(
  username: string,
  fullName: string,
  role: UserRole,
  options: { password?: string; permissions?: PermissionName[]; groupIds?: number[] } = {},
): SandboxUser {
  const [firstName = '', ...rest] = fullName.split(' ');
  return {
    id: userId(username),
    username,
    firstName,
    lastName: rest.join(' '),
    email: `${username}@example.com`,
    role,
    password: options.password ?? null,
    permissions: options.permissions ?? [],
    groupIds: options.groupIds ?? [],
    failedLogins: 0,
    lockedUntil: null,
  };
}

function demoUsers(): SandboxUser[] {
  return [
    user('admin', 'Ada Admin', 'admin', { password: 'admin', permissions: ALL_PERMISSIONS, groupIds: [1, 4] }),
    user('tech', 'Tom Tech', 'technician', { password: 'tech', permissions: TECHNICIAN_PERMISSIONS, groupIds: [1, 2] }),
    user('private', 'Pia Private', 'private', { password: 'private', permissions: [Permission.onlyPrivate, Permission.create] }),
    user('viewer', 'Vic Viewer', 'viewer', { password: 'viewer' }),
    // Technicians without a login, so groups have more than one member.
    user('ttorres', 'Tina Torres', 'technician', { permissions: TECHNICIAN_PERMISSIONS, groupIds: [1, 3] }),
    user('ohaddad', 'Omar Haddad', 'technician', { permissions: TECHNICIAN_PERMISSIONS, groupIds: [2, 3] }),
    // Requesters; two Annas and two Marias make name prefixes ambiguous.
    user('aberg', 'Anna Berg', 'requester'),
    user('alind', 'Anna Lind', 'requester'),
    user('pnovak', 'Peter Novak', 'requester'),
    user('mgarcia', 'Maria Garcia', 'requester'),
    user('mgonzalez', 'Maria Gonzalez', 'requester'),
    user('jmuller', 'Jörg Müller', 'requester'),
    user('lwei', 'Li Wei', 'requester'),
    user('soneil', "Sam O'Neil", 'requester'),
    user('fkhan', 'Fatima Khan', 'requester'),
    user('kmensah', 'Kofi Mensah', 'requester'),
    // The integration user a build system files tickets as (the README's CI recipes): it also
    // resolves its tickets when the build is green again, and closes a duplicate of a race.
    user('ci-bot', 'CI Bot', 'requester', { permissions: [Permission.resolve, Permission.close] }),
  ];
}

export interface DemoLogin {
  username: string;
  password: string;
  role: string;
  userId: string;
}

export function demoLogins(users: readonly SandboxUser[]): DemoLogin[] {
  return users.filter((u) => u.password !== null).map((u) => ({ username: u.username, password: u.password ?? '', role: u.role, userId: u.id }));
}

export function emptyState(): SandboxState {
  return {
    secret: randomBytes(32).toString('hex'),
    lookups: demoLookups(),
    users: demoUsers(),
    tickets: [],
    conversations: [],
    attachments: [],
    outbox: [],
    nextId: { ticket: 1001, conversation: 1, attachment: 1, outbox: 1 },
    autoAssignCursor: {},
  };
}

export function blankTicket(id: number, fields: Partial<SandboxTicket> & Pick<SandboxTicket, 'title' | 'creatorId' | 'createdOn'>): SandboxTicket {
  return {
    id,
    description: '',
    ticketType: 1,
    siteId: 1,
    departmentId: 1,
    ticketStatusId: 1,
    ticketPriorityId: 2,
    ticketCategoryId: null,
    ticketSubCategoryId: null,
    itemId: null,
    groupId: null,
    tierLevelId: 1,
    clientId: null,
    serviceId: null,
    impactId: null,
    urgencyId: null,
    slaId: null,
    assignedUser: null,
    dueDate: null,
    updatedOn: fields.createdOn,
    source: 'Manual',
    guid: randomGuid(),
    cc: null,
    tags: [],
    isRead: false,
    isDeleted: false,
    deletedOn: null,
    locked: false,
    resolution: null,
    tasks: [],
    ...fields,
  };
}

export function randomGuid(): string {
  return globalThis.crypto.randomUUID();
}

/** Small deterministic PRNG, so --seed-tickets gives the same tickets every time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
