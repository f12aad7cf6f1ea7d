// The ? screen (README, Triage): every key of the table, each one's words wrapped under their
// column when the terminal is narrow, and scrolled when it is too short for them all: ↑ ↓ j k
// by a line, PgUp PgDn by a page, Home End g G to the ends; the last line says how many more
// there are, as the detail pane's does (at a screen of 3 lines there is one line: a key line).
// When it all fits, any key closes it.
import { wrapWords } from '../output/reflow.js';
import { truncate } from '../output/width.js';
import { KEYS_COLUMN, keyHelpLines, movedTo, type Action } from './keys.js';
import { coverRoom, layoutFor, type TerminalSize } from './layout.js';

/** The words of a key need this much room beside the keys; with less, they go under them. */
const MIN_WORDS_WIDTH = 16;
/** Where the words go under the keys, at a very narrow terminal. */
const UNDER_INDENT = 4;

/** The key lines at `width` columns: each one's words wrapped, after its keys or under them. */
function helpBody(width: number): string[] {
  const beside = 2 + KEYS_COLUMN + 2;
  return keyHelpLines().flatMap((line) => {
    if (line.length <= width) return [line];
    const keys = line.slice(0, beside);
    const words = line.slice(beside);
    if (width - beside >= MIN_WORDS_WIDTH) {
      const [first = '', ...rest] = wrapWords(words, width - beside);
      return [keys + first, ...rest.map((wrapped) => ' '.repeat(beside) + wrapped)];
    }
    return [keys.trimEnd(), ...wrapWords(words, width - UNDER_INDENT).map((wrapped) => ' '.repeat(UNDER_INDENT) + wrapped)];
  });
}

/** Below this many lines the help gives up its header, as the screen gives up its title (README, Triage). */
const HEADED_LINES = 3;

/**
 * The lines the help has: those of the list, its header, the rule and the detail; and the title's
 * too when those are fewer than its header, a key line and the more-lines line. The status line
 * and the footer keep theirs.
 */
export const helpRoom = (terminal: TerminalSize) => coverRoom(terminal, HEADED_LINES);

export interface HelpPage {
  /** Undefined on a screen too short for it: the key lines matter more. */
  header: string | undefined;
  /** The key lines shown, from `top`. */
  shown: string[];
  /** The last line: how many more there are, if any (and if there is a line for it beside a key line). */
  more: string | undefined;
  /** Whether there is more than fits: the moving keys scroll, and no longer close the help. */
  scrolls: boolean;
  top: number;
  /** The `top` that shows the last lines. */
  lastTop: number;
  /** How far PgUp and PgDn go. */
  page: number;
}

/** The help in `terminal`, from its key line `top` on (or as near it as shows no empty room). */
export function helpPage(terminal: TerminalSize, top: number): HelpPage {
  const { width } = layoutFor(terminal, 0);
  const body = helpBody(width);
  const { lines } = helpRoom(terminal);
  const headed = lines >= HEADED_LINES;
  // The key lines and the more-lines line; at one line, a key line alone.
  const room = Math.max(1, lines - Number(headed));
  const moreFits = room > 1;
  const lastTop = Math.max(0, body.length - room);
  const first = Math.max(0, Math.min(top, lastTop));
  const toTheEnd = first === lastTop;
  const shown = toTheEnd ? body.slice(first) : body.slice(first, first + room - Number(moreFits));
  const left = body.length - first - shown.length;
  const scrolls = lastTop > 0;
  return {
    header: headed ? (scrolls ? 'Keys (↑ ↓ scroll, other keys close)' : 'Keys (any key closes this)') : undefined,
    shown,
    more: left > 0 && moreFits ? truncate(`… ${left} more lines: ↓ or PgDn scrolls`, width) : undefined,
    scrolls,
    top: first,
    lastTop,
    page: Math.max(1, room - 1),
  };
}

/** Where `action` scrolls the help shown from `top`; undefined when it closes it. */
export function scrollHelp(terminal: TerminalSize, top: number, action: Action | undefined): number | undefined {
  const page = helpPage(terminal, top);
  return page.scrolls ? movedTo(action, page.top, page.page, page.lastTop) : undefined;
}
