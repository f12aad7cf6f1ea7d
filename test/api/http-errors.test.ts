import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Received } from '../../src/api/answer.js';
import { DeadlineExceeded } from '../../src/api/deadline.js';
import { classifyNetworkError, finalAnswer, networkError, tooLargeError } from '../../src/api/http-errors.js';
import { ApiError, ExitCode, NetworkError, outcomeUnknown } from '../../src/errors.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';

const SECRET = 'the-token-of-this-run';
const NO_PROXY = { httpProxy: '', httpsProxy: '', noProxy: '' };

function received(status: number, body: unknown, extra: Partial<Received> = {}): Received {
  return { status, headers: { 'content-type': 'application/json' }, url: `http://h/api/x?access_token=${SECRET}`, body, problem: undefined, ...extra };
}

const thrown = (run: () => unknown): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
};

describe('finalAnswer', () => {
  it('returns a 2xx answer the endpoint returns, without its read notes', () => {
    const answer = finalAnswer(received(200, { id: 1 }), 'GET', true, 'object', [SECRET]);
    expect(answer).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, url: `http://h/api/x?access_token=${SECRET}`, body: { id: 1 } });
  });

  it("reads why a 401 refused the token from any of its challenges' error_description, quoted or not, and nothing else of them", () => {
    const refusal = (challenges: string | string[]) =>
      (thrown(() => finalAnswer(received(401, undefined, { headers: { 'www-authenticate': challenges } }), 'GET', true, 'object', [SECRET])) as ApiError)
        .serverMessages;
    expect(refusal(['Basic realm="x"', 'Bearer error="invalid_token", error_description=expired'])).toEqual(['expired']);
    expect(refusal('Bearer error_description="a \\"quoted\\", comma", error="invalid_token"')).toEqual(['a "quoted", comma']);
    expect(refusal(`Bearer error_description="${SECRET} is not valid"`)).toEqual(['*** is not valid']);
    expect(refusal('Bearer realm="desk", error="invalid_token"')).toEqual([]);
    expect(refusal('Bearer error_description=""')).toEqual([]);
  });

  it('turns any other status into an ApiError with the server words, its URL cleared of the secret', () => {
    const error = thrown(() => finalAnswer(received(404, { message: 'No such ticket' }), 'GET', true, 'object', [SECRET]));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      method: 'GET',
      url: 'http://h/api/x?access_token=***',
      body: { message: 'No such ticket' },
      serverMessages: ['No such ticket'],
      exitCode: ExitCode.notFound,
    });
    expect((error as ApiError).message).not.toContain(SECRET);
  });

  it('describes a 2xx body that is not what the endpoint returns, and keeps none of it', () => {
    const page = received(200, '<html><title>Sign in</title></html>', { problem: 'an HTML page ("Sign in")' });
    const error = thrown(() => finalAnswer(page, 'GET', true, 'object', [SECRET]));
    expect(error).toMatchObject({
      status: 200,
      body: undefined,
      serverMessages: ['the service answered with an HTML page ("Sign in")'],
      message: 'unusable answer (HTTP 200): GET http://h/api/x?access_token=***',
    });
    expect(thrown(() => finalAnswer(received(200, [1]), 'GET', true, 'object', []))).toMatchObject({
      serverMessages: ['the service answered with a JSON array where an object was expected'],
    });
  });

  it("leaves a change answered 2xx with a body it cannot use in doubt (the service had it), a read's or a list POST's not", () => {
    const cut = received(200, '{"id":12', { problem: 'JSON that does not parse (8 bytes, truncated or malformed)' });
    const change = thrown(() => finalAnswer(cut, 'POST', false, 'object', []));
    expect(change).toMatchObject({ changeReceived: true, exitCode: ExitCode.failed });
    expect(outcomeUnknown(change)).toBe(true);
    for (const [method, read] of [
      ['GET', true],
      ['POST', true],
    ] as const) {
      expect(outcomeUnknown(thrown(() => finalAnswer(cut, method, read, 'object', [])))).toBe(false);
    }
    // A refusal of a change is no success: it failed, as ever.
    expect(outcomeUnknown(thrown(() => finalAnswer(received(400, { message: 'no' }), 'POST', false, 'object', [])))).toBe(false);
  });

  it('returns whatever came when the plan does not check (tkt api)', () => {
    const page = received(200, '<html></html>', { problem: 'an HTML page' });
    expect(finalAnswer(page, 'GET', true, 'unchecked', [])).toMatchObject({ status: 200, body: '<html></html>' });
  });
});

