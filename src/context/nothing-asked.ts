// Why a run asks nothing (io.canPrompt false), for the message of what it would have asked. The
// one wording of it: a person at a terminal who set --no-input or runs under CI is told so, not
// that there is no terminal.
import type { Context } from './context.js';
import { isCI } from '../util/ci.js';

/** "--no-input: nothing is asked", "CI is set: nothing is asked", else "no terminal to ask on". */
export function whyNothingIsAsked(run: Pick<Context, 'globals' | 'env'>): string {
  if (!run.globals.input) return '--no-input: nothing is asked';
  if (isCI(run.env)) return 'CI is set: nothing is asked';
  return 'no terminal to ask on';
}
