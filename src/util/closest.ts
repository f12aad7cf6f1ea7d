// How close a typed word is to the names it may have meant: the edit distance that orders a
// lookup's candidates (src/lookups/), and the one name a "did you mean" offers, by commander's
// rule for a misspelt command (at most 3 edits, and more alike than not: similarity above 0.4).

/** Edit distance (insertions, deletions, substitutions) between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

const MAX_EDITS = 3;
const MIN_SIMILARITY = 0.4;

/** The name of `names` that `typed` most likely meant (the first of the closest), or undefined when none is close. */
export function closestName(typed: string, names: readonly string[]): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of names) {
    const edits = editDistance(typed, name);
    const similarity = (Math.max(typed.length, name.length) - edits) / Math.max(typed.length, name.length);
    if (edits > 0 && edits <= MAX_EDITS && similarity > MIN_SIMILARITY && (best === undefined || edits < best.edits)) best = { name, edits };
  }
  return best?.name;
}
