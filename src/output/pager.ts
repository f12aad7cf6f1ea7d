// Long output at a terminal goes through the user's pager (`tkt config set pager`, $PAGER,
// default `less -FRX`: quits at once when the text fits the screen, keeps colour, leaves the
// text on screen), as git and gh do.
import { childEnv } from '../util/child-env.js';
import type { Writable } from 'node:stream';
import type { GlobalOptions } from '../config/globals.js';
import type { IO } from './io.js';
import { isCI } from '../util/ci.js';
import { envValue } from '../util/env.js';

// sh's status for a command it cannot find or run.
const NOT_RUNNABLE = new Set([126, 127]);
// sh's status for a pager that Ctrl-C ended: the user quit it, having seen the text, so it is not printed again.
const INTERRUPTED = 130;
// What git gives less and lv unless the user set them: a plain `less` keeps the colours too.
const PAGER_ENV = { LESS: 'FRX', LV: '-c' };
// tkt writes UTF-8 whatever the locale: less under LANG=C would show ö as <C3><B6>. A charset
// of the user's own (LESSCHARSET, or LESSCHARDEF, which LESSCHARSET would override) is kept; an
// empty one (`export LESSCHARSET=`) is none, as less reads it, and gets utf-8 in its place.
const charsetEnv = (env: Readonly<Record<string, string | undefined>>): Record<string, string> =>
  envValue(env, 'LESSCHARSET') === undefined && envValue(env, 'LESSCHARDEF') === undefined ? { LESSCHARSET: 'utf-8' } : {};

/**
 * The pager's environment. One that must stay until the user quits it (a full-screen program's,
 * where a ticket that fits would otherwise flash and be gone) gives less no -F: not git's, and
 * the user's own undone (-+F), their other options kept.
 */
function pagerEnv(env: Readonly<Record<string, string | undefined>>, stays: boolean): Record<string, string | undefined> {
  const own = { ...PAGER_ENV, ...childEnv(env), ...charsetEnv(env) };
  if (!stays) return own;
  return { ...own, LESS: env.LESS === undefined ? 'R' : `${env.LESS} -+F` };
}

/**
 * The command line to run: one that stays and runs less gets -+F last, which less reads after
 * $LESS and the options before it, so that an -F there (git's recommended `less -FRX`) is undone.
 */
function pagerCommand(pager: string, stays: boolean): string {
  const program = pager.trim().split(/\s+/)[0] ?? '';
  return stays && /(^|\/)less$/.test(program) ? `${pager} -+F` : pager;
}

/**
 * Whether a pager may take the terminal: stdout is one that reports its rows and moves its
 * cursor (not TERM=dumb, where less cannot draw), and someone can answer the pager. Never under
 * CI or --no-input, nor at a terminal of unknown size (a pty of `script` or `docker run -t`),
 * where less would wait for keys nobody sends.
 */
export function mayPage(io: IO, globals: Pick<GlobalOptions, 'input'>, env: Readonly<Record<string, string | undefined>>): boolean {
  return io.stdoutIsTTY && io.cursorControl && globals.input && !isCI(env) && io.size().rowsReported;
}

/**
 * Why a pager did not show the text, or may not have: it could not be run (nothing was shown), or
 * the status it failed with (a bad option in PAGER, PAGER=false). Less exits 0 on q.
 */
export type PagerTrouble = 'not run' | number;

/** What to say of a pager, `named` as the user knows it (`the pager "most" ($PAGER)`), that had `trouble`. */
export const pagerTroubleText = (named: string, trouble: PagerTrouble): string =>
  trouble === 'not run' ? `${named} could not be run` : `${named} exited with status ${trouble}`;

/**
 * Pages `text` through `pager` (a command line, run by sh, in `env`) on the terminal; with
 * `stays`, less stays until q even when the text fits (pagerEnv, pagerCommand). Undefined once
 * the user quit it; else its trouble: what to do instead (print the text) is the caller's to decide.
 */
export async function pageText(
  text: string,
  pager: string,
  stdout: Writable,
  env: Readonly<Record<string, string | undefined>>,
  { stays = false }: { stays?: boolean } = {},
): Promise<PagerTrouble | undefined> {
  // The terminal itself when stdout is one (less needs it); otherwise copied into stdout.
  const fd = (stdout as { fd?: unknown }).fd;
  const direct = typeof fd === 'number';
  // Loaded here: child_process (with net and dgram) is no cost of a run that does not page.
  const { spawn } = await import('node:child_process');
  const child = spawn('sh', ['-c', pagerCommand(pager, stays)], { stdio: ['pipe', direct ? stdout : 'pipe', 'inherit'], env: pagerEnv(env, stays) });
  const copied = direct ? Promise.resolve() : new Promise<void>((resolve) => child.stdout!.on('end', resolve).pipe(stdout, { end: false }));
  // A pager quit early (q in less) closes its stdin: not an error.
  child.stdin!.on('error', () => undefined);
  child.stdin!.end(text);
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(127));
    child.once('close', resolve);
  });
  await copied;
  // null: ended by a signal (Ctrl-C in a pager sh ran in its place), as the user quit it.
  if (code === null || code === 0 || code === INTERRUPTED) return undefined;
  return NOT_RUNNABLE.has(code) ? 'not run' : code;
}
