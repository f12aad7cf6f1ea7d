// Demo tickets (a few dozen, every state) and generated bulk tickets for load tests.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StatusType, type ConversationType, type SandboxTicket } from './model.js';
import type { SandboxStore } from './store.js';
import { CLOSED_STATUS_ID, DAY_MS, HOUR_MS, blankTicket, seededRandom } from './demo.js';

interface DemoTicket {
  title: string;
  requester: string;
  assignee?: string;
  status: number;
  priority: number;
  category?: [category: number, subCategory?: number, item?: number];
  group?: number;
  site?: number;
  department?: number;
  /** Hours before "now" the ticket was created. */
  ageHours: number;
  due?: 'overdue' | 'today' | 'future' | 'none';
  conversations?: [type: ConversationType, from: string, message: string][];
  /** The resolution's details, and how many hours after creation it was resolved. */
  resolution?: [details: string, afterHours: number];
  attachment?: [fileName: string, content: string];
  task?: [assignee: string, done: boolean];
  locked?: boolean;
  read?: boolean;
}

// Statuses: 1 Open, 2 In Progress, 3 On Hold, 4 Pending, 5 Escalated, 6 Resolved, 7 Closed.
// Priorities: 1 Low, 2 Medium, 3 High, 4 Critical.
const DEMO_TICKETS: DemoTicket[] = [
  {
    title: 'Laptop will not boot after update',
    requester: 'aberg',
    assignee: 'tech',
    status: 2,
    priority: 3,
    category: [1, 1, 1],
    group: 1,
    ageHours: 80,
    due: 'overdue',
    conversations: [['Reply', 'tech', 'Could you try holding the power button for 30 seconds?']],
  },
  { title: 'Printer on 2nd floor jams', requester: 'alind', status: 1, priority: 2, category: [1, 2, 3], group: 3, ageHours: 70, due: 'today' },
  {
    title: 'Cannot connect to VPN from home',
    requester: 'pnovak',
    assignee: 'ohaddad',
    status: 1,
    priority: 4,
    category: [3, 5, 8],
    group: 2,
    site: 3,
    ageHours: 6,
    due: 'overdue',
  },
  {
    title: 'Outlook keeps asking for password',
    requester: 'mgarcia',
    assignee: 'tech',
    status: 3,
    priority: 2,
    category: [2, 3, 5],
    group: 1,
    ageHours: 120,
    due: 'future',
    conversations: [['Reply', 'tech', 'Waiting for the new MFA token to arrive.']],
  },
  {
    title: 'New starter account for Finance',
    requester: 'mgonzalez',
    assignee: 'tech',
    status: 4,
    priority: 2,
    category: [4, 8],
    group: 1,
    department: 2,
    ageHours: 30,
    due: 'future',
  },
  {
    title: 'ERP invoice screen crashes',
    requester: 'jmuller',
    assignee: 'admin',
    status: 5,
    priority: 4,
    category: [2, 4, 7],
    group: 4,
    department: 2,
    ageHours: 50,
    due: 'overdue',
  },
  {
    title: 'Wi-Fi drops in meeting room B',
    requester: 'lwei',
    assignee: 'ohaddad',
    status: 6,
    priority: 2,
    category: [3, 6, 9],
    group: 2,
    ageHours: 200,
    due: 'future',
    resolution: ['Replaced the access point firmware.', 30],
  },
  {
    title: 'Password reset for shared mailbox',
    requester: 'soneil',
    assignee: 'tech',
    status: 7,
    priority: 1,
    category: [4, 7],
    group: 1,
    ageHours: 300,
    due: 'none',
    resolution: ['Password reset and sent by SMS.', 3],
    conversations: [['Close', 'tech', 'Closed after confirmation from the requester.']],
  },
  { title: 'Monitor flickers', requester: 'fkhan', status: 1, priority: 1, category: [1], group: 3, ageHours: 10, due: 'future' },
  {
    title: 'Request: second screen',
    requester: 'kmensah',
    assignee: 'ttorres',
    status: 4,
    priority: 1,
    category: [1],
    group: 3,
    ageHours: 150,
    due: 'overdue',
  },
  {
    title: 'Shared drive is read-only',
    requester: 'aberg',
    assignee: 'tech',
    status: 1,
    priority: 3,
    category: [2],
    group: 1,
    ageHours: 4,
    due: 'today',
    attachment: ['error.txt', 'Access denied: \\\\fs01\\shared\n'],
  },
  {
    title: 'Badge reader at Harbour Depot gate',
    requester: 'alind',
    assignee: 'tech',
    status: 5,
    priority: 3,
    category: [4],
    group: 1,
    site: 2,
    department: 4,
    ageHours: 26,
    due: 'future',
    task: ['tech', false],
  },
  {
    title: 'Keyboard missing keys',
    requester: 'pnovak',
    assignee: 'ttorres',
    status: 6,
    priority: 1,
    category: [1, 1, 2],
    group: 3,
    ageHours: 400,
    due: 'none',
    resolution: ['Keyboard replaced.', 52],
    locked: true,
  },
  {
    title: 'Email bounce from customer domain',
    requester: 'mgarcia',
    assignee: 'admin',
    status: 2,
    priority: 2,
    category: [2, 3, 5],
    group: 4,
    ageHours: 48,
    due: 'today',
    conversations: [
      ['Forward', 'admin', 'Forwarding to the mail provider.'],
      ['RequesterReply', 'mgarcia', 'It still happens this morning.'],
    ],
  },
  {
    title: 'Slow SAP reports',
    requester: 'jmuller',
    assignee: 'tech',
    status: 3,
    priority: 2,
    category: [2, 4, 7],
    group: 4,
    department: 2,
    ageHours: 90,
    due: 'overdue',
    task: ['tech', true],
  },
  {
    title: 'Install Visio',
    requester: 'lwei',
    status: 7,
    priority: 1,
    category: [2],
    ageHours: 500,
    due: 'none',
    resolution: ['Installed from the software centre.', 20],
  },
  {
    title: 'Phone screen cracked',
    requester: 'soneil',
    assignee: 'ttorres',
    status: 1,
    priority: 2,
    category: [1],
    group: 3,
    ageHours: 12,
    due: 'future',
    read: true,
  },
  {
    title: 'VPN certificate expired',
    requester: 'fkhan',
    assignee: 'ohaddad',
    status: 6,
    priority: 3,
    category: [3, 5, 8],
    group: 2,
    site: 3,
    ageHours: 100,
    due: 'none',
    resolution: ['Issued a new certificate.', 5],
    attachment: ['vpn.log', 'cert expired 2026-01-01\n'],
  },
  {
    title: 'Scanner does not send to e-mail',
    requester: 'kmensah',
    status: 4,
    priority: 2,
    category: [1, 2, 4],
    group: 3,
    site: 2,
    ageHours: 60,
    due: 'today',
  },
  {
    title: 'Cannot open payroll file',
    requester: 'mgonzalez',
    assignee: 'admin',
    status: 1,
    priority: 4,
    category: [2],
    group: 4,
    department: 3,
    ageHours: 3,
    due: 'future',
    attachment: ['payroll-error.png', 'PNG-demo-bytes'],
  },
  {
    title: 'Guest Wi-Fi password',
    requester: 'aberg',
    status: 7,
    priority: 1,
    category: [3, 6],
    group: 2,
    ageHours: 700,
    due: 'none',
    resolution: ['Password shared at reception.', 1],
  },
  {
    title: 'Laptop battery swelling',
    requester: 'alind',
    assignee: 'ttorres',
    status: 5,
    priority: 4,
    category: [1, 1, 2],
    group: 3,
    ageHours: 20,
    due: 'overdue',
  },
  {
    title: 'Access to sales dashboard',
    requester: 'pnovak',
    assignee: 'tech',
    status: 2,
    priority: 2,
    category: [4, 8],
    group: 1,
    department: 5,
    ageHours: 40,
    due: 'future',
  },
  { title: 'Mouse double-clicks', requester: 'jmuller', status: 1, priority: 1, category: [1], ageHours: 2, due: 'none' },
  { title: 'Teams calls drop', requester: 'lwei', assignee: 'ohaddad', status: 3, priority: 3, category: [3], group: 2, ageHours: 72, due: 'today' },
  { title: 'Printer toner low', requester: 'private', status: 1, priority: 1, category: [1, 2, 3], group: 3, ageHours: 15, due: 'future' },
  {
    title: 'My VPN is slow',
    requester: 'private',
    assignee: 'tech',
    status: 6,
    priority: 2,
    category: [3, 5],
    group: 2,
    ageHours: 220,
    due: 'none',
    resolution: ['Switched to the nearer gateway.', 75],
  },
  { title: 'Server room temperature alarm', requester: 'admin', assignee: 'admin', status: 5, priority: 4, category: [1], group: 4, ageHours: 1, due: 'today' },
  {
    title: 'Update antivirus definitions',
    requester: 'tech',
    assignee: 'tech',
    status: 1,
    priority: 2,
    category: [2],
    group: 1,
    ageHours: 8,
    due: 'future',
    task: ['tech', false],
  },
  {
    title: 'Old ticket already closed',
    requester: 'fkhan',
    assignee: 'tech',
    status: 7,
    priority: 2,
    category: [2, 3, 6],
    group: 1,
    ageHours: 1000,
    due: 'none',
    resolution: ['Obsolete.', 168],
  },
  { title: 'Projector in board room', requester: 'kmensah', status: 1, priority: 2, category: [1], ageHours: 5, due: 'overdue' },
  {
    title: 'Request new ERP role',
    requester: 'mgonzalez',
    assignee: 'admin',
    status: 4,
    priority: 2,
    category: [2, 4, 7],
    group: 4,
    department: 2,
    ageHours: 110,
    due: 'overdue',
  },
];

