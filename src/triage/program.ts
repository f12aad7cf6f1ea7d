// The loop that joins update.ts to the effects: an event makes the next state, the screen is
// told of it, then the effects it asks for are run and their results come back as events. The
// run ends with the end or fail effect.
import type { Effect, TriageEvent } from './events.js';
import type { EffectRunner } from './effects.js';
import type { Ending, TriageState } from './state.js';
import { update, type Step } from './update.js';

export interface TriageProgram {
  snapshot(): TriageState;
  /** Calls `listener` after each change of state; returns the way to stop. */
  subscribe(listener: () => void): () => void;
  dispatch(event: TriageEvent): void;
  /**
   * Resolves when the user quits: with q, or interrupted (Ctrl-C, or a signal). Rejects with the
   * error when the first load fails (there is nothing to show), or when an effect fails in a way
   * the runner does not report.
   */
  finished: Promise<Ending>;
}

/** Starts from `first` (update.ts's start), its effects at once. */
export function startProgram(first: Step, perform: EffectRunner): TriageProgram {
  let state = first.state;
  const listeners = new Set<() => void>();
  let finish: (ending: Ending) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const finished = new Promise<Ending>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });

  const run = (effects: readonly Effect[]) => {
    for (const effect of effects) {
      if (effect.kind === 'end') finish(effect.ending);
      else if (effect.kind === 'fail') fail(effect.error);
      else
        void perform(effect)
          .then((event) => {
            if (event !== undefined) dispatch(event);
          })
          .catch(fail);
    }
  };
  const dispatch = (event: TriageEvent) => {
    const step = update(state, event);
    if (step.state !== state) {
      state = step.state;
      for (const listener of listeners) listener();
    }
    run(step.effects);
  };

  run(first.effects);
  return {
    snapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    dispatch,
    finished,
  };
}
