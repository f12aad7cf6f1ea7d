// Text inputs read within bounds (docs/cli.md section 7): `--from`, `api --input`, and text options read
// from a file or stdin. `create --from /dev/zero` once took 600 MB before failing with
// "Invalid string length"; now anything that is not a file of text fails at once, and a text
// larger than the limit fails when the limit is reached, having held no more than that. Text is
// UTF-8 only (README: Text values; the check is text-decode.ts).
import { fstatSync } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { DIRECTORY_NOT_FILE } from './file-error.js';
import { openInput, stopOnSignal } from './input-file.js';
import { convertFile, convertStdin, MAX_TEXT_INPUT_BYTES, NotTextError, notTextBytes, textDecoding, type ConvertHint } from './text-decode.js';

export { NotTextError, notTextHint, TooLargeInputError } from './text-decode.js';

/**
 * Text with its CRLF line ends (Windows, PowerShell) as LF (README: Text values): text bodies
 * from a file or stdin, the editor's text, templates and `create --from` values, so that the same
 * text is sent alike whichever way it came. A lone CR is kept.
 */
export const lineFeeds = (text: string): string => text.replace(/\r\n/g, '\n');

/** All of `stream` as UTF-8 text, a BOM dropped, checked as textDecoding checks, without reading further than a fault. */
async function readText(stream: Readable, limit: number, hint: ConvertHint): Promise<string> {
  const decoding = textDecoding(limit, hint);
  try {
    for await (const chunk of stream) decoding.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return decoding.end();
  } finally {
    stream.destroy();
  }
}

/**
 * A file (or a pipe such as `<(jq ...)`) as text; file errors are thrown as Node raises them.
 * With `signal` (a graceful command's stop), a FIFO whose writer stays quiet does not keep the
 * command waiting. `keepName`: the hint converts it into the same file (a template tkt reads by its name).
 */
export async function readTextFile(
  path: string,
  { signal, limit = MAX_TEXT_INPUT_BYTES, keepName = false }: { signal?: AbortSignal; limit?: number; keepName?: boolean } = {},
): Promise<string> {
  return readText(await openInput(path, signal), limit, convertFile(path, keepName));
}

/**
 * Exit 2, as a directory given as a file is, when `stream` is a directory: Node reads one on stdin
 * (`tkt close - < logs`) as empty, so a CI step closing nothing passed, and a text was "empty".
 */
function refuseDirectory(stream: Readable, what: string): void {
  // process.stdin keeps its descriptor as `fd`; a stream of another kind has none to look at.
  const fd = (stream as { fd?: unknown }).fd;
  let directory = false;
  try {
    directory = typeof fd === 'number' && fstatSync(fd).isDirectory();
  } catch {
    // A closed descriptor: the read says so.
  }
  if (directory) throw new UsageError(`${what}: stdin is ${DIRECTORY_NOT_FILE}`, { hint: 'redirect a file into stdin (< FILE), not a directory' });
}

/** stdin as text; an input that is not text is exit 2, named as `what` (e.g. `--description -`). */
export async function readTextStream(stream: Readable, what: string, signal?: AbortSignal, limit = MAX_TEXT_INPUT_BYTES): Promise<string> {
  refuseDirectory(stream, what);
  stopOnSignal(stream, signal);
  try {
    return await readText(stream, limit, convertStdin);
  } catch (error) {
    if (error instanceof NotTextError) throw new UsageError(`${what}: stdin is ${error.message}`, { hint: error.hint });
    throw error;
  }
}

/**
 * `stream` passed through for a line-by-line reader (IDs on stdin), failing with a UsageError
 * named `what` at the first NUL byte or beyond `limit` bytes: `tkt read - < /dev/zero` would
 * otherwise grow one endless line until the process dies.
 */
export function guardText(stream: Readable, what: string, signal?: AbortSignal, limit = MAX_TEXT_INPUT_BYTES): Readable {
  refuseDirectory(stream, what);
  stopOnSignal(stream, signal);
  let size = 0;
  const guarded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      // PowerShell 5's `>` writes UTF-16: named as such, as `--message -` names it.
      const refused = notTextBytes(chunk, size === 0, convertStdin);
      if (refused !== undefined) return done(new UsageError(`${what}: ${refused.message}`, { hint: refused.hint }));
      size += chunk.length;
      if (size > limit) return done(new UsageError(`${what}: larger than ${Math.round(limit / (1024 * 1024))} MB, more than tkt reads`));
      done(null, chunk);
    },
  });
  stream.on('error', (error) => guarded.destroy(error));
  guarded.on('close', () => stream.destroy());
  return stream.pipe(guarded);
}
