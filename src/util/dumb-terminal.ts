/**
 * TERM=dumb: a terminal that shows escape sequences as text rather than acting on them (Emacs'
 * M-x shell, some IDE consoles). No colour there unless FORCE_COLOR, as chalk and gh decide, and
 * nothing that moves the cursor (README: Environment and files).
 */
export function isDumbTerminal(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.TERM === 'dumb';
}
