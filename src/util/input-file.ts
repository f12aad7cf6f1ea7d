// A file tkt reads (a text option's file, an attachment of unknown size) opened as a stream, so
// that a FIFO (`mkfifo`, `<(command)`, /dev/stdin from a pipe) can never keep tkt alive after
// Ctrl-C. Node does file work in a few threads of libuv's pool and joins them as the process
// exits: a thread blocked opening a FIFO nobody writes to, or reading one whose writer is quiet,
// would hold the exit for ever, "interrupted" printed and the process still there. So a FIFO is
// read by the event loop (as stdin is), never by a pool thread; and its open, which waits for a
// writer as `cat` does, is ended when the process exits by opening it for writing ourselves.
import { closeSync, constants, createReadStream, openSync } from 'node:fs';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { InterruptedError } from '../errors.js';
import type { AbortLike } from './abort-like.js';
import { fstatFd, openFd } from './fs-promises.js';

/** FIFOs whose open is waiting for a writer, by path (the same one may be opened twice). */
const waiting = new Map<string, number>();
let releasingAtExit = false;

/** A writer that comes and goes: an open of `path` waiting for one returns, and reads the end at once. */
function releaseWaitingOpen(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: nobody waits on it any more.
  }
}

function releaseWaitingOpens(): void {
  for (const path of waiting.keys()) releaseWaitingOpen(path);
}

async function openWaitingForWriter(path: string, signal: AbortLike | undefined): Promise<number> {
  if (!releasingAtExit) {
    releasingAtExit = true;
    process.on('exit', releaseWaitingOpens);
  }
  waiting.set(path, (waiting.get(path) ?? 0) + 1);
  const release = () => releaseWaitingOpen(path);
  signal?.addEventListener('abort', release, { once: true });
  try {
    return await openFd(path, 'r');
  } finally {
    signal?.removeEventListener('abort', release);
    const left = waiting.get(path)! - 1;
    if (left === 0) waiting.delete(path);
    else waiting.set(path, left);
  }
}

/**
 * `path` as a stream of its bytes; file errors are thrown as Node raises them (ENOENT...). With
 * `signal`, a FIFO's open waiting for a writer is released when it aborts, and its read ends with
 * InterruptedError; a regular file is read whole whatever the signal (its read ends by itself).
 */
export async function openInput(path: string, signal?: AbortLike): Promise<Readable> {
  const fd = await openWaitingForWriter(path, signal);
  // A file's read ends by itself; a pipe's writer may stay quiet for ever.
  if (!(await fstatFd(fd)).isFIFO()) return createReadStream('', { fd });
  // libuv reads a pipe without blocking (epoll), as it reads stdin.
  const pipe = new Socket({ fd, readable: true, writable: false });
  stopOnSignal(pipe, signal);
  return pipe;
}

/**
 * Ends the read of `stream` with InterruptedError when `signal` aborts (Ctrl-C, SIGTERM): a pipe
 * or a stdin that stays open must not keep the command waiting, and nothing is sent.
 */
export function stopOnSignal(stream: Readable, signal: AbortLike | undefined): void {
  if (signal === undefined) return;
  const stop = () => {
    // Its reader may not be listening yet (an upload awaiting its copy's file): an 'error' with no
    // listener would end the process. A read that follows still ends with the stream's error.
    stream.once('error', () => {});
    stream.destroy(new InterruptedError());
  };
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  stream.once('close', () => signal.removeEventListener('abort', stop));
}
