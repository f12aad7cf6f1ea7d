import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/api.js';
import { MAX_ERROR_BODY_BYTES } from '../../src/api/size-limits.js';
import { createConfigStore } from '../../src/config/store.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { frontEnv, startFrontServer, useTempDir } from '../helpers/sandbox-state.js';

describe('tkt api', () => {
  let h: Harness;
  let dir: string;
  useTempDir('tkt-api-', (path) => (dir = path));
  beforeEach(async () => {
    h = await createHarness();
  });
  afterEach(() => h.close());

  const liveTicket = () => h.sandbox.state.tickets.find((t) => !t.isDeleted)!;

  it('GET prints the body as pretty JSON', async () => {
    const ticket = liveTicket();

    const result = await h.cli(['api', 'get', `/api/TicketsApi/${ticket.id}`]);

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: ticket.id, title: ticket.title });
    expect(result.stdout).toMatch(/^\{\n {2}"/);
    expect(h.sandbox.stats.byRoute['GET /api/TicketsApi/{id}']).toBe(1);
  });

  it('prints the body with -q too, the response being the essential of a raw request (docs/cli.md section 3), and says so in its help', async () => {
    const path = `/api/TicketsApi/${liveTicket().id}`;
    const plain = await h.cli(['api', 'GET', path]);
    const quiet = await h.cli(['-q', 'api', 'GET', path]);
    expect(quiet).toEqual({ code: 0, stdout: plain.stdout, stderr: '' });

    const help = (await h.cli(['api', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('-q does not change what tkt api prints');
  });

  it('POST sends -F fields as a typed JSON body', async () => {
    const result = await h.cli(['api', 'POST', '/api/TicketsApi', '-F', 'page=1', '-F', 'length=3', '-f', 'listType=AllTickets']);

    expect(result.code).toBe(0);
    const items = JSON.parse(result.stdout) as unknown[];
    expect(items).toHaveLength(3);
  });

  it('types -F values like gh api and keeps -f values as strings (shown by --dry-run, which sends nothing)', async () => {
    const result = await h.cli([
      'api',
      'POST',
      '/api/TicketsApi/x',
      '--dry-run',
      '-F',
      'n=42',
      '-F',
      'yes=true',
      '-F',
      'no=false',
      '-F',
      'nothing=null',
      '-F',
      'text=4a',
      '-f',
      'raw=42',
      '-F',
      'tags[]=1',
      '-F',
      'tags[]=2',
    ]);

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      dryRun: true,
      method: 'POST',
      path: '/api/TicketsApi/x',
      json: { n: 42, yes: true, no: false, nothing: null, text: '4a', raw: '42', tags: [1, 2] },
    });
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('puts fields in the query string for GET', async () => {
    const result = await h.cli(['api', 'GET', '/api/TicketsApi/metadata', '--dry-run', '-F', 'a=1', '-f', 'b=x y']);

    expect(JSON.parse(result.stdout)).toEqual({ dryRun: true, method: 'GET', path: '/api/TicketsApi/metadata?a=1&b=x+y' });
  });

  it('uploads @file values as multipart, bytes intact', async () => {
    const ticket = liveTicket();
    const file = join(dir, 'notes.txt');
    const content = 'line one\nline two\n'.repeat(1000);
    await writeFile(file, content);
    const before = h.sandbox.state.attachments.length;

    const result = await h.cli(['api', 'POST', `/api/TicketsApi/addfiles/${ticket.id}`, '-F', `Uploads=@${file}`]);

    expect(result.code).toBe(0);
    const added = h.sandbox.state.attachments.slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ ticketId: ticket.id, fileName: 'notes.txt', size: Buffer.byteLength(content) });
    expect(added[0]!.sha256).toBe(createHash('sha256').update(content).digest('hex'));
  });

  it('sends the JSON of --input as the body', async () => {
    const file = join(dir, 'table.json');
    await writeFile(file, JSON.stringify({ page: 1, length: 2 }));

    const result = await h.cli(['api', 'POST', '/api/TicketsApi', '--input', file]);

    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(2);
  });

  it('reads the --input JSON from stdin with -, and refuses a terminal stdin', async () => {
    const piped = await h.cli(['api', 'POST', '/api/TicketsApi', '--input', '-'], { stdin: JSON.stringify({ page: 1, length: 2 }) });
    expect(piped.code).toBe(0);
    expect(JSON.parse(piped.stdout)).toHaveLength(2);

    const before = h.sandbox.stats.requests;
    const r = await h.context({ tty: true });
    await expect(run({ method: 'POST', path: '/api/TicketsApi', typedFields: [], rawFields: [], input: '-', dryRun: false }, r.ctx)).rejects.toThrow(
      '--input -: stdin is a terminal, pipe the text in or give a file',
    );
    expect(h.sandbox.stats.requests).toBe(before);
  });

  it('an --input that is empty or blank says so, as every text option does, before any request', async () => {
    const empty = join(dir, 'empty.json');
    await writeFile(empty, '');
    const cases: [argv: string[], stdin: string | undefined, said: string][] = [
      [['--input', '-'], '', 'error: --input -: stdin was empty\n'],
      [['--input', '-'], ' \n\t\n', 'error: --input -: stdin was empty (only whitespace)\n'],
      [['--input', empty], undefined, `error: --input ${empty} is empty\n`],
    ];
    for (const [argv, stdin, said] of cases) {
      const result = await h.cli(['api', 'POST', '/api/TicketsApi', ...argv], stdin === undefined ? {} : { stdin });
      expect(result, said).toEqual({ code: 2, stdout: '', stderr: said });
    }
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('says in words why a file cannot be read, without the system error text', async () => {
    const missing = join(dir, 'missing.json');
    const input = await h.cli(['api', 'POST', '/api/TicketsApi', '--input', missing]);
    expect(input.code).toBe(2);
    expect(input.stderr).toContain(`error: cannot read --input ${missing}: no such file`);
    const upload = await h.cli(['api', 'POST', '/api/TicketsApi/addfiles/1', '-F', `Uploads=@${missing}`]);
    expect(upload.code).toBe(2);
    expect(upload.stderr).toContain(`${missing}: no such file`);
    for (const result of [input, upload]) expect(result.stderr).not.toContain('ENOENT');
  });

  it('HEAD answers where GET does and prints nothing, as any body-less answer: the exit status tells', async () => {
    const path = `/api/TicketsApi/${liveTicket().id}`;

    expect(await h.cli(['api', 'HEAD', path])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(h.sandbox.stats.byRoute['HEAD /api/TicketsApi/{id}']).toBe(1);
    const missing = await h.cli(['api', 'HEAD', '/api/TicketsApi/987654321']);
    expect(missing.code).toBe(3);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^error: not found \(HTTP 404\): HEAD /);
  });

  it('--dry-run shows the path as it is sent: leading slashes as one, dot segments resolved, a fragment dropped, encoded', async () => {
    const id = liveTicket().id;
    const cases = [
      ['//evil.example.com/api/x', '/evil.example.com/api/x'],
      [`///api/TicketsApi/./x/../${id}#part`, `/api/TicketsApi/${id}`],
      ['/api/x y?q=a b', '/api/x%20y?q=a%20b'],
    ];
    for (const [given, sent] of cases) {
      const dryRun = await h.cli(['api', 'GET', given!, '--dry-run']);
      expect(JSON.parse(dryRun.stdout), given).toEqual({ dryRun: true, method: 'GET', path: sent });
    }
    expect(h.sandbox.stats.requests).toBe(0);
    // The service names the path that reached it: the dry run's.
    const sent = await h.cli(['api', 'GET', '//evil.example.com/api/x']);
    expect(sent.code).toBe(3);
    expect(sent.stderr).toContain(`error: not found (HTTP 404): GET ${h.sandbox.url}/evil.example.com/api/x\n  No route for GET /evil.example.com/api/x.\n`);
    expect((await h.cli(['api', 'GET', cases[1]![0]!])).code).toBe(0);
    expect(h.sandbox.stats.byRoute['GET /api/TicketsApi/{id}']).toBe(1);
  });

  it('refuses a path with a control character (a URL would drop a line break), showing it escaped on one line, before any request', async () => {
    for (const path of ['/api/x\nfoo', '/api/x\ty', '/api/x\u001b[2Jy']) {
      const result = await h.cli(['api', 'GET', path]);
      expect(result, path).toEqual({
        code: 2,
        stdout: '',
        stderr: `error: invalid path ${JSON.stringify(path)}: a path cannot hold control characters\nhint: percent-encode each (a line break is %0A, a tab %09)\n`,
      });
    }
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('exits 3 on a 404', async () => {
    const result = await h.cli(['api', 'GET', '/api/TicketsApi/987654321']);

    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/^error: .*404/m);
  });

  it("prints an error answer's body on stdout as a success's (as gh api does: `| jq .errors` works), the error line on stderr, the exit code unchanged", async () => {
    const list = ['api', 'POST', '/api/TicketsApi', '-F', 'page=1', '-F', 'length=1', '-F', 'listType=nope'];
    const refused = await h.cli(list);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: failed \(HTTP 400\): POST /);
    // The service's words whole, where the error line's summary cuts them short.
    const errors = (JSON.parse(refused.stdout) as { errors: Record<string, string[]> }).errors;
    expect(errors.listType![0]).toMatch(/Valid: .*, OverdueTickets[,.]/);
    expect(refused.stdout).toMatch(/^\{\n {2}"/);

    // A bare JSON string (the 404 of a ticket) is JSON still, as its content type says.
    const missing = await h.cli(['api', 'GET', '/api/TicketsApi/987654321']);
    expect(missing).toMatchObject({ code: 3, stdout: '"Ticket 987654321 was not found."\n' });
    expect(missing.stderr).toMatch(/^error: not found \(HTTP 404\): GET /);

    // Under a wrong base URL, the 404 is printed too, and still the wrong URL's failure (exit 1, its hint).
    const env = { TKT_URL: `${h.sandbox.url}/api`, TKT_TOKEN: h.sandbox.issueToken('tech') };
    const misdirected = await h.cli(['api', 'GET', '/api/TicketsApi/1001'], { env });
    expect(misdirected).toMatchObject({ code: 1, stdout: '"No route for GET /api/api/TicketsApi/1001."\n' });
    expect(misdirected.stderr).toContain(`hint: is TKT_URL the service's base URL? (without /api: ${h.sandbox.url})\n`);

    // A --query is written for the success's shape: the error body is printed whole, as gh api's --jq leaves it.
    for (const shaping of [
      ['--query', 'length(@)'],
      ['--query', '[].id', '--raw'],
    ]) {
      const shaped = await h.cli([...list, ...shaping]);
      expect(shaped, shaping.join(' ')).toEqual({ ...refused });
    }
  });

  it("prints a text error body as a success's: as it came into a pipe, made visible at a terminal, never with the token", async () => {
    const token = h.sandbox.issueToken('admin');
    // Beyond the 1 MB read of an error body: cut there, it no longer parses, and is printed as it came.
    const largeError = JSON.stringify({ errors: { text: ['x'.repeat(MAX_ERROR_BODY_BYTES)] } });
    const server = await startFrontServer(h, (req, res) => {
      if (req.url === '/api/TicketsApi/77') {
        res.writeHead(403, { 'content-type': 'text/plain' });
        res.end(`no access to #77 for ${token}\u001b[2J\n`);
        return true;
      }
      if (req.url === '/api/TicketsApi/79') {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(largeError);
        return true;
      }
      if (req.url === '/api/TicketsApi/78') {
        res.writeHead(401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `token ${token} expired`, token, authorization: `Bearer ${token}` }));
        return true;
      }
      return false;
    });
    try {
      const env = frontEnv(h, server);
      const text = await h.cli(['api', 'GET', '/api/TicketsApi/77'], { env: { ...env, TKT_TOKEN: token } });
      expect(text.code).toBe(5);
      expect(text.stdout).toBe('no access to #77 for ***\u001b[2J\n');
      expect(text.stderr).toMatch(/^error: permission denied \(HTTP 403\): GET /);

      const json = await h.cli(['api', 'GET', '/api/TicketsApi/78'], { env: { ...env, TKT_TOKEN: token } });
      expect(json.code).toBe(4);
      expect(JSON.parse(json.stdout)).toEqual({ message: 'token *** expired', token: '***', authorization: '***' });
      expect(json.stdout + json.stderr).not.toContain(token);

      const large = await h.cli(['api', 'GET', '/api/TicketsApi/79'], { env });
      expect(large.code).toBe(1);
      expect(large.stdout).toBe(largeError.slice(0, MAX_ERROR_BODY_BYTES));

      const atTerminal = await h.context({ tty: true, env: { ...env, TKT_TOKEN: token } });
      await expect(run({ method: 'GET', path: '/api/TicketsApi/77', typedFields: [], rawFields: [] }, atTerminal.ctx)).rejects.toThrow('HTTP 403');
      expect(atTerminal.stdout()).toMatch(/^no access to #77 for \*\*\*[^\u001b]+\[2J\n$/);
    } finally {
      await server.close();
    }
  });

  it('exits 2 before any request on a bad method, path, field or file', async () => {
    const missing = join(dir, 'missing.bin');
    const cases = [
      ['api', 'FETCH', '/api/TicketsApi/1'],
      ['api', 'GET', 'api/TicketsApi/1'],
      ['api', 'POST', '/api/TicketsApi', '-F', 'novalue'],
      ['api', 'POST', '/api/TicketsApi/addfiles/1', '-F', `Uploads=@${missing}`],
      ['api', 'POST', '/api/TicketsApi/addfiles/1', '-F', `Attachment=@${join(dir, 'notes.txt')}`],
    ];
    for (const argv of cases) {
      const result = await h.cli(argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr, argv.join(' ')).toMatch(/^error: /m);
    }
    expect(h.sandbox.stats.requests).toBe(0);
  });

  it('exits 4 with the login hint when the cached token has expired, before any request', async () => {
    const config = createConfigStore(h.configDir);
    await config.writeToken('default', { ...config.readToken('default')!, expiresAt: new Date(Date.now() - 1000).toISOString() });

    const result = await h.cli(['api', 'GET', '/api/TicketsApi/1']);

    expect(result.code).toBe(4);
    expect(result.stderr).toContain('hint: run "tkt login"');
    expect(h.sandbox.stats.requests).toBe(0);
  });
});
