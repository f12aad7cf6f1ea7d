// Why a run asks nothing (io.canPrompt false), for the message of what it would have asked. The
// one wording of it: a person at a terminal who set --no-input or runs under CI is told so, not
// that there is no terminal, and is told the way to be asked that fits.
import type { Context } from './context.js';
import { isCI } from '../util/ci.js';

export interface NothingAsked {
  /** "--no-input: nothing is asked", "CI is set: nothing is asked", else "no terminal to ask on". */
  reason: string;
  /** What would let the run ask: "run without --no-input", "run with CI unset", "run at a terminal". */
  toBeAsked: string;
}

export function whyNothingIsAsked(run: Pick<Context, 'globals' | 'env'>): NothingAsked {
  if (!run.globals.input) return { reason: '--no-input: nothing is asked', toBeAsked: 'run without --no-input' };
  if (isCI(run.env)) return { reason: 'CI is set: nothing is asked', toBeAsked: 'run with CI unset' };
  return { reason: 'no terminal to ask on', toBeAsked: 'run at a terminal' };
}
