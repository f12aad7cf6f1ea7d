// The --interval of tkt watch and tkt triage: how often they read the service again.
import type { Context } from '../context/context.js';

export const DEFAULT_INTERVAL_SECONDS = 60;
export const MIN_INTERVAL_SECONDS = 10;

/** An --interval of `seconds` in milliseconds, unless the test-only variable `testVariable` replaces it. */
export function intervalMs(seconds: number, ctx: Context, testVariable: string): number {
  const replaced = ctx.env[testVariable];
  return replaced === undefined ? seconds * 1000 : Number(replaced);
}
