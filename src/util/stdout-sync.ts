// What the bin's fast answers (prepared help, `__complete`) print, written to file descriptor 1
// directly: process.stdout on a pipe, where a completion script reads it, builds a net.Socket and
// loads Node's stream modules, about 10 ms of a 40 ms Tab press.
import { writeSync } from 'node:fs';
import { outputFailureText } from './file-error.js';

/**
 * Writes all of `text` to stdout. A closed stdout (`tkt --help | head -1`) ends the run quietly
 * (docs/cli.md section 8); a stdout that cannot take it at once (a non-blocking pipe that is
 * full: EAGAIN) gets the rest through `stream()`, Node's own stdout. Any other failure (a full
 * disk) is returned in words, for the caller to say (the prepared help exits 1; a Tab press says
 * nothing); undefined when everything went out.
 */
export function writeStdoutSync(text: string, stream: () => NodeJS.WritableStream): string | undefined {
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EPIPE') return undefined;
    if (code !== 'EAGAIN') return outputFailureText(error as NodeJS.ErrnoException);
    const stdout = stream();
    stdout.on('error', () => undefined);
    stdout.write(bytes.subarray(written));
  }
  return undefined;
}
