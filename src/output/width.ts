// Text measured as terminals count it: string-width's count (the one Ink draws triage with), but
// joined emoji as wide as their parts; cut and wrapped between graphemes. Tables, show's wrapping and triage all measure here.
import stringWidth from 'string-width';

const ELLIPSIS = '…';

// Text is cut between graphemes, as string-width segments it: never an emoji or a mark from its
// letter. Built on first use: a run's first Segmenter loads ICU's break rules (about 10 ms), and
// Latin text is measured and wrapped without one.
let segmenter: Intl.Segmenter | undefined;
const graphemes = (text: string): Intl.Segments => (segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text);

/** Where the grapheme holding the UTF-16 unit at `index` of `text` starts and ends (an emoji, a letter with its marks). */
export function graphemeAt(text: string, index: number): { start: number; end: number } {
  const { index: start, segment } = graphemes(text).containing(index)!;
  return { start, end: start + segment.length };
}

// Characters one column wide each, none zero-width or joining another: printable ASCII, Latin-1
// (but the soft hyphen) and Latin Extended, up to the combining marks (U+0300). string-width's
// own fast path is for ASCII alone; names like "Jörg Müller" cost it tens of microseconds each,
// this test 85 times less (bench/width.mjs).
const ONE_COLUMN_EACH = /^[\x20-\x7e\xa0-\xac\xae-\u02ff]*$/;

// Joined emoji (U+200D) and emoji with a skin tone (U+1F3FB-U+1F3FF): terminals disagree on
// them, one cell pair or one per part (tmux 3.3a draws "👩🏽‍💻" in 4 columns, others in 6).
const JOINED = /\u200d|[\u{1F3FB}-\u{1F3FF}]/u;

const SKIN_TONES = /[\u{1F3FB}-\u{1F3FF}]/gu;

/**
 * A joined emoji as wide as its parts side by side: the widest a terminal draws it. A part is an
 * emoji with what belongs to it (U+FE0F makes 🏳 two columns wide: it is no part of its own); a
 * skin tone a terminal does not join is drawn as a swatch of its own, two columns.
 */
const partsWidth = (cluster: string): number =>
  cluster.split('\u200d').reduce((sum, part) => {
    const tones = part.match(SKIN_TONES)?.length ?? 0;
    const emoji = part.replace(SKIN_TONES, '');
    return sum + (emoji === '' ? 0 : stringWidth(emoji)) + 2 * tones;
  }, 0);

/**
 * Columns a string takes on a terminal: string-width's count, the one Ink draws triage with
 * (CJK, emoji and flags two; combining marks none; "©" and "☀" one), except that a joined emoji
 * or one with a skin tone counts as its parts: a line is then at worst shorter than the
 * terminal, never wider (README, Output).
 */
export function displayWidth(text: string): number {
  if (ONE_COLUMN_EACH.test(text)) return text.length;
  if (!JOINED.test(text)) return stringWidth(text);
  let width = 0;
  for (const { segment } of graphemes(text)) width += JOINED.test(segment) ? partsWidth(segment) : stringWidth(segment);
  return width;
}

/** `text` cut to at most `width` columns, ending in "…" when it was cut. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (ONE_COLUMN_EACH.test(text)) return text.slice(0, Math.max(0, width - 1)) + ELLIPSIS;
  let kept = '';
  let used = 0;
  for (const { segment } of graphemes(text)) {
    const next = displayWidth(segment);
    if (used + next > width - 1) break;
    kept += segment;
    used += next;
  }
  return kept + ELLIPSIS;
}

/** `text` cut to its last `width` columns, starting with "…" when it was cut: the end of a line being typed. */
export function truncateStart(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let kept = '';
  let used = 0;
  for (const segment of Array.from(graphemes(text), ({ segment }) => segment).reverse()) {
    const next = displayWidth(segment);
    if (used + next > width - 1) break;
    kept = segment + kept;
    used += next;
  }
  return ELLIPSIS + kept;
}

/** `word` in pieces of at most `width` columns, broken between graphemes. */
function breakWord(word: string, width: number): string[] {
  if (displayWidth(word) <= width) return [word];
  if (ONE_COLUMN_EACH.test(word)) return Array.from({ length: Math.ceil(word.length / width) }, (_, i) => word.slice(i * width, (i + 1) * width));
  const pieces = [''];
  let used = 0;
  for (const { segment } of graphemes(word)) {
    const next = displayWidth(segment);
    if (used + next > width && used > 0) {
      pieces.push('');
      used = 0;
    }
    pieces[pieces.length - 1] += segment;
    used += next;
  }
  return pieces;
}

/**
 * Long lines broken between words to fit `width` columns (as the terminal counts them), each
 * continuation keeping its line's indent. A word longer than the line (a URL, or CJK text,
 * which has no spaces) is broken between graphemes: the terminal would break it at column 0.
 */
export function wrapText(text: string, width: number): string {
  return text
    .split('\n')
    .map((line) => {
      if (displayWidth(line) <= width) return line;
      const indent = /^\s*/.exec(line)![0];
      const room = Math.max(1, width - displayWidth(indent));
      const lines: string[] = [];
      let current = '';
      for (const word of line.slice(indent.length).split(/ +/)) {
        const candidate = current === '' ? word : `${current} ${word}`;
        if (displayWidth(candidate) <= room) {
          current = candidate;
          continue;
        }
        if (current !== '') lines.push(current);
        const pieces = breakWord(word, room);
        lines.push(...pieces.slice(0, -1));
        current = pieces.at(-1)!;
      }
      lines.push(current);
      return lines.map((wrapped) => indent + wrapped).join('\n');
    })
    .join('\n');
}
