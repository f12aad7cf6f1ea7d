// The transitions that keys and effect results share (update.ts, press.ts): a load, an action
// on a ticket, a word in the status line, the end.
import type { Effect, TicketAction } from './events.js';
import { keyFor, keyName } from './keys.js';
import { withDraft, withRows, type DraftKind, type Ending, type Queued, type Tone, type TriageState } from './state.js';

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

/**
 * The run ends: what waited for the action being sent is not done (its outcome is said after the
 * screen). Notes being typed at the resolve prompt are kept as notes not sent are, and saved with
 * them (README, Triage: Ctrl-C there ends the run as at any of the CLI's prompts, Esc cancels the prompt).
 */
export function end(state: TriageState, ending: Ending): Step {
  const { overlay } = state;
  const drafts = overlay?.kind === 'prompt' ? withDraft(state.drafts, 'resolution', overlay.resolves, overlay.text) : state.drafts;
  return {
    state: { ...state, drafts, ended: true, queued: [], left: { outcomes: [], notDone: state.queued.flatMap(notDone) } },
    effects: [{ kind: 'end', ending }],
  };
}

/** A queued key as the list of what was not done says it ("p on #7"); nothing for what was typed into what a key opens. */
function notDone(item: Queued): string[] {
  if ('action' in item) return [`${VERBS[item.action.kind]} #${item.on}`];
  if (item.on === undefined || item.typed.kind !== 'key') return [];
  return [`${keyName(item.typed.input, item.typed.key)} on #${item.on}`];
}

/** Reads `view` and shows it; its answer wins over any load started before. */
export function startLoad(state: TriageState, view: string): Step {
  const token = state.loads + 1;
  const loading = { token, saysReadAgain: state.loadedOnce && view === state.view && state.loading === undefined };
  const started: TriageState = { ...state, view, loads: token, loading };
  // Another view starts unfiltered: a filter carried over would hide its tickets unasked.
  const shown = view === state.view ? started : withRows({ ...started, filtering: false }, [], '', 0);
  return { state: shown, effects: [{ kind: 'loadView', view, token }] };
}

/** `item` waiting for the action running; the status line says how many wait. */
export function queue(state: TriageState, item: Queued): TriageState {
  const queued = [...state.queued, item];
  const { running } = state;
  if (running === undefined) return { ...state, queued };
  const waiting = queued.filter((entry) => entry.on !== undefined).length;
  return { ...state, queued, status: { text: `${running.verb} #${running.id}… (then ${waiting} more)`, tone: 'info' } };
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

/** Runs `action` on ticket `id`; after the one running, when there is one (typed-ahead.ts). */
export function actOn(state: TriageState, id: number, action: TicketAction): Step {
  if (state.running !== undefined) return unchanged(queue(state, { action, on: id }));
  const verb = VERBS[action.kind];
  const running = { id, verb, sends: draftKindOf(action) };
  return { state: { ...state, running, status: { text: `${verb} #${id}…`, tone: 'info' } }, effects: [{ kind: 'act', id, action }] };
}
