// Names typed without their accents still match: "jorg" finds Jörg Müller, as people type at a
// help desk. Comparisons fold case and drop combining marks; what is shown keeps its letters.
const NON_ASCII = /[^\u0000-\u007f]/;
const MARKS = /\p{M}+/gu;

/** `text` lower-cased and without accents, for matching only (ASCII text takes the short way). */
export function foldForMatch(text: string): string {
  const lower = text.toLocaleLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '') : lower;
}
