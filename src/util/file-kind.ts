// Devices are never uploaded: /dev/zero or /dev/urandom never ends (and an upload that keeps
// moving never times out), and a terminal as stdin would wait for bytes typed at it. A file
// or a pipe (`<(command)`, /dev/stdin from a pipe or a redirected file) ends; text inputs
// may still read a device, as they stop at its first bytes that are not text.
import { realpathSync, type Stats } from 'node:fs';

/** Where to look for what a device path stands for: /dev/stdin is a link to /dev/pts/N at a terminal. */
const TERMINAL = /^\/dev\/(pts\/|tty|console$)/;

/** Why `path` (stat'ed as `info`) is not uploaded, in words, when it is a device; else undefined. */
export function deviceProblem(path: string, info: Stats): string | undefined {
  if (!info.isCharacterDevice() && !info.isBlockDevice()) return undefined;
  let target = path;
  try {
    target = realpathSync(path);
  } catch {
    // Named by its own path.
  }
  return `${TERMINAL.test(target) ? 'a terminal' : 'a device'}, not a file or a pipe`;
}

/** The way out of a device problem, for its error's hint. */
export const DEVICE_HINT = 'files and pipes are uploaded: for what a command prints give <(command), or pipe it in and give /dev/stdin';