function dueDate(kind: DemoTicket['due'], now: Date, priority: number, created: number): string | null {
  const t = now.getTime();
  switch (kind) {
    case 'overdue':
      // Two days ago, or for a ticket younger than that halfway through its life: never due
      // before it was created, which would give an SLA report a negative time.
      return new Date(created < t - 2 * DAY_MS ? t - 2 * DAY_MS : created + (t - created) / 2).toISOString();
    case 'today': {
      // Later today (UTC) but never past midnight, so "due today" and "not overdue" both hold.
      const endOfDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
      return new Date(t + Math.min(2 * HOUR_MS, (endOfDay - t) / 2)).toISOString();
    }
    case 'future':
      return new Date(t + (2 + priority) * DAY_MS).toISOString();
    default:
      return null;
  }
}

const iso = (time: number): string => new Date(time).toISOString();

export function addDemoTickets(store: SandboxStore, now: Date, uploadDir: string): void {
  const userId = (username: string): string => {
    const found = store.userByUsername(username);
    if (!found) throw new Error(`demo data names an unknown user ${username}`);
    return found.id;
  };
  // Oldest first, so ids grow with creation time like a real database.
  const ordered = [...DEMO_TICKETS].sort((a, b) => b.ageHours - a.ageHours);
  for (const demo of ordered) {
    const created = now.getTime() - demo.ageHours * HOUR_MS;
    const createdOn = iso(created);
    // Resolved hours or days after creation, so that a time-to-resolve report against the sandbox
    // measures something; a closed ticket closed a day after that. The model keeps no closing date
    // on the ticket: the close is its Close conversation's date, and its last update.
    const resolved = demo.resolution && { details: demo.resolution[0], at: created + demo.resolution[1] * HOUR_MS };
    const closedAt = demo.status === CLOSED_STATUS_ID ? (resolved?.at ?? created) + DAY_MS : undefined;
    const ticket: SandboxTicket = blankTicket(store.takeTicketId(), {
      title: demo.title,
      description: `${demo.title}. Reported via the service desk portal.`,
      creatorId: userId(demo.requester),
      assignedUser: demo.assignee ? userId(demo.assignee) : null,
      ticketStatusId: demo.status,
      ticketPriorityId: demo.priority,
      ticketCategoryId: demo.category?.[0] ?? null,
      ticketSubCategoryId: demo.category?.[1] ?? null,
      itemId: demo.category?.[2] ?? null,
      groupId: demo.group ?? null,
      siteId: demo.site ?? 1,
      departmentId: demo.department ?? 1,
      createdOn,
      updatedOn: iso(closedAt ?? resolved?.at ?? created),
      dueDate: dueDate(demo.due, now, demo.priority, created),
      isRead: demo.read ?? false,
      locked: demo.locked ?? false,
      resolution: resolved
        ? { details: resolved.details, submitBy: demo.assignee ? userId(demo.assignee) : userId('admin'), submitDate: iso(resolved.at) }
        : null,
      tasks: demo.task ? [{ id: 1, assignedTo: userId(demo.task[0]), done: demo.task[1], title: 'Follow-up task' }] : [],
    });
    store.addTicket(ticket);
    for (const [type, from, message] of demo.conversations ?? []) {
      const sender = store.userByUsername(from);
      store.addConversation({
        ticketId: ticket.id,
        type,
        from: sender?.email ?? from,
        to: type === 'RequesterReply' ? null : (store.user(ticket.creatorId)?.email ?? null),
        cc: null,
        subject: `Re: ${ticket.title}`,
        message,
        draft: false,
        createdOn: type === 'Close' && closedAt !== undefined ? iso(closedAt) : createdOn,
      });
    }
    if (demo.attachment) {
      const [fileName, content] = demo.attachment;
      const path = join(uploadDir, `demo-${ticket.id}-${fileName}`);
      writeFileSync(path, content);
      store.addAttachment({
        ticketId: ticket.id,
        fileName,
        size: Buffer.byteLength(content),
        sha256: createHash('sha256').update(content).digest('hex'),
        path,
        createdOn,
      });
    }
  }
}

