// Request bodies in (JSON, multipart with files streamed to disk) and the
// sandbox's responses out.
//
// Error bodies are deliberately NOT uniform, because the real service's shape
// is unknown (docs/service.md 7) and the CLI must cope with any of them:
//   - validation failures (missing/malformed fields, id mismatch): RFC 7807
//     problem+json {type, title, status, errors: {Field: [message]}}
//   - business rules (unknown user, unknown ticket as 400, permission on
//     register, lockout, wrong credentials): {"message": "..."}
//   - 404: a bare JSON string, e.g. "Ticket 42 was not found."
//   - 401 for a bad token and 403: empty body (as ASP.NET's auth middleware does)
//   - injected 500s (RunningSandbox.failNext): an HTML error page
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';

/** Thrown by handlers and parsers; the router turns it into the response. */
export class HttpFailure extends Error {
  constructor(
    readonly status: number,
    readonly send: (res: ServerResponse) => void,
  ) {
    super(`HTTP ${status}`);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** JSON already serialized (pieces kept between requests). */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-length': 0, ...headers });
  res.end();
}

export function problem(status: number, errors: Record<string, string[]>, title = 'One or more validation errors occurred.'): HttpFailure {
  return new HttpFailure(status, (res) => {
    const text = JSON.stringify({ type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title, status, errors });
    res.writeHead(status, { 'content-type': 'application/problem+json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
}

export function messageFailure(status: number, message: string): HttpFailure {
  return new HttpFailure(status, (res) => sendJson(res, status, { message }));
}

export function notFound(message: string): HttpFailure {
  return new HttpFailure(404, (res) => sendJson(res, 404, message));
}

export function emptyFailure(status: number, headers: Record<string, string> = {}): HttpFailure {
  return new HttpFailure(status, (res) => sendEmpty(res, status, headers));
}

export function htmlFailure(status: number, title: string): HttpFailure {
  return new HttpFailure(status, (res) => {
    const text = `<!DOCTYPE html><html><head><title>${title}</title></head><body><h1>Server Error</h1><p>${title}</p></body></html>`;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
}

const MAX_JSON_BYTES = 1024 * 1024;

export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_JSON_BYTES) throw messageFailure(413, 'Request body too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw problem(400, { $: ['The request body is not valid JSON.'] });
  }
}

export interface Upload {
  fileName: string;
  size: number;
  sha256: string;
  /** Where the bytes were streamed to. */
  path: string;
}

export interface Form {
  /** Case-insensitive, as ASP.NET model binding is: keys are lower case. */
  fields: Map<string, string[]>;
  uploads: Upload[];
  /** Files whose extension is not allowed: drained, never written. */
  skipped: string[];
}

/** Multipart or urlencoded bodies via busboy; a JSON body is accepted as plain fields too. */
export async function readForm(req: IncomingMessage, uploadDir: string, allowedExtensions: ReadonlySet<string>): Promise<Form> {
  const form: Form = { fields: new Map(), uploads: [], skipped: [] };
  const contentType = req.headers['content-type'] ?? '';
  const addField = (name: string, value: string): void => {
    const key = name.toLowerCase();
    const values = form.fields.get(key);
    if (values) values.push(value);
    else form.fields.set(key, [value]);
  };
  if (!/multipart\/form-data|application\/x-www-form-urlencoded/i.test(contentType)) {
    const json = /json/i.test(contentType) ? await readJson(req) : (req.resume(), undefined);
    if (typeof json === 'object' && json !== null) {
      for (const [name, value] of Object.entries(json)) {
        for (const item of Array.isArray(value) ? value : [value]) if (item !== null && item !== undefined) addField(name, String(item));
      }
    }
    return form;
  }
  const writes: Promise<void>[] = [];
  // Each file in its place in the form: a write to disk may end after the next file's.
  const saved: Array<Upload | undefined> = [];
  const savedSoFar = (): Upload[] => saved.filter((upload) => upload !== undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fieldSize: 16 * 1024 * 1024 } });
      } catch {
        reject(problem(400, { $: ['The multipart body could not be read (missing boundary?).'] }));
        return;
      }
      parser.on('field', (name, value) => addField(name, value));
      parser.on('file', (_name, stream, info) => {
        const fileName = info.filename ?? '';
        if (fileName === '') {
          stream.resume();
          return;
        }
        if (!allowedExtensions.has(extname(fileName).toLowerCase())) {
          form.skipped.push(fileName);
          stream.resume();
          return;
        }
        const place = saved.push(undefined) - 1;
        writes.push(
          saveUpload(stream, fileName, uploadDir).then((upload) => {
            saved[place] = upload;
          }),
        );
      });
      parser.on('close', resolve);
      parser.on('error', () => reject(problem(400, { $: ['The multipart body is malformed.'] })));
      req.pipe(parser);
    });
    await Promise.all(writes);
  } catch (error) {
    await Promise.allSettled(writes);
    await discardUploads({ ...form, uploads: savedSoFar() });
    throw error;
  }
  form.uploads.push(...savedSoFar());
  return form;
}

/** Streams one file to disk, hashing on the way: a 1 GB upload never sits in memory. */
async function saveUpload(stream: NodeJS.ReadableStream, fileName: string, uploadDir: string): Promise<Upload> {
  const path = join(uploadDir, `${randomUUID()}${extname(fileName).toLowerCase()}`);
  const hash = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  await pipeline(stream, measure, createWriteStream(path));
  return { fileName, size, sha256: hash.digest('hex'), path };
}

/** Removes the files of a request that was refused after they were written. */
export async function discardUploads(form: Form): Promise<void> {
  await Promise.all(form.uploads.map((u) => rm(u.path, { force: true })));
}
