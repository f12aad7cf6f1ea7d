// Writes that respect backpressure: when a pipe reader is slow (`tkt list --all | less`),
// we wait for 'drain' instead of buffering every page in memory.
import { OutputClosedError } from '../errors.js';
import type { Writable } from 'node:stream';

/**
 * Resolves once `stream` can take more. A stream closed by its reader (EPIPE: `| head -1`)
 * rejects with OutputClosedError, so the command stops instead of working for nobody.
 */
export async function writeText(stream: Writable, text: string): Promise<void> {
  if (stream.destroyed) throw new OutputClosedError();
  if (stream.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = () => {
      stream.off('drain', settle);
      stream.off('close', settle);
      stream.off('error', settle);
      if (stream.destroyed) reject(new OutputClosedError());
      else resolve();
    };
    stream.on('drain', settle);
    stream.on('close', settle);
    stream.on('error', settle);
  });
}
