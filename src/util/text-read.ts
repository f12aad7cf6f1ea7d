// Text inputs read within bounds (docs/cli.md section 7): `--from`, `api --input`, and text options read
// from a file or stdin. `create --from /dev/zero` once took 600 MB before failing with
// "Invalid string length"; now anything that is not a file of text fails at once, and a text
// larger than the limit fails when the limit is reached, having held no more than that.
import { Transform, type Readable } from 'node:stream';
import { InterruptedError, UsageError } from '../errors.js';
import { openInput } from './input-file.js';

/** The largest text input: the most tkt reads of a ticket from the service, too. */
const MAX_TEXT_INPUT_BYTES = 64 * 1024 * 1024;

/** Why an input is not text: a plain Error, so each caller names the input its own way. */
export class NotTextError extends Error {}

/**
 * All of `stream` as UTF-8 text. Throws NotTextError at the first NUL byte (binary data,
 * /dev/zero) or when more than `limit` bytes come, without reading further.
 */
async function readText(stream: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      if (bytes.includes(0)) throw new NotTextError('not text: it holds NUL bytes (binary data?)');
      size += bytes.length;
      if (size > limit) throw new NotTextError(`larger than ${Math.round(limit / (1024 * 1024))} MB, more than tkt reads`);
      chunks.push(bytes);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A file (or a pipe such as `<(jq ...)`) as text; file errors are thrown as Node raises them. */
export async function readTextFile(path: string, limit = MAX_TEXT_INPUT_BYTES): Promise<string> {
  return readText(await openInput(path), limit);
}

/**
 * Ends the read of `stream` when `signal` aborts (Ctrl-C, SIGTERM): a stdin that stays open
 * must not keep the command waiting, and nothing is sent.
 */
function stopOnSignal(stream: Readable, signal: AbortSignal | undefined): void {
  if (signal === undefined) return;
  const stop = () => stream.destroy(new InterruptedError());
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  stream.once('close', () => signal.removeEventListener('abort', stop));
}

/** stdin as text; an input that is not text is exit 2, named as `what` (e.g. `--description -`). */
export async function readTextStream(stream: Readable, what: string, signal?: AbortSignal, limit = MAX_TEXT_INPUT_BYTES): Promise<string> {
  stopOnSignal(stream, signal);
  try {
    return await readText(stream, limit);
  } catch (error) {
    if (error instanceof NotTextError) throw new UsageError(`${what}: stdin is ${error.message}`);
    throw error;
  }
}

/**
 * `stream` passed through for a line-by-line reader (IDs on stdin), failing with a UsageError
 * named `what` at the first NUL byte or beyond `limit` bytes: `tkt read - < /dev/zero` would
 * otherwise grow one endless line until the process dies.
 */
export function guardText(stream: Readable, what: string, signal?: AbortSignal, limit = MAX_TEXT_INPUT_BYTES): Readable {
  stopOnSignal(stream, signal);
  let size = 0;
  const guarded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (chunk.includes(0)) return done(new UsageError(`${what}: not text: it holds NUL bytes (binary data?)`));
      if (size > limit) return done(new UsageError(`${what}: larger than ${Math.round(limit / (1024 * 1024))} MB, more than tkt reads`));
      done(null, chunk);
    },
  });
  stream.on('error', (error) => guarded.destroy(error));
  guarded.on('close', () => stream.destroy());
  return stream.pipe(guarded);
}
