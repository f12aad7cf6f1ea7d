// `tkt watch --state FILE`: the last poll's tickets kept between runs, replaced atomically once
// that poll's events are out, so a run after a crash tells what the crashed one did not. The file
// also records whose watch it is: what it watches (a view and its options, or ticket IDs), the
// service and the user; another watch reusing it would tell the difference between two sets of
// tickets as a flood of events. A watch holds FILE.lock while it runs, so that runs started
// together (cron) take turns and tell each event once; and the watched fields that the service
// does not say, so that a cron job says so once (README, Watching).
import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Context } from '../context/context.js';
import { OperationError, TktError, UsageError } from '../errors.js';
import { LOOKUP_FILTERS } from '../listing/filter.js';
import { chosenListType, kebabCase, parseFilterBy, parseListType } from '../listing/query.js';
import { DIRECTORY_NOT_FILE, fileErrorText } from '../util/file-error.js';
import { acquireLock, LockBusyError, type LockWait } from '../util/lock-file.js';
import { shellWord } from '../util/shell-word.js';
import { squash } from '../util/option-text.js';
import { replaceFile } from '../util/replace-file.js';
import { WATCHED_FIELDS, type Snapshot, type WatchedField, type WatchedTicket } from './events.js';
import type { ViewWatchOptions } from './polls.js';

const VERSION = 1;
const STATE_FILE_MODE = 0o600;

/** What a watch watches: given tickets (sorted), or a view (null: the service's default) and its options as given. */
export type Watching = { ids: number[] } | { view: string | null; options: Record<string, string | boolean> };

/** Who watches: the service (its normalised URL) and the user its token names, when it names one. */
export interface Watcher {
  service: string;
  user: { id?: string; name?: string } | undefined;
}

export function ticketsWatching(ids: readonly number[]): Watching {
  return { ids: [...new Set(ids)].sort((a, b) => a - b) };
}

