// Multipart bodies (docs/service.md 2.3, RFC 7578): each field and each file is a part with its
// own headers between boundaries; the files' bytes are streamed from disk between their parts'
// framing as the body is sent, never read whole. A file whose size is unknown until read (a pipe
// such as `<(command)`, /dev/stdin) is read once, as it is sent, in a chunked body; a pipe the run
// may send again is kept in a private file as it is read (spools), and a pipe already read is
// never sent again as if it were empty.
import { closeSync, mkdtempSync, openSync, readSync, rmSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { OperationError, UsageError } from '../errors.js';
import { contentTypeOf } from './content-types.js';
import type { FormScalar, MultipartInput, UploadFile, UploadWatcher } from './types.js';
import { openInput } from '../util/input-file.js';
import type { AbortLike } from '../util/abort-like.js';
import { DEVICE_HINT, deviceProblem } from '../util/file-kind.js';
import { DIRECTORY_NOT_FILE } from '../util/file-error.js';
import { closeFd, openFd, readFdAt, statPath, writeFdAll } from '../util/fs-promises.js';

/** A multipart body with files: the framing around them, the files, and their sizes when built. */
export interface Upload {
  /** Before the first file, between files, after the last (files + 1 pieces). */
  framing: Buffer[];
  /** `size` undefined: known only once read (a pipe). `spool`: where a pipe's bytes are kept as they are read. */
  files: readonly { path: string; size: number | undefined; spool?: Spool | undefined }[];
  /** The whole body's length, sent as content-length, when every size is known; else the body is chunked. */
  length: number | undefined;
}

export interface Multipart {
  headers: Record<string, string>;
  /** The text of fields only; an Upload when there are files. */
  body: string | Upload;
  /** The part names, for the trace: made only for a trace. */
  names: () => string[];
}

// A file's whole chunks are read, one after the other, into one buffer used again and again (a
// fresh buffer per chunk cost a page fault per 4 KiB of the file: 1 GB went at 60-75% of curl's
// speed, 55% on Node 24; bench/attach-vs-curl.mjs). That is safe because undici, given a chunk
// over the socket's high-water mark (16 KiB on Node 20, 64 KiB since 22), waits until the socket
// has taken all of it ('drain') before it asks for the next. A file's last, shorter chunk may be
// under that mark, which undici leaves queued and goes on: it is read into a buffer of its own.
// Each chunk costs an event-loop turn (1 GB in 512 KiB chunks: 15% slower than in 1 MiB on Node
// 20), while a chunk's size is memory every upload touches: a file under LARGE_FILE_BYTES is read
// in small chunks (a 1 MB upload's peak memory, README, Performance), a larger one in large.
const SMALL_CHUNK_BYTES = 256 * 1024;
const LARGE_CHUNK_BYTES = 1024 * 1024;
const LARGE_FILE_BYTES = 4 * 1024 * 1024;

/** The part every file is sent as (docs/service.md 4.11). */
const FILE_PART = 'Uploads';
const CRLF = '\r\n';

// Drawn once a run, not once a form (1,000 closes send 1,000 forms), and only by a run that sends
// one: 96 bits from the system's random source. Not Math.random, whose next values can be told
// from earlier ones: a boundary someone can guess lets a field's value end its part and forge
// others. A counter keeps each form's boundary its own.
let runRandom: string | undefined;
let formsBuilt = 0;
function nextBoundary(): string {
  runRandom ??= randomHex(12);
  return `--------------------------tkt${runRandom}${(formsBuilt++).toString(36)}`;
}

/**
 * `count` random bytes as hex, read from /dev/urandom where there is one (0.2 ms); the global Web
 * Crypto elsewhere (Windows), which loads eight of node:crypto's modules: 1.2-1.5 ms and, on
 * Node 24, 2.8 MB of memory.
 */
function randomHex(count: number): string {
  const bytes = Buffer.alloc(count);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      if (readSync(fd, bytes) === count) return bytes.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    // No /dev/urandom here.
  }
  return Buffer.from(crypto.getRandomValues(new Uint8Array(count))).toString('hex');
}

