// `tkt watch --state FILE`: the last poll's tickets kept between runs, replaced atomically once
// that poll's events are out, so a run after a crash tells what the crashed one did not. The file
// also records what it watches (a view and its options, or ticket IDs): another watch reusing it
// would tell the difference between two sets of tickets as a flood of events.
import { constants } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { userSettings } from '../config/settings.js';
import type { Context } from '../context/context.js';
import { OperationError, UsageError } from '../errors.js';
import { replaceFile } from '../util/replace-file.js';
import type { Snapshot, WatchedTicket } from './events.js';
import type { ViewWatchOptions } from './polls.js';

const VERSION = 1;
const STATE_FILE_MODE = 0o600;

/** What a watch watches: given tickets (sorted), or a view (null: the service's default) and its options as given. */
export type Watching = { ids: number[] } | { view: string | null; options: Record<string, string | boolean> };

export function ticketsWatching(ids: readonly number[]): Watching {
  return { ids: [...new Set(ids)].sort((a, b) => a - b) };
}

export function viewWatching(options: ViewWatchOptions, ctx: Context): Watching {
  const { view, ...others } = options;
  const given = Object.entries(others as Record<string, string | boolean | undefined>)
    .filter((entry): entry is [string, string | boolean] => entry[1] !== undefined)
    .sort(([a], [b]) => a.localeCompare(b));
  return { view: view ?? userSettings(ctx).defaultView ?? null, options: Object.fromEntries(given) };
}

/** `the view all-tickets --status open`, `the tickets #1001 #1002`. */
export function describeWatching(watching: Watching): string {
  if ('ids' in watching) return `the tickets ${watching.ids.map((id) => `#${id}`).join(' ')}`;
  const { view, options: given } = watching;
  const options = Object.entries(given).map(([name, value]) => {
    const flag = `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    return value === true ? flag : `${flag} ${String(value)}`;
  });
  return [view === null ? "the service's default view" : `the view ${view}`, ...options].join(' ');
}

function isWatching(value: unknown): value is Watching {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Array.isArray(record.ids) || (typeof record.options === 'object' && record.options !== null);
}

const sameWatch = (a: Watching, b: Watching) => describeWatching(a) === describeWatching(b);

/**
 * The snapshot kept in `file`, or undefined when there is none yet: no file, or an empty one (the
 * first run sets the baseline). A file that another watch wrote is refused; one written before watches were recorded
 * is taken (and records `watching` when next written).
 */
export async function readState(file: string, watching: Watching): Promise<Snapshot | undefined> {
  await assertWritableFolder(file);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the state file ${file}: ${(error as Error).message}`);
  }
  // mktemp and touch leave an empty file: a cron script may make FILE before the first run.
  if (text.trim() === '') return undefined;
  let tickets: unknown;
  let kept: unknown;
  try {
    const state = JSON.parse(text) as { version?: unknown; watching?: unknown; tickets?: unknown };
    if (state.version !== VERSION) throw new Error(`version ${String(state.version)}, not ${VERSION}`);
    tickets = state.tickets;
    kept = state.watching;
    if (!Array.isArray(tickets)) throw new Error('no tickets');
    if (kept !== undefined && !isWatching(kept)) throw new Error('no watch recorded');
  } catch (error) {
    throw new UsageError(`the state file ${file} is not one tkt watch wrote: ${(error as Error).message}`, {
      hint: 'remove it to start a new baseline',
    });
  }
  if (kept !== undefined && !sameWatch(kept, watching)) {
    throw new UsageError(`the state file ${file} belongs to another watch: ${describeWatching(kept)}, not ${describeWatching(watching)}`, {
      hint: `use another --state file for this watch, or remove ${file} to start a new baseline`,
    });
  }
  return new Map((tickets as WatchedTicket[]).map((ticket) => [String(ticket.id), ticket]));
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

export function writeState(file: string, watching: Watching, snapshot: Snapshot, at: string): void {
  try {
    replaceFile(file, `${JSON.stringify({ version: VERSION, at, watching, tickets: [...snapshot.values()] })}\n`, STATE_FILE_MODE);
  } catch (error) {
    throw new OperationError(`cannot write the state file ${file}: ${(error as Error).message}`);
  }
}
