// tkt watch --exec stopped by a signal (README, Interruption; docs/cli.md sections 8 and 13): the
// first says it stops after the running command and starts no other, the second ends it. Every
// event of the poll is still printed, and --state saves it as told: stdout is the record. A file
// of its own: each test takes tickets of its own, and watch.test.ts takes many.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import type { Harness } from '../helpers/harness.js';
import { processEnds } from '../helpers/process-runs.js';
import { unusedTicket, useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { onFolderChange, until } from '../helpers/until.js';
import { jsonLines, retitle, startWatch, wakeOnly } from '../helpers/watch-run.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-stop-', (path) => (dir = path));

describe('tkt watch --exec stopped by a signal', () => {
  /** A folder of its own, with a FIFO `go` that a hook waits on until the test writes to it. */
  async function hookFolder(name: string): Promise<{ folder: string; fifo: string; log: string; pidFile: string }> {
    const folder = join(dir, name);
    await mkdir(folder);
    const fifo = join(folder, 'go');
    execFileSync('mkfifo', [fifo]);
    return { folder, fifo, log: join(folder, 'hooked.log'), pidFile: join(folder, 'hook.pid') };
  }

  /** Resolves with the PID a hook wrote to `file`, once written whole. */
  async function writtenPid(file: string, folder: string): Promise<number> {
    const read = () => (existsSync(file) ? /^(\d+)\n$/.exec(readFileSync(file, 'utf8'))?.[1] : undefined);
    await until('the PID of the --exec command', () => read() !== undefined, onFolderChange(folder));
    return Number(read());
  }

  it('the first SIGTERM says at once that it stops after the command running, starts no other, prints every event and names those not hooked', async () => {
    const { folder, fifo, log } = await hookFolder('stop-after');
    const state = join(folder, 'state.json');
    const exec = `cat > /dev/null; echo "$TKT_TICKET_ID" >> ${log}; read go < ${fifo}`;
    const [first, second] = [unusedTicket(h), unusedTicket(h)];
    const ids = [String(first.id), String(second.id)];
    const { r, clock, done } = await startWatch(h, { ids, state, exec });
    retitle(h, first.id, 'Hooked before the stop');
    retitle(h, second.id, 'Printed, not hooked');
    wakeOnly(clock);
    await until('the first --exec command', () => existsSync(log), onFolderChange(folder));
    r.abort.abort('SIGTERM');
    const stopping = `stopped by SIGTERM: stopping after the --exec command for changed #${first.id}; another SIGTERM gives up\n`;
    expect(r.stderr()).toBe(stopping);
    await writeFile(fifo, 'go\n');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(await readFile(log, 'utf8')).toBe(`${first.id}\n`);
    expect(jsonLines(r.stdout()).map((event) => event.id)).toEqual([first.id, second.id]);
    expect(r.stderr()).toBe(`${stopping}warning: --exec not run for 1 event (stopped): changed #${second.id}\n`);
    // Both events were printed: the next run tells neither again.
    const next = await h.cli(['--json', 'watch', ...ids, '--once', '--state', state, '--exec', `cat > /dev/null; echo "$TKT_TICKET_ID" >> ${log}`]);
    expect(next).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await readFile(log, 'utf8')).toBe(`${first.id}\n`);
  });

  it('a --timeout past the longest timer (about 24.8 days) does not warn at once of a command still running', async () => {
    const { folder, fifo, log } = await hookFolder('long-timeout');
    const ticket = unusedTicket(h);
    const exec = `cat > /dev/null; echo "$TKT_TICKET_ID" >> ${log}; read go < ${fifo}`;
    const { r, clock, done } = await startWatch(h, { ids: [String(ticket.id)], exec }, { globals: { json: true, timeout: 30 * 86_400 } });
    retitle(h, ticket.id, 'Hook under a long timeout');
    wakeOnly(clock);
    // An overflowing timer fires after 1 ms: long past by the time the hook has written its log.
    await until('the --exec command', () => existsSync(log), onFolderChange(folder));
    r.abort.abort('SIGTERM');
    await writeFile(fifo, 'go\n');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(r.stderr()).not.toContain('still running');
  });

  it('a second signal ends the running command with every process it started, then the watch; its printed event is not told again', async () => {
    const { folder, pidFile } = await hookFolder('give-up');
    const state = join(folder, 'state.json');
    const ticket = unusedTicket(h);
    // The shell waits on a child of its own: ending the shell alone would leave the sleep running.
    const exec = `cat > /dev/null; sleep 300 & echo $! > ${pidFile}; wait`;
    const { r, clock, done } = await startWatch(h, { ids: [String(ticket.id)], state, exec });
    retitle(h, ticket.id, 'Hook that hangs');
    wakeOnly(clock);
    const sleeping = await writtenPid(pidFile, folder);
    r.abort.abort('SIGTERM');
    r.halt.abort('SIGTERM');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(await processEnds(sleeping)).toBe(true);
    expect(r.stderr()).toContain(
      `warning: --exec stopped (killed by SIGTERM) for changed #${ticket.id}\nwarning: --exec not run for 1 event (stopped): changed #${ticket.id}\n`,
    );
    expect(r.stderr()).not.toContain('failed');
    expect(jsonLines(r.stdout()).map((event) => event.id)).toEqual([ticket.id]);
    const next = await h.cli(['--json', 'watch', String(ticket.id), '--once', '--state', state]);
    expect(next).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a command ended by a SIGINT after the Ctrl-C that stopped the watch is told as stopped, not failed, and no other command starts; without --state no event is lost', async () => {
    const { folder, log, pidFile } = await hookFolder('ctrl-c');
    const [first, second] = [unusedTicket(h), unusedTicket(h)];
    const exec = `cat > /dev/null; echo "$TKT_TICKET_ID" >> ${log}; echo $$ > ${pidFile}; exec sleep 300`;
    const { r, clock, done } = await startWatch(h, { ids: [String(first.id), String(second.id)], exec }, { tty: true });
    retitle(h, first.id, 'Hooked at Ctrl-C');
    retitle(h, second.id, 'Not hooked after Ctrl-C');
    wakeOnly(clock);
    const hook = await writtenPid(pidFile, folder);
    // The user ends the command too (kill -INT, or a Ctrl-C where it shares the terminal's group).
    r.abort.abort('SIGINT');
    process.kill(hook, 'SIGINT');
    await expect(done).rejects.toBeInstanceOf(InterruptedError);
    expect(await readFile(log, 'utf8')).toBe(`${first.id}\n`);
    expect(r.stderr()).toContain(
      `\ninterrupted: stopping after the --exec command for changed #${first.id}; press Ctrl-C again to give up\nwarning: --exec stopped (killed by SIGINT) for changed #${first.id}\nwarning: --exec not run for 2 events (stopped): changed #${first.id}, changed #${second.id}\n`,
    );
    expect(r.stdout()).toContain(`#${first.id} title`);
    expect(r.stdout()).toContain(`#${second.id} title`);
    expect(r.stderr()).not.toContain('watching goes on');
    expect(r.stderr()).not.toContain('failed');
  });
});