const UNSAFE_IN_PARAMETER = /["\r\n]/;
/** A name in a part's header as browsers write it (WHATWG HTML): CR, LF and `"` cannot end the header or the name. */
const headerParameter = (value: string): string =>
  // Most names have none of them: a bulk run's forms (one per ticket) are built without copying each.
  UNSAFE_IN_PARAMETER.test(value) ? value.replaceAll('\r', '%0D').replaceAll('\n', '%0A').replaceAll('"', '%22') : value;

/**
 * The multipart body of `input`: fields and, for each file, a part whose bytes come from disk.
 * A form of fields only (every bulk close, reply, pickup) is built at once, without a promise:
 * an async function is among the costliest V8 optimizes, and a run of 500 such forms spent more
 * time on optimizing this one than on building every form (README, Performance). For the same
 * reason each field is written without an array of its values or an entry per field.
 */
export function buildMultipart(input: MultipartInput): Multipart | Promise<Multipart> {
  const boundary = nextBoundary();
  const contentType = `multipart/form-data; boundary=${boundary}`;
  const { fields } = input;
  let text = '';
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined || value === null) continue;
    const head = `--${boundary}${CRLF}Content-Disposition: form-data; name="${headerParameter(name)}"${CRLF}${CRLF}`;
    if (!Array.isArray(value)) text += `${head}${String(value)}${CRLF}`;
    else for (const scalar of value as readonly FormScalar[]) text += `${head}${String(scalar)}${CRLF}`;
  }
  const end = `--${boundary}--${CRLF}`;
  const uploads = input.files ?? [];
  const names = (): string[] => [...fieldNames(fields), ...uploads.map((file) => `${FILE_PART}=${file.name}`)];
  // Fields only: text, which node:http sends in one write with the request's head.
  if (uploads.length === 0) {
    text += end;
    return { headers: { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)) }, body: text, names };
  }
  // The text around the files: each file's bytes go between one piece and the next.
  const framing = [text];
  for (const { name } of uploads) {
    framing[framing.length - 1] +=
      `--${boundary}${CRLF}Content-Disposition: form-data; name="${FILE_PART}"; filename="${headerParameter(name)}"${CRLF}Content-Type: ${contentTypeOf(name)}${CRLF}${CRLF}`;
    framing.push(CRLF);
  }
  framing[framing.length - 1] += end;
  return withFileSizes(contentType, framing, uploads, names);
}

/** A field's name once for each value it is sent with. */
function fieldNames(fields: MultipartInput['fields']): string[] {
  return Object.entries(fields).flatMap(([name, value]) =>
    value === undefined || value === null ? [] : Array.isArray(value) ? value.map(() => name) : [name],
  );
}

async function withFileSizes(contentType: string, framing: string[], uploads: readonly UploadFile[], names: () => string[]): Promise<Multipart> {
  const pieces = framing.map((text) => Buffer.from(text));
  const files = await Promise.all(uploads.map(fileToSend));
  const length = files.every((file) => file.size !== undefined)
    ? pieces.reduce((sum, piece) => sum + piece.length, 0) + files.reduce((sum, file) => sum + file.size!, 0)
    : undefined;
  // Without content-length, the body is sent chunked.
  const headers: Record<string, string> =
    length === undefined ? { 'content-type': contentType } : { 'content-type': contentType, 'content-length': String(length) };
  return { headers, body: { framing: pieces, files, length }, names };
}

/**
 * A pipe's bytes kept in a private file as its first upload reads them, for the run to send them
 * again (UploadFile.resend). `size` is set once the pipe was read to its end: until then, there
 * is nothing whole to send again.
 */
interface Spool {
  path: string;
  size: number | undefined;
}

/** Pipes read (or being read) by an upload of this run, each with its spool when it is kept. */
const readPipes = new Map<string, Spool | undefined>();
let spoolFolder: string | undefined;

/** A new file for a spool, 0600 in a folder of the system's temporary one that only this user may enter, removed at exit. */
async function newSpoolPath(): Promise<string> {
  if (spoolFolder === undefined) {
    // mkdtemp makes the folder 0700. node:os only here: the one upload in many that needs it.
    const { tmpdir } = await import('node:os');
    const folder = mkdtempSync(join(tmpdir(), 'tkt-upload-'));
    process.on('exit', () => rmSync(folder, { recursive: true, force: true }));
    spoolFolder = folder;
  }
  return join(spoolFolder, String(readPipes.size));
}

/** What the body sends of `upload`: its path and size, or a pipe's kept copy; a pipe read before and not kept is an error. */
async function fileToSend(upload: UploadFile): Promise<Upload['files'][number]> {
  const { path } = upload;
  const { size, pipe } = await fileSize(path);
  if (!pipe) return { path, size };
  // Looked up after the await: the forms of a bulk run are built at the same time.
  if (readPipes.has(path)) {
    const spool = readPipes.get(path);
    // Its bytes were read by an earlier upload: opened again, the pipe gives none, or another writer's.
    if (spool?.size === undefined) {
      const why = spool === undefined ? 'read by an earlier upload of this run' : 'not read to its end by an earlier upload of this run';
      throw new OperationError(`cannot send ${path} again: it is a pipe, ${why}, and its bytes cannot be read twice`);
    }
    return { path: spool.path, size: spool.size > 0 ? spool.size : undefined };
  }
  // Claimed before the next await, so that no other form takes the same pipe meanwhile.
  const spool: Spool | undefined = upload.resend === true ? { path: '', size: undefined } : undefined;
  readPipes.set(path, spool);
  if (spool !== undefined) spool.path = await newSpoolPath();
  return { path, size, spool };
}

