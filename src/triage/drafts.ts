// Replies and resolution notes written in triage that the service refused, kept until the next
// r or s (README, Triage): leaving the screen saves each one as a file in the config folder's
// drafts/ (src/cmdutil/drafts.ts, where the commands keep the text typed for a failed request),
// and says where, as gh saves the text of an issue it could not create. Nothing written is lost on q.
import { replyDraftStem, resendHint, resolutionDraftStem, saveDraft, type Resend } from '../cmdutil/drafts.js';
import { resolveProfileName, type RunPlace } from '../config/session.js';
import type { ConfigStore } from '../config/types.js';
import type { DraftKind, TriageState } from './state.js';

/** Each kind of draft: its file's name, its name in what is said, and the command that sends it, as the CLI's own drafts say it. */
const KINDS: Readonly<Record<DraftKind, { file: (id: number) => string; said: (id: number) => string; resend: (id: number) => Resend }>> = {
  reply: { file: replyDraftStem, said: (id) => `the reply to #${id}`, resend: (id) => ({ words: `reply ${id}`, fileOption: '--message-file' }) },
  resolution: {
    file: (id) => resolutionDraftStem([id]),
    said: (id) => `the resolution of #${id}`,
    resend: (id) => ({ words: `resolve ${id}`, fileOption: '--details-file' }),
  },
};

/**
 * Saves the unsent texts of the run's profile, by kind and ticket; a line per text saying where it
 * is, with the command that sends it when it was not sent (or, when it could not be saved, the
 * text itself).
 */
export async function saveDrafts(
  config: Pick<ConfigStore, 'dir' | 'home'>,
  run: RunPlace,
  { drafts, draftsInDoubt }: Pick<TriageState, 'drafts' | 'draftsInDoubt'>,
): Promise<string[]> {
  const profile = resolveProfileName(run);
  const said: string[] = [];
  for (const kind of ['reply', 'resolution'] as const) {
    for (const [id, text] of drafts[kind]) {
      const { file: stem, said: name, resend } = KINDS[kind];
      // A send in doubt may have delivered it: never said to be not sent.
      const inDoubt = draftsInDoubt[kind].has(id);
      const sent = inDoubt ? 'may have been sent (in doubt)' : 'was not sent';
      try {
        const file = await saveDraft(config, profile, stem(id), text);
        // One in doubt gets no command: sent again, it could reach the requester twice.
        said.push(`${name(id)} ${sent}; ${inDoubt ? 'it is kept' : 'it is saved'} in ${file}\n${inDoubt ? '' : resendHint(run, resend(id), file)}`);
      } catch (error) {
        said.push(`${name(id)} ${sent} and could not be saved (${(error as Error).message}); here it is:\n${text}\n`);
      }
    }
  }
  return said;
}
