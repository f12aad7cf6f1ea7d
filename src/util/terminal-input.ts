// What a terminal sends, told apart: keys, pasted text, and the terminal's own answers. A
// terminal writes more than keys into a program's input: replies to queries that a program
// (often an editor that has already exited) sent it, such as cursor-position reports
// (ESC[row;colR), device attributes (ESC[?1;2c, ESC[>84;0;0c), mode reports, focus events
// (ESC[I, ESC[O) and OSC/DCS strings (ESC]11;rgb:…BEL). Read as keys, their letters act: the R
// of a cursor report reads the view again. Here every escape sequence is read whole, and only
// the ones keyboards send are keys; the rest is dropped.

/** One thing typed: a key (its bytes: one character, or one escape sequence) or a paste. */
export type TerminalInput = { kind: 'key'; sequence: string } | { kind: 'paste'; text: string };

/** A key press as the screen reads it: the character typed, or which special key. */
export interface KeyPress {
  upArrow?: boolean;
  downArrow?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  pageUp?: boolean;
  pageDown?: boolean;
  home?: boolean;
  end?: boolean;
  return?: boolean;
  escape?: boolean;
  backspace?: boolean;
  delete?: boolean;
  tab?: boolean;
  ctrl?: boolean;
}

const ESC = '\x1b';
const BEL = '\x07';
const STRING_TERMINATOR = `${ESC}\\`;
/** Asks the terminal to mark pastes (xterm's bracketed paste mode); the second sequence stops it. */
export const BRACKETED_PASTE_ON = `${ESC}[?2004h`;
export const BRACKETED_PASTE_OFF = `${ESC}[?2004l`;
/** With bracketed paste on, the terminal wraps a paste in these. */
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;
/** ESC and one of these opens a string that runs to BEL or ESC \: OSC, DCS, SOS, PM, APC. */
const STRING_OPENERS = new Set([']', 'P', 'X', '^', '_']);