/**
 * How many bytes an upload of `upload` sent, when that is known without reading it: a file's
 * size, a pipe's kept copy's; undefined for a pipe not kept (and a file of /proc, which says 0).
 */
export async function sentSize(upload: UploadFile): Promise<number | undefined> {
  const spool = readPipes.get(upload.path);
  if (spool !== undefined) return spool.size;
  try {
    const info = await statPath(upload.path);
    return info.isFile() && info.size > 0 ? info.size : undefined;
  } catch {
    return undefined;
  }
}

/** The size to announce, or undefined when only reading tells it; `pipe`: it can be read only once. Opens nothing: a pipe is read once, when sent. */
async function fileSize(path: string): Promise<{ size: number | undefined; pipe: boolean }> {
  let info: Stats;
  try {
    info = await statPath(path);
  } catch {
    throw new UsageError(`cannot read file ${path}`);
  }
  if (info.isDirectory()) throw new UsageError(`cannot upload ${path}: ${DIRECTORY_NOT_FILE}`);
  const device = deviceProblem(path, info);
  if (device !== undefined) throw new UsageError(`cannot upload ${path}: ${device}`, { hint: DEVICE_HINT });
  // A pipe has no size; a file of /proc or /sys says 0 whatever it holds, and can be read again.
  if (info.isFile()) return { size: info.size > 0 ? info.size : undefined, pipe: false };
  return { size: undefined, pipe: true };
}

/**
 * The body as undici takes it: the framing and each file's bytes in turn, `onProgress` called
 * for every chunk (an upload that keeps moving does not time out). A file that changed size
 * since the body was built fails the request rather than sending a body of the wrong length;
 * a file of unknown size is read to its end. When `signal` aborts (the request given up), a pipe
 * being read is closed at once: a quiet writer must not keep the run alive. `watcher` is told
 * each file's chunk once the connection asks for the next one, having taken it (transport.ts).
 */
export async function* uploadChunks(upload: Upload, onProgress: () => void, signal?: AbortLike, watcher?: UploadWatcher): AsyncGenerator<Buffer> {
  // Each untouched, and so costing no memory, until a file of a whole chunk or more is read into it.
  const smallChunk = Buffer.allocUnsafeSlow(SMALL_CHUNK_BYTES);
  const largeChunk = Buffer.allocUnsafeSlow(LARGE_CHUNK_BYTES);
  for (const [index, file] of upload.files.entries()) {
    yield upload.framing[index]!;
    watcher?.fileStarted(index, file.size);
    if (file.size === undefined) {
      // Read once, to its end, as it comes (util/input-file.ts: a pipe never blocks the exit).
      const stream = await openInput(file.path, signal);
      const spool = file.spool === undefined ? undefined : await openFd(file.spool.path, 'wx', 0o600);
      try {
        let size = 0;
        for await (const chunk of stream) {
          onProgress();
          if (spool !== undefined) await writeFdAll(spool, chunk as Buffer);
          size += (chunk as Buffer).length;
          yield chunk as Buffer;
          watcher?.taken((chunk as Buffer).length);
        }
        // Whole: the run may send it again.
        if (file.spool !== undefined) file.spool.size = size;
      } finally {
        stream.destroy();
        if (spool !== undefined) await closeFd(spool);
      }
      continue;
    }
    const fd = await openFd(file.path, 'r');
    try {
      for await (const chunk of sizedChunks(fd, file.path, file.size, file.size < LARGE_FILE_BYTES ? smallChunk : largeChunk)) {
        onProgress();
        yield chunk;
        watcher?.taken(chunk.length);
      }
    } finally {
      await closeFd(fd);
    }
  }
  yield upload.framing[upload.files.length]!;
  onProgress();
}

/** Exactly `size` bytes, read where they stand in the file: whole chunks into `wholeChunk`, the rest into a buffer of its own. */
async function* sizedChunks(fd: number, path: string, size: number, wholeChunk: Buffer): AsyncGenerator<Buffer> {
  for (let position = 0; position < size;) {
    const length = Math.min(wholeChunk.length, size - position);
    const buffer = length === wholeChunk.length ? wholeChunk : Buffer.allocUnsafeSlow(length);
    // A read may return less than asked: the chunk is filled, so that no short piece of the reused buffer is sent.
    for (let filled = 0; filled < length;) {
      const bytesRead = await readFdAt(fd, buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) throw new OperationError(`${path} shrank while it was being uploaded`);
      filled += bytesRead;
    }
    position += length;
    yield buffer;
  }
}
