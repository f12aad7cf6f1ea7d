// Names typed without their accents still match: "jorg" finds Jörg Müller, as people type at a
// help desk. Comparisons fold case and drop combining marks; what is shown keeps its letters.
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}+/gu;

/** `text` lower-cased and without accents, for matching only (ASCII text takes the short way). */
export function foldForMatch(text: string): string {
  const lower = text.toLocaleLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}

/** `needle` occurs in `text` where a word starts (after a character that is no letter or digit). */
function atWordStart(text: string, needle: string): boolean {
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) {
    if (index === 0 || !/[\p{L}\p{N}]/u.test(text[index - 1]!)) return true;
  }
  return false;
}

/**
 * The items whose label holds `typed` (case and accents aside), the best first: the label
 * itself, then labels that start with it, then those with a word that does, then the rest; each
 * in list order (README: typed "om", Omar Haddad comes before Tom Tech). Every picker orders so.
 */
export function rankTyped<T>(items: readonly T[], label: (item: T) => string, typed: string): T[] {
  const needle = foldForMatch(typed);
  const rank = (item: T): number | undefined => {
    const text = foldForMatch(label(item));
    if (text === needle) return 0;
    if (text.startsWith(needle)) return 1;
    if (atWordStart(text, needle)) return 2;
    return text.includes(needle) ? 3 : undefined;
  };
  return items
    .map((item) => ({ item, rank: rank(item) }))
    .filter((ranked): ranked is { item: T; rank: number } => ranked.rank !== undefined)
    .sort((a, b) => a.rank - b.rank)
    .map((ranked) => ranked.item);
}
