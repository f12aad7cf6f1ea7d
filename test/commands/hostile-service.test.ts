// A broken or hostile service cannot hurt the user (docs/service.md section 10): small servers on 127.0.0.1 that
// echo credentials, answer 200 with a sign-in page, truncated JSON or nothing, nest their
// errors absurdly deep or send bodies without end. The whole CLI runs in-process; the cases
// that measure memory run the built CLI in a child (`npm test` builds dist/ first).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/program.js';
import { processSignals } from '../cli/fake-process.js';
import { sendJson, startServer, type Handler, type TestServer } from '../api/server.js';
import { useTempDirs } from '../config/temp-dir.js';

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const tempDir = useTempDirs();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

// An opaque token (not JWT-shaped): only knowing it finds it in an echo.
const TOKEN = 'opaque-Secret-Token-4711-abcdef';
const PASSWORD = 'Hunter2-correct-horse';
const OTHER_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI5In0.c2lnbmF0dXJlLW90aGVy';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The whole CLI in-process against `server`, with TKT_TOKEN and a fresh config folder. */
async function tkt(argv: string[], server: TestServer, env: Record<string, string> = {}): Promise<Run> {
  const stdin = new PassThrough();
  stdin.end('');
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) => new PassThrough().on('data', (chunk: Buffer) => append(chunk.toString('utf8')));
  const code = await runCli(argv, {
    stdin,
    stdout: collect((text) => (stdout += text)),
    stderr: collect((text) => (stderr += text)),
    env: { TKT_CONFIG_DIR: tempDir(), TKT_URL: server.url, TKT_TOKEN: TOKEN, ...env },
    ...processSignals(),
  });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout, stderr };
}

function expectNoSecrets(run: Run): void {
  for (const secret of [TOKEN, PASSWORD, OTHER_JWT, 'Basic dXNlcjpwYXNz', 'session=abc123']) {
    expect(run.stdout, `stdout shows ${secret}`).not.toContain(secret);
    expect(run.stderr, `stderr shows ${secret}`).not.toContain(secret);
  }
}

/** What a WAF or a debugging proxy sends back: the request's own credentials, in every shape. */
function echoCredentials(res: ServerResponse, status: number, authorization: string | undefined, contentType: string): void {
  const quoted = `Authorization: ${authorization}; Cookie: session=abc123; proxy said Basic dXNlcjpwYXNz, other ${OTHER_JWT}; raw ${TOKEN}`;
  res.writeHead(status, { 'content-type': contentType });
  if (contentType.includes('json')) {
    res.end(JSON.stringify({ message: quoted, headers: { authorization, token: TOKEN }, errors: { Token: [TOKEN] } }));
  } else if (contentType.includes('html')) {
    res.end(`<html><head><title>Blocked ${TOKEN}</title></head><body><pre>${quoted}</pre></body></html>`);
  } else {
    res.end(quoted);
  }
}

