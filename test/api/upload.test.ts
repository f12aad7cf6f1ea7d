import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { buildMultipart, uploadChunks, type Multipart, type Upload } from '../../src/api/upload.js';
import { fileUpload } from '../../src/api/upload-name.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tkt-upload-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function boundaryOf(headers: Record<string, string>): string {
  const match = /^multipart\/form-data; boundary=(.+)$/.exec(headers['content-type'] ?? '');
  if (!match) throw new Error(`not a multipart content type: ${headers['content-type']}`);
  return match[1]!;
}

describe('buildMultipart', () => {
  it('writes each field as a part of its own, repeated values as repeated parts, in one text with its length in bytes, at once', () => {
    const built = buildMultipart({ fields: { Title: 'Über ✓', Empty: '', SelectedTags: [4, 9], HasDraft: false, Cc: undefined } });
    // A form of fields only is no promise: a bulk run builds hundreds (upload.ts).
    expect(built).not.toBeInstanceOf(Promise);
    const { headers, body, names } = built as Multipart;
    const b = boundaryOf(headers);
    const part = (name: string, value: string): string => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const expected = `${part('Title', 'Über ✓')}${part('Empty', '')}${part('SelectedTags', '4')}${part('SelectedTags', '9')}${part('HasDraft', 'false')}--${b}--\r\n`;

    expect(body).toBe(expected);
    expect(headers['content-length']).toBe(String(Buffer.byteLength(expected)));
    expect(names()).toEqual(['Title', 'Empty', 'SelectedTags', 'SelectedTags', 'HasDraft']);
  });

  it('frames each file with its name and content type, its bytes left to be read from disk as the body is sent', async () => {
    const log = join(dir, 'boot.log');
    const image = join(dir, 'screen.PNG');
    await writeFile(log, 'booted\n');
    await writeFile(image, 'not really a png');
    const { headers, body, names } = await buildMultipart({ fields: { Title: 'Printer' }, files: [log, image].map(fileUpload) });
    const b = boundaryOf(headers);
    const upload = body as Upload;

    expect(upload.framing.map((piece) => piece.toString('utf8'))).toEqual([
      `--${b}\r\nContent-Disposition: form-data; name="Title"\r\n\r\nPrinter\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="Uploads"; filename="boot.log"\r\nContent-Type: text/plain\r\n\r\n`,
      `\r\n--${b}\r\nContent-Disposition: form-data; name="Uploads"; filename="screen.PNG"\r\nContent-Type: image/png\r\n\r\n`,
      `\r\n--${b}--\r\n`,
    ]);
    expect(upload.files).toEqual([
      { path: log, size: 7 },
      { path: image, size: 16 },
    ]);
    const framingBytes = upload.framing.reduce((sum, piece) => sum + piece.length, 0);
    expect(upload.length).toBe(framingBytes + 7 + 16);
    expect(headers['content-length']).toBe(String(upload.length));
    expect(names()).toEqual(['Title', 'Uploads=boot.log', 'Uploads=screen.PNG']);
  });

  it('writes CR, LF and double quotes in names percent-encoded, as browsers do, so no name can end its header', async () => {
    const file = join(dir, 'say "hi".txt');
    await writeFile(file, 'hi');
    const { body } = await buildMultipart({ fields: { 'a"b\r\nX-Injected: 1': 'v' }, files: [file].map(fileUpload) });
    const text = (body as Upload).framing[0]!.toString('utf8');

    expect(text).toContain('Content-Disposition: form-data; name="a%22b%0D%0AX-Injected: 1"\r\n');
    expect(text).toContain('name="Uploads"; filename="say %22hi%22.txt"\r\n');
  });

  it('gives every form a boundary of its own, random once a run', async () => {
    const first = boundaryOf((await buildMultipart({ fields: {} })).headers);
    const second = boundaryOf((await buildMultipart({ fields: {} })).headers);

    expect(first).toMatch(/^-{26}tkt[0-9a-f]{24}[0-9a-z]+$/);
    expect(second).not.toBe(first);
    expect(second.slice(0, 53)).toBe(first.slice(0, 53));
  });
});

