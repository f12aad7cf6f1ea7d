import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { createInterface } from 'node:readline';
import { guardText, NotTextError, readTextFile, readTextStream } from '../../src/util/text-read.js';
import { useTempDirs } from '../config/temp-dir.js';

const tempDir = useTempDirs();
const posixOnly = process.platform === 'win32' ? it.skip : it;

/** An endless stream of `line`, counting how many chunks were pulled from it. */
function endless(line: string): { stream: Readable; pulled: () => number } {
  let pulled = 0;
  const chunk = Buffer.from(line.repeat(Math.ceil(65536 / line.length)));
  const stream = new Readable({
    read() {
      pulled += 1;
      this.push(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

describe('readTextFile', () => {
  it('reads a text file whole', async () => {
    const file = path.join(tempDir(), 'notes.txt');
    fs.writeFileSync(file, 'héllo\nworld\n');
    expect(await readTextFile(file)).toBe('héllo\nworld\n');
  });

  posixOnly('refuses /dev/zero at its first bytes: NUL is not text', async () => {
    await expect(readTextFile('/dev/zero')).rejects.toThrow(new NotTextError('not text: it holds NUL bytes (binary data?)'));
  });

  it('refuses a text beyond the limit without reading past it', async () => {
    const file = path.join(tempDir(), 'big.txt');
    fs.writeFileSync(file, 'x'.repeat(300_000));
    await expect(readTextFile(file, 100_000)).rejects.toThrow(NotTextError);
    expect(await readTextFile(file, 300_000)).toHaveLength(300_000);
  });

  it('throws file errors as Node raises them, for the caller to put in words', async () => {
    await expect(readTextFile(path.join(tempDir(), 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readTextStream', () => {
  it('stops reading an endless text at the limit: exit 2 naming the option', async () => {
    const { stream, pulled } = endless('y\n');
    const error = await readTextStream(stream, '--description -', undefined, 1024 * 1024).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('--description -: stdin is larger than 1 MB, more than tkt reads');
    expect(pulled()).toBeLessThan(40);
    expect(stream.destroyed).toBe(true);
  });

  it('refuses binary data on stdin', async () => {
    await expect(readTextStream(Readable.from([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00])]), '--input -')).rejects.toThrow(
      '--input -: stdin is not text: it holds NUL bytes (binary data?)',
    );
  });
});

describe('guardText', () => {
  it('passes text through to a line reader, and ends an endless one at the limit', async () => {
    const lines: string[] = [];
    for await (const line of createInterface({ input: guardText(Readable.from(['1\n2\n', '3\n']), 'the IDs on stdin') })) lines.push(line);
    expect(lines).toEqual(['1', '2', '3']);

    const { stream, pulled } = endless('7\n');
    let count = 0;
    const reading = (async () => {
      for await (const _line of createInterface({ input: guardText(stream, 'the IDs on stdin', undefined, 1024 * 1024) })) count += 1;
    })();
    await expect(reading).rejects.toThrow('the IDs on stdin: larger than 1 MB, more than tkt reads');
    expect(count).toBeLessThanOrEqual(512 * 1024);
    expect(pulled()).toBeLessThan(40);
  });
});
