// The service keeps only file types it allows and skips the others without an error (docs/service.md
// 4.11). Every command that uploads says which files were kept, from the answer when it names
// them, else from the ticket read back; a skipped file is a failure of that file: named, exit 1,
// while the ticket change itself is reported as done. --json keeps the API's body on stdout.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationCreateArgs, validCreateArgs, VALID_TICKET } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, routeCount, startFrontServer, unusedTicket, unusedTickets, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { formatRanges } from '../../src/bulk/ranges.js';

let h: Harness;
let dir: string;
useHarness({}, (harness) => (h = harness));
useTempDir('tkt-skipped-', (path) => (dir = path));

const OPEN = 1;
const CLOSED = 7;
const GET = 'GET /api/TicketsApi/{id}';
// .txt is on the sandbox's allowed list; .gz is not (logs.tar.gz is what a CI job uploads).
let kept: string;
let skipped: string;

beforeAll(async () => {
  kept = join(dir, 'build.txt');
  skipped = join(dir, 'logs.tar.gz');
  await writeFile(kept, 'build output\n');
  await writeFile(skipped, 'not really gzip');
});

const openTicket = () => unusedTicket(h, (t) => t.ticketStatusId === OPEN && !t.locked);
const attachedNames = (id: number) => h.sandbox.state.attachments.filter((a) => a.ticketId === id).map((a) => a.fileName);
const lastTicketId = () => h.sandbox.state.tickets.at(-1)!.id;
const SKIP_ERROR = 'error: the service did not keep 1 of 2 files: logs.tar.gz';
const CREATE = ['create', ...validCreateArgs()];
const INTEGRATION = ['create', ...integrationCreateArgs()];
/** Both files, the one the service keeps and the one it skips. */
const bothFiles = () => ['--attach', kept, '--attach', skipped];

/** The JSON line on stderr that --json gives a script beside the API's body. */
function keptLine(stderr: string): unknown {
  return JSON.parse(stderr.split('\n').find((line) => line.startsWith('{'))!);
}

describe('tkt attach', () => {
  it('names the skipped file and exits 1; the kept one is attached and said so', async () => {
    const id = openTicket().id;
    const result = await h.cli(['attach', String(id), kept, skipped]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`✓ attached 1 of 2 files to #${id}: build.txt\n`);
    expect(result.stderr.split('\n')).toEqual([
      SKIP_ERROR,
      '  kept: build.txt',
      `hint: the service keeps only the file types it allows; "tkt show ${id}" lists the ticket's attachments`,
      '',
    ]);
    expect(attachedNames(id)).toContain('build.txt');
    expect(attachedNames(id)).not.toContain('logs.tar.gz');
  });

  it('with only a skipped file attaches nothing and says so, exit 1', async () => {
    const id = openTicket().id;
    const result = await h.cli(['attach', String(id), skipped]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('error: the service did not keep 1 of 1 file: logs.tar.gz');
  });

  it('--json prints the API body on stdout and the kept and skipped names as a JSON line on stderr', async () => {
    const id = openTicket().id;
    const result = await h.cli(['--json', 'attach', String(id), kept, skipped]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ saved: [{ fileName: 'build.txt' }], skipped: ['logs.tar.gz'] });
    expect(keptLine(result.stderr)).toEqual({ kept: ['build.txt'], skipped: ['logs.tar.gz'] });
    expect(result.stderr).toContain(SKIP_ERROR);
  });
});

describe('tkt create --attach', () => {
  it('prints the new ticket, then fails the skipped file (exit 1): register answers without attachments, so the ticket is read', async () => {
    const gets = routeCount(h, GET);
    const result = await h.cli([...CREATE, ...bothFiles()]);
    const id = lastTicketId();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`Created ticket #${id}\n`);
    expect(result.stderr).toContain(SKIP_ERROR);
    expect(routeCount(h, GET)).toBe(gets + 1);
    expect(attachedNames(id)).toEqual(['build.txt']);
  });

  it('-q still prints the new ID on stdout; --json the API body, the names on stderr', async () => {
    const quiet = await h.cli(['-q', ...CREATE, '--attach', skipped]);
    expect(quiet).toMatchObject({ code: 1, stdout: `${lastTicketId()}\n` });
    expect(quiet.stderr).toContain('error: the service did not keep 1 of 1 file: logs.tar.gz');

    const json = await h.cli(['--json', ...CREATE, ...bothFiles()]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: lastTicketId(), title: VALID_TICKET.title });
    expect(keptLine(json.stderr)).toEqual({ kept: ['build.txt'], skipped: ['logs.tar.gz'] });
  });

  it('with --integration reads the kept files from the answer (the new ticket with its attachments)', async () => {
    const gets = routeCount(h, GET);
    const result = await h.cli([...INTEGRATION, ...bothFiles()]);
    expect(result).toMatchObject({ code: 1, stdout: `Created ticket #${lastTicketId()}\n` });
    expect(result.stderr).toContain(SKIP_ERROR);
    expect(routeCount(h, GET)).toBe(gets);
  });

  it('is exit 0 with nothing more to say when every file was kept', async () => {
    const result = await h.cli([...CREATE, '--attach', kept]);
    expect(result).toMatchObject({ code: 0, stdout: `Created ticket #${lastTicketId()}\n`, stderr: '' });
  });
});

