// Which path keeps a folder from being made or used: mkdir and open say only ENOTDIR or EEXIST.
import { statSync } from 'node:fs';
import path from 'node:path';

/** `folder`, or the nearest of its parents that exists, when that is not a folder (a regular file); else undefined. */
export function nonFolderOnPath(folder: string): string | undefined {
  for (let at = path.resolve(folder); ; at = path.dirname(at)) {
    try {
      return statSync(at).isDirectory() ? undefined : at;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || path.dirname(at) === at) return undefined;
    }
  }
}
