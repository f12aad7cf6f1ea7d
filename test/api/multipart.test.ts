import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import busboy from 'busboy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/http.js';
import type { ApiClient } from '../../src/api/types.js';
import { NetworkError, OperationError, UsageError, outcomeUnknown } from '../../src/errors.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { sendJson, startServer } from './server.js';
import type { TestServer } from './server.js';
import { plans } from '../../src/api/plans.js';
import { fileUpload } from '../../src/api/upload-name.js';

interface ReceivedFile {
  field: string;
  filename: string;
  size: number;
  sha256: string;
}

interface Received {
  fields: [string, string][];
  files: ReceivedFile[];
  /** Each file part's name and Content-Type, in order. */
  types: [string, string][];
  contentLength: string | undefined;
  bytes: number;
}

/** Parses the upload with busboy, hashing files as they stream in. */
function receive(req: IncomingMessage): Promise<Received> {
  return new Promise((resolve, reject) => {
    const received: Received = { fields: [], files: [], types: [], contentLength: req.headers['content-length'], bytes: 0 };
    req.on('data', (chunk: Buffer) => (received.bytes += chunk.length));
    // File names are written as raw UTF-8, as browsers do.
    const parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: Infinity } });
    parser.on('field', (name, value) => received.fields.push([name, value]));
    parser.on('file', (field, stream, info) => {
      received.types.push([info.filename ?? '', info.mimeType]);
      const hash = createHash('sha256');
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        size += chunk.length;
      });
      stream.on('end', () => received.files.push({ field, filename: info.filename ?? '', size, sha256: hash.digest('hex') }));
    });
    parser.on('close', () => resolve(received));
    parser.on('error', reject);
    req.pipe(parser);
  });
}

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

let dir: string;
let big: { path: string; data: Buffer };
let small: { path: string; data: Buffer };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tkt-multipart-'));
  big = { path: join(dir, 'capture.bin'), data: randomBytes(8 * 1024 * 1024 + 17) };
  small = { path: join(dir, 'notes ü.txt'), data: Buffer.from('line one\r\nline two\n--boundary-like--\n') };
  await writeFile(big.path, big.data);
  await writeFile(small.path, small.data);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function setup(handler: (req: IncomingMessage, res: ServerResponse) => void, timeoutMs = 10_000): Promise<{ server: TestServer; api: ApiClient }> {
  const server = await startServer(handler);
  const api = createApiClient({ baseUrl: server.url, token: 't', timeoutMs, retryBaseDelayMs: 1, env: {} });
  cleanups.push(
    () => api.dispose(),
    () => server.close(),
  );
  return { server, api };
}

async function recordingServer(): Promise<{ api: ApiClient; server: TestServer; uploads: Received[] }> {
  const uploads: Received[] = [];
  const { api, server } = await setup((req, res) => {
    receive(req).then(
      (received) => {
        uploads.push(received);
        sendJson(res, 201, { id: 77 });
      },
      () => sendJson(res, 400, 'unparseable'),
    );
  });
  return { api, server, uploads };
}

