// The words of an alias's expansion (tkt alias), split as sh splits plain words. Apart from
// src/desk/aliases.ts so that the bin's first stop (src/fast-start.ts) can read an alias's
// command for its help, and completion (src/completion/complete.ts) its words, without the rest
// of the aliases' code. $BROWSER's program is found by it too (src/desk/browser.ts).

/** `$1`, `$2`...: where an alias's arguments go. */
export const PLACEHOLDER = /\$(\d+)/g;

/**
 * Splits an expansion into words as sh would for plain words: blanks separate, '...' is literal,
 * "..." keeps blanks (\\" and \\\\ escaped), a backslash outside quotes escapes the next
 * character. A quote left open gives its character instead of the words.
 */
export function expansionWords(text: string): string[] | { unbalanced: "'" | '"' } {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word = (word ?? '') + char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (text[index + 1] === '"' || text[index + 1] === '\\')) word = (word ?? '') + text[++index]!;
      else word = (word ?? '') + char;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === '\\' && index + 1 < text.length) {
      word = (word ?? '') + text[++index]!;
    } else word = (word ?? '') + char;
  }
  if (quote !== undefined) return { unbalanced: quote };
  if (word !== undefined) words.push(word);
  return words;
}
