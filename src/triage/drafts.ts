// Replies and resolution notes written in triage that the service refused, kept until the next
// r or s (README, Triage): leaving the screen saves each one as a file in the config folder's
// drafts/, and says where, as gh saves the text of an issue it could not create. Nothing written
// is lost on q.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DraftKind, TriageState } from './state.js';

export const draftsDir = (configDir: string) => join(configDir, 'drafts');

/** Writes `text` to `<stem>.txt` in `folder`, or `<stem>-2.txt`…: never over a draft saved before. */
async function writeNew(folder: string, stem: string, text: string): Promise<string> {
  for (let count = 1; ; count++) {
    const file = join(folder, count === 1 ? `${stem}.txt` : `${stem}-${count}.txt`);
    try {
      await writeFile(file, text.endsWith('\n') ? text : `${text}\n`, { flag: 'wx', mode: 0o600 });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** Each kind of draft: its file's name and its name in what is said. */
const KINDS: Readonly<Record<DraftKind, { file: (id: number) => string; said: (id: number) => string }>> = {
  reply: { file: (id) => `reply-${id}`, said: (id) => `the reply to #${id}` },
  resolution: { file: (id) => `resolution-${id}`, said: (id) => `the resolution of #${id}` },
};

/** Saves the unsent texts, by kind and ticket; a line per text saying where it is (or, when it could not be saved, the text itself). */
export async function saveDrafts(configDir: string, drafts: TriageState['drafts']): Promise<string[]> {
  const said: string[] = [];
  for (const kind of ['reply', 'resolution'] as const) {
    for (const [id, text] of drafts[kind]) {
      const { file: stem, said: name } = KINDS[kind];
      try {
        await mkdir(draftsDir(configDir), { recursive: true, mode: 0o700 });
        const file = await writeNew(draftsDir(configDir), stem(id), text);
        said.push(`${name(id)} was not sent; it is saved in ${file}\n`);
      } catch (error) {
        said.push(`${name(id)} was not sent and could not be saved (${(error as Error).message}); here it is:\n${text}\n`);
      }
    }
  }
  return said;
}