// The CSI sequences that keys send: arrows, Home/End, Shift-Tab, F1-F4 with modifiers, ESC[n~
// for Insert, Delete, PgUp, PgDn and the function keys, the Linux console's ESC[[A for F1. Only
// digits and ; stand between ESC[ and the final byte; replies carry ? > < = or other finals. R
// is not a key's: ESC[1;2R is Shift-F3 on some terminals, but a cursor-position report too.
const KEY_CSI = /^\x1b\[(?:\[[A-E]|[0-9;]*[ABCDEFHPQSZ~])$/;

/**
 * Where the CSI sequence that starts at `start` (ESC [) ends: after its final byte; or, when a
 * byte no sequence holds breaks it, at that byte (`broken`); undefined when the text ends first.
 */
function csiEnd(text: string, start: number): { end: number; broken: boolean } | undefined {
  for (let index = start + 2; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0x20 && code <= 0x3f) continue; // parameters and intermediates
    if (code === 0x5b && index === start + 2) continue; // the Linux console's ESC[[A
    return code >= 0x40 && code <= 0x7e ? { end: index + 1, broken: false } : { end: index, broken: true };
  }
  return undefined;
}

/**
 * Reads a terminal's input, chunk by chunk as it comes. An escape sequence cut at a chunk's end
 * waits for the next chunk; a lone ESC at the end is the Escape key (a terminal sends a sequence
 * in one write). A string (OSC, DCS …) and a paste may span chunks.
 */
export function createTerminalInputReader(): { read(chunk: string): TerminalInput[] } {
  let pending = '';
  /** Inside a paste: what was gathered so far. */
  let paste: string | undefined;
  /** Inside an OSC/DCS/… string: its bytes are dropped until its terminator. */
  let inString = false;

  return {
    read(chunk) {
      const text = pending + chunk;
      pending = '';
      const out: TerminalInput[] = [];
      let index = 0;
      while (index < text.length) {
        if (paste !== undefined) {
          const end = text.indexOf(PASTE_END, index);
          if (end === -1) {
            // Keep a possible start of the end marker for the next chunk.
            const keep = partialSuffix(text, PASTE_END);
            paste += text.slice(index, text.length - keep);
            pending = text.slice(text.length - keep);
            return out;
          }
          out.push({ kind: 'paste', text: paste + text.slice(index, end) });
          paste = undefined;
          index = end + PASTE_END.length;
          continue;
        }
        if (inString) {
          const bel = text.indexOf(BEL, index);
          const st = text.indexOf(STRING_TERMINATOR, index);
          const end = [bel === -1 ? Infinity : bel + 1, st === -1 ? Infinity : st + 2].reduce((a, b) => Math.min(a, b));
          if (end === Infinity) {
            if (text.endsWith(ESC)) pending = ESC;
            return out;
          }
          inString = false;
          index = end;
          continue;
        }
        const char = text[index]!;
        if (char !== ESC) {
          const codePoint = String.fromCodePoint(text.codePointAt(index)!);
          out.push({ kind: 'key', sequence: codePoint });
          index += codePoint.length;
          continue;
        }
        const next = text[index + 1];
        if (next === undefined) {
          out.push({ kind: 'key', sequence: ESC });
          index += 1;
        } else if (next === '[') {
          const csi = csiEnd(text, index);
          if (csi === undefined) {
            pending = text.slice(index);
            return out;
          }
          const sequence = text.slice(index, csi.end);
          index = csi.end;
          // Not a sequence a terminal sends: dropped up to the byte that broke it.
          if (csi.broken) continue;
          if (sequence === PASTE_START) paste = '';
          else if (sequence !== PASTE_END && KEY_CSI.test(sequence)) out.push({ kind: 'key', sequence });
          // Anything else is the terminal talking (or a paste end without its start): dropped.
        } else if (next === 'O') {
          // SS3: arrows, Home/End and F1-F4 in application mode.
          const final = text[index + 2];
          if (final === undefined) {
            pending = text.slice(index);
            return out;
          }
          out.push({ kind: 'key', sequence: text.slice(index, index + 3) });
          index += 3;
        } else if (STRING_OPENERS.has(next)) {
          inString = true;
          index += 2;
        } else if (next === '\\') {
          index += 2; // a string terminator without its string
        } else {
          // Escape, then a key typed right after it (read in the same chunk); no key here is Alt's.
          out.push({ kind: 'key', sequence: ESC });
          index += 1;
        }
      }
      return out;
    },
  };
}

/** How many characters at the end of `text` could begin `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(-length))) return length;
  }
  return 0;
}

/** Only the keys and pastes of `text`, as the terminal sent them: its replies taken out. */
export function keysOnly(text: string): string {
  return createTerminalInputReader()
    .read(text)
    .map((input) => (input.kind === 'key' ? input.sequence : PASTE_START + input.text + PASTE_END))
    .join('');
}

// The special keys, by the sequences terminals send for them (xterm, rxvt, the Linux console).
const SPECIAL_KEYS: Readonly<Record<string, KeyPress>> = {
  A: { upArrow: true },
  B: { downArrow: true },
  C: { rightArrow: true },
  D: { leftArrow: true },
  H: { home: true },
  F: { end: true },
  '1~': { home: true },
  '7~': { home: true },
  '4~': { end: true },
  '8~': { end: true },
  '3~': { delete: true },
  '5~': { pageUp: true },
  '6~': { pageDown: true },
  Z: { tab: true },
};

/** What a key's bytes (one TerminalInput key) stand for: the character typed, or a special key. */
export function keyPressOf(sequence: string): { input: string; key: KeyPress } {
  if (sequence === '\r' || sequence === '\n') return { input: '', key: { return: true } };
  if (sequence === '\x7f' || sequence === '\b') return { input: '', key: { backspace: true } };
  if (sequence === '\t') return { input: '', key: { tab: true } };
  if (sequence === ESC) return { input: '', key: { escape: true } };
  if (sequence.startsWith(`${ESC}[`) || sequence.startsWith(`${ESC}O`)) {
    // ESC[1;5A (an arrow with modifiers) is the arrow; ESC[5;2~ is PgUp.
    const body = sequence.slice(2).replace(/^\[/, '');
    const name = body.endsWith('~') ? `${body.slice(0, -1).split(';')[0]}~` : body.slice(-1);
    return { input: '', key: SPECIAL_KEYS[name] ?? {} };
  }
  const code = sequence.charCodeAt(0);
  // Ctrl with a letter: 1-26.
  if (sequence.length === 1 && code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ctrl: true } };
  if (code < 0x20) return { input: '', key: {} };
  return { input: sequence, key: {} };
}
