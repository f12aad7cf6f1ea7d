// Choosing from a list by typing (the assign and view pickers): which choices the typed text
// shows, the best first.

import { rankTyped } from '../util/fold.js';

/** What the template picker (templates.ts) was opened for: r or s. */
export type TemplatePurpose = 'reply' | 'resolve';

export interface Choice {
  label: string;
  value: string;
}

/**
 * The choices whose label holds `query` (case and accents aside), the best first, as every picker
 * ranks them (util/fold.ts rankTyped): typed "unassigned", the view unassigned-tickets comes
 * before my-open-or-unassigned.
 */
export function pickerMatches(choices: readonly Choice[], query: string): Choice[] {
  return rankTyped(choices, (choice) => choice.label, query);
}
