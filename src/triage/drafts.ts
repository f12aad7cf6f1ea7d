// Replies and resolution notes written in triage that the service refused, kept until the next
// r or s (README, Triage): leaving the screen saves each one as a file in the config folder's
// drafts/ (src/cmdutil/drafts.ts, where the commands keep the text typed for a failed request),
// and says where, as gh saves the text of an issue it could not create. Nothing written is lost on q.
import { replyDraftStem, resolutionDraftStem, saveDraft } from '../cmdutil/drafts.js';
import type { ConfigStore } from '../config/types.js';
import type { DraftKind, TriageState } from './state.js';

/** Each kind of draft: its file's name and its name in what is said. */
const KINDS: Readonly<Record<DraftKind, { file: (id: number) => string; said: (id: number) => string }>> = {
  reply: { file: replyDraftStem, said: (id) => `the reply to #${id}` },
  resolution: { file: (id) => resolutionDraftStem([id]), said: (id) => `the resolution of #${id}` },
};

/**
 * Saves the unsent texts of `profile`, by kind and ticket; a line per text saying where it is
 * (or, when it could not be saved, the text itself).
 */
export async function saveDrafts(
  config: Pick<ConfigStore, 'dir' | 'home'>,
  profile: string,
  { drafts, draftsInDoubt }: Pick<TriageState, 'drafts' | 'draftsInDoubt'>,
): Promise<string[]> {
  const said: string[] = [];
  for (const kind of ['reply', 'resolution'] as const) {
    for (const [id, text] of drafts[kind]) {
      const { file: stem, said: name } = KINDS[kind];
      // A send in doubt may have delivered it: never said to be not sent.
      const inDoubt = draftsInDoubt[kind].has(id);
      const sent = inDoubt ? 'may have been sent (in doubt)' : 'was not sent';
      try {
        const file = await saveDraft(config, profile, stem(id), text);
        said.push(`${name(id)} ${sent}; ${inDoubt ? 'it is kept' : 'it is saved'} in ${file}\n`);
      } catch (error) {
        said.push(`${name(id)} ${sent} and could not be saved (${(error as Error).message}); here it is:\n${text}\n`);
      }
    }
  }
  return said;
}
