// Names typed without their accents still match: "jorg" finds Jörg Müller, as people type at a
// help desk. Comparisons fold case, width and compatibility forms (NFKD: full-width Latin,
// half-width katakana) and drop combining marks; what is shown keeps its letters. The same in
// every locale: toLowerCase, never toLocaleLowerCase (under tr_TR it lowers I to ı, elsewhere i).
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}+/gu;
// Small letters no case mapping or decomposition joins to their twin: Turkish dotless ı (İ
// lowers to i and a dot, a mark), so plain Latin "isik" finds "IŞIK"; and Greek final ς, which
// toLowerCase gives at a word's end, made σ. Escaped: a bundle holds ASCII only.
const UNPAIRED = /[\u0131\u03c2]/g;
const TWIN: Readonly<Record<string, string>> = { '\u0131': 'i', '\u03c2': '\u03c3' };

/** `text` lower-cased and without accents, for matching only (ASCII text takes the short way). */
export function foldForMatch(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .toLowerCase()
    .replace(MARKS, '')
    .replace(UNPAIRED, (letter) => TWIN[letter]!);
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
