// Every string from the service that reaches a terminal goes through the one sanitiser
// (docs/cli.md section 3): ticket texts, people, lookup names, member names (metadata column headers),
// error messages and HTML titles, carrying ESC sequences that clear the screen, set the
// window title or the clipboard (OSC 52), BEL, CR and C1 controls. Each human output path
// runs at a terminal and piped; nothing a terminal would act on may come out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/program.js';
import { processSignals } from '../cli/fake-process.js';
import type { TestServer } from '../api/server.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, startFrontServer, unusedTicket, useHarness, userId } from '../helpers/sandbox-state.js';

const HOSTILE = '\u001b[2J\u001b]0;pwned\u0007\u001b]52;c;Y3VybCBldmlsLnNo\u0007\rX\u009b31m\u0000\u202egnp.exe\u2066';
// What a terminal acts on: C0 controls but newline and tab, DEL, C1; and the bidi controls that reorder the text after them.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const MEMBER = `note${HOSTILE}`;

let h: Harness;
// Extra tickets: the actions below each need an open one of their own.
useHarness({ sandbox: { seedTickets: 200 } }, (harness) => (h = harness));

const TICKET = 1001;

beforeAll(() => {
  const state = h.sandbox.state;
  for (const ticket of state.tickets) {
    ticket.title += HOSTILE;
    ticket.description += `\n${HOSTILE}`;
    if (ticket.resolution) ticket.resolution.details += HOSTILE;
  }
  for (const conversation of state.conversations) {
    conversation.subject = `${conversation.subject ?? ''}${HOSTILE}`;
    conversation.message = `${conversation.message ?? ''}${HOSTILE}`;
  }
  for (const user of state.users) user.lastName += HOSTILE;
  const { lookups } = state;
  for (const site of lookups.sites) site.title += HOSTILE;
  for (const department of lookups.departments) department.title += HOSTILE;
  for (const status of lookups.status) status.status += HOSTILE;
  for (const priority of lookups.priorities) priority.priority += HOSTILE;
  for (const category of lookups.categories) category.name += HOSTILE;
  for (const group of lookups.groups) group.group += HOSTILE;
});

interface Run {
  code: number;
  out: string;
}

/** The whole CLI in-process; `tty` makes stdout and stderr terminals (colour off, as with NO_COLOR). */
async function tkt(argv: string[], tty: boolean, env: Record<string, string> = {}): Promise<Run> {
  const stdin = Object.assign(new PassThrough(), { isTTY: false });
  stdin.end('');
  let out = '';
  const sink = () => Object.assign(new PassThrough(), { isTTY: tty, columns: 100 }).on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const code = await runCli(argv, { stdin, stdout: sink(), stderr: sink(), env: { ...h.env, NO_COLOR: '1', ...env }, ...processSignals() });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, out };
}

function expectClean(run: Run, what: string): void {
  const found = CONTROL.exec(run.out);
  expect(
    found,
    `${what} printed U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} near ${JSON.stringify(run.out.slice(Math.max(0, (found?.index ?? 0) - 40), (found?.index ?? 0) + 10))}`,
  ).toBeNull();
}

// [name, argv, exit code]; each shows some of the hostile text (made visible: ^[[2J).
const PATHS: [string, string[], number][] = [
  ['list', ['list'], 0],
  ['list --all', ['list', '--all', '--view', 'all-tickets'], 0],
  ['list --requester', ['list', '--requester', 'aberg'], 0],
  ['show', ['show', String(TICKET)], 0],
  ['show of a resolved ticket', ['show', '1010'], 0],
  ['metadata', ['metadata'], 0],
  ['metadata --collection', ['metadata', '--collection', 'status'], 0],
  ['metadata of a ticket', ['metadata', String(TICKET), '--collection', 'technicians'], 0],
  [
    'create --dry-run',
    ['create', '--dry-run', '--title', 't', '--description', 'd', '--requester', 'aberg', '--site', 'head', '--department', 'it', '--status', 'open'],
    0,
  ],
  [
    'lookup candidates in an error',
    ['create', '--dry-run', '--title', 't', '--description', 'd', '--requester', 'aberg', '--site', 'nowhere', '--department', 'it', '--status', 'open'],
    2,
  ],
  ['api GET (JSON)', ['api', 'GET', `/api/TicketsApi/${TICKET}`], 0],
  ['--json', ['show', String(TICKET), '--json'], 0],
];
// Piped, --raw prints strings as the service sent them, as `jq -r` does: for scripts.
const TERMINAL_ONLY: [string, string[], number][] = [['--query --raw', ['show', String(TICKET), '--query', 'title', '--raw'], 0]];

