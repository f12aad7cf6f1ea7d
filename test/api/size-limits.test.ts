import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_ERROR_BODY_BYTES, readAnswerBody, readLimited } from '../../src/api/size-limits.js';

/** A body without end, counting the chunks read from it. */
function endlessBody(chunk = '0123456789'): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const stream = Readable.from(
    (function* () {
      for (;;) {
        pulled += 1;
        yield Buffer.from(chunk);
      }
    })(),
  );
  return { stream, pulled: () => pulled };
}

const body = (...chunks: string[]): Readable => Readable.from(chunks.map((chunk) => Buffer.from(chunk)));

describe('readLimited', () => {
  it('reads a body within the limit whole, and stops reading one beyond it', async () => {
    const whole = await readLimited(body('abc', 'def'), 6);
    expect([whole.text(), whole.truncated]).toEqual(['abcdef', false]);

    const endless = endlessBody();
    const cut = await readLimited(endless.stream, 25);
    expect([cut.text(), cut.truncated]).toEqual(['0123456789012345678901234', true]);
    expect(endless.pulled()).toBeLessThan(10);
    expect(endless.stream.destroyed).toBe(true);
  });
});

describe('readAnswerBody', () => {
  it('reads a success within the limit whole', async () => {
    expect(await readAnswerBody({ statusCode: 200, headers: { 'content-length': '6' }, body: body('abc', 'def') }, 6)).toEqual({
      text: 'abcdef',
      cutAt: undefined,
    });
  });

  it('refuses a success whose Content-Length is over the limit without reading a byte of it', async () => {
    const endless = endlessBody();
    const read = await readAnswerBody({ statusCode: 200, headers: { 'content-length': ['7', '3'] }, body: endless.stream }, 6);
    expect(read).toEqual({ refused: { limit: 6, declared: 7 } });
    expect(endless.pulled()).toBe(0);
    expect(endless.stream.destroyed).toBe(true);
  });

  it('refuses it without an error nobody listens for, which would end the process', async () => {
    // Like undici's body, which fails with "Request aborted" when destroyed before its end.
    const body = new Readable({ read: () => undefined, destroy: (_error, done) => done(new Error('Request aborted')) });
    body.push('{"id":');
    const read = await readAnswerBody({ statusCode: 200, headers: { 'content-length': '99' }, body }, 6);
    expect(read).toEqual({ refused: { limit: 6, declared: 99 } });
    // The stream fails on the next tick: an 'error' event without a listener would be an uncaught
    // exception, which fails this run.
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(body.destroyed).toBe(true);
  });

  it('refuses a success that turns out longer than the limit, reading no further than it', async () => {
    const endless = endlessBody();
    const read = await readAnswerBody({ statusCode: 201, headers: {}, body: endless.stream }, 25);
    expect(read).toEqual({ refused: { limit: 25, declared: undefined } });
    expect(endless.pulled()).toBeLessThan(10);
    expect(endless.stream.destroyed).toBe(true);
  });

  it('cuts an error body at its own limit, whatever the success limit or the Content-Length', async () => {
    const endless = endlessBody('x'.repeat(64 * 1024));
    const read = await readAnswerBody({ statusCode: 500, headers: { 'content-length': String(10 * MAX_ERROR_BODY_BYTES) }, body: endless.stream }, 6);
    expect('text' in read && read.text.length).toBe(MAX_ERROR_BODY_BYTES);
    expect(read).toMatchObject({ cutAt: MAX_ERROR_BODY_BYTES });
    expect(endless.stream.destroyed).toBe(true);
  });

  it('reads a short error body whole', async () => {
    expect(await readAnswerBody({ statusCode: 404, headers: {}, body: body('not found') }, 1)).toEqual({ text: 'not found', cutAt: undefined });
  });
});
