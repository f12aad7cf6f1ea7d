/**
 * TERM=dumb: a terminal that shows escape sequences as text rather than acting on them (Emacs'
 * M-x shell, some IDE consoles). No colour there unless FORCE_COLOR, as chalk and gh decide, and
 * nothing that moves the cursor (README: Environment and files).
 */
export function isDumbTerminal(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.TERM === 'dumb';
}

/**
 * TKT_SCREEN_READER (set, and not 0 or false): a person reading the terminal with a screen reader
 * or a braille display. Questions are asked line by line, as at a dumb terminal, nothing animates,
 * and triage keeps the terminal's cursor on the highlighted row (README: Screen readers).
 */
export function forScreenReader(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.TKT_SCREEN_READER?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