/** The view as tkt list spells it (`All-Tickets` and `AllTickets` are `all-tickets`), and the options as given. */
export function viewWatching(options: ViewWatchOptions, ctx: Context): Watching {
  const { view, ...others } = options;
  const given = Object.entries(others as Record<string, string | boolean | undefined>)
    .filter((entry): entry is [string, string | boolean] => entry[1] !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  const listType = chosenListType(view, ctx);
  return { view: listType === undefined ? null : kebabCase(listType), options: Object.fromEntries(given) };
}

export async function currentWatcher(ctx: Context): Promise<Watcher> {
  const { baseUrl, userId, username } = await ctx.session();
  const user = { ...(userId === undefined ? {} : { id: userId }), ...(username === undefined ? {} : { name: username }) };
  return { service: baseUrl, user: Object.keys(user).length === 0 ? undefined : user };
}

/** `the view all-tickets --status open`, `the tickets #1001 #1002`. */
export function describeWatching(watching: Watching): string {
  if ('ids' in watching) return `${watching.ids.length === 1 ? 'the ticket' : 'the tickets'} ${watching.ids.map((id) => `#${id}`).join(' ')}`;
  const { view, options: given } = watching;
  const options = Object.entries(given).map(([name, value]) => {
    const flag = `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    return value === true ? flag : `${flag} ${String(value)}`;
  });
  return [view === null ? "the service's default view" : `the view ${view}`, ...options].join(' ');
}

// Names that tkt list reads without regard to case (docs/cli.md sections 6 and 7): lookups and people.
const NAME_OPTIONS: ReadonlySet<string> = new Set([...LOOKUP_FILTERS, 'requester']);

/** What tells two watches apart: names compared as tkt list reads them, other values as given. */
function watchKey(watching: Watching): string {
  if ('ids' in watching) return describeWatching(watching);
  const loosely = (read: (text: string) => string, text: string) => {
    try {
      return read(text);
    } catch {
      return squash(text); // a hand-edited file's view that tkt list would refuse
    }
  };
  const options = Object.fromEntries(
    Object.entries(watching.options).map(([name, value]) => {
      if (typeof value !== 'string') return [name, value];
      if (name === 'in') return [name, loosely(parseFilterBy, value)];
      return [name, NAME_OPTIONS.has(name) ? value.toLowerCase() : value];
    }),
  );
  return describeWatching({ view: watching.view === null ? null : loosely(parseListType, watching.view), options });
}

/** How `kept` differs from this watch, for "belongs to another watch: ..."; undefined when it is the same watch. */
function differences(kept: StateHeader, watcher: Watcher, watching: Watching): string | undefined {
  const found: string[] = [];
  if (kept.service !== undefined && kept.service !== watcher.service) found.push(`the service ${kept.service}, not ${watcher.service}`);
  if (kept.user !== undefined && watcher.user !== undefined && !sameUser(kept.user, watcher.user)) {
    found.push(`the user ${userName(kept.user)}, not ${userName(watcher.user)}`);
  }
  if (kept.watching !== undefined && watchKey(kept.watching) !== watchKey(watching)) {
    found.push(`${describeWatching(kept.watching)}, not ${describeWatching(watching)}`);
  }
  return found.length === 0 ? undefined : found.join('; ');
}

/** By ID when both are known (a login saves it, a token's claims carry it), else by name. */
function sameUser(a: NonNullable<Watcher['user']>, b: NonNullable<Watcher['user']>): boolean {
  if (a.id !== undefined && b.id !== undefined) return a.id === b.id;
  return a.name === undefined || b.name === undefined || a.name.toLowerCase() === b.name.toLowerCase();
}

const userName = (user: NonNullable<Watcher['user']>) => user.name ?? user.id ?? '';

function isWatching(value: unknown): value is Watching {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record.ids) || (typeof record.options === 'object' && record.options !== null);
}

/** What a state file says of its watch; what a file written before they were recorded lacks is undefined. */
interface StateHeader {
  service?: string | undefined;
  user?: Watcher['user'];
  watching?: Watching | undefined;
}

function checkHeader(state: { service?: unknown; user?: unknown; watching?: unknown }): StateHeader {
  const { service, user, watching } = state;
  if (service !== undefined && typeof service !== 'string') throw new Error('the service recorded is not a URL');
  if (user !== undefined && (typeof user !== 'object' || user === null)) throw new Error('the user recorded is not one');
  if (watching !== undefined && !isWatching(watching)) throw new Error('no watch recorded');
  return { service, user: user as Watcher['user'], watching };
}

/** The state file of a running watch: what it kept, whose it is, and the release of its lock. */
export interface HeldState {
  file: string;
  kept: Snapshot | undefined;
  /** The watched fields the service did not say at the last poll, told then. */
  unwatchable: readonly WatchedField[];
  watcher: Watcher;
  release(): void;
}

/** A run of cron waits this long for the previous one to finish with the file; then it says who holds it. */
const LOCK_WAIT_MS = 60_000;
const LOCK_MAX_RETRY_MS = 1_000;

/**
 * Takes `file` for this watch: its lock (waiting for another run to finish with it, bounded), then
 * what it kept. All before any request; the caller releases it when the watch ends.
 */
export async function holdState(file: string, watcher: Watcher, watching: Watching, ctx: Context, clock: NonNullable<LockWait['clock']>): Promise<HeldState> {
  await assertNotFolder(file);
  await assertWritableFolder(file);
  const lock = `${file}.lock`;
  // A person would take a silent minute for a hang; cron's mail needs no such line.
  const onWait = async (holder: number | undefined) => {
    const other = holder === undefined ? 'another tkt watch' : `another tkt watch (pid ${holder})`;
    if (ctx.io.stderrIsTTY) await ctx.output.note(`waiting for ${other} to finish with the state file ${file} (up to ${LOCK_WAIT_MS / 1000} s)\n`);
  };
  let release: () => void;
  try {
    release = await acquireLock(lock, { waitMs: LOCK_WAIT_MS, maxRetryMs: LOCK_MAX_RETRY_MS, clock, onWait });
  } catch (error) {
    // A signal while waiting is an interruption (the clock's sleep says so), not a failure of the lock.
    if (error instanceof TktError) throw error;
    if (!(error instanceof LockBusyError)) throw new OperationError(`cannot lock the state file ${file}: ${fileErrorText(error)}`);
    const holder = error.holder === undefined ? 'another tkt watch' : `another tkt watch (pid ${error.holder})`;
    const gone = error.holder === undefined ? 'if no tkt watch runs' : `if no tkt watch runs as pid ${error.holder}`;
    throw new OperationError(`the state file ${file} is in use by ${holder}, still after ${LOCK_WAIT_MS / 1000} s`, {
      hint: `a state file serves one watch at a time: give this watch its own --state file (${gone}, remove ${lock})`,
    });
  }
  try {
    return { file, ...(await readState(file, watcher, watching)), watcher, release };
  } catch (error) {
    release();
    throw error;
  }
}

/**
 * The snapshot kept in `file`, or undefined when there is none yet: no file, or an empty one (the
 * first run sets the baseline). A file that another watch wrote is refused; one written before
 * watches (or services and users) were recorded is taken, and records them when next written.
 */
async function readState(file: string, watcher: Watcher, watching: Watching): Promise<Pick<HeldState, 'kept' | 'unwatchable'>> {
  const none = { kept: undefined, unwatchable: [] };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return none;
    throw new UsageError(`cannot read the state file ${file}: ${fileErrorText(error)}`);
  }
  // mktemp and touch leave an empty file: a cron script may make FILE before the first run.
  if (text.trim() === '') return none;
  let tickets: unknown;
  let kept: StateHeader;
  let unwatchable: unknown;
  try {
    const state = JSON.parse(text) as { version?: unknown; tickets?: unknown; service?: unknown; user?: unknown; watching?: unknown; unwatchable?: unknown };
    if (state.version !== VERSION) throw new Error(`version ${String(state.version)}, not ${VERSION}`);
    tickets = state.tickets;
    if (!Array.isArray(tickets)) throw new Error('no tickets');
    unwatchable = state.unwatchable;
    kept = checkHeader(state);
  } catch (error) {
    throw new UsageError(`the state file ${file} is not one tkt watch wrote: ${(error as Error).message}`, {
      hint: 'remove it to start a new baseline',
    });
  }
  const different = differences(kept, watcher, watching);
  if (different !== undefined) {
    throw new UsageError(`the state file ${file} belongs to another watch: ${different}`, {
      hint: `use another --state file for this watch, or remove ${file} to start a new baseline`,
    });
  }
  return {
    kept: new Map((tickets as WatchedTicket[]).map((ticket) => [String(ticket.id), ticket])),
    // Written before it was recorded: none told yet.
    unwatchable: Array.isArray(unwatchable) ? WATCHED_FIELDS.filter((name) => unwatchable.includes(name)) : [],
  };
}

/**
 * A folder given as FILE is said first, as any file that is a folder is: before its
 * lock is made beside it, and before its parent's checks, which would name the wrong folder.
 */
async function assertNotFolder(file: string): Promise<void> {
  const isFolder = await stat(file).then(
    (info) => info.isDirectory(),
    () => false, // not there yet, or not to be looked at: the checks and the read that follow say why
  );
  if (isFolder) throw new UsageError(`--state ${file}: ${DIRECTORY_NOT_FILE}`, { hint: `give a file in it: --state ${shellWord(join(file, 'watch.json'))}` });
}

/** The state is written after the first poll: a folder it cannot be written in is said before any request. */
async function assertWritableFolder(file: string): Promise<void> {
  const folder = dirname(file);
  let isFolder: boolean;
  try {
    isFolder = (await stat(folder)).isDirectory();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT')
      throw new UsageError(`--state ${file}: the folder ${folder} does not exist`, { hint: 'create it, or give a file in another folder' });
    if (code !== 'ENOTDIR') throw new UsageError(`--state ${file}: cannot use the folder ${folder}: ${(error as Error).message}`);
    isFolder = false;
  }
  if (!isFolder) throw new UsageError(`--state ${file}: ${folder} is not a folder`);
  try {
    await access(folder, constants.W_OK);
  } catch {
    throw new UsageError(`--state ${file}: the folder ${folder} is not writable`, { hint: 'give a file in a folder you can write in' });
  }
}

/** Written by the lock's holder only. A field a ticket does not say is left out of it. */
export function writeState(state: HeldState, watching: Watching, snapshot: Snapshot, at: string, unwatchable: readonly WatchedField[]): void {
  const { file, watcher } = state;
  try {
    replaceFile(file, `${JSON.stringify({ version: VERSION, at, ...watcher, watching, unwatchable, tickets: [...snapshot.values()] })}\n`, STATE_FILE_MODE);
  } catch (error) {
    // The file that failed may be the one written beside it first (FILE.<pid>.tmp): named then.
    const failed = (error as NodeJS.ErrnoException).path;
    const through = failed !== undefined && failed !== file ? ` (${failed})` : '';
    throw new OperationError(`cannot write the state file ${file}${through}: ${fileErrorText(error)}`);
  }
}
