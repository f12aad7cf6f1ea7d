// What the bin's fast answers (prepared help, `__complete`) print, written to file descriptor 1
// directly: process.stdout on a pipe, where a completion script reads it, builds a net.Socket and
// loads Node's stream modules, about 10 ms of a 40 ms Tab press.
import { writeSync } from 'node:fs';

/**
 * Writes all of `text` to stdout. A closed stdout (`tkt --help | head -1`) ends the run quietly
 * (docs/cli.md section 8); a stdout that cannot take it at once (a non-blocking pipe that is
 * full) or fails otherwise gets the rest through `stream()`, Node's own stdout, as before.
 */
export function writeStdoutSync(text: string, stream: () => NodeJS.WritableStream): void {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return;
    const stdout = stream();
    stdout.on('error', () => undefined);
    stdout.write(bytes.subarray(written));
  }
}
