// The word meant by a misspelt one, for a usage error's "(Did you mean ...?)" and a template's or
// a lookup's "did you mean": commander's own rule (the fewest edits, a swap of two letters counting
// as one, and more than 40% of the word kept), with a word typed as the start of only one
// candidate ("del" for delete) first, then one typed with more after it. The edit distance also orders a lookup's candidates.

/** Edits from `a` to `b`: insertions, deletions, substitutions, and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The candidate `typed` most likely means, or undefined when none is close; leading dashes are not compared. */
export function closestWord(typed: string, candidates: readonly string[]): string | undefined {
  const bare = (word: string) => word.replace(/^--?/, '');
  const word = bare(typed);
  if (word.length < 2) return undefined;
  const started = [...new Set(candidates.filter((candidate) => bare(candidate).startsWith(word)))];
  if (started.length === 1) return started[0];
  // A candidate with more typed after it (`my-escalated-tickets` for my-escalated): the longest
  // such, if it is most of the word; the fewest edits would pick a word of the same length.
  const within = candidates.filter((candidate) => word.startsWith(bare(candidate))).sort((a, b) => bare(b).length - bare(a).length)[0];
  if (within !== undefined && bare(within).length / word.length > 0.4) return within;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(word, bare(candidate));
    const length = Math.max(word.length, bare(candidate).length);
    if ((length - distance) / length > 0.4 && (best === undefined || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
