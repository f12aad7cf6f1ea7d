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
    await expect(readTextFile(file, { limit: 100_000 })).rejects.toThrow(NotTextError);
    expect(await readTextFile(file, { limit: 300_000 })).toHaveLength(300_000);
  });

  it('throws file errors as Node raises them, for the caller to put in words', async () => {
    await expect(readTextFile(path.join(tempDir(), 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readTextFile: UTF-8 only (README: Text values)', () => {
  const latin1 = Buffer.from('title\nCaf\xe9 r\xe9seau\n', 'latin1');

  it('refuses a Latin-1 file, naming the first byte that is not UTF-8, where it is, and how to convert it', async () => {
    const file = path.join(tempDir(), 'latin1.csv');
    fs.writeFileSync(file, latin1);
    const error = await readTextFile(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotTextError);
    expect((error as NotTextError).message).toBe('not UTF-8 text: byte 0xE9 on line 2, column 4');
    expect((error as NotTextError).hint).toBe(`save it as UTF-8 (in Excel: "CSV UTF-8"), or convert it: iconv -f WINDOWS-1252 -t UTF-8 ${file} > ${file}.utf8`);
  });

  it('finds the line of a bad byte beyond the first chunk read, and one cut at the end of the file', async () => {
    const file = path.join(tempDir(), 'late.txt');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('é\n'.repeat(50_000)), Buffer.from([0x41, 0xff])]));
    await expect(readTextFile(file)).rejects.toThrow('not UTF-8 text: byte 0xFF on line 50001, column 2');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('ok\n€'), Buffer.from('€').subarray(0, 2)]));
    await expect(readTextFile(file)).rejects.toThrow('not UTF-8 text: byte 0xE2 on line 2, column 2');
  });

  it('names a UTF-16 file as such', async () => {
    const file = path.join(tempDir(), 'utf16.txt');
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Café', 'utf16le')]));
    const error = await readTextFile(file).catch((caught: unknown) => caught);
    expect((error as NotTextError).message).toBe('UTF-16 text, not UTF-8');
    expect((error as NotTextError).hint).toContain(`iconv -f UTF-16 -t UTF-8 ${file} > ${file}.utf8`);
  });

  it('reads UTF-8 with a BOM, which it drops, and characters split between two reads', async () => {
    const file = path.join(tempDir(), "with bom's.txt");
    // The file stream reads 64 KiB at a time: the euro sign's 3 bytes straddle the first read's end.
    const text = `${'x'.repeat(65_536 - 3 - 1)}€ Résumé 漢字 😀\n`;
    fs.writeFileSync(file, `\uFEFF${text}`);
    expect(await readTextFile(file)).toBe(text);
  });

  posixOnly('says to convert a pipe (<(command), /dev/stdin) on its way in: it has no file to convert', async () => {
    const file = path.join(tempDir(), 'piped.txt');
    fs.writeFileSync(file, latin1);
    const fd = fs.openSync(file, 'r');
    try {
      const error = (await readTextFile(`/dev/fd/${fd}`).catch((caught: unknown) => caught)) as NotTextError;
      expect(error.hint).toBe('convert it on its way in: <(... | iconv -f WINDOWS-1252 -t UTF-8)');
    } finally {
      fs.closeSync(fd);
    }
  });

  it('quotes a file name the shell would split in the convert command', async () => {
    const file = path.join(tempDir(), "Bob's list.csv");
    fs.writeFileSync(file, latin1);
    const error = (await readTextFile(file).catch((caught: unknown) => caught)) as NotTextError;
    expect(error.hint).toContain(`iconv -f WINDOWS-1252 -t UTF-8 '${file.replace("'", "'\\''")}' > '${file.replace("'", "'\\''")}.utf8'`);
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

  it('refuses Latin-1 on stdin, and reads UTF-8 whose characters come split over many chunks', async () => {
    const error = await readTextStream(Readable.from([Buffer.from('R\xe9sum\xe9', 'latin1')]), '--message -').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('--message -: stdin is not UTF-8 text: byte 0xE9 on line 1, column 2');
    expect((error as UsageError).hint).toBe('convert it on its way in: ... | iconv -f WINDOWS-1252 -t UTF-8 | tkt ...');

    const bytes = Buffer.from('\uFEFF😀 é\n€');
    const oneByteChunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await readTextStream(Readable.from(oneByteChunks), '--message -')).toBe('😀 é\n€');
    const badAfterSplit = [...Buffer.from('ok\n😀'), 0xe9, 0x41].map((byte) => Buffer.from([byte]));
    await expect(readTextStream(Readable.from(badAfterSplit), '--message -')).rejects.toThrow('byte 0xE9 on line 2, column 2');
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
