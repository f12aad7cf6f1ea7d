// PATH#NAME (README: Naming an upload): every command that uploads sends PATH under NAME, which
// is what the sandbox, keeping only allowed extensions as the service does (docs/service.md
// 4.11), keeps or skips; a file skipped for a name without an extension gets the fix as its hint;
// a bad NAME is exit 2 before anything is sent. Pipes and a real `seq | tkt attach`: input-files.test.ts.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { integrationCreateArgs, validCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { sendsNothing, unusedTicket, unusedTickets, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { splitWords } from '../../src/desk/aliases.js';

let h: Harness;
let dir: string;
useHarness({}, (harness) => (h = harness));
useTempDir('tkt-upload-names-', (path) => (dir = path));

const OPEN = 1;
/** A log without an extension, as `<(cmd)` and /dev/stdin are: the sandbox skips it under its own name. */
let bare: string;
/** The open ticket that attach, reply and forward send to (they leave it open), and the bad commands name. */
let ticket: number;

beforeAll(async () => {
  ticket = unusedTicket(h, (t) => t.ticketStatusId === OPEN && !t.locked).id;
  bare = join(dir, 'build-output');
  await writeFile(bare, 'compiler said no\n');
  await writeFile(join(dir, 'notes#2.txt'), 'a file whose name holds #\n');
});

const attachedNames = (id: number) => h.sandbox.state.attachments.filter((a) => a.ticketId === id).map((a) => a.fileName);
/** The names of the files `action` added to `id`. */
async function added<T>(id: number, action: () => Promise<T>): Promise<{ result: T; names: string[] }> {
  const before = attachedNames(id).length;
  const result = await action();
  return { result, names: attachedNames(id).slice(before) };
}
const openTickets = (count: number) => unusedTickets(h, count, (t) => t.ticketStatusId === OPEN && !t.locked).map((t) => t.id);
const lastTicketId = () => h.sandbox.state.tickets.at(-1)!.id;
/** The JSON line on stderr that --json gives a script beside the API's body. */
const keptLine = (stderr: string): unknown => JSON.parse(stderr.split('\n').find((line) => line.startsWith('{'))!);

