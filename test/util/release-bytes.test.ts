import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { releaseBytes } from '../../src/util/release-bytes.js';

const canTransfer = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';
let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A file of `size` bytes read whole, as the bundle loader reads its files. */
function readOf(size: number): Buffer {
  dir ??= mkdtempSync(path.join(os.tmpdir(), 'tkt-release-'));
  const file = path.join(dir, `f${size}`);
  writeFileSync(file, Buffer.alloc(size, 'a'));
  return readFileSync(file);
}

describe('releaseBytes', () => {
  it('frees a file read whole at once where Node can (22+), and leaves it to the collector elsewhere', () => {
    const bytes = readOf(64 * 1024);
    releaseBytes(bytes);
    expect(bytes.buffer.byteLength).toBe(canTransfer ? 0 : 64 * 1024);
  });

  it("never frees a small read's slice of Node's pool: the buffers sharing it stay whole", () => {
    const neighbour = Buffer.allocUnsafe(16).fill('n');
    const small = readOf(100);
    releaseBytes(small);
    expect(small.toString()).toBe('a'.repeat(100));
    expect(neighbour.toString()).toBe('n'.repeat(16));
  });
});
