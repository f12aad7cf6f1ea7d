// Memory given back when it is done with, not at the next collection, which may come after a
// run's peak: a file read whole and no longer read (a bundle's source once it is a string, its
// cached code once V8 took it) is 300-400 KB (README, Performance: memory).

/**
 * Frees what `bytes` holds now, where ArrayBuffer.prototype.transfer exists (Node 22+; elsewhere
 * the collector does, later). Never a slice of Node's pool, which a small read shares with other
 * buffers: those are left alone.
 */
export function releaseBytes(bytes: Buffer): void {
  if (bytes.byteOffset !== 0 || bytes.buffer.byteLength !== bytes.length) return;
  (bytes.buffer as { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
}
