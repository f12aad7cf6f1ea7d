// Writes that respect backpressure: when a pipe reader is slow (`tkt list --all | less`),
// we wait for 'drain' instead of buffering every page in memory.
import { OutputClosedError, OutputFailedError } from '../errors.js';
import { outputFailureText } from '../util/file-error.js';
import type { Writable } from 'node:stream';

/**
 * Resolves once `stream` can take more. A stream closed by its reader (EPIPE: `| head -1`)
 * rejects with OutputClosedError, so the command stops instead of working for nobody; a
 * failure of the system (a full disk) with OutputFailedError.
 */
export async function writeText(stream: Writable, text: string): Promise<void> {
  throwPastFailure(stream);
  if (stream.destroyed) throw closedError(stream.errored);
  if (stream.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error: Error | undefined) => {
      stream.off('drain', ready);
      stream.off('close', ready);
      stream.off('error', failed);
      // process.stdout is not destroyed by EPIPE: each later write fails again, and says so.
      if (error !== undefined) reject(closedError(error));
      else if (stream.destroyed) reject(closedError(stream.errored));
      else resolve();
    };
    const ready = () => settle(undefined);
    const failed = (error: Error) => settle(error);
    stream.on('drain', ready);
    stream.on('close', ready);
    stream.on('error', failed);
  });
}

/**
 * Resolves once everything written to `stream` so far has left the process (for a pipe or a file:
 * the kernel has it, and a SIGKILL no longer takes it back). writeText resolves sooner: a write
 * under the high-water mark is only queued.
 */
export async function flushed(stream: Writable): Promise<void> {
  throwPastFailure(stream);
  if (stream.writableLength === 0) return;
  if (stream.destroyed) throw closedError(stream.errored);
  // An empty write's callback runs after every write queued before it.
  await new Promise<void>((resolve, reject) => stream.write('', (error) => (error ? reject(closedError(error)) : resolve())));
}

const heard = new WeakMap<Writable, { failure?: Error }>();

/**
 * Remembers from now on how a write of `stream` fails: a run listens from its start (src/cli-run.ts),
 * so that a failure no write of the command met is still heard at its end (throwPastFailure).
 */
export function rememberFailures(stream: Writable): void {
  pastFailure(stream);
}

/** Throws how an earlier write of `stream` failed, if one did: OutputClosedError for a closed pipe. */
function throwPastFailure(stream: Writable): void {
  const failure = pastFailureError(stream);
  if (failure !== undefined) throw failure;
}

/** How an earlier write of `stream` failed, as the error a write would throw; undefined if none did. */
export function pastFailureError(stream: Writable): Error | undefined {
  const failure = pastFailure(stream);
  return failure === undefined ? undefined : closedError(failure);
}

/**
 * How an earlier write of `stream` failed, if one did. A write that had returned (a batch held
 * corked and let go: src/output/held-writes.ts) fails by an 'error' event, and Node's stdout to
 * a file is not destroyed by it: the next write into the cork would seem to succeed.
 */
function pastFailure(stream: Writable): Error | undefined {
  let record = heard.get(stream);
  if (record === undefined) {
    const fresh: { failure?: Error } = {};
    stream.on('error', (error: Error) => (fresh.failure ??= error));
    heard.set(stream, (record = fresh));
  }
  return record.failure ?? stream.errored ?? undefined;
}

/** Whether `error` is the reader of a pipe going away. */
export function isClosedPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'EPIPE';
}

function closedError(error: Error | null): Error {
  if (error === null || isClosedPipe(error)) return new OutputClosedError();
  // A failure of the system (ENOSPC, EIO): said in words, not as Node's "ENOSPC: ..., write".
  return (error as NodeJS.ErrnoException).code === undefined ? error : new OutputFailedError(outputFailureText(error), { cause: error });
}
