// The README's CI recipe, run exactly as printed there (its lines cut out of README.md) by bash
// with -e, as CI runners run a job's script, against a sandbox: TKT_URL and TKT_TOKEN come from
// the environment, as the recipe says the CI system provides them.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.js';
import { BIN, ensureBuilt } from './helpers/terminal.js';

const README = resolve(import.meta.dirname, '../README.md');
const FIRST_LINE = '# A CI job opening a ticket when the build breaks';

/** The recipe's lines: from its comment to the blank line that ends it. */
async function ciRecipe(): Promise<string> {
  const lines = (await readFile(README, 'utf8')).split('\n');
  const start = lines.findIndex((line) => line.startsWith(FIRST_LINE));
  expect(start, `README.md has no line starting "${FIRST_LINE}"`).toBeGreaterThan(-1);
  const length = lines.slice(start).findIndex((line) => line.trim() === '');
  return lines.slice(start, start + length).join('\n');
}

let sandbox: RunningSandbox;
let dir: string;
beforeAll(async () => {
  await ensureBuilt();
  sandbox = await startSandbox({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'tkt-readme-ci-'));
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  await sandbox?.close();
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

test('the CI recipe opens a ticket as ci-bot, run as printed with the service from the environment', async () => {
  const recipe = await ciRecipe();
  // The recipe must not name a service itself: the sandbox here, helpdesk.example.com nowhere.
  expect(recipe).not.toMatch(/TKT_URL=|TKT_TOKEN=/);
  // A CI machine with tkt installed: `tkt` on PATH, the job's workspace with its build log.
  await symlink(BIN, join(dir, 'tkt'));
  const workspace = join(dir, 'workspace');
  await mkdir(workspace);
  await writeFile(join(workspace, 'build.log'), 'error: tests failed\n');
  const env = {
    PATH: `${dir}:${process.env.PATH ?? ''}`,
    HOME: dir,
    TKT_CONFIG_DIR: join(dir, 'config'),
    BUILD_ID: '4711',
    // "Needs only a valid token": the viewer demo login has no permission at all.
    TKT_URL: sandbox.url,
    TKT_TOKEN: sandbox.issueToken('viewer'),
  };
  const { stdout, stderr } = await promisify(execFile)('bash', ['-e', '-c', recipe], { cwd: workspace, env });
  expect(stderr).toBe('');
  const id = Number(/^opened ticket (\d+)$/.exec(stdout.trim())?.[1]);
  const ticket = sandbox.state.tickets.find((t) => t.id === id);
  const ciBot = sandbox.state.users.find((u) => u.username === 'ci-bot');
  expect(ticket).toMatchObject({ title: 'Build 4711 failed', description: 'error: tests failed\n', creatorId: ciBot?.id, ticketPriorityId: 3 });
});