describe('secrets echoed by the service', () => {
  it.each([
    [401, 'application/json', 4],
    [500, 'text/plain', 1],
    [403, 'text/html', 5],
    [400, 'application/problem+json', 1],
  ])('HTTP %i (%s) quoting the token: exit %i, the token never printed, with or without --debug', async (status, contentType, exitCode) => {
    const server = await serve((req, res) => echoCredentials(res, status, req.headers.authorization, contentType));

    for (const extra of [[], ['--debug'], ['--json']]) {
      const run = await tkt(['show', '5', ...extra], server);
      expect(run.code).toBe(exitCode);
      expect(run.stderr).toMatch(new RegExp(`HTTP ${status}.*GET ${server.url}/api/TicketsApi/5`));
      expectNoSecrets(run);
    }
  });

  it('keeps the token out of JSON Lines errors and their bodies', async () => {
    const server = await serve((req, res) => echoCredentials(res, 500, req.headers.authorization, 'application/json'));

    const run = await tkt(['read', '5', '6', '--json'], server);

    expect(run.code).toBe(1);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.id, line.ok, line.status])).toEqual([
      [5, false, 500],
      [6, false, 500],
    ]);
    expect(JSON.stringify(lines[0]!.body)).toContain('***');
    expectNoSecrets(run);
  });

  it('replaces the token in a successful answer too, but never a short one taken for text', async () => {
    const server = await serve((req, res) => sendJson(res, 200, { id: 5, title: `echo ${String(req.headers.authorization)}`, xx: 'x' }));

    const run = await tkt(['api', 'GET', '/api/TicketsApi/5'], server);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: 5, title: 'echo Bearer ***', xx: 'x' });
    expectNoSecrets(run);

    const short = await tkt(['api', 'GET', '/api/TicketsApi/5'], server, { TKT_TOKEN: 'x' });
    expect(JSON.parse(short.stdout)).toEqual({ id: 5, title: 'echo Bearer x', xx: 'x' });
  });

  it('never prints the password of a failed login, not even with --debug', async () => {
    const server = await serve((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const { Password } = JSON.parse(body) as { Password: string };
        sendJson(res, 401, { message: `wrong password "${Password}" for ann`, echo: JSON.parse(body), raw: body });
      });
    });

    const run = await tkt(['login', '-u', 'ann', '--debug'], server, { TKT_TOKEN: '', TKT_PASSWORD: PASSWORD });

    expect(run.code).toBe(4);
    expect(run.stderr).toContain('wrong password "***" for ann');
    expect(run.stderr).toMatch(/debug: HTTP > POST .*authenticate/);
    expectNoSecrets(run);
  });

  /** A login service that answers 200 with `answer(password)` as `contentType`. */
  function loginEcho(contentType: string, answer: (password: string) => string) {
    return serve((req, res) => {
      let body = '';
      req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      req.on('end', () => {
        const { Password } = JSON.parse(body) as { Password: string };
        res.writeHead(200, { 'content-type': contentType });
        res.end(answer(Password));
      });
    });
  }

  it.each([
    ['text/plain', (password: string) => `Wrong secret ${password} for ann`, /the service answered with text \("Wrong secret \*\*\* for ann"\)/],
    ['text/html', (password: string) => `<html><head><title>Sign in again, ${password}</title></head></html>`, /an HTML page \("Sign in again, \*\*\*"\)/],
  ])('never prints the password a login answer of 200 %s quotes: the unusable answer is redacted too', async (contentType, answer, expected) => {
    const server = await loginEcho(contentType, answer);

    for (const extra of [[], ['--json'], ['--debug']]) {
      const run = await tkt(['login', '-u', 'ann', ...extra], server, { TKT_TOKEN: '', TKT_PASSWORD: PASSWORD });
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(expected);
      expectNoSecrets(run);
    }
  });

  it('login --json prints the user without the password a successful answer quotes, and keeps the token it sent', async () => {
    const token = 'issued-token-0123456789-abcdef';
    const server = await loginEcho('application/json', (password) =>
      JSON.stringify({ Id: 9, Username: 'ann', FirstName: 'Ann', LastName: `Smith (${password})`, Token: token }),
    );
    const configDir = tempDir();

    const run = await tkt(['login', '-u', 'ann', '--json'], server, { TKT_TOKEN: '', TKT_PASSWORD: PASSWORD, TKT_CONFIG_DIR: configDir });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ Id: 9, Username: 'ann', FirstName: 'Ann', LastName: 'Smith (***)' });
    expectNoSecrets(run);
    const saved = JSON.parse(fs.readFileSync(path.join(configDir, 'tokens', 'default.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ token, username: 'ann', lastName: 'Smith (***)' });
  });

  it('a user name the same as the password stays the user name: it was sent openly', async () => {
    const server = await loginEcho('application/json', (password) => JSON.stringify({ Id: 9, Username: password, Token: 'issued-token-0123456789-abcdef' }));

    const run = await tkt(['login', '-u', 'tech', '--json'], server, { TKT_TOKEN: '', TKT_PASSWORD: 'tech' });

    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ Id: 9, Username: 'tech' });
    expect(run.stderr).toContain('as tech');
  });
});

describe('a 2xx that is not the answer', () => {
  const SIGN_IN = '<!DOCTYPE html><html><head><title>Sign in to Contoso</title></head><body><form>...</form></body></html>';

  it.each([
    ['a sign-in page', 'text/html; charset=utf-8', SIGN_IN, /an HTML page \("Sign in to Contoso"\): is a sign-in gateway in front of the service\?/],
    ['truncated JSON', 'application/json', '{"id":5,"subject":"Printer', /JSON that does not parse \(26 bytes, truncated or malformed\)/],
    ['an empty body', 'application/json', '', /an empty body/],
    ['an array', 'application/json', '[1,2]', /a JSON array where an object was expected/],
    ['plain text', 'text/plain', 'OK', /text \("OK"\)/],
  ])('show answered 200 with %s is exit 1 saying what came back', async (_name, contentType, body, expected) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': contentType });
      res.end(body);
    });

    for (const extra of [[], ['--json']]) {
      const run = await tkt(['show', '5', ...extra], server);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(`error: unusable answer (HTTP 200): GET ${server.url}/api/TicketsApi/5`);
      expect(run.stderr).toMatch(expected);
    }
  });

  it('list answered with a sign-in page is exit 1, not "no tickets"', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(SIGN_IN);
    });

    const run = await tkt(['list'], server);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/sign-in gateway/);
  });
});

