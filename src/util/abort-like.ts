/**
 * What aborts a request, or a read of a pipe for one: an AbortSignal, or anything of its shape
 * (the deadline of api/exchange.ts, which a bulk run makes for every request without an
 * EventTarget). undici listens to any object with addEventListener too.
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
