// Files given to tkt may be any readable non-directory: a regular file, a FIFO (`mkfifo`, what
// `<(command)` gives), /dev/stdin. Each is read once, when it is sent: checking it first must not
// consume it, and a dry run never opens an attachment. A directory is exit 2 naming it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { integrationCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { sendsNothing, unusedTicket, unusedTickets, useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
let dir: string;
useHarness({}, (harness) => (h = harness));
useTempDir('tkt-input-files-', (path) => (dir = path));

const OPEN = 1;
const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const openTicket = () => unusedTicket(h, (t) => t.ticketStatusId === OPEN && !t.locked);
const conversations = (id: number) => h.sandbox.state.conversations.filter((c) => c.ticketId === id);
const attachmentsOf = (id: number) => h.sandbox.state.attachments.filter((a) => a.ticketId === id);

const fifos: string[] = [];
const writers: ChildProcess[] = [];

/**
 * A named pipe (node has no mkfifo); `data` is written to it by a child process once a reader
 * opens it. A child, not node's fs: a write to a FIFO nobody reads would hold one of the few
 * threads of libuv's pool, and the test's own file work would wait behind it.
 */
async function fifo(name: string, data?: Buffer | string): Promise<{ path: string; written: Promise<void> }> {
  const path = join(dir, name);
  execFileSync('mkfifo', [path]);
  fifos.push(path);
  if (data === undefined) return { path, written: Promise.resolve() };
  const writer = spawn('sh', ['-c', 'exec cat > "$0"', path], { stdio: ['pipe', 'ignore', 'inherit'] });
  writers.push(writer);
  // Killed after a failed test, it leaves its stdin closed under us.
  writer.stdin.on('error', () => undefined);
  writer.stdin.end(data);
  return { path, written: new Promise((resolve) => writer.on('close', () => resolve())) };
}

// A test that failed may leave tkt waiting to open a FIFO, or a writer waiting for tkt: opening
// each FIFO for writing without blocking releases such a reader (it reads the end at once).
afterEach(() => {
  for (const writer of writers.splice(0)) if (writer.exitCode === null) writer.kill();
  for (const path of fifos.splice(0)) {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // ENXIO: nobody has it open for reading, nothing to release.
    }
  }
});

/**
 * The built CLI in a child process with `stdin` piped in, as a shell pipes it: /dev/stdin is the
 * child's own. Node gives a child a socket for stdin, which cannot be opened by its path, so a
 * shell's `cat |` makes it the pipe that `printf ... | tkt` gives.
 */
function runBin(argv: string[], stdin: Buffer | string, cwd?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runInShell('sh', 'cat | "$@"', argv, stdin, cwd);
}

