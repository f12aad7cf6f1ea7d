// `tkt watch --state FILE`: the last poll's tickets kept between runs, replaced atomically once
// that poll's events are out, so a run after a crash tells what the crashed one did not.
import { readFile } from 'node:fs/promises';
import { OperationError, UsageError } from '../errors.js';
import { replaceFile } from '../util/replace-file.js';
import type { Snapshot, WatchedTicket } from './events.js';

const VERSION = 1;
const STATE_FILE_MODE = 0o600;

/** The snapshot kept in `file`, or undefined when there is none yet (the first run sets the baseline). */
export async function readState(file: string): Promise<Snapshot | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read the state file ${file}: ${(error as Error).message}`);
  }
  let tickets: unknown;
  try {
    const state = JSON.parse(text) as { version?: unknown; tickets?: unknown };
    if (state.version !== VERSION) throw new Error(`version ${String(state.version)}, not ${VERSION}`);
    tickets = state.tickets;
    if (!Array.isArray(tickets)) throw new Error('no tickets');
  } catch (error) {
    throw new UsageError(`the state file ${file} is not one tkt watch wrote: ${(error as Error).message}`, {
      hint: 'remove it to start a new baseline',
    });
  }
  return new Map((tickets as WatchedTicket[]).map((ticket) => [String(ticket.id), ticket]));
}

export function writeState(file: string, snapshot: Snapshot, at: string): void {
  try {
    replaceFile(file, `${JSON.stringify({ version: VERSION, at, tickets: [...snapshot.values()] })}\n`, STATE_FILE_MODE);
  } catch (error) {
    throw new OperationError(`cannot write the state file ${file}: ${(error as Error).message}`);
  }
}