describe('uploadChunks', () => {
  it('never reads into a chunk that undici may still hold queued: a file end and each small file have buffers of their own', async () => {
    // undici queues a chunk under the socket's high-water mark (64 KiB) and asks for the next at
    // once; this consumer holds every chunk it is given, as a socket that cannot send yet does.
    const files = [{ path: join(dir, 'big.bin'), data: randomBytes(3 * 1024 * 1024 + 100) }];
    for (let index = 0; index < 8; index++) files.push({ path: join(dir, `small-${index}.txt`), data: randomBytes(700 + index) });
    await Promise.all(files.map((file) => writeFile(file.path, file.data)));
    const { body } = await buildMultipart({ fields: {}, files: files.map((file) => fileUpload(file.path)) });
    const held: { chunk: Buffer; asGiven: Buffer }[] = [];
    for await (const chunk of uploadChunks(body as Upload, () => {})) held.push({ chunk, asGiven: Buffer.from(chunk) });

    const small = held.filter(({ chunk }) => chunk.length < 64 * 1024);
    expect(small.length).toBeGreaterThanOrEqual(files.length + 1);
    for (const { chunk, asGiven } of small) expect(chunk.equals(asGiven)).toBe(true);
    const sent = Buffer.concat(held.map(({ asGiven }) => asGiven));
    for (const file of files) expect(sent.includes(file.data)).toBe(true);
  });

  it("tells each file's bytes once the connection asks for the next chunk, having taken them, not as they are read ahead", async () => {
    const big = join(dir, 'watched.bin');
    const small = join(dir, 'watched.txt');
    await writeFile(big, randomBytes(3 * 1024 * 1024));
    await writeFile(small, 'seven b');
    const { body } = await buildMultipart({ fields: {}, files: [fileUpload(big), fileUpload(small)] });
    const told: string[] = [];
    const chunks = uploadChunks(body as Upload, () => {}, undefined, {
      fileStarted: (index, size) => told.push(`file ${index} of ${size} bytes`),
      taken: (bytes) => told.push(`taken ${bytes}`),
      bodySent: () => told.push('body sent'),
    });
    // The framing before the first file: nothing of a file yet.
    await chunks.next();
    expect(told).toEqual([]);
    // Its first chunk read and handed over: not counted until the connection asks for more.
    const first = await chunks.next();
    expect(told).toEqual([`file 0 of ${3 * 1024 * 1024} bytes`]);
    await chunks.next();
    expect(told).toEqual([`file 0 of ${3 * 1024 * 1024} bytes`, `taken ${first.value!.length}`]);
    for await (const _chunk of chunks);
    const taken = told.filter((line) => line.startsWith('taken ')).map((line) => Number(line.slice('taken '.length)));
    expect(told.indexOf('file 1 of 7 bytes')).toBeGreaterThan(0);
    expect(taken.reduce((sum, bytes) => sum + bytes, 0)).toBe(3 * 1024 * 1024 + 7);
    // The body whole is the exchange's to tell (exchange.ts), once its last chunk is taken.
    expect(told).not.toContain('body sent');
  });
});

describe('a pipe sent again (UploadFile.resend)', () => {
  /** The bytes of `upload`'s files as its body sends them, framing left out. */
  async function sentBytes(upload: Upload): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of uploadChunks(upload, () => undefined)) if (!upload.framing.includes(chunk)) chunks.push(Buffer.from(chunk));
    return Buffer.concat(chunks);
  }

  it('is kept, as it is first read, in a file only its user may read, and sent again from there with its size', async () => {
    const fifo = join(dir, 'log-pipe');
    execFileSync('mkfifo', [fifo]);
    const data = randomBytes(70 * 1024);
    const writer = spawn('sh', ['-c', 'exec cat > "$0"', fifo], { stdio: ['pipe', 'ignore', 'inherit'] });
    writer.stdin.end(data);
    const file = { path: fifo, name: 'build.log' };
    const first = (await buildMultipart({ fields: {}, files: [{ ...file, resend: true }] })) as Multipart;
    expect(first.headers['content-length']).toBeUndefined();
    expect(await sentBytes(first.body as Upload)).toEqual(data);

    const again = (await buildMultipart({ fields: {}, files: [file] })) as Multipart;
    const kept = (again.body as Upload).files[0]!;
    expect(kept.size).toBe(data.length);
    expect(kept.path).not.toBe(fifo);
    expect((await stat(kept.path)).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(kept.path))).mode & 0o777).toBe(0o700);
    expect(await sentBytes(again.body as Upload)).toEqual(data);
  });

  it('is refused when it was read by an upload that kept no copy: never sent again as an empty file', async () => {
    const fifo = join(dir, 'once-pipe');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'exec cat > "$0"', fifo], { stdio: ['pipe', 'ignore', 'inherit'] });
    writer.stdin.end('once\n');
    const file = { path: fifo, name: 'once.log' };
    expect((await sentBytes(((await buildMultipart({ fields: {}, files: [file] })) as Multipart).body as Upload)).toString()).toBe('once\n');
    await expect(buildMultipart({ fields: {}, files: [file] })).rejects.toThrow(
      `cannot send ${fifo} again: it is a pipe, read by an earlier upload of this run, and its bytes cannot be read twice`,
    );
  });
});
