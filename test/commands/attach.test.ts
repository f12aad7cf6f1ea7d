import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/attach.js';
import { createConfigStore } from '../../src/config/store.js';
import { uploadProgress } from '../../src/output/upload-progress.js';
import { WAIT_NOTICE_DELAY_MS } from '../../src/output/waiting.js';
import { buildContext } from '../../src/process-host.js';
import { startServer } from '../api/server.js';
import { DEFAULT_GLOBALS, type Harness } from '../helpers/harness.js';
import { createTestIO } from '../helpers/io.js';
import { manualTimer } from '../helpers/manual-clock.js';
import { createScriptedPrompter } from '../helpers/prompter.js';
import {
  changeInDoubtStderr,
  forwardTo,
  frontEnv,
  passAnswer,
  routeCount,
  sendsNothing,
  startFrontServer,
  useHarness,
  useTempDir,
} from '../helpers/sandbox-state.js';

const ADD_FILES = 'POST /api/TicketsApi/addfiles/{id}';

let h: Harness;
let dir: string;
useHarness({}, (harness) => (h = harness));
useTempDir('tkt-attach-', (path) => (dir = path));

function firstLiveTicketId(): number {
  return h.sandbox.state.tickets.find((t) => !t.isDeleted)!.id;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const attachmentsOf = (id: number) => h.sandbox.state.attachments.filter((a) => a.ticketId === id);

describe('tkt attach', () => {
  it('uploads files byte for byte and names the ones the service skipped', async () => {
    const id = firstLiveTicketId();
    const png = join(dir, 'screen.png');
    const exe = join(dir, 'setup.exe');
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    await writeFile(png, bytes);
    await writeFile(exe, 'MZ');
    const before = attachmentsOf(id).length;
    const result = await h.cli(['attach', String(id), png, exe]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`✓ attached 1 of 2 files to #${id}: screen.png\n`);
    expect(result.stderr).toContain('error: the service did not keep 1 of 2 files: setup.exe\n');
    const added = attachmentsOf(id).slice(before);
    expect(added.map((a) => [a.fileName, a.size, a.sha256])).toEqual([['screen.png', bytes.length, sha256(bytes)]]);
  });

  it('prints the body with --json, and -q keeps only the error', async () => {
    const id = firstLiveTicketId();
    const txt = join(dir, 'notes.txt');
    const bat = join(dir, 'run.bat');
    await writeFile(txt, 'notes');
    await writeFile(bat, 'echo');
    const json = await h.cli(['--json', 'attach', String(id), txt]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ saved: [{ fileName: 'notes.txt', size: 5 }], skipped: [] });
    expect(json.stderr).toBe('{"kept":["notes.txt"],"skipped":[]}\n');
    const quiet = await h.cli(['-q', 'attach', String(id), bat]);
    expect(quiet).toMatchObject({ code: 1, stdout: '' });
    expect(quiet.stderr).toContain('run.bat');
  });

  it('refuses a missing file or a directory before anything is sent', async () => {
    const id = firstLiveTicketId();
    const good = join(dir, 'good.txt');
    await writeFile(good, 'x');
    const result = await sendsNothing(h, () => h.cli(['attach', String(id), good, join(dir, 'nope.txt'), dir]));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('nope.txt: no such file');
    expect(result.stderr).toContain(`${dir}: a directory, not a file`);
  });

  // `echo x | tkt attach 1013 -` said only `-: no such file` (a user's report): for an upload "-"
  // is a file of that name (README: Text values), and the hint says how stdin is attached.
  it('says how to attach stdin when "-" is no file, sending nothing', async () => {
    const id = firstLiveTicketId();
    const result = await sendsNothing(h, () => h.cli(['attach', String(id), '-'], { stdin: 'x\n' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'error: attach: cannot read file\n  -: no such file\nhint: "-" is a file of that name here, not stdin: for stdin give /dev/stdin, named as /dev/stdin#NAME (e.g. /dev/stdin#stdin.txt)\n',
    );
  });

  // A file given twice under one name reaches the ticket twice: refused, however its path is written.
  it.each([
    ['attach', (id: number, file: string) => ['attach', String(id), file, file]],
    ['close --attach', (id: number, file: string) => ['close', String(id), '--attach', file, '--attach', join(dir, '.', 'twice.txt')]],
  ])('%s refuses a file given twice under one name before anything is sent', async (_name, argv) => {
    const id = firstLiveTicketId();
    const file = join(dir, 'twice.txt');
    await writeFile(file, 'x');

    const result = await sendsNothing(h, () => h.cli(argv(id, file)));

    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: (attach|--attach): \S*twice\.txt given more than once: the ticket would get it again\n/);
    // Under another name it is another file for the ticket: taken.
    const renamed = await h.cli(['attach', String(id), file, `${file}#again.txt`, '--dry-run']);
    expect(renamed.code).toBe(0);
  });

  it('is exit 3 for an unknown ticket', async () => {
    const file = join(dir, 'a.txt');
    await writeFile(file, 'a');
    expect((await h.cli(['attach', '999999', file])).code).toBe(3);
  });

  it('--dry-run sends nothing', async () => {
    const id = firstLiveTicketId();
    const file = join(dir, 'b.txt');
    await writeFile(file, 'b');
    const before = routeCount(h, ADD_FILES);
    const result = await h.cli(['attach', String(id), file, '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`would send POST /api/TicketsApi/addfiles/${id}`);
    expect(result.stdout).toContain('b.txt');
    expect(routeCount(h, ADD_FILES)).toBe(before);
  });
});

describe('tkt attach whose request was sent and never answered', () => {
  it('says the upload is in doubt, naming the ticket and how to look at it (exit 1, as a single ID in doubt)', async () => {
    const id = firstLiveTicketId();
    const file = join(dir, 'unanswered.txt');
    await writeFile(file, 'log');
    const server = await startFrontServer(h, (req) => req.method === 'POST' && req.url === `/api/TicketsApi/addfiles/${id}`);
    try {
      const result = await h.cli(['attach', String(id), file, '--timeout', '0.5'], { env: frontEnv(h, server) });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(changeInDoubtStderr(id, `${server.url}/api/TicketsApi/addfiles/${id}`));
    } finally {
      await server.close();
    }
  });
});

// More than the loopback connection's buffers hold: the upload is still being sent while the
// service reads none of it.
const LARGE_FILE_BYTES = 16 * 1024 * 1024;
const ERASE_LINE = '\r\u001b[2K';

describe('tkt attach of a large file, at a terminal and piped', () => {
  /**
   * `tkt attach ID big.log` of LARGE_FILE_BYTES, whose body the service stops reading after its
   * first bytes until the notice's clock (the test's) has moved past a second; then the upload
   * goes on to the sandbox, or, with `interrupt`, a Ctrl-C stops it. What stderr showed then,
   * and at the end.
   */
  async function attachHeld(tty: boolean, { interrupt = false } = {}) {
    const id = firstLiveTicketId();
    const file = join(dir, 'big.log');
    await writeFile(file, Buffer.alloc(LARGE_FILE_BYTES, 'x'));
    let arrived = () => {};
    const bodyArrived = new Promise<void>((resolve) => (arrived = resolve));
    let letThrough = () => {};
    const released = new Promise<void>((resolve) => (letThrough = resolve));
    const server = await startServer((req, res) => {
      const chunks: Buffer[] = [];
      const held = req.method === 'POST' && req.url === `/api/TicketsApi/addfiles/${id}`;
      req.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (!held || chunks.length > 1) return;
        req.pause();
        arrived();
        void released.then(() => req.resume());
      });
      req.on('end', () => void forwardTo(h.sandbox.url, req, Buffer.concat(chunks)).then((answer) => passAnswer(res, answer)));
    });
    try {
      const test = createTestIO({ isTTY: tty, color: tty });
      const timer = manualTimer();
      const stop = new AbortController();
      // As the CLI builds attach's context (it registers saysWaiting and uploadProgress), on the test's clock.
      const ctx = await buildContext({
        // As the process's (createIO): the lines drawn in place that show now.
        io: { ...test.io, liveLines: new Set() },
        globals: DEFAULT_GLOBALS,
        env: { TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, server) },
        config: createConfigStore(h.configDir),
        prompter: createScriptedPrompter([]),
        signal: stop.signal,
        waiting: { timer: timer.start, uploadProgress },
      });
      try {
        const attached = run({ id: String(id), files: [file] }, ctx).then(
          () => 'attached',
          (error: unknown) => (error as Error).message,
        );
        await bodyArrived;
        timer.advance(WAIT_NOTICE_DELAY_MS);
        const whileSending = test.stderr();
        if (interrupt) stop.abort('SIGINT');
        letThrough();
        const outcome = await attached;
        return { id, outcome, whileSending, stderr: test.stderr(), stdout: test.stdout(), timersLeft: timer.pending() };
      } finally {
        await ctx.dispose();
      }
    } finally {
      await server.close();
    }
  }

  it('at a terminal: one line says how far the file is sent, and it is erased before the outcome is printed', async () => {
    const attached = await attachHeld(true);
    expect(attached.whileSending).toMatch(/^\r\u001b\[2KUploading big\.log: [\d.]+ (bytes|KB|MB) of 16 MB \(\d+%\)$/);
    // Every frame drawn over the last, the last erased; nothing else on stderr.
    expect(attached.stderr.startsWith(attached.whileSending)).toBe(true);
    expect(attached.stderr.endsWith(ERASE_LINE)).toBe(true);
    for (const frame of attached.stderr.split(ERASE_LINE).filter((text) => text !== '')) expect(frame).toMatch(/^(Uploading big\.log: |Waiting for )/);
    expect(attached.stdout).toBe(`✓ attached 1 of 1 file to #${attached.id}: big.log\n`);
    expect(attached.timersLeft).toBe(0);
  });

  // The terminal echoes "^C" at the end of the line: the line goes with it, rather than a line
  // break leaving it on the screen above the error.
  it('at a terminal, Ctrl-C while the file is sent erases the line, and breaks none under it', async () => {
    const attached = await attachHeld(true, { interrupt: true });
    expect(attached.outcome).toMatch(/^interrupted while sending POST .*: not done, the service never received the whole request$/);
    expect(attached.whileSending).toMatch(/^\r\u001b\[2KUploading big\.log: /);
    expect(attached.stderr.endsWith(ERASE_LINE)).toBe(true);
    expect(attached.stderr).not.toContain('\n');
    expect(attached.timersLeft).toBe(0);
  });

  it('piped: nothing at all', async () => {
    const attached = await attachHeld(false);
    expect(attached.whileSending).toBe('');
    expect(attached.stderr).toBe('');
    expect(attached.stdout).toBe(`✓ attached 1 of 1 file to #${attached.id}: big.log\n`);
    expect(attached.timersLeft).toBe(0);
  });
});