const SEED_WORDS = ['Laptop', 'Printer', 'VPN', 'Outlook', 'Wi-Fi', 'ERP', 'Monitor', 'Badge', 'Scanner', 'Phone', 'Teams', 'Drive'];
const SEED_RESOLUTIONS = ['Restarted the service.', 'Replaced the part.', 'Updated the driver.', 'Reset the account.', 'Explained the setting.'];
const SEED_PROBLEMS = ['is slow', 'does not start', 'shows an error', 'needs replacing', 'access request', 'keeps disconnecting'];

/**
 * Bulk tickets for load tests, spread over the year before the demo tickets. They are
 * numbered after the demo tickets so that demo ticket ids never depend on the seed count.
 */
export function addSeedTickets(store: SandboxStore, count: number, now: Date): void {
  const random = seededRandom(42);
  // A generator of its own for resolutions, so that every other value stays what it was.
  const settling = seededRandom(43);
  const pick = <T>(list: readonly T[], from = random): T => list[Math.floor(from() * list.length)] as T;
  const { lookups } = store.state;
  const requesters = store.state.users;
  const technicians = store.technicians();
  const start = now.getTime() - 400 * DAY_MS;
  const step = (365 * DAY_MS) / Math.max(count, 1);
  const tickets: SandboxTicket[] = [];
  for (let i = 0; i < count; i++) {
    const createdOn = new Date(start + i * step).toISOString();
    const subCategory = pick(lookups.subCategories);
    const priority = pick(lookups.priorities);
    const status = pick(lookups.status);
    // In the order the generator was always drawn in: the same seed gives the same tickets.
    const title = `${pick(SEED_WORDS)} ${pick(SEED_PROBLEMS)} #${i + 1}`;
    const creatorId = pick(requesters).id;
    const assignedUser = random() < 0.7 ? pick(technicians).id : null;
    // Resolved and closed ones carry a resolution, as the demo tickets do: hours or days after
    // creation (a report of time to resolve has something to measure), closed a day after that.
    const settled = status.statusType === StatusType.resolved || status.statusType === StatusType.closed;
    const resolvedAt = settled ? Date.parse(createdOn) + (1 + Math.floor(settling() * 120)) * HOUR_MS : undefined;
    const lastChange = resolvedAt === undefined ? createdOn : new Date(resolvedAt + (status.statusType === StatusType.closed ? DAY_MS : 0)).toISOString();
    tickets.push(
      blankTicket(store.takeTicketId(), {
        title,
        description: 'Generated ticket.',
        creatorId,
        assignedUser,
        ticketStatusId: status.id,
        ticketPriorityId: priority.id,
        ticketCategoryId: subCategory.categoryId,
        ticketSubCategoryId: subCategory.id,
        groupId: pick(lookups.groups).id,
        siteId: pick(lookups.sites).id,
        departmentId: pick(lookups.departments).id,
        createdOn,
        updatedOn: lastChange,
        dueDate: new Date(start + i * step + priority.slaHours * HOUR_MS).toISOString(),
        resolution:
          resolvedAt === undefined
            ? null
            : {
                details: pick(SEED_RESOLUTIONS, settling),
                submitBy: assignedUser ?? pick(technicians, settling).id,
                submitDate: new Date(resolvedAt).toISOString(),
              },
        guid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      }),
    );
  }
  store.addTickets(tickets);
}