describe('tooLargeError', () => {
  it('names the size the answer declared, or the limit it went past', () => {
    expect(tooLargeError(200, 'GET', true, `http://h/x?token=${SECRET}`, 1024, [SECRET], 5 * 1024 * 1024)).toMatchObject({
      status: 200,
      url: 'http://h/x?token=***',
      body: undefined,
      message: 'answer too large (HTTP 200): 5 MB (Content-Length) from GET http://h/x?token=***',
      serverMessages: ['tkt reads at most 1 KB of an answer; the rest was not read'],
    });
    expect(tooLargeError(200, 'POST', false, 'http://h/x', 64 * 1024 * 1024, []).message).toBe(
      'answer too large (HTTP 200): more than 64 MB from POST http://h/x',
    );
    // Too large is as unusable: a change's is in doubt, a read's not.
    expect(outcomeUnknown(tooLargeError(200, 'POST', false, 'http://h/x', 1024, []))).toBe(true);
    expect(outcomeUnknown(tooLargeError(200, 'POST', true, 'http://h/x', 1024, []))).toBe(false);
  });
});

describe('classifyNetworkError', () => {
  const withCode = (code: string): Error => Object.assign(new Error(code), { code });

  it.each([
    [new DeadlineExceeded('deadline passed'), 'timeout'],
    [new Error('aborted', { cause: new DeadlineExceeded('deadline passed') }), 'timeout'],
    [withCode('ETIMEDOUT'), 'timeout'],
    [withCode('EAI_NONAME'), 'dns'],
    [withCode('EPROTO'), 'tls'],
    [withCode('EPIPE'), 'reset'],
    [withCode('UND_ERR_CLOSED'), 'reset'],
    ['a string', 'other'],
  ])('%s -> %s', (error, failure) => {
    expect(classifyNetworkError(error)).toBe(failure);
  });
});