describe('multipart uploads', () => {
  it('sends fields, repeated tags and files intact, skipping undefined and null', async () => {
    const { api, server, uploads } = await recordingServer();
    const response = await api.send(
      plans.register({
        fields: { Title: 'Über ✓ "quoted"', Description: 'two\nlines', SiteId: 3, HasDraft: false, SelectedTags: [4, 9], Cc: undefined, Guid: null },
        files: [big.path, small.path].map(fileUpload),
      }),
    );

    expect(response).toMatchObject({ status: 201, body: { id: 77 } });
    expect(server.requests[0]?.url).toBe('/api/TicketsApi/register');
    expect(server.requests[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const [upload] = uploads;
    expect(upload?.fields).toEqual([
      ['Title', 'Über ✓ "quoted"'],
      ['Description', 'two\nlines'],
      ['SiteId', '3'],
      ['HasDraft', 'false'],
      ['SelectedTags', '4'],
      ['SelectedTags', '9'],
    ]);
    expect(upload?.files).toEqual([
      { field: 'Uploads', filename: 'capture.bin', size: big.data.length, sha256: sha256(big.data) },
      { field: 'Uploads', filename: 'notes ü.txt', size: small.data.length, sha256: sha256(small.data) },
    ]);
    // The length is known up front from the files' sizes, so the body is not chunked.
    expect(upload?.contentLength).toBe(String(upload?.bytes));
  });

  it('sends a file name with control characters cleaned (C0, DEL, C1 become _), letters and bytes intact', async () => {
    const data = Buffer.from('escape me\n');
    const path = join(dir, 'r\u00e9sum\u00e9\u001b[31m\u0007\u007f\u009b\r\nend.txt');
    await writeFile(path, data);
    const { api, uploads } = await recordingServer();
    const response = await api.send(plans.addFiles(5, [path].map(fileUpload)));

    expect(response.status).toBe(201);
    expect(uploads[0]?.files).toEqual([{ field: 'Uploads', filename: 'r\u00e9sum\u00e9_[31m_____end.txt', size: data.length, sha256: sha256(data) }]);
  });

  it('types each file part by its extension from a short table, application/octet-stream otherwise', async () => {
    const names = ['app.log', 'Report.PDF', 'mail.eml', 'outlook.msg', 'config.yml', 'shot.jpeg', 'bundle.7z', 'core.dump', 'README'];
    const paths = names.map((name) => join(dir, name));
    await Promise.all(paths.map((path) => writeFile(path, 'x')));
    const { api, uploads } = await recordingServer();
    await api.send(plans.addFiles(4, paths.map(fileUpload)));
    expect(uploads[0]?.types).toEqual([
      ['app.log', 'text/plain'],
      ['Report.PDF', 'application/pdf'],
      ['mail.eml', 'message/rfc822'],
      ['outlook.msg', 'application/vnd.ms-outlook'],
      ['config.yml', 'application/yaml'],
      ['shot.jpeg', 'image/jpeg'],
      ['bundle.7z', 'application/x-7z-compressed'],
      ['core.dump', 'application/octet-stream'],
      ['README', 'application/octet-stream'],
    ]);
  });

  it('attaches files as repeated Uploads parts with no other fields', async () => {
    const { api, server, uploads } = await recordingServer();
    await api.send(plans.addFiles(12, [small.path, small.path].map(fileUpload)));
    expect(server.requests[0]?.url).toBe('/api/TicketsApi/addfiles/12');
    expect(uploads[0]?.fields).toEqual([]);
    expect(uploads[0]?.files.map((file) => [file.field, file.sha256])).toEqual([
      ['Uploads', sha256(small.data)],
      ['Uploads', sha256(small.data)],
    ]);
  });

  it('sends list-by-username as multipart and rebuilds the body when it retries', async () => {
    const uploads: Received[] = [];
    const { api } = await setup((req, res) => {
      void receive(req).then((received) => {
        uploads.push(received);
        sendJson(res, uploads.length === 1 ? 503 : 200, []);
      });
    });
    await api.send(plans.listByUsername('ann', 2));
    expect(uploads.map((upload) => upload.fields)).toEqual([
      [
        ['username', 'ann'],
        ['page', '2'],
      ],
      [
        ['username', 'ann'],
        ['page', '2'],
      ],
    ]);
  });

  it('sends a file whose size is unknown (a FIFO) chunked, read once to its end, beside a sized one', async () => {
    const path = join(dir, 'piped.log');
    execFileSync('mkfifo', [path]);
    const data = randomBytes(2 * 1024 * 1024 + 3);
    // A child writes it (a blocked write in this process would hold a thread of libuv's pool).
    const writer = spawn('sh', ['-c', 'exec cat > "$0"', path], { stdio: ['pipe', 'ignore', 'inherit'] });
    writer.stdin.on('error', () => undefined);
    writer.stdin.end(data);
    // A failed upload never opened the FIFO: its writer would wait for ever.
    cleanups.push(async () => void (writer.exitCode === null && writer.kill()));
    const { api, server, uploads } = await recordingServer();
    await api.send(plans.addFiles(3, [small.path, path].map(fileUpload)));
    expect(uploads[0]?.files).toEqual([
      { field: 'Uploads', filename: 'notes ü.txt', size: small.data.length, sha256: sha256(small.data) },
      { field: 'Uploads', filename: 'piped.log', size: data.length, sha256: sha256(data) },
    ]);
    expect(uploads[0]?.contentLength).toBeUndefined();
    expect(server.requests[0]?.headers['transfer-encoding']).toBe('chunked');
  });

  it('refuses a directory before sending anything', async () => {
    const { api, server } = await recordingServer();
    const error = await api.send(plans.addFiles(1, [dir].map(fileUpload))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe(`cannot upload ${dir}: a directory, not a file`);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a device before sending anything: /dev/zero would be uploaded for ever', async () => {
    const { api, server } = await recordingServer();
    const error = await api.send(plans.addFiles(1, ['/dev/zero'].map(fileUpload))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toBe('cannot upload /dev/zero: a device, not a file or a pipe');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a missing file before sending anything', async () => {
    const { api, server } = await recordingServer();
    const error = await api.send(plans.addFiles(1, [join(dir, 'missing.pdf')].map(fileUpload))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toContain('missing.pdf');
    expect(server.requests).toHaveLength(0);
  });

  it('lets an upload that keeps moving take longer than the time-out in all, every byte intact', async () => {
    // 40 MB read at about 20 MB/s: two seconds in all, far beyond what the kernel's buffers
    // hold, against a time-out of 0.8 s that only a stalled upload may reach. The connection
    // backs up all the while: the buffers tkt reads the file into, used in turn, must never be
    // filled again before the socket has taken them (random bytes, checked by their hash).
    const file = join(dir, 'slow.bin');
    const data = randomBytes(40 * 1024 * 1024);
    await writeFile(file, data);
    const { api } = await setup((req, res) => {
      let sincePause = 0;
      req.on('data', (chunk: Buffer) => {
        sincePause += chunk.length;
        if (sincePause < 1024 * 1024) return;
        sincePause = 0;
        req.pause();
        setTimeout(() => req.resume(), 50);
      });
      receive(req).then(
        (received) => sendJson(res, 200, received),
        () => sendJson(res, 400, 'unparseable'),
      );
    }, 800);
    const started = Date.now();
    const answer = await api.send(plans.addFiles(1, [file].map(fileUpload)));
    expect(Date.now() - started).toBeGreaterThan(800);
    expect((answer.body as Received).files).toEqual([{ field: 'Uploads', filename: 'slow.bin', size: data.length, sha256: sha256(data) }]);
  });

  it('fails the upload, sending no short body, when a file shrinks while it is sent', async () => {
    const file = join(dir, 'shrinking.bin');
    await writeFile(file, randomBytes(16 * 1024 * 1024));
    const { api } = await setup((req) => {
      // The first bytes in: the file loses its second half before tkt reads that far.
      req.once('data', () => {
        req.pause();
        void truncate(file, 8 * 1024 * 1024).then(() => req.resume());
      });
      req.resume();
    });
    const error = await api.send(plans.addFiles(1, [file].map(fileUpload))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationError);
    expect((error as OperationError).message).toBe(`${file} shrank while it was being uploaded`);
  });

  it('times out when the server never answers an upload', async () => {
    const { api } = await setup(() => undefined, 300);
    const error = await api
      .send(plans.replyTicket(5, { subject: 'Re: big', to: 'ann@example.com', files: [big.path].map(fileUpload) }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ failure: 'timeout' });
  });

  it.each(['directly', 'through a proxy'])('fails an upload that stops moving before its body was all sent as not done, not in doubt (%s)', async (route) => {
    // The service reads nothing: the body backs up beyond what the connections' buffers hold
    // (a proxy's too), and --timeout ends it part-sent. The service never had the whole request.
    const file = join(dir, 'stalled.bin');
    await writeFile(file, Buffer.alloc(48 * 1024 * 1024));
    const server = await startServer(() => undefined);
    const proxy = route === 'directly' ? undefined : await startForwardProxy();
    const api = createApiClient({
      baseUrl: server.url,
      token: 'secret-token',
      timeoutMs: 300,
      retryBaseDelayMs: 1,
      env: proxy ? { HTTP_PROXY: proxy.url } : {},
    });
    cleanups.push(
      () => api.dispose(),
      () => server.close(),
      async () => proxy?.close(),
    );
    const error = await api.send(plans.addFiles(9, [file].map(fileUpload))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).message).toBe(
      `request timed out after 0.3s while its body was being sent (not done: the service never received the whole request): POST ${server.url}/api/TicketsApi/addfiles/9`,
    );
    expect(outcomeUnknown(error)).toBe(false);
  });
});
