// Driving triage's update function (src/triage/update.ts) event by event, as the program loop does.
import type { TriageEvent } from '../../src/triage/events.js';
import { update, type Step } from '../../src/triage/update.js';

/** Every event in turn, from `step`: the last state, and every effect asked for on the way. */
export function run(step: Step, ...events: TriageEvent[]): Step {
  return events.reduce((last, event) => {
    const next = update(last.state, event);
    return { state: next.state, effects: [...last.effects, ...next.effects] };
  }, step);
}

/**
 * The events that follow `step`, with only their own effects. (Tests import it as `then`; a
 * module may not export that name: importing it would treat the module as a promise.)
 */
export const stepsAfter = (step: Step, ...events: TriageEvent[]) => run({ state: step.state, effects: [] }, ...events);