describe.each([
  ['at a terminal', true],
  ['piped', false],
])('hostile text %s', (_where, tty) => {
  it.each(tty ? [...PATHS, ...TERMINAL_ONLY] : PATHS)('%s shows no control character', async (name, argv, code) => {
    const run = await tkt(argv, tty);
    expect(run.code, run.out).toBe(code);
    expect(run.out).toMatch(/\^\[\[2J|\\u001b\[2J/);
    expectClean(run, name);
  });

  it('every ticket of the demo data shows clean', async () => {
    for (const ticket of h.sandbox.state.tickets.slice(0, 40)) {
      const run = await tkt(['show', String(ticket.id)], tty);
      expectClean(run, `show ${ticket.id}`);
    }
  });
});

describe('hostile text in CSV', () => {
  // Piped, CSV carries the values as sent, for programs (test/commands/scripting.test.ts).
  it('--csv at a terminal shows no control character but the CRLF that ends each record', async () => {
    const run = await tkt(['list', '--csv', '--columns', 'id,title,requester'], true);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('^[[2J');
    expect(run.out).toMatch(/\r\n$/);
    expectClean({ ...run, out: run.out.replaceAll('\r\n', '\n') }, '--csv');
  });
});

describe.each([
  ['at a terminal', true],
  ['piped', false],
])('hostile text in what actions print %s', (_where, tty) => {
  const open = () => unusedTicket(h, (t) => [1, 2].includes(t.ticketStatusId) && !t.locked);
  // Another technician's ticket: pickup names whom it took it from.
  const heldByTech = () => Object.assign(open(), { assignedUser: userId(h, 'tech') });

  it('pickup, update, reply, forward, resolve, close, read, attach and delete show clean', async () => {
    const file = `${h.configDir}/notes${tty ? 'T' : 'P'}.txt`;
    (await import('node:fs')).writeFileSync(file, 'notes');
    const runs: [string, string[]][] = [
      ['pickup', ['pickup', String(heldByTech().id)]],
      ['update', ['update', String(open().id), '--priority', 'high']],
      ['reply', ['reply', String(open().id), '--message', 'On my way']],
      ['forward', ['forward', String(open().id), '--to', 'vendor@example.com', '--message', 'see below']],
      ['resolve', ['resolve', String(open().id), '--details', 'fixed', '--by', 'tech']],
      ['close', ['close', String(open().id), '--comments', 'done', '--by', 'tech']],
      ['read', ['read', String(open().id)]],
      ['attach', ['attach', String(open().id), file]],
      ['delete', ['delete', String(open().id), '--yes']],
    ];
    const shown: string[] = [];
    const subjects: string[] = [];
    for (const [name, argv] of runs) {
      const run = await tkt(argv, tty);
      expect(run.code, `${name}: ${run.out}`).toBe(0);
      expectClean(run, name);
      if (run.out.includes('^[[2J')) shown.push(name);
      if (run.out.includes(' [2J ]0;pwned ]52;c;Y3VybCBldmlsLnNo X 31m ')) subjects.push(name);
    }
    // The others print IDs and counts; pickup names whom it took the ticket from. reply and forward
    // quote the subject made of the ticket's title, its control characters made spaces (README, Text values).
    expect(shown).toEqual(['pickup']);
    expect(subjects).toEqual(['reply', 'forward']);
  });

  it('login and whoami show a hostile user name clean', async () => {
    const token = h.sandbox.issueToken('tech');
    const server = await startFrontServer(h, (req, res) => {
      if (!req.url?.includes('authenticate')) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Id: 'u-tech', Username: `tech${HOSTILE}`, FirstName: `Tess${HOSTILE}`, LastName: HOSTILE, Token: token }));
      return true;
    });
    try {
      const env = { TKT_PASSWORD: 'tech', TKT_PROFILE: `hostile${tty ? 't' : 'p'}` };
      const login = await tkt(['login', '--url', server.url, '-u', 'tech'], tty, env);
      expect(login.code, login.out).toBe(0);
      expect(login.out).toContain('tech^[[2J');
      expectClean(login, 'login');
      const whoami = await tkt(['whoami'], tty, env);
      expect(whoami.code, whoami.out).toBe(0);
      expectClean(whoami, 'whoami');
    } finally {
      await server.close();
    }
  });
});

