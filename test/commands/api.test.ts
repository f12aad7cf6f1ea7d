import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { run } from '../../src/commands/api.js';
import { createConfigStore } from '../../src/config/store.js';
import { createHarness, type Harness } from '../helpers/harness.js';
import { useTempDir } from '../helpers/sandbox-state.js';

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
