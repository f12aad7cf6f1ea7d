// The transitions that keys and effect results share (update.ts, press.ts): a load, an action
// on a ticket, a word in the status line, the end.
import type { Effect, TicketAction } from './events.js';
import { keyFor } from './keys.js';
import { currentRow, withRows, type DraftKind, type Ending, type Tone, type TriageState } from './state.js';

/** What update gives back: the next state, and the effects that it asks to be run. */
export interface Step {
  state: TriageState;
  effects: readonly Effect[];
}

/** What the status line says of a text kept from a failed send. */
export const KEPT_DRAFT: Readonly<Record<DraftKind, string>> = {
  reply: `your reply is kept: ${keyFor('reply')} opens it again`,
  resolution: `your notes are kept: ${keyFor('resolve')} opens them again`,
};

export const unchanged = (state: TriageState): Step => ({ state, effects: [] });

/** `step`, then what `next` makes of its state: the effects of both. */
export function andThen(step: Step, next: (state: TriageState) => Step): Step {
  const after = next(step.state);
  return { state: after.state, effects: [...step.effects, ...after.effects] };
}

export const say = (state: TriageState, text: string, tone: Tone): Step => unchanged({ ...state, status: { text, tone } });

export const end = (state: TriageState, ending: Ending): Step => ({ state: { ...state, ended: true }, effects: [{ kind: 'end', ending }] });

/** Reads `view` and shows it; its answer wins over any load started before. */
export function startLoad(state: TriageState, view: string): Step {
  const token = state.loads + 1;
  const loading = { token, saysReadAgain: state.loadedOnce && view === state.view && state.loading === undefined };
  const started: TriageState = { ...state, view, loads: token, loading };
  // Another view starts unfiltered: a filter carried over would hide its tickets unasked.
  const shown = view === state.view ? started : withRows({ ...started, filtering: false }, [], '', 0);
  return { state: shown, effects: [{ kind: 'loadView', view, token }] };
}

/** As the status line says what is going on: "picking up #7…". */
const VERBS: Readonly<Record<TicketAction['kind'], string>> = {
  pickUp: 'picking up',
  markRead: 'marking read',
  browse: 'opening',
  reopen: 'reopening',
  close: 'closing',
  resolve: 'resolving',
  resolveInEditor: 'resolving',
  assign: 'assigning',
  reply: 'replying to',
};

/** What the user wrote that `action` sends, if anything. */
const draftKindOf = (action: TicketAction): DraftKind | undefined =>
  action.kind === 'reply' ? 'reply' : action.kind === 'resolve' || action.kind === 'resolveInEditor' ? 'resolution' : undefined;

/** Runs `action` on ticket `id`, unless another action is still running. */
export function actOn(state: TriageState, id: number, action: TicketAction): Step {
  if (state.running !== undefined) return say(state, 'wait: an action is still running', 'error');
  const verb = VERBS[action.kind];
  const running = { id, verb, sends: draftKindOf(action) };
  return { state: { ...state, running, status: { text: `${verb} #${id}…`, tone: 'info' } }, effects: [{ kind: 'act', id, action }] };
}

/** Runs `action` (or the one made for its ID) on the highlighted ticket. */
export function actOnHighlighted(state: TriageState, action: TicketAction | ((id: number) => TicketAction)): Step {
  const row = currentRow(state);
  if (row === undefined) return say(state, 'no ticket highlighted', 'error');
  return actOn(state, row.id, typeof action === 'function' ? action(row.id) : action);
}
