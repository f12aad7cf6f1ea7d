// Finding the tickets of a dedup key: the service's search for the key in subjects, over as
// many pages as it answers (a short key may be found in many titles), then only the titles
// ending with ` [KEY]`; deleted tickets do not count.
import { plans } from '../api/plans.js';
import type { ApiClient } from '../api/types.js';
import { decodeJwtClaims, holdsPermission, listsPermissions } from '../config/jwt.js';
import type { Context } from '../context/context.js';
import { InterruptedError } from '../errors.js';
import { readTicket, type FieldReading, type Ticket } from '../model/ticket.js';
import { LookupError } from '../lookups/index.js';
import type { Lookups } from '../lookups/types.js';
import { PAGE_CONCURRENCY, listPageOf, walkPages, type PageSource } from '../listing/pages.js';
import { titleHasKey } from './key.js';

/** A ticket that carries the key. */
export interface KeyedTicket {
  id: number;
  title: string;
  /** Resolved or closed. */
  settled: boolean;
  created: Date | undefined;
  /** The requester as the list item names it: an ID on some services, a name alone on others. */
  requester: FieldReading;
}

/** The requester a create of the key uses: its user ID where known, its username. */
export interface KeyRequester {
  id: string | undefined;
  username: string | undefined;
}

const REQUESTER_OPTION = { flag: '--requester', noun: 'user' };

/**
 * The requester of --requester whose tickets of a key count (KeyTickets): its user ID and username
 * as the user lists name them; `byUsername` (the integration endpoint, which takes a username),
 * the username the create sends, with no ID: a known user's (`--requester "CI Bot"` sends ci-bot),
 * else the text as typed (a new requester, with --email).
 */
export async function keyRequester(lookups: Lookups, requester: string, byUsername = false): Promise<KeyRequester & { username: string }> {
  if (byUsername) {
    const username = await lookups.username('requester', requester, REQUESTER_OPTION).catch((error: unknown) => {
      if (error instanceof LookupError && error.reason === 'unknown') return requester;
      throw error;
    });
    return { id: undefined, username };
  }
  return {
    id: String(await lookups.resolve('requester', requester, REQUESTER_OPTION)),
    username: await lookups.username('requester', requester, REQUESTER_OPTION),
  };
}

/** The details of a key's tickets, each read once per run; none once the run is stopped. */
export class KeyedDetails {
  readonly #details = new Map<number, Promise<Ticket>>();

  constructor(
    readonly api: ApiClient,
    readonly signal: AbortSignal,
  ) {}

  /** The ticket's detail, read once. */
  detail(id: number): Promise<Ticket> {
    let detail = this.#details.get(id);
    if (detail === undefined) {
      if (this.signal.aborted) return Promise.reject(new InterruptedError());
      detail = this.api.send(plans.getTicket(id)).then((response) => readTicket(response.body));
      this.#details.set(id, detail);
    }
    return detail;
  }
}

/**
 * Which tickets of the key are this run's: those of the requester the create uses. Keys are
 * predictable, and anyone may end a title of their own with one: another requester's ticket never
 * gets the occurrence, and is never re-opened or closed (README, CI: one ticket per failure).
 * A list item that names the requester by name alone has its detail read, once per run.
 */
export class KeyTickets extends KeyedDetails {
  constructor(
    api: ApiClient,
    readonly requester: KeyRequester,
    signal: AbortSignal,
  ) {
    super(api, signal);
  }

  /** Whether the ticket's requester is this run's; one the service does not tell is not. */
  async owns(ticket: KeyedTicket): Promise<boolean> {
    const listed = sameUser(ticket.requester, this.requester);
    if (listed !== undefined) return listed;
    return sameUser((await this.detail(ticket.id)).field('requester'), this.requester) ?? false;
  }

  /** The first of `tickets` (in their order) that is this run's. */
  async firstOwn(tickets: readonly KeyedTicket[]): Promise<KeyedTicket | undefined> {
    for (const ticket of tickets) if (await this.owns(ticket)) return ticket;
    return undefined;
  }

  /** Those of `tickets` (in their order) that are this run's. */
  async allOwn(tickets: readonly KeyedTicket[]): Promise<KeyedTicket[]> {
    const own: KeyedTicket[] = [];
    for (const ticket of tickets) if (await this.owns(ticket)) own.push(ticket);
    return own;
  }
}

/** By user ID when both are known, else by username (case aside); undefined when neither tells. */
function sameUser(reading: FieldReading, requester: KeyRequester): boolean | undefined {
  if (reading.id !== undefined && requester.id !== undefined) return String(reading.id) === requester.id;
  if (reading.username !== undefined && requester.username !== undefined) return reading.username.toLowerCase() === requester.username.toLowerCase();
  return undefined;
}