describe('networkError', () => {
  const connectError = (code: string, port: number): Error =>
    Object.assign(new Error(`connect ${code} 127.0.0.1:${port}`), { code, address: '127.0.0.1', port });

  it('says what failed in one line naming the request, its URL cleared of the secret', () => {
    const url = `http://svc.example:8080/api/x?token=${SECRET}`;
    const made = (error: unknown, timeoutMs = 30_000) => networkError(error, 'GET', url, timeoutMs, [SECRET], NO_PROXY);
    const target = 'GET http://svc.example:8080/api/x?token=***';

    expect(made(connectError('ECONNREFUSED', 8080))).toMatchObject({ failure: 'refused', url: 'http://svc.example:8080/api/x?token=***' });
    expect(made(connectError('ECONNREFUSED', 8080)).message).toBe(`connection refused: ${target}`);
    expect(made(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' })).message).toBe(`could not resolve host svc.example:8080: ${target}`);
    expect(made(new DeadlineExceeded('passed'), 1500).message).toBe(`request timed out after 1.5s: ${target}`);
    expect(made(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })).message).toBe(`connection closed by the server: ${target}`);
    expect(made(new Error(`odd failure quoting ${SECRET}`)).message).toBe(`request failed (odd failure quoting ***): ${target}`);
    expect(made(connectError('ECONNREFUSED', 8080))).toBeInstanceOf(NetworkError);
  });

  it('keeps what failed without the request, for a summary of many requests', () => {
    const made = (error: unknown) => networkError(error, 'POST', `http://svc/x?token=${SECRET}`, 1500, [SECRET], NO_PROXY);
    expect(made(connectError('ECONNREFUSED', 80)).reason).toBe('connection refused');
    expect(made(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' })).reason).toBe('could not resolve host svc');
    expect(made(new DeadlineExceeded('passed')).reason).toBe('request timed out after 1.5s');
    expect(made(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })).reason).toBe(
      'TLS error (self-signed certificate)',
    );
    expect(made(new Error(`odd failure quoting ${SECRET}`)).reason).toBe('request failed (odd failure quoting ***)');
    const proxies = { httpProxy: 'http://ann:secret@127.0.0.1:3128', httpsProxy: '', noProxy: '' };
    expect(networkError(connectError('ECONNREFUSED', 3128), 'GET', 'http://svc/x', 1000, [], proxies).reason).toBe(
      'could not reach the proxy http://127.0.0.1:3128 (connection refused)',
    );
  });

  it('adds what to do about a private CA to a TLS failure', () => {
    const selfSigned = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    const error = networkError(selfSigned, 'GET', 'https://h/x', 1000, [], NO_PROXY);
    expect(error.message).toBe('TLS error (self-signed certificate): GET https://h/x');
    expect(error.hint).toContain('NODE_EXTRA_CA_CERTS');
  });

  it("gives OpenSSL's words of a TLS failure on one line, as undici's did, without node:http's syscall prefix", () => {
    const openssl = '80BCE18C1B7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n';
    const plainHttp = Object.assign(new Error(`write EPROTO ${openssl}`), { code: 'EPROTO', syscall: 'write' });
    expect(networkError(plainHttp, 'GET', 'https://h/x', 1000, [], NO_PROXY).message).toBe(`TLS error (${openssl.trim()}): GET https://h/x`);
  });

  it('says that a port answering TLS with "wrong version number" may serve plain http, naming the http:// URL', () => {
    const openssl = '80BCE18C1B7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n';
    const plainHttp = Object.assign(new Error(`write EPROTO ${openssl}`), { code: 'EPROTO', syscall: 'write' });
    const loopback = networkError(plainHttp, 'POST', 'https://127.0.0.1:8642/api/Users/authenticate', 1000, [], NO_PROXY);
    expect(loopback.failure).toBe('tls');
    expect(loopback.hint).toBe('the service may speak plain http on that port: try http://127.0.0.1:8642');
    // Elsewhere plain http needs --allow-http (docs/cli.md section 4): the hint says so.
    const remote = networkError(plainHttp, 'GET', 'https://helpdesk.example.com:8080/helpdesk/api/x', 1000, [], NO_PROXY);
    expect(remote.hint).toBe(
      'the service may speak plain http on that port: try http://helpdesk.example.com:8080 (with --allow-http, if you trust the network)',
    );
    // Node's own code for it says the same.
    const coded = Object.assign(new Error('wrong version number'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    expect(networkError(coded, 'GET', 'https://[::1]:9/x', 1000, [], NO_PROXY).hint).toBe('the service may speak plain http on that port: try http://[::1]:9');
  });

  it('names the proxy, without its credentials, when the proxy is what could not be reached', () => {
    const proxies = { httpProxy: 'http://ann:secret@127.0.0.1:3128', httpsProxy: '', noProxy: '' };
    const error = networkError(connectError('ECONNREFUSED', 3128), 'GET', 'http://svc/x', 1000, [], proxies);
    expect(error).toMatchObject({ failure: 'refused', url: 'http://svc/x' });
    expect(error.message).toBe('could not reach the proxy http://127.0.0.1:3128 (connection refused): GET http://svc/x');
    expect(error.hint).toContain('NO_PROXY');

    // The same refusal from the service's own port is about the service.
    expect(networkError(connectError('ECONNREFUSED', 80), 'GET', 'http://svc/x', 1000, [], proxies).message).toBe('connection refused: GET http://svc/x');
  });

  it("says what to check of a request to the service's URL that is refused or whose host does not resolve, and only of one", () => {
    const refused = connectError('ECONNREFUSED', 80);
    const service = { profile: 'prod' };
    expect(networkError(refused, 'GET', 'http://svc/x', 1000, [], NO_PROXY, undefined, service).hint).toBe(
      "check profile prod's URL (http://svc), and that the service is running there",
    );
    const unresolved = Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' });
    expect(networkError(unresolved, 'GET', 'http://svc/x', 1000, [], NO_PROXY, undefined, { profile: undefined }).hint).toBe(
      'check the host name in the URL (svc)',
    );
    // A redirect's host elsewhere is not the URL to check; a time-out has its own words.
    expect(networkError(refused, 'GET', 'http://svc/x', 1000, [], NO_PROXY).hint).toBeUndefined();
    expect(networkError(new DeadlineExceeded('passed'), 'GET', 'http://svc/x', 1000, [], NO_PROXY, undefined, service).hint).toBeUndefined();
  });
});

describe('a certificate out of its dates, signed by a CA the user trusts (a tkt run: Node reads NODE_EXTRA_CA_CERTS at start)', () => {
  /** A CA, and a certificate for 127.0.0.1 it signed that expired a day before it was made (openssl x509 -days -1). */
  function expiredCertificate(dir: string): { ca: string; key: string; cert: string } {
    const file = (name: string) => join(dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore', cwd: dir });
    openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=tkt test CA', '-days', '2', '-keyout', file('ca.key'), '-out', file('ca.pem'));
    openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', file('key.pem'), '-out', file('leaf.csr'));
    writeFileSync(file('leaf.ext'), 'subjectAltName=IP:127.0.0.1\n');
    openssl(
      'x509',
      '-req',
      '-in',
      file('leaf.csr'),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '-1',
      '-extfile',
      file('leaf.ext'),
      '-out',
      file('cert.pem'),
    );
    return { ca: file('ca.pem'), key: file('key.pem'), cert: file('cert.pem') };
  }

  it('says the certificate has expired, pointing at its owner and the clock, not at a private CA', async () => {
    await ensureBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'tkt-expired-'));
    const files = expiredCertificate(dir);
    const server = createHttpsServer({ key: readFileSync(files.key), cert: readFileSync(files.cert) }, (_req, res) => res.end('{}'));
    try {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const child = spawn(process.execPath, [BIN, 'list'], {
        env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: files.ca, TKT_URL: url, TKT_TOKEN: 'a-token', TKT_CONFIG_DIR: join(dir, 'cfg') },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(1);
      expect(stderr).toMatch(
        new RegExp(
          `^error: TLS error \\(certificate has expired\\): POST ${url.replace(/\./g, '\\.')}/api/TicketsApi\\nhint: the service's certificate has expired[^\\n]*: its owner must renew it; if it should still be valid, check this machine's clock \\(it says \\d{4}-[^)]*Z\\)\\n$`,
        ),
      );
      expect(stderr).not.toContain('CA');
    } finally {
      server.closeAllConnections();
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
