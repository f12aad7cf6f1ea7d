// tkt triage --interval (README, Triage): the view read again on a timer, through the differ of
// `tkt watch` (src/watch/events.ts), and the rows that changed since the previous read marked
// until the highlight next moves. The timer is an effect (wait), its end a tick event.
import { diffSnapshots, watchedTicket, type Snapshot } from '../watch/events.js';
import type { Effect } from './events.js';
import { currentRow, type TriageState } from './state.js';
import { startLoad, type Step } from './transitions.js';

export const waitFor = (ms: number): Effect => ({ kind: 'wait', ms });

/** The timer is up: the view is read again (unless a read is under way), and the next wait starts. */
export function tick(state: TriageState): Step {
  const { interval } = state;
  if (interval === undefined) return { state, effects: [] };
  const next = [waitFor(interval.ms)];
  if (state.loading !== undefined) return { state, effects: next };
  const load = startLoad(state, state.view);
  const token = load.state.loads;
  const quiet: TriageState = { ...load.state, loading: { token, saysReadAgain: false }, interval: { ...interval, token } };
  return { state: quiet, effects: [...load.effects, ...next] };
}

const snapshotOf = (items: readonly unknown[]): Snapshot => {
  const tickets: Snapshot = new Map();
  for (const item of items) {
    const ticket = watchedTicket(item);
    if (ticket !== undefined) tickets.set(String(ticket.id), ticket);
  }
  return tickets;
};

/**
 * After a read of the view: the rows that were added or changed since the previous read of the
 * same view marked, the others not. `before` is the state the load answered.
 */
export function markChanges(before: TriageState, loaded: TriageState, items: readonly unknown[]): TriageState {
  const { interval } = before;
  if (interval === undefined) return loaded;
  const tickets = snapshotOf(items);
  const previous = interval.last?.view === loaded.view ? interval.last.tickets : undefined;
  const changed = previous === undefined ? [] : diffSnapshots(previous, tickets, '').filter((event) => event.event !== 'removed');
  const newly = new Set(changed.map((event) => Number(event.id)));
  // Marks stay until the highlight moves, through reads that change nothing more.
  const marked = newly.size === 0 ? loaded.marked : new Set([...loaded.marked, ...newly]);
  // The timer's read leaves the status line to the actions: the marks say what it found (view.ts).
  const status = readByTimer(before) ? before.status : loaded.status;
  return { ...loaded, status, marked, interval: { ...interval, token: undefined, last: { view: loaded.view, tickets }, failed: undefined } };
}

/** The load awaited is the timer's (not R's, nor a switch of view's). */
export const readByTimer = (state: TriageState): boolean => state.interval?.token !== undefined && state.interval.token === state.loading?.token;

/** A move of the highlight to another ticket clears the marks. */
export function clearMarksOnMove(before: TriageState, step: Step): Step {
  if (step.state.marked.size === 0 || currentRow(before)?.id === currentRow(step.state)?.id) return step;
  return { ...step, state: { ...step.state, marked: new Set() } };
}