describe('tkt attach ID PATH#NAME', () => {
  it('sends the file under NAME, which the service keeps', async () => {
    const { result, names } = await added(ticket, () => h.cli(['attach', String(ticket), `${bare}#build.log`]));
    expect(result).toMatchObject({ code: 0, stdout: `✓ attached 1 of 1 file to #${ticket}: build.log\n`, stderr: '' });
    expect(names).toEqual(['build.log']);
  });

  it('--json: kept and skipped carry the names sent', async () => {
    const result = await h.cli(['--json', 'attach', String(ticket), `${bare}#build.log`, `${bare}#build`]);
    expect(result.code).toBe(1);
    expect(keptLine(result.stderr)).toEqual({ kept: ['build.log'], skipped: ['build'] });
  });

  it('a file skipped for a name without an extension: the error hints how to name it', async () => {
    const id = ticket;
    const result = await h.cli(['attach', String(id), bare]);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr.split('\n')).toEqual([
      'error: the service did not keep 1 of 1 file: build-output',
      `hint: "build-output" has no extension, and the service keeps only the file types it allows: name the upload with one, as "tkt attach ${id} ${bare}#build-output.txt"`,
      '',
    ]);
  });

  it("a file skipped whose own name holds '#': the hinted name holds none, and the hinted command, run, attaches it", async () => {
    const id = ticket;
    const hashed = join(dir, 'notes#2');
    await writeFile(hashed, 'notes');
    const result = await h.cli(['attach', String(id), hashed]);
    expect(result.code).toBe(1);
    const hinted = /as "tkt (attach .*)"$/m.exec(result.stderr)?.[1];
    expect(hinted).toBe(`attach ${id} '${hashed}'#notes-2.txt`);
    const { result: fixed, names } = await added(ticket, () => h.cli(splitWords(hinted!)));
    expect(fixed.code).toBe(0);
    expect(names).toEqual(['notes-2.txt']);
  });

  it('a file skipped for its type keeps the general hint: renaming an .exe is not for tkt to suggest', async () => {
    const id = ticket;
    const exe = join(dir, 'setup.exe');
    await writeFile(exe, 'MZ');
    const result = await h.cli(['attach', String(id), exe]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`hint: the service keeps only the file types it allows; "tkt show ${id}" lists the ticket's attachments\n`);
  });

  it("takes a file whose whole name holds '#' as that file", async () => {
    const { result, names } = await added(ticket, () => h.cli(['attach', String(ticket), join(dir, 'notes#2.txt')]));
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(names).toEqual(['notes#2.txt']);
  });

  it('--dry-run shows the name that would be sent; --json as fileNames beside the paths', async () => {
    const id = ticket;
    const human = await sendsNothing(h, () => h.cli(['attach', String(id), `${bare}#build.log`, join(dir, 'notes#2.txt'), '--dry-run']));
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(`  Uploads: ${bare} as build.log\n  Uploads: ${join(dir, 'notes#2.txt')} as notes#2.txt\n`);
    const json = await sendsNothing(h, () => h.cli(['--json', 'attach', String(id), `${bare}#build.log`, '--dry-run']));
    expect(JSON.parse(json.stdout)).toMatchObject({ files: [bare], fileNames: ['build.log'] });
  });

  it.each([
    ['/dev/null#', "no name after '#'"],
    ['/dev/null#logs/build.log', "the name after '#' cannot hold '/' or '\\'"],
    ['/dev/null#..', '".." is no file name'],
    // Sent as %22, as browsers write it: the service would store a"b.txt as a%22b.txt.
    ['/dev/null#a"b.txt', "the name after '#' cannot hold '\"': a multipart name carries it as %22"],
  ])('is exit 2 for %s, naming it, before anything is sent', async (argument, problem) => {
    const result = await sendsNothing(h, () => h.cli(['attach', String(ticket), argument]));
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe(`error: attach ${argument}: ${problem}`);
  });

  it("a file whose own name holds '\"' is reported under the name the service receives and stores, %22 for each '\"'", async () => {
    const quoted = join(dir, 'say "hi".txt');
    await writeFile(quoted, 'hi\n');
    const { result, names } = await added(ticket, () => h.cli(['--json', 'attach', String(ticket), quoted]));
    expect(names).toEqual(['say %22hi%22.txt']);
    expect(result.code).toBe(0);
    expect(keptLine(result.stderr)).toEqual({ kept: ['say %22hi%22.txt'], skipped: [] });
  });

  it('names the argument of a file that cannot be read', async () => {
    const result = await sendsNothing(h, () => h.cli(['attach', String(ticket), `${join(dir, 'missing')}#build.log`]));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`error: attach: cannot read file\n  ${join(dir, 'missing')}#build.log: no such file\n`);
  });
});