describe('redirects', () => {
  const redirectTo = (status: number, location: (req: IncomingMessage) => string) => (req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { location: location(req) });
    res.end();
  };

  it('a GET sent on to another origin, without the token, that fails there says so, not that the token was refused', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 401, { message: 'who are you?' }));
    const home = await serve(redirectTo(302, (req) => `${elsewhere.url.replace('127.0.0.1', 'localhost')}${req.url}`));

    const run = await tkt(['show', '5'], home);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain(`not authenticated (HTTP 401): GET ${elsewhere.url.replace('127.0.0.1', 'localhost')}/api/TicketsApi/5`);
    expect(run.stderr).toContain(
      `hint: the service redirected to ${elsewhere.url.replace('127.0.0.1', 'localhost')}/api/TicketsApi/5 (another origin; the token is not sent there): use --url ${elsewhere.url.replace('127.0.0.1', 'localhost')}`,
    );
    expect(run.stderr).not.toContain('TKT_TOKEN was refused');
    expect(elsewhere.requests[0]!.headers.authorization).toBeUndefined();
  });

  it.each([301, 308])('a POST answered %i names where it was sent: list and login', async (status) => {
    const elsewhere = 'https://helpdesk.example.test/desk';
    const home = await serve(redirectTo(status, (req) => `${elsewhere}${req.url}`));

    const list = await tkt(['list'], home);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(`error: failed (HTTP ${status}): POST ${home.url}/api/TicketsApi`);
    expect(list.stderr).toContain(
      `hint: the service redirected to ${elsewhere}/api/TicketsApi (another origin; the token is not sent there): use --url ${elsewhere}`,
    );

    const login = await tkt(['login', '-u', 'ann'], home, { TKT_TOKEN: '', TKT_PASSWORD: PASSWORD });
    expect(login.code).toBe(1);
    expect(login.stderr).toContain(`hint: the service redirected to ${elsewhere}/api/Users/authenticate (another origin): use --url ${elsewhere}`);
    expect(home.requests.every((request) => request.method === 'POST')).toBe(true);
  });

  // The list's POST only reads: its hint must not speak of a change held back.
  it('a POST redirected within the service names what was not followed: a read, or a change never sent twice', async () => {
    const home = await serve((req, res) => (req.method === 'POST' ? redirectTo(308, (post) => `${post.url}/`)(req, res) : sendJson(res, 200, {})));

    const list = await tkt(['list'], home);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain(
      `hint: the service redirected to ${home.url}/api/TicketsApi/: tkt follows the redirects of a GET only, and this read is a POST\n`,
    );
    expect(list.stderr).not.toContain('a change');

    const pickup = await tkt(['pickup', '5'], home);
    expect(pickup.code).toBe(1);
    expect(pickup.stderr).toContain(
      `hint: the service redirected to ${home.url}/api/TicketsApi/pickup/5/: tkt follows the redirects of a GET only (a change is never sent twice)\n`,
    );
  });

  it('a redirect from http to https on the same host says the service wants https', async () => {
    const home = await serve(redirectTo(308, (req) => `https://${req.headers.host}${req.url}`));
    const host = new URL(home.url).host;

    const run = await tkt(['login', '-u', 'ann'], home, { TKT_TOKEN: '', TKT_PASSWORD: PASSWORD });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`hint: the service redirected to https://${host}/api/Users/authenticate (it wants https): use --url https://${host}`);
  });
});

describe('what the headers of a refusal say', () => {
  // A change is not tried again, so nothing waits here; the read that is tried again: test/api/http.test.ts.
  it('a 429 whose Retry-After is long says how long the service asked to wait, and when to try again', async () => {
    const server = await serve((req, res) =>
      req.method === 'GET'
        ? sendJson(res, 200, { id: 5, title: 'Printer', status: 'Open' })
        : res.writeHead(429, { 'retry-after': '120', 'content-type': 'text/plain' }).end('Too many requests'),
    );

    const run = await tkt(['pickup', '5'], server);

    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: #5 failed (HTTP 429)\n' + '  Too many requests; the service asked to wait 120 s (Retry-After)\n' + 'hint: try again in 2 min\n',
    );
  });

  it('a 401 says why the token was refused when its WWW-Authenticate has an error_description, cleared of the token', async () => {
    const challenge = `Bearer realm="desk", error="invalid_token", error_description="The token expired at 2026-11-28 17:13 (token \\"${TOKEN}\\")"`;
    const server = await serve((_req, res) => res.writeHead(401, { 'www-authenticate': challenge }).end());

    const run = await tkt(['show', '5'], server);

    expect(run.code).toBe(4);
    expect(run.stderr).toContain(
      `error: not authenticated (HTTP 401): GET ${server.url}/api/TicketsApi/5\n  The token expired at 2026-11-28 17:13 (token "***")\n`,
    );
    expectNoSecrets(run);
  });
});

