// Writes that respect backpressure: when a pipe reader is slow (`tkt list --all | less`),
// we wait for 'drain' instead of buffering every page in memory.
import { once } from 'node:events';
import type { Writable } from 'node:stream';

/** Resolves once `stream` can take more; rejects if the stream errors meanwhile (EPIPE). */
export async function writeText(stream: Writable, text: string): Promise<void> {
  if (stream.write(text)) return;
  await once(stream, 'drain');
}