describe('hostile member names, error messages and pages', () => {
  /** Adds a hostile member to every object of every array in the metadata. */
  function withHostileMembers(body: Buffer): string {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    for (const value of Object.values(parsed)) {
      if (Array.isArray(value)) for (const item of value) if (typeof item === 'object' && item !== null) (item as Record<string, unknown>)[MEMBER] = HOSTILE;
    }
    return JSON.stringify(parsed);
  }

  async function front(answer: (req: IncomingMessage, res: ServerResponse) => boolean): Promise<TestServer> {
    return startFrontServer(h, (req, res) => answer(req, res));
  }

  it.each([true, false])('metadata tables headed by hostile member names show clean (tty %s)', async (tty) => {
    const server = await startFrontServer(h, (req, res) => {
      if (!req.url?.includes('metadata')) return false;
      void fetch(`${h.sandbox.url}${req.url}`, { headers: { authorization: String(req.headers.authorization) } }).then(async (passed) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(withHostileMembers(Buffer.from(await passed.arrayBuffer())));
      });
      return true;
    });
    try {
      for (const argv of [['metadata'], ['metadata', '--collection', 'sites'], ['metadata', '--collection', 'sites', '--columns', MEMBER]]) {
        const run = await tkt(argv, tty, frontEnv(h, server));
        expect(run.code, run.out).toBe(0);
        expect(run.out).toContain(tty ? 'NOTE^[[2J' : '^[[2J');
        expectClean(run, argv.join(' '));
      }
    } finally {
      await server.close();
    }
  });

  it('api prints a page at a terminal made visible, and piped as it came, byte for byte', async () => {
    const page = `<html><title>Sign in${HOSTILE}</title></html>\n`;
    const server = await front((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(page);
      return true;
    });
    try {
      const shown = await tkt(['api', 'GET', '/sso/login'], true, frontEnv(h, server));
      expect(shown.code, shown.out).toBe(0);
      expect(shown.out).toContain('Sign in^[[2J');
      expect(shown.out).toContain('<U+202E>gnp.exe<U+2066>');
      expectClean(shown, 'api at a terminal');
      const piped = await tkt(['api', 'GET', '/sso/login'], false, frontEnv(h, server));
      expect(piped).toEqual({ code: 0, out: page });
    } finally {
      await server.close();
    }
  });

  it('--debug trace lines show clean', async () => {
    // A path's control characters are refused before any request, the path escaped in the error
    // and in the stack --debug adds; its other characters (the bidi controls) go out percent-encoded.
    const refused = await tkt(['api', 'GET', `/api/TicketsApi/x${HOSTILE}`, '--debug'], true);
    expect(refused.code).toBe(2);
    expectClean(refused, 'api --debug, a path refused');
    const sent = await tkt(['api', 'GET', `/api/TicketsApi/x${HOSTILE.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')}`, '--debug'], true);
    expect(sent.out).toContain('debug: HTTP > GET');
    expectClean(sent, 'api --debug');
  });

  it.each([
    ['a JSON message', 'application/json', JSON.stringify({ message: HOSTILE, errors: { [MEMBER]: [HOSTILE] } })],
    ['plain text', 'text/plain', HOSTILE],
    ['an HTML page', 'text/html', `<html><title>${HOSTILE}</title></html>`],
  ])('an error carrying %s shows clean, with --debug too', async (_name, contentType, body) => {
    const server = await front((_req, res) => {
      res.writeHead(400, { 'content-type': contentType });
      res.end(body);
      return true;
    });
    try {
      for (const argv of [
        ['show', String(TICKET)],
        ['show', String(TICKET), '--debug'],
        ['read', String(TICKET)],
        ['close', String(TICKET), '--by', '1'],
      ]) {
        const run = await tkt(argv, true, frontEnv(h, server));
        expect(run.code).not.toBe(0);
        expectClean(run, argv.join(' '));
      }
    } finally {
      await server.close();
    }
  });
});