describe('error bodies of any shape, size and depth', () => {
  const DEEP = 200_000;

  it.each([
    ['JSON nested 200,000 levels deep', 'application/json', '{"error":'.repeat(DEEP) + '"x"' + '}'.repeat(DEEP)],
    ['an array nested 200,000 levels deep', 'application/json', '['.repeat(DEEP) + ']'.repeat(DEEP)],
    ['5 MB of text on one line', 'text/plain', 'x'.repeat(5 * 1024 * 1024)],
    ['truncated JSON', 'application/json', '{"message": "half'],
  ])('HTTP 500 with %s is one short error naming the status and URL', async (_name, contentType, body) => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': contentType });
      res.end(body);
    });

    const run = await tkt(['show', '5'], server);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: failed (HTTP 500): GET ${server.url}/api/TicketsApi/5`);
    expect(run.stderr).not.toContain('Maximum call stack');
    expect(run.stderr.length).toBeLessThan(1000);
  });

  it('a JSON Lines error with a deeply nested body is still one JSON line per ID', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('['.repeat(DEEP) + ']'.repeat(DEEP));
    });

    const run = await tkt(['read', '5', '--json'], server);

    expect(run.code).toBe(1);
    const line = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(line).toMatchObject({ id: 5, ok: false, status: 500 });
    expect(run.stdout.length).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('bodies without end', () => {
  // A preload that records the child's peak resident memory when it exits.
  function peakRecorder(dir: string): { preload: string; report: string } {
    const preload = path.join(dir, 'peak.cjs');
    const report = path.join(dir, 'peak.txt');
    fs.writeFileSync(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, String(process.resourceUsage().maxRSS * 1024)));`,
    );
    return { preload, report };
  }

  async function tktChild(argv: string[], server: TestServer): Promise<Run & { peakBytes: number }> {
    const dir = tempDir();
    const { preload, report } = peakRecorder(dir);
    const { NODE_EXTRA_CA_CERTS: _unused, ...inherited } = process.env;
    const child = spawn(process.execPath, ['--require', preload, bin, ...argv], {
      env: { ...inherited, TKT_CONFIG_DIR: dir, TKT_URL: server.url, TKT_TOKEN: TOKEN, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = (await once(child, 'exit')) as [number];
    return { code, stdout, stderr, peakBytes: Number(fs.readFileSync(report, 'utf8')) };
  }

  const MB = 1024 * 1024;
  const CHUNK = Buffer.alloc(MB, 'a');

  /** Writes `total` bytes (Infinity: until the client goes away), honouring backpressure. */
  function stream(res: ServerResponse, total: number): void {
    let sent = 0;
    const pump = () => {
      while (sent < total) {
        sent += CHUNK.length;
        if (!res.write(CHUNK)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (sent = total));
    pump();
  }

  it.each([
    ['declared as 1 GiB', true, /answer too large \(HTTP 200\): 1 GB \(Content-Length\) from GET http:\/\/127\.0\.0\.1:\d+\/api\/TicketsApi\/5/],
    ['without end', false, /answer too large \(HTTP 200\): more than 64 MB from GET http:\/\/127\.0\.0\.1:\d+\/api\/TicketsApi\/5/],
  ])('show with a body %s: exit 1 naming the size and URL, memory bounded', async (_name, declared, expected) => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(declared ? { 'content-length': String(1024 * MB) } : {}) });
      res.write('{"id":5,"description":"');
      stream(res, declared ? 1024 * MB : Infinity);
    });

    const run = await tktChild(['show', '5'], server);

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(expected);
    // 64 MB read and never decoded (about 125 MB at peak): the whole body used to take 2 GB.
    expect(run.peakBytes).toBeLessThan(200 * MB);
  });

  it('an error body without end is cut, not read: exit 1 at once', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      stream(res, Infinity);
    });

    const run = await tktChild(['list', '--timeout', '20'], server);

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/failed \(HTTP 502\): POST http:\/\/127\.0\.0\.1:\d+\/api\/TicketsApi/);
    expect(run.peakBytes).toBeLessThan(120 * MB);
  });
});
