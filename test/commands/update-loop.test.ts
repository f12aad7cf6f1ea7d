// The loops `tkt update` hints for several tickets (it takes one ID), cut out of its errors and run
// by sh, with the built tkt, against a sandbox: each ticket named gets the change, and the line
// keeps the options and the profile as typed.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';

const run = promisify(execFile);

let sandbox: RunningSandbox;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'tkt-update-loop-'));
  await symlink(BIN, join(dir, 'tkt'));
  env = { PATH: `${dir}:${process.env.PATH ?? ''}`, HOME: dir, TKT_CONFIG_DIR: join(dir, 'config') };
  await run(BIN, ['--profile', 'desk', 'login', '--url', sandbox.url, '-u', 'tech'], { env: { ...env, TKT_PASSWORD: 'tech' } });
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  await sandbox?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** The hint of the usage error `argv` makes (exit 2), from its loop on: what to run. */
async function hintedLoop(argv: string[], after: string): Promise<string> {
  const failed = await run(BIN, argv, { env }).then(
    () => expect.fail(`${argv.join(' ')} succeeded`),
    (error: { code: number; stderr: string }) => error,
  );
  expect(failed.code).toBe(2);
  const hint = /^hint: (.*)$/m.exec(failed.stderr)?.[1] ?? '';
  expect(hint, failed.stderr).toContain(after);
  return hint.slice(hint.indexOf(after) + after.length);
}

const statusOf = (id: number) => sandbox.state.lookups.status.find((s) => s.id === sandbox.state.tickets.find((t) => t.id === id)?.ticketStatusId)?.status;

test('the loop hinted for several IDs updates each, with the options and profile as typed', async () => {
  const loop = await hintedLoop(['--profile', 'desk', 'update', '1028', '#1025', '--status', 'In Progress'], 'for several: ');
  await run('sh', ['-e', '-c', loop], { cwd: dir, env });
  expect([statusOf(1028), statusOf(1025)]).toEqual(['In Progress', 'In Progress']);
});

test('the loop hinted for IDs on stdin updates each, one a line', async () => {
  const loop = await hintedLoop(['update', '-', '--status', 'Pending', '--profile', 'desk'], 'on stdin: ... | ');
  await run('sh', ['-e', '-c', `printf '%s\\n' 1013 1014 | ${loop}`], { cwd: dir, env });
  expect([statusOf(1013), statusOf(1014)]).toEqual(['Pending', 'Pending']);
});