describe('--attach PATH#NAME', () => {
  it('create: the new ticket has the file under NAME; an unnamed one skipped hints --attach PATH#NAME', async () => {
    const result = await h.cli(['create', ...validCreateArgs(), '--attach', `${bare}#build.log`, '--attach', bare]);
    const id = lastTicketId();
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`Created ticket #${id}\n`);
    expect(attachedNames(id)).toEqual(['build.log']);
    expect(result.stderr).toContain(
      `hint: "build-output" has no extension, and the service keeps only the file types it allows: name the upload with one, as --attach ${bare}#build-output.txt\n`,
    );
  });

  it('create --integration, the CI job: kept under NAME, exit 0', async () => {
    const result = await h.cli(['-q', 'create', ...integrationCreateArgs(), '--attach', `${bare}#build.log`]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(attachedNames(Number(result.stdout))).toEqual(['build.log']);
  });

  it('create --dry-run shows it, and --json names it in fileNames', async () => {
    const json = await sendsNothing(h, () => h.cli(['--json', 'create', ...integrationCreateArgs(), '--attach', `${bare}#build.log`, '--dry-run']));
    expect(JSON.parse(json.stdout)).toMatchObject({ files: [bare], fileNames: ['build.log'] });
  });

  it.each([
    ['reply', '--to', 'a@example.com'],
    ['forward', '--to', 'v@example.com'],
  ])('%s: the file goes under NAME', async (verb, ...flags) => {
    const { result, names } = await added(ticket, () =>
      h.cli([verb, String(ticket), ...flags, '--subject', 'Logs', '--message', 'Attached', '--attach', `${bare}#build.log`]),
    );
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(names).toEqual(['build.log']);
  });

  it('close, several tickets: each gets the file under NAME; unnamed, the summary hints the fix', async () => {
    const [a, b, c, d] = openTickets(4);
    const named = await h.cli(['close', String(a), String(b), '--attach', `${bare}#build.log`]);
    expect(named).toMatchObject({ code: 0, stderr: '' });
    expect([...attachedNames(a!), ...attachedNames(b!)].filter((name) => name === 'build.log')).toHaveLength(2);

    const unnamed = await h.cli(['close', String(c), String(d), '--attach', bare]);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain(`as --attach ${bare}#build-output.txt\n`);
  });

  it('close, one ticket, unnamed: the error hints the fix', async () => {
    const [id] = openTickets(1);
    const result = await h.cli(['close', String(id), '--attach', bare]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: #${id}: the service did not keep 1 of 1 file: build-output\n`);
    expect(result.stderr).toContain(`as --attach ${bare}#build-output.txt\n`);
  });

  it.each([
    ['create', ...validCreateArgs()],
    ['create', ...integrationCreateArgs()],
    ['close', 'TICKET'],
    ['reply', 'TICKET', '--to', 'a@example.com', '--subject', 'S', '--message', 'M'],
    ['forward', 'TICKET', '--to', 'a@example.com'],
  ])('%s: a bad NAME is exit 2 naming the argument, nothing sent', async (...argv) => {
    const result = await sendsNothing(h, () => h.cli([...argv.map((arg) => (arg === 'TICKET' ? String(ticket) : arg)), '--attach', '/dev/null#a/b.txt']));
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("error: --attach /dev/null#a/b.txt: the name after '#' cannot hold '/' or '\\'");
  });
});

describe('create --from, its attach column', () => {
  it('takes PATH#NAME, PATH found beside the file', async () => {
    const folder = join(dir, 'rows');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'nightly'), 'nightly log\n');
    const file = join(folder, 'rows.jsonl');
    await writeFile(file, `${JSON.stringify({ title: 'Nightly failed', description: 'd', requester: 'pnovak', attach: 'nightly#nightly.log' })}\n`);
    const result = await h.cli(['-q', 'create', '--integration', '--from', file]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(attachedNames(Number(result.stdout))).toEqual(['nightly.log']);
  });

  it('a row with a bad NAME is a bad row: exit 2, nothing sent', async () => {
    const file = join(dir, 'bad-name.jsonl');
    await writeFile(file, `${JSON.stringify({ title: 'T', description: 'd', requester: 'pnovak', attach: 'nightly#' })}\n`);
    const result = await sendsNothing(h, () => h.cli(['create', '--integration', '--from', file]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`row 1 (line 1): attach nightly#: no name after '#'`);
  });
});

describe('tkt api -F Uploads=@PATH#NAME', () => {
  it('uploads PATH under NAME', async () => {
    const { result, names } = await added(ticket, () => h.cli(['api', 'POST', `/api/TicketsApi/addfiles/${ticket}`, '-F', `Uploads=@${bare}#build.log`]));
    expect(result.code).toBe(0);
    expect(names).toEqual(['build.log']);
  });
});
