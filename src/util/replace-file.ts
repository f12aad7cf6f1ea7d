// Replacing a file so that a reader (or the next run after a crash) sees the old contents or the
// new, never half of them: write beside it, flush to disk, rename over it.
import fs from 'node:fs';

/** Writes `text` to `${file}.tmp` (mode `mode`), flushes it, then renames it over `file`. */
export function replaceFile(file: string, text: string, mode: number): void {
  // A leftover from a killed writer is simply replaced.
  const temporary = `${file}.tmp`;
  fs.rmSync(temporary, { force: true });
  const fd = fs.openSync(temporary, 'wx', mode);
  try {
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temporary, file);
}
