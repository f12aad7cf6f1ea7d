// The sandbox's in-memory database: the persisted SandboxState plus the indexes
// the endpoints need to stay fast with tens of thousands of tickets.
import { renameSync, writeFileSync } from 'node:fs';
import type { OutboxMessage, SandboxAttachment, SandboxConversation, SandboxState, SandboxTicket, SandboxUser } from './model.js';
import { StatusType } from './model.js';

/** Persisting is coalesced: one write per burst of changes, and on close. */
const SAVE_DELAY_MS = 50;

export class SandboxStore {
  readonly state: SandboxState;
  /** Live tickets and deleted ones, newest created first: list pages walk it without sorting. */
  readonly newestFirst: SandboxTicket[] = [];
  private readonly ticketsById = new Map<number, SandboxTicket>();
  private readonly usersById = new Map<string, SandboxUser>();
  private readonly usersByUsername = new Map<string, SandboxUser>();
  private readonly conversationsByTicket = new Map<number, SandboxConversation[]>();
  private readonly attachmentsByTicket = new Map<number, SandboxAttachment[]>();
  /** Bumped on every change, so caches derived from the state know when they are stale. */
  version = 0;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(
    state: SandboxState,
    private readonly dataFile: string | undefined,
  ) {
    this.state = state;
    for (const user of state.users) this.indexUser(user);
    for (const ticket of state.tickets) this.ticketsById.set(ticket.id, ticket);
    this.newestFirst = [...state.tickets].sort(compareNewestFirst);
    for (const conversation of state.conversations) pushTo(this.conversationsByTicket, conversation.ticketId, conversation);
    for (const attachment of state.attachments) pushTo(this.attachmentsByTicket, attachment.ticketId, attachment);
  }

  private indexUser(user: SandboxUser): void {
    this.usersById.set(user.id, user);
    this.usersByUsername.set(user.username.toLowerCase(), user);
  }

  user(id: string | null | undefined): SandboxUser | undefined {
    return id ? this.usersById.get(id) : undefined;
  }

  userByUsername(username: string): SandboxUser | undefined {
    return this.usersByUsername.get(username.trim().toLowerCase());
  }

  userByEmail(email: string): SandboxUser | undefined {
    const wanted = email.trim().toLowerCase();
    return this.state.users.find((u) => u.email.toLowerCase() === wanted);
  }

  technicians(): SandboxUser[] {
    return this.state.users.filter((u) => u.role === 'admin' || u.role === 'technician');
  }

  /** A ticket that exists and is not soft-deleted. */
  liveTicket(id: number): SandboxTicket | undefined {
    const ticket = this.ticketsById.get(id);
    return ticket && !ticket.isDeleted ? ticket : undefined;
  }

  takeTicketId(): number {
    return this.state.nextId.ticket++;
  }

  addTicket(ticket: SandboxTicket): void {
    this.state.tickets.push(ticket);
    this.ticketsById.set(ticket.id, ticket);
    // Binary insertion keeps newestFirst sorted; a new ticket usually lands at the front.
    let low = 0;
    let high = this.newestFirst.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (compareNewestFirst(this.newestFirst[mid] as SandboxTicket, ticket) <= 0) low = mid + 1;
      else high = mid;
    }
    this.newestFirst.splice(low, 0, ticket);
    this.changed();
  }

  /** Many tickets at once (seeding): one sort instead of a splice per ticket. */
  addTickets(tickets: readonly SandboxTicket[]): void {
    for (const ticket of tickets) {
      this.state.tickets.push(ticket);
      this.ticketsById.set(ticket.id, ticket);
      this.newestFirst.push(ticket);
    }
    this.newestFirst.sort(compareNewestFirst);
    this.changed();
  }

  addConversation(fields: Omit<SandboxConversation, 'id'>): SandboxConversation {
    const conversation = { id: this.state.nextId.conversation++, ...fields };
    this.state.conversations.push(conversation);
    pushTo(this.conversationsByTicket, conversation.ticketId, conversation);
    this.changed();
    return conversation;
  }

  conversationsOf(ticketId: number): SandboxConversation[] {
    return this.conversationsByTicket.get(ticketId) ?? [];
  }

  addAttachment(fields: Omit<SandboxAttachment, 'id'>): SandboxAttachment {
    const attachment = { id: this.state.nextId.attachment++, ...fields };
    this.state.attachments.push(attachment);
    pushTo(this.attachmentsByTicket, attachment.ticketId, attachment);
    this.changed();
    return attachment;
  }

  attachmentsOf(ticketId: number): SandboxAttachment[] {
    return this.attachmentsByTicket.get(ticketId) ?? [];
  }

  notify(fields: Omit<OutboxMessage, 'id'>): void {
    this.state.outbox.push({ id: this.state.nextId.outbox++, ...fields });
    this.changed();
  }

  statusType(ticket: SandboxTicket): number | undefined {
    return this.state.lookups.status.find((s) => s.id === ticket.ticketStatusId)?.statusType;
  }

  isCompleted(ticket: SandboxTicket): boolean {
    const type = this.statusType(ticket);
    return type === StatusType.resolved || type === StatusType.closed;
  }

  /** Call after changing any stored object; the state is saved shortly after. */
  changed(): void {
    this.version++;
    this.dirty = true;
    if (this.dataFile === undefined || this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => this.flush(), SAVE_DELAY_MS);
    this.saveTimer.unref();
  }

  /** Writes unsaved changes now (temp file + rename, so a crash never leaves half a file). */
  flush(): void {
    if (this.saveTimer !== undefined) clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    if (this.dataFile === undefined || !this.dirty) return;
    this.dirty = false;
    const temp = `${this.dataFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(this.state));
    renameSync(temp, this.dataFile);
  }
}

function compareNewestFirst(a: SandboxTicket, b: SandboxTicket): number {
  if (a.createdOn !== b.createdOn) return a.createdOn < b.createdOn ? 1 : -1;
  return b.id - a.id;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
