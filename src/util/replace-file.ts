// Replacing a file so that a reader (or the next run after a crash) sees the old contents or the
// new, never half of them: write beside it, flush to disk, rename over it.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `text` to `${file}.<pid>.tmp` (mode `mode`), flushes it, then renames it over `file`.
 * The temporary name is this process's own: two processes writing the same file at once (even
 * without a lock) never take each other's temporary file. Within a process the call is synchronous.
 */
export function replaceFile(file: string, text: string, mode: number): void {
  const temporary = `${file}.${process.pid}.tmp`;
  // A leftover from a killed writer that had our PID is simply replaced.
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
