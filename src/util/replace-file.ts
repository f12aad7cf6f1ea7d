// Replacing a file so that a reader (or the next run after a crash) sees the old contents or the
// new, never half of them: write beside it, flush to disk, rename over it.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/** Writes `text` to `${file}.tmp` (mode `mode`), flushes it, then renames it over `file`. */
export function replaceFile(file: string, text: string, mode: number): void {
  // A leftover from a killed writer is simply replaced.
  const temporary = `${file}.tmp`;
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', mode);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
}
