// Keys typed faster than what they open (README, Triage): a and, with reply templates, r and s
// open their picker once the technicians or the templates are read (s reads the ticket before
// either); s without templates its prompt then too; r the editor and Enter the pager once the ticket is read. What is typed
// meanwhile, in the same chunk as the key or after it, waits here, and goes to the picker or
// the prompt in order once it is open, as if it had been there. The editor and the pager cannot
// be given it (they read the terminal themselves): it is dropped when they take the terminal,
// as it is when the picker cannot open.
//
// Keys typed while an action runs wait for it too: a key that acts on a ticket is queued with the
// ticket highlighted when it was typed (the highlight moves on meanwhile), and once the action is
// over each runs in turn on its ticket (press.ts takeTurns); what is typed after a queued key
// that opens something (a picker, a prompt, the question of c) is that thing's, and waits with it.
import type { Effect } from './events.js';
import { actionOf, type Action } from './keys.js';
import type { Awaited, TriageState, TypedAhead } from './state.js';
import type { Step } from './transitions.js';

/** What an effect opens once it has run, if anything. */
function awaitedBy(effect: Effect): Awaited | undefined {
  switch (effect.kind) {
    case 'readTechnicians':
      return 'technicians';
    case 'checkResolve':
      return 'resolveCheck';
    case 'readTemplates':
      return 'templates';
    case 'showInPager':
      return 'pager';
    case 'act':
      return effect.action.kind === 'reply' || effect.action.kind === 'resolveInEditor' ? 'editor' : undefined;
    default:
      return undefined;
  }
}

/** `step`, holding what is typed next when one of its effects opens something. */
export function holdingKeys(step: Step): Step {
  if (step.state.opening !== undefined) return step;
  const awaits = step.effects.map(awaitedBy).find((awaited) => awaited !== undefined);
  return awaits === undefined ? step : { ...step, state: { ...step.state, opening: { awaits, typed: [] } } };
}

/** `input` kept until what is on its way has come. */
export const typedAhead = (state: TriageState, opening: NonNullable<TriageState['opening']>, input: TypedAhead): TriageState => ({
  ...state,
  opening: { ...opening, typed: [...opening.typed, input] },
});

/**
 * One of `awaited` has come, or will not: the state no longer holding keys, and what was typed
 * meanwhile (nothing when the keys held were for something else).
 */
export function arrived(state: TriageState, ...awaited: Awaited[]): { state: TriageState; typed: readonly TypedAhead[] } {
  const { opening } = state;
  if (opening === undefined || !awaited.includes(opening.awaits)) return { state, typed: [] };
  return { state: { ...state, opening: undefined }, typed: opening.typed };
}

/** Keys that act on the highlighted ticket: typed while an action runs, they wait their turn. */
export const TICKET_KEYS: ReadonlySet<Action> = new Set(['show', 'pickUp', 'markRead', 'browse', 'reopen', 'reply', 'resolve', 'close', 'assign']);

/** Keys whose action opens something that what is typed next goes to. */
const OPENERS: ReadonlySet<Action> = new Set(['reply', 'resolve', 'close', 'assign']);

/** A queued key that opens something: what is typed after it is its, and waits too. */
export const queuedBehindOpener = (state: TriageState): boolean =>
  state.queued.some(
    (item) => 'typed' in item && item.on !== undefined && item.typed.kind === 'key' && OPENERS.has(actionOf(item.typed.input, item.typed.key)!),
  );
