// How much of an answer tkt reads. A service tkt does not control, or a gateway in front of it,
// may send a body without end: what lies beyond the limit is never read, so it costs no memory.
// A success must come whole or not at all (a list cut short would pass for a shorter list); of
// an error body the start says enough, so it is cut, not refused.
import type { Readable } from 'node:stream';
import { header, isSuccess, type ResponseHeaders } from './answer.js';

/** The largest body tkt reads: generous for tickets with large descriptions and long list pages. */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;
/** An error body is reduced to a line or two: no more than this of it is read. */
export const MAX_ERROR_BODY_BYTES = 1024 * 1024;

/** An answer's body: node:http's IncomingMessage, or undici's body behind a proxy. */
type BodyStream = Readable;

export interface ReadBody {
  /** The body as UTF-8 text, decoded on demand: a body refused for its size never is. */
  text(): string;
  /** More than the limit came; `text()` gives the first `limit` bytes. */
  truncated: boolean;
}

/**
 * The body as text, reading at most `limit` bytes: the stream is destroyed at the limit. Read by
 * its events, not `for await`: the async iterator costs a bulk run its end-of-stream watcher and
 * a promise per chunk for every answer.
 */
export function readLimited(body: BodyStream, limit: number): Promise<ReadBody> {
  const chunks: Buffer[] = [];
  const text = () => (chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
  let size = 0;
  return new Promise((resolve, reject) => {
    const settle = (): void => {
      body.off('data', onData);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      if (size + chunk.length <= limit) {
        chunks.push(chunk);
        size += chunk.length;
        return;
      }
      chunks.push(chunk.subarray(0, limit - size));
      settle();
      // A body may fail when destroyed before its end (undici's does): unheard, that would be an uncaught exception.
      body.on('error', ignore);
      body.destroy();
      resolve({ text, truncated: true });
    };
    // At the end the listeners stay: removing them cost a bulk run four removals per answer, and
    // an error after the end still finds its listener (a promise settles once: it changes nothing).
    let ended = false;
    const onEnd = (): void => {
      ended = true;
      resolve({ text, truncated: false });
    };
    const onError = (error: Error): void => {
      settle();
      reject(error);
    };
    // Closed before its end without an error: cut off, as the async iterator would say.
    const onClose = (): void => {
      if (ended) return;
      settle();
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}

const ignore = (): void => undefined;

/** An answer's body as read (`cutAt` the limit an error body was cut at), or the success refused. */
export type SizedBody = { text: string; cutAt: number | undefined } | { refused: { limit: number; declared: number | undefined } };

/** Reads an answer's body within its limit: `maxBodyBytes` for a success, MAX_ERROR_BODY_BYTES else. */
export async function readAnswerBody(answer: { statusCode: number; headers: ResponseHeaders; body: BodyStream }, maxBodyBytes: number): Promise<SizedBody> {
  const success = isSuccess(answer.statusCode);
  const limit = success ? maxBodyBytes : MAX_ERROR_BODY_BYTES;
  // A success that says it is too large is refused before a byte of it is read.
  const declared = Number(header(answer.headers, 'content-length'));
  if (success && declared > limit) {
    // A body may fail when destroyed before its end (undici's does, "Request aborted"):
    // unheard, that failure would be thrown as an uncaught exception.
    answer.body.on('error', ignore);
    answer.body.destroy();
    return { refused: { limit, declared } };
  }
  const read = await readLimited(answer.body, limit);
  if (success && read.truncated) return { refused: { limit, declared: undefined } };
  return { text: read.text(), cutAt: read.truncated ? limit : undefined };
}
