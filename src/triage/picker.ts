// Choosing from a list by typing (the assign and view pickers): which choices the typed text
// shows, the best first.

import { foldForMatch } from '../util/fold.js';

/** What the template picker (templates.ts) was opened for: r or s. */
export type TemplatePurpose = 'reply' | 'resolve';

export interface Choice {
  label: string;
  value: string;
}

/** `needle` occurs in `text` where a word starts (after a character that is no letter or digit). */
function atWordStart(text: string, needle: string): boolean {
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + 1)) {
    if (index === 0 || !/[\p{L}\p{N}]/u.test(text[index - 1]!)) return true;
  }
  return false;
}

/**
 * The choices whose label holds `query` (case and accents aside), the best first: the label itself, then
 * labels that start with it, then those with a word that does, then the rest; each in list
 * order. Typed "unassigned", the view unassigned-tickets comes before my-open-or-unassigned.
 */
export function pickerMatches(choices: readonly Choice[], query: string): Choice[] {
  const needle = foldForMatch(query);
  const rank = (label: string): number | undefined => {
    const text = foldForMatch(label);
    if (text === needle) return 0;
    if (text.startsWith(needle)) return 1;
    if (atWordStart(text, needle)) return 2;
    return text.includes(needle) ? 3 : undefined;
  };
  return choices
    .map((choice) => ({ choice, rank: rank(choice.label) }))
    .filter((ranked): ranked is { choice: Choice; rank: number } => ranked.rank !== undefined)
    .sort((a, b) => a.rank - b.rank)
    .map((ranked) => ranked.choice);
}