/** The built CLI as `script` of `shell` runs it: "$@" is tkt and `argv` (`seq 1 3000 | "$@"`). */
function runInShell(
  shell: 'sh' | 'bash',
  script: string,
  argv: string[],
  stdin: Buffer | string = '',
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  // --norc: bash reads ~/.bashrc when its stdin is a socket (as node gives a child), taking it for rshd.
  const child = spawn(shell, [...(shell === 'bash' ? ['--norc'] : []), '-c', script, shell, process.execPath, bin, ...argv], {
    env: { PATH: process.env.PATH ?? '', ...h.env },
    ...(cwd === undefined ? {} : { cwd }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

describe('a FIFO', () => {
  it('is read once as --message-file', async () => {
    const ticket = openTicket();
    const pipe = await fifo('message.txt', 'from a pipe\n');
    const result = await h.cli(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', pipe.path]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    await pipe.written;
    expect(conversations(ticket.id).at(-1)?.message).toBe('from a pipe\n');
  });

  it('is read once as --description-file of a new ticket', async () => {
    const pipe = await fifo('description.md', 'Described through a pipe');
    const result = await h.cli(['-q', 'create', ...integrationCreateArgs({ description: null, 'description-file': pipe.path })]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    await pipe.written;
    expect(h.sandbox.state.tickets.find((t) => t.id === Number(result.stdout))?.description).toBe('Described through a pipe');
  });

  it('is streamed as an attachment, every byte intact (its size unknown: sent chunked)', async () => {
    const ticket = openTicket();
    // Larger than the 1 MiB chunks tkt reads, and not a multiple of them.
    const data = randomBytes(3 * 1024 * 1024 + 5);
    const pipe = await fifo('capture.log', data);
    const before = attachmentsOf(ticket.id).length;
    const result = await h.cli(['attach', String(ticket.id), pipe.path]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    await pipe.written;
    expect(
      attachmentsOf(ticket.id)
        .slice(before)
        .map((a) => [a.fileName, a.size, a.sha256]),
    ).toEqual([['capture.log', data.length, sha256(data)]]);
  });

  it('is streamed as create --attach, beside a regular file', async () => {
    const data = Buffer.from('pipe bytes\n');
    const pipe = await fifo('build.log', data);
    const regular = join(dir, 'notes.txt');
    await writeFile(regular, 'regular bytes\n');
    const result = await h.cli(['-q', 'create', ...integrationCreateArgs(), '--attach', regular, '--attach', pipe.path]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    await pipe.written;
    expect(attachmentsOf(Number(result.stdout)).map((a) => [a.fileName, a.sha256])).toEqual([
      ['notes.txt', sha256('regular bytes\n')],
      ['build.log', sha256(data)],
    ]);
  });

  it('is not opened by a dry run: it returns at once though nothing writes to it', async () => {
    const ticket = openTicket();
    const pipe = await fifo('never-written.log');
    const result = await sendsNothing(h, () => h.cli(['attach', String(ticket.id), pipe.path, '--dry-run']));
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('never-written.log');
  });
});

describe('a FIFO whose writer stays quiet', () => {
  /** Starts tkt reading `pipe` (its args), holds the FIFO open without writing, then sends SIGTERM: the exit code. */
  async function stoppedReading(args: string[], pipe: string): Promise<number | null> {
    const child = spawn(process.execPath, [bin, ...args], { env: { PATH: process.env.PATH ?? '', ...h.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Opens the FIFO for writing (which waits until tkt has opened it for reading), says so,
    // then holds it open without writing: tkt is left reading.
    const writer = spawn('sh', ['-c', 'exec 3>"$0"; echo open; exec cat', pipe], { stdio: ['pipe', 'pipe', 'inherit'] });
    writers.push(writer);
    await new Promise((resolve) => writer.stdout.once('data', resolve));
    child.kill('SIGTERM');
    return exited;
  }

  it('does not keep tkt alive after SIGTERM: it ends with 143', async () => {
    const ticket = openTicket();
    const pipe = await fifo('quiet.txt');
    const replies = conversations(ticket.id).length;
    expect(await stoppedReading(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', pipe.path], pipe.path)).toBe(143);
    expect(conversations(ticket.id)).toHaveLength(replies);
  });

  it('as create --from, does not keep tkt alive after SIGTERM either', async () => {
    const pipe = await fifo('quiet.csv');
    const tickets = h.sandbox.state.tickets.length;
    expect(await stoppedReading(['create', '--from', pipe.path], pipe.path)).toBe(143);
    expect(h.sandbox.state.tickets).toHaveLength(tickets);
  });
});

describe('/dev/stdin', () => {
  it('is read as --message-file', async () => {
    const ticket = openTicket();
    const result = await runBin(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', '/dev/stdin'], 'typed into a pipe\n');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(conversations(ticket.id).at(-1)?.message).toBe('typed into a pipe\n');
  });

  it('is refused when empty, naming the option, before any request', async () => {
    const ticket = openTicket();
    const result = await sendsNothing(h, () =>
      runBin(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', '/dev/stdin'], ''),
    );
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toBe('error: --message-file /dev/stdin is empty\n');
  });
});

describe('a pipe given to several uploads of one run', () => {
  it('is sent once: the next upload fails, naming it, rather than send an empty file reported as kept', async () => {
    const [first, second] = unusedTickets(h, 2, (t) => t.ticketStatusId === OPEN && !t.locked).map((t) => t.id);
    const result = await runBin(['close', String(first), String(second), '--attach', '/dev/stdin#build.log'], 'compiler said no\n');
    expect(result.code).toBe(1);
    // The ID commands run at once, so either may be the one that read the pipe.
    const [read, refused] = attachmentsOf(first!).some((a) => a.fileName === 'build.log') ? [first!, second!] : [second!, first!];
    expect(attachmentsOf(read).find((a) => a.fileName === 'build.log')?.size).toBe('compiler said no\n'.length);
    expect(attachmentsOf(refused).some((a) => a.fileName === 'build.log')).toBe(false);
    expect(result.stderr).toContain(
      `✗ #${refused} cannot send /dev/stdin again: it is a pipe, read by an earlier upload of this run, and its bytes cannot be read twice\n`,
    );
  });
});

describe('create --from stdin, a device or a pipe', () => {
  const rows = (tag: string) => [1, 2].map((n) => JSON.stringify({ title: `${tag} ${n}`, description: 'd', requester: 'pnovak' })).join('\n') + '\n';
  const titled = (tag: string) => h.sandbox.state.tickets.filter((t) => t.title.startsWith(`${tag} `));
  const folder = async (name: string) => {
    const path = join(dir, name);
    await mkdir(path);
    return path;
  };

  it('reads stdin with --from -, its report in the current folder, resumed from there', async () => {
    const cwd = await folder('from-dash');
    const dryRun = await sendsNothing(h, () => runBin(['create', '--integration', '--from', '-', '--dry-run'], rows('Dashed'), cwd));
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toContain('Dashed 2');
    const result = await runBin(['create', '--integration', '--from', '-'], rows('Dashed'), cwd);
    expect(result.stderr).toBe('created 2 tickets; report: create-from.report.jsonl\n');
    expect(result.code).toBe(0);
    expect(titled('Dashed')).toHaveLength(2);
    const report = await readFile(join(cwd, 'create-from.report.jsonl'), 'utf8');
    expect(report).toContain(`"id":${titled('Dashed')[1]!.id}`);
    // The report is never overwritten: it names the tickets created.
    const again = await sendsNothing(h, () => runBin(['create', '--integration', '--from', '-'], rows('Dashed'), cwd));
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('report create-from.report.jsonl already exists');
    expect(again.stderr).toContain('--resume create-from.report.jsonl');
    const resumed = await runBin(['create', '--integration', '--from', '-', '--resume', 'create-from.report.jsonl'], rows('Dashed'), cwd);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(titled('Dashed')).toHaveLength(2);
  });

  it('empty stdin is nothing to do, as for tkt close -: exit 0, a note, --json [], no report in the current folder', async () => {
    const cwd = await folder('from-dash-empty');
    const note = 'stdin has no rows: nothing to do\n';
    const human = await sendsNothing(h, () => runBin(['create', '--integration', '--from', '-'], '', cwd));
    expect(human).toEqual({ code: 0, stdout: '', stderr: note });
    const json = await sendsNothing(h, () => runBin(['create', '--integration', '--from', '-', '--json'], '', cwd));
    expect(json).toEqual({ code: 0, stdout: '[]\n', stderr: note });
    const quiet = await sendsNothing(h, () => runBin(['create', '--integration', '--from', '-', '-q'], '\n', cwd));
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(join(cwd, 'create-from.report.jsonl'))).toBe(false);
    expect(existsSync(join(cwd, 'create-from.report.jsonl.lock'))).toBe(false);
  });

  it('writes the report of --from /dev/stdin or a FIFO in the current folder, never beside them', async () => {
    const cwd = await folder('from-dev-stdin');
    const result = await runBin(['create', '--integration', '--from', '/dev/stdin'], rows('Devstdin'), cwd);
    expect(result.stderr).toBe('created 2 tickets; report: create-from.report.jsonl\n');
    expect(result.code).toBe(0);
    expect(titled('Devstdin')).toHaveLength(2);
    expect(await readFile(join(cwd, 'create-from.report.jsonl'), 'utf8')).toContain('"ok":true');
    expect(existsSync('/dev/stdin.report.jsonl')).toBe(false);
    const pipeCwd = await folder('from-fifo');
    const pipe = await fifo('rows.jsonl', rows('Piped'));
    const piped = await runBin(['create', '--integration', '--from', pipe.path], '', pipeCwd);
    expect(piped.code, piped.stderr).toBe(0);
    expect(titled('Piped')).toHaveLength(2);
    expect(await readFile(join(pipeCwd, 'create-from.report.jsonl'), 'utf8')).toContain('"ok":true');
    expect(existsSync(`${pipe.path}.report.jsonl`)).toBe(false);
  });

  // Rows attach only files of their folder (README: Many tickets), and /dev/stdin is none: a row of
  // someone else's file cannot take what is piped to tkt. With --from -, stdin is the rows' already.
  it('refuses a row attaching /dev/stdin: with --from - a second reader of stdin, with a file outside the folder', async () => {
    const cwd = await folder('from-dash-attach');
    const row = JSON.stringify({ title: 'Two readers', description: 'd', requester: 'pnovak', attach: '/dev/stdin#build.log' });
    const dashed = await sendsNothing(h, () => runBin(['create', '--integration', '--from', '-'], `${row}\n`, cwd));
    expect(dashed.code).toBe(2);
    expect(dashed.stderr).toContain('error: --from and row 1 attach /dev/stdin cannot both be read from stdin\n');
    await writeFile(join(cwd, 'rows.jsonl'), `${row}\n`);
    const piped = await sendsNothing(h, () => runBin(['create', '--integration', '--from', 'rows.jsonl'], 'a piped log\n', cwd));
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(`  row 1 (line 1): attach: /dev/stdin#build.log is outside ${cwd} (rows attach only files in that folder)\n`);
    expect(titled('Two')).toEqual([]);
  });

  it('--from - is a reader of stdin: a row attaching /dev/stdin, a file of the folder there, is refused', async () => {
    const cwd = await folder('from-dash-file');
    const row = JSON.stringify({ title: 'Same file', description: 'd', requester: 'pnovak', attach: '/dev/stdin#rows.log' });
    await writeFile(join(cwd, 'rows.jsonl'), `${row}\n`);
    const result = await sendsNothing(h, () => runInShell('sh', '"$@" < rows.jsonl', ['create', '--integration', '--from', '-'], '', cwd));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: --from and row 1 attach /dev/stdin cannot both be read from stdin\n');
  });
});

describe('/dev/stdin redirected from a file', () => {
  it('is attached, every byte intact', async () => {
    const ticket = openTicket();
    const file = join(dir, 'redirected.bin');
    const data = randomBytes(300 * 1024 + 7);
    await writeFile(file, data);
    // /dev/stdin under a name of a type the sandbox keeps.
    const link = join(dir, 'stdin.log');
    await symlink('/dev/stdin', link);
    const fd = openSync(file, 'r');
    try {
      // The file itself as the child's fd 0, as `tkt attach ID /dev/stdin < FILE` gives it.
      const child = spawn(process.execPath, [bin, 'attach', String(ticket.id), link], {
        env: { PATH: process.env.PATH ?? '', ...h.env },
        stdio: [fd, 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    } finally {
      closeSync(fd);
    }
    // The ticket may hold files from before (the demo's).
    expect(
      attachmentsOf(ticket.id)
        .filter((a) => a.fileName === 'stdin.log')
        .map((a) => [a.size, a.sha256]),
    ).toEqual([[data.length, sha256(data)]]);
  });
});

describe('stdin read by two options', () => {
  let untouched: number | undefined;
  // Stdin is one stream: the first reader takes it all, the second gets nothing (README: Text values).
  it('piped to create as --description - and --attach /dev/stdin: exit 2, no ticket created', async () => {
    const tickets = h.sandbox.state.tickets.length;
    const result = await sendsNothing(h, () => runBin(['create', ...integrationCreateArgs({ description: '-', attach: '/dev/stdin' })], 'hi\n'));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('error: --description and --attach /dev/stdin cannot both be read from stdin\n');
    expect(h.sandbox.state.tickets).toHaveLength(tickets);
  });

  it.each([
    [['create', ...integrationCreateArgs({ description: '-', attach: '/dev/stdin' })], '--description and --attach /dev/stdin'],
    [
      ['create', ...integrationCreateArgs({ description: null }), '--description-file', '/proc/self/fd/0', '--attach', 'a.log', '--attach', '/dev/stdin'],
      '--description-file /proc/self/fd/0 and --attach /dev/stdin',
    ],
    [['create', ...integrationCreateArgs({ attach: '/dev/stdin' }), '--attach', '/dev/fd/0'], '--attach /dev/stdin and --attach /dev/fd/0'],
    [['reply', 'TICKET', '--message', '-', '--attach', '/dev/fd/0'], '--message and --attach /dev/fd/0'],
    [['forward', 'TICKET', '--to', 'a@example.com', '--message-file', '-', '--attach', '/dev/stdin'], '--message-file and --attach /dev/stdin'],
    [['close', '-', '--attach', '/dev/stdin'], 'IDs and --attach /dev/stdin'],
    [['close', 'TICKET', '--comments', '-', '--attach', '/dev/stdin'], '--comments and --attach /dev/stdin'],
    [['resolve', '-', '--details-file', '/dev/stdin'], 'IDs and --details-file /dev/stdin'],
    [['attach', 'TICKET', '/dev/stdin', '/proc/self/fd/0'], '/dev/stdin and /proc/self/fd/0'],
    // Named (README: Naming an upload), it is stdin all the same.
    [['attach', 'TICKET', '/dev/stdin#a.log', '/dev/fd/0#b.log'], '/dev/stdin and /dev/fd/0'],
    [['close', '-', '--attach', '/dev/stdin#build.log'], 'IDs and --attach /dev/stdin'],
    [['create', ...integrationCreateArgs({ description: '-', attach: '/dev/stdin#build.log' })], '--description and --attach /dev/stdin'],
  ])('%j is exit 2 before any request', async (argv, readers) => {
    // Nothing is sent: every case can name the same ticket.
    untouched ??= openTicket().id;
    const id = String(untouched);
    const result = await sendsNothing(h, () =>
      h.cli(
        argv.map((arg) => (arg === 'TICKET' ? id : arg)),
        { stdin: `${id}\n` },
      ),
    );
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr.split('\n')[0]).toBe(`error: ${readers} cannot both be read from stdin`);
  });
});

describe('a device', () => {
  // /dev/zero never ends: as an attachment it was uploaded for ever (8 GB in 8 s, and no
  // --timeout, as every chunk restarts the clock). Only a file or a pipe is uploaded.
  it('is exit 2 naming it as an attachment of any command, before any request', async () => {
    const ticket = openTicket();
    const runs = {
      attach: ['attach', String(ticket.id), '/dev/zero'],
      reply: ['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message', 'm', '--attach', '/dev/zero'],
      close: ['close', String(ticket.id), '--attach', '/dev/zero'],
      create: ['create', ...integrationCreateArgs({ requester: '1', attach: '/dev/zero' })],
      api: ['api', 'POST', `/api/TicketsApi/addfiles/${ticket.id}`, '-F', 'Uploads=@/dev/zero'],
    };
    for (const [name, argv] of Object.entries(runs)) {
      const result = await sendsNothing(h, () => h.cli(argv));
      expect({ name, ...result }).toMatchObject({ name, code: 2, stdout: '' });
      expect(result.stderr).toContain('/dev/zero: a device, not a file or a pipe');
    }
  });

  it('is still read as a text file, where its bytes are checked: /dev/zero is refused for its NUL bytes', async () => {
    const ticket = openTicket();
    const result = await sendsNothing(h, () => h.cli(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', '/dev/zero']));
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('NUL bytes');
  });
});

describe('a directory', () => {
  it('is exit 2 naming it, as a text file or an attachment, before any request', async () => {
    const ticket = openTicket();
    const folder = join(dir, 'logs');
    await mkdir(folder);
    const message = await sendsNothing(h, () => h.cli(['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message-file', folder]));
    expect(message).toMatchObject({ code: 2, stdout: '' });
    expect(message.stderr).toContain(`${folder}: a directory, not a file`);
    const attach = await sendsNothing(h, () => h.cli(['attach', String(ticket.id), folder]));
    expect(attach).toMatchObject({ code: 2, stdout: '' });
    expect(attach.stderr).toContain(`${folder}: a directory, not a file`);
    const create = await sendsNothing(h, () => h.cli(['create', ...integrationCreateArgs({ requester: '1', attach: folder })]));
    expect(create).toMatchObject({ code: 2, stdout: '' });
    expect(create.stderr).toContain(`${folder}: a directory, not a file`);
  });

  // Node reads a directory on stdin as empty: `tkt close - < logs` did nothing and exited 0.
  it('redirected into stdin is exit 2 wherever stdin is read (IDs, a text, api --input, --from), before any request', async () => {
    const ticket = openTicket();
    await mkdir(join(dir, 'job-logs'));
    const runs: [string[], string][] = [
      [['close', '-'], 'the IDs on stdin: stdin is a directory, not a file'],
      [['create', ...integrationCreateArgs({ description: null, 'description-file': '-' })], '--description-file -: stdin is a directory, not a file'],
      [['reply', String(ticket.id), '--to', 'a@example.com', '--subject', 'S', '--message', '-'], '--message -: stdin is a directory, not a file'],
      [['api', 'POST', '/api/v1/tickets', '--input', '-'], '--input -: stdin is a directory, not a file'],
      [['create', '--integration', '--from', '-'], '--from -: stdin is a directory, not a file'],
    ];
    for (const [argv, message] of runs) {
      const result = await sendsNothing(h, () => runInShell('sh', '"$@" < job-logs', argv, '', dir));
      expect({ argv, code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
        argv,
        code: 2,
        stdout: '',
        stderr: `error: ${message}\nhint: redirect a file into stdin (< FILE), not a directory\n`,
      });
    }
  });
});

describe('a pipe named with PATH#NAME (README: Naming an upload)', () => {
  // The sandbox keeps only allowed extensions, as the service does: a pipe's own name has none.
  it('a FIFO is streamed under NAME, every byte intact, and kept', async () => {
    const ticket = openTicket();
    const data = randomBytes(300 * 1024 + 7);
    const pipe = await fifo('capture', data);
    const before = attachmentsOf(ticket.id).length;
    const result = await h.cli(['attach', String(ticket.id), `${pipe.path}#capture.log`]);
    expect(result).toMatchObject({ code: 0, stdout: `✓ attached 1 of 1 file to #${ticket.id}: capture.log\n`, stderr: '' });
    await pipe.written;
    expect(
      attachmentsOf(ticket.id)
        .slice(before)
        .map((a) => [a.fileName, a.size, a.sha256]),
    ).toEqual([['capture.log', data.length, sha256(data)]]);
  });

  it('a FIFO without NAME is skipped under its own name: exit 1, the hint names it', async () => {
    const ticket = openTicket();
    const pipe = await fifo('capture-unnamed', 'log line\n');
    const result = await h.cli(['attach', String(ticket.id), pipe.path]);
    await pipe.written;
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toContain('error: the service did not keep 1 of 1 file: capture-unnamed\n');
    expect(result.stderr).toContain(`name the upload with one, as "tkt attach ${ticket.id} ${pipe.path}#capture-unnamed.txt"\n`);
  });

  it('seq 1 3000 | tkt attach ID /dev/stdin#x.txt: the whole of stdin, kept as x.txt', async () => {
    const ticket = openTicket();
    const result = await runInShell('sh', 'seq 1 3000 | "$@"', ['attach', String(ticket.id), '/dev/stdin#x.txt']);
    expect(result).toMatchObject({ code: 0, stdout: `✓ attached 1 of 1 file to #${ticket.id}: x.txt\n`, stderr: '' });
    const expected = `${Array.from({ length: 3000 }, (_, index) => index + 1).join('\n')}\n`;
    expect(attachmentsOf(ticket.id).map((a) => [a.fileName, a.size, a.sha256])).toContainEqual(['x.txt', expected.length, sha256(expected)]);
  });

  it('seq | tkt create --integration --attach /dev/stdin: the ticket, then stdin skipped, exit 1, the hint the fix', async () => {
    const result = await runInShell('sh', 'seq 1 3000 | "$@"', ['-q', 'create', ...integrationCreateArgs({ attach: '/dev/stdin' })]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^\d+\n$/);
    expect(result.stderr.split('\n')).toEqual([
      'error: the service did not keep 1 of 1 file: stdin',
      'hint: "stdin" has no extension, and the service keeps only the file types it allows: name the upload with one, as --attach /dev/stdin#stdin.txt',
      '',
    ]);
    const named = await runInShell('sh', 'seq 1 3000 | "$@"', ['-q', 'create', ...integrationCreateArgs({ attach: '/dev/stdin#build.log' })]);
    expect(named).toMatchObject({ code: 0, stderr: '' });
    expect(attachmentsOf(Number(named.stdout)).map((a) => a.fileName)).toEqual(['build.log']);
  });

  it("bash's <(command)#report.txt is kept as report.txt; unnamed, as 63, the hint shows <(command)#63.txt", async () => {
    const ticket = openTicket();
    const named = await runInShell('bash', '"$@" <(seq 1 5)#report.txt', ['attach', String(ticket.id)]);
    expect(named).toMatchObject({ code: 0, stdout: `✓ attached 1 of 1 file to #${ticket.id}: report.txt\n`, stderr: '' });
    const unnamed = await runInShell('bash', '"$@" <(seq 1 5)', ['attach', String(ticket.id)]);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toMatch(
      /^error: the service did not keep 1 of 1 file: (\d+)\nhint: "\1" has no extension.*, as "tkt attach \d+ <\(command\)#\1\.txt"\n$/,
    );
  });
});