/** The tickets of one requester of a key. */
export interface RequesterTickets {
  tickets: KeyedTicket[];
}

/**
 * The requesters of `tickets`, each with its tickets (in their order), told apart as a create
 * tells its own (sameUser). A ticket whose list item names its requester by name alone has its
 * detail read; one whose requester the service does not tell by ID or username, or tells so that
 * it cannot be compared with the others (an ID alone where they have a username), is in none.
 */
export async function requestersOf(details: KeyedDetails, tickets: readonly KeyedTicket[]): Promise<RequesterTickets[]> {
  const found: (RequesterTickets & { user: KeyRequester })[] = [];
  for (const ticket of tickets) {
    const reading = namesUser(ticket.requester) ? ticket.requester : (await details.detail(ticket.id)).field('requester');
    if (!namesUser(reading)) continue;
    const verdicts = found.map((requester) => sameUser(reading, requester.user));
    const same = verdicts.indexOf(true);
    if (same >= 0) found[same]!.tickets.push(ticket);
    else if (!verdicts.includes(undefined)) found.push({ user: userOf(reading), tickets: [ticket] });
  }
  return found.map(({ tickets }) => ({ tickets }));
}

const namesUser = (reading: FieldReading) => reading.id !== undefined || reading.username !== undefined;
const userOf = (reading: FieldReading): KeyRequester => ({ id: reading.id === undefined ? undefined : String(reading.id), username: reading.username });

// Big pages: a key found in many titles costs few requests.
const SEARCH_PAGE_SIZE = 100;

/** Every ticket whose title ends with ` [KEY]`, oldest first (by creation, then by ID). */
export async function ticketsWithKey(api: ApiClient, key: string, signal: AbortSignal): Promise<KeyedTicket[]> {
  // The key alone is searched for: some services read brackets in a search as a pattern.
  // Every list type: a resolved or closed ticket counts too (--reopen).
  const source: PageSource = {
    firstPage: 1,
    pageSize: SEARCH_PAGE_SIZE,
    fetch: async (page, signal) =>
      listPageOf(await api.send(plans.listTickets({ page, length: SEARCH_PAGE_SIZE, search: key, filterBy: 'Subject', listType: 'AllTickets' }), { signal })),
  };
  const found = new Map<number, KeyedTicket>();
  for await (const items of walkPages(source, { signal, concurrency: PAGE_CONCURRENCY })) {
    for (const item of items) {
      const ticket = readTicket(item);
      const id = Number(ticket.id);
      if (!Number.isSafeInteger(id) || ticket.deleted !== undefined || !titleHasKey(ticket.title, key)) continue;
      found.set(id, { id, title: ticket.title!, settled: ticket.settled, created: ticket.created, requester: ticket.field('requester') });
    }
  }
  return [...found.values()].sort(olderFirst);
}

/**
 * Warns when the look-up cannot see every ticket of the key: the service lists a login holding
 * Tickets.OnlyPrivate only its own tickets (docs/service.md 5.5), so a ticket of the key made by
 * another login, or for another requester, is not found (README, CI: one ticket per failure).
 * Read from the token tkt already holds: no request. `then` says what becomes of those missed.
 */
export async function warnWhenOnlyOwnTickets(ctx: Context, key: string, then: string): Promise<void> {
  if (!holdsPermission(decodeJwtClaims((await ctx.session()).token), ONLY_OWN_TICKETS)) return;
  await ctx.output.warning(
    `this login sees only its own tickets (${ONLY_OWN_TICKETS}): the look-up of key ${key} misses any other ticket of the key, ${then}\n`,
  );
}

const ONLY_OWN_TICKETS = 'Tickets.OnlyPrivate';

/**
 * Warns, before a ticket of the key is created, when the token lists the login's permissions and
 * Tickets.Close is not among them: should another job create one at the same moment, the newer
 * cannot be closed as the duplicate, and both stay open (README, CI: one ticket per failure).
 */
export async function warnWhenCannotClose(ctx: Context, key: string): Promise<void> {
  const claims = decodeJwtClaims((await ctx.session()).token);
  if (!listsPermissions(claims) || holdsPermission(claims, CLOSE)) return;
  await ctx.output.warning(
    `this login may not close tickets (no ${CLOSE}): should another job create a ticket of key ${key} at the same moment, ` +
      'the newer cannot be closed as a duplicate, and both stay open\n',
  );
}

const CLOSE = 'Tickets.Close';

/** Older first: the earlier creation, then (created together or undated) the lower ID. */
export function olderFirst(a: KeyedTicket, b: KeyedTicket): number {
  const byDate = (a.created?.getTime() ?? 0) - (b.created?.getTime() ?? 0);
  return byDate !== 0 ? byDate : a.id - b.id;
}