describe('tkt reply, forward --attach', () => {
  /** `tkt VERB ID ...flags` with the subject "Logs" and both files, on an open ticket. */
  async function sendLogs(verb: 'reply' | 'forward', ...flags: string[]) {
    const id = openTicket().id;
    const result = await h.cli([verb, String(id), ...flags, '--subject', 'Logs', '--message', 'Attached', ...bothFiles()]);
    return { id, result };
  }

  it.each([
    ['reply', 'a@example.com', 'replied to'],
    ['forward', 'v@example.com', 'forwarded'],
  ] as const)('%s: done, then the skipped file named, exit 1', async (verb, to, done) => {
    const { id, result } = await sendLogs(verb, '--to', to);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`✓ ${done} #${id} to ${to}: Logs\n`);
    expect(result.stderr).toContain(SKIP_ERROR);
  });

  it('reply --as-requester: its answer names no files, so the ticket is read', async () => {
    const gets = routeCount(h, GET);
    const { result } = await sendLogs('reply', '--as-requester', 'aberg');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(SKIP_ERROR);
    expect(routeCount(h, GET)).toBe(gets + 1);
  });
});

describe('tkt close --attach', () => {
  it('one ticket: closed, then the skipped file named, exit 1', async () => {
    const ticket = openTicket();
    const result = await h.cli(['close', String(ticket.id), ...bothFiles()]);
    expect(ticket.ticketStatusId).toBe(CLOSED);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`✓ #${ticket.id} closed\n`);
    expect(result.stderr).toContain(`error: #${ticket.id}: the service did not keep 1 of 2 files: logs.tar.gz`);
  });

  it('several tickets: each closed, each line names the skipped file, the JSON Lines carry kept and skipped', async () => {
    const [a, b] = unusedTickets(h, 2, (t) => t.ticketStatusId === OPEN && !t.locked);
    const human = await h.cli(['close', String(a!.id), String(b!.id), ...bothFiles(), '--concurrency', '1']);
    expect(human.code).toBe(1);
    expect(human.stdout).toBe(`✓ #${a!.id} closed\n✓ #${b!.id} closed\n`);
    expect(human.stderr).toContain(`✗ #${a!.id}: the service did not keep logs.tar.gz`);
    expect(human.stderr).toContain(`error: the service did not keep files sent to 2 of 2 tickets: ${formatRanges([a!.id, b!.id], '#')}`);

    const [c] = unusedTickets(h, 1, (t) => t.ticketStatusId === OPEN && !t.locked);
    const json = await h.cli(['--json', 'close', String(c!.id), ...bothFiles()]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ id: c!.id, ok: true, status: 204, kept: ['build.txt'], skipped: ['logs.tar.gz'] });
  });
});

// A service that lists a file it kept with a size says how many bytes it has: a copy of another
// size (an empty one) is not the file that was sent.
describe('a file the service lists at another size than was sent', () => {
  it('is not kept: named, exit 1', async () => {
    const id = openTicket().id;
    const server = await startFrontServer(h, (req, res) => {
      if (!req.url?.startsWith('/api/TicketsApi/addfiles/')) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ success: true, attachments: [{ id: 1, fileName: 'build.txt', size: 0 }], skipped: [] }));
      return true;
    });
    try {
      const result = await h.cli(['--json', 'attach', String(id), kept], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(keptLine(result.stderr)).toEqual({ kept: [], skipped: ['build.txt'] });
      expect(result.stderr).toContain('error: the service did not keep 1 of 1 file: build.txt\n');
    } finally {
      await server.close();
    }
  });
});
