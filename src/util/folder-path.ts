// Paths of files in folders tkt already knows (the config folder, its own dist/), joined with the
// separator rather than by path.join: path.join walks every character of the whole path to
// normalize it, and the half a dozen such walks of a request command (with the module loader's
// own) made Node 24 compile its path code with Maglev at start: 2 MB more peak memory (README,
// Performance). The folder is taken as given (as the user wrote TKT_CONFIG_DIR).
import { sep } from 'node:path';

/** `names` under `folder`. Each name is a plain name, never "." or ".."; a "/" in one works on every OS. */
export function inFolder(folder: string, ...names: string[]): string {
  const under = names.join(sep);
  if (folder === '') return under;
  return folder.endsWith(sep) || folder.endsWith('/') ? `${folder}${under}` : `${folder}${sep}${under}`;
}
