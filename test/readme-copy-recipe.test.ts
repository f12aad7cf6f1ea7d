// The README's recipe for copying tickets between profiles, cut out of README.md and run as
// printed by bash (-e, pipefail) against two sandboxes, one per profile: the copies carry the
// originals' text and names, resolved in the profile they go to.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startSandbox, type RunningSandbox } from '../src/sandbox/index.js';
import { BIN, ensureBuilt } from './helpers/terminal.js';

const README = resolve(import.meta.dirname, '../README.md');
const HEADING = '### Copying tickets between profiles';
const run = promisify(execFile);

/** The shell block under the recipe's heading. */
async function copyRecipe(): Promise<string> {
  const text = await readFile(README, 'utf8');
  const section = text.slice(text.indexOf(HEADING));
  expect(text.indexOf(HEADING), `README.md has no "${HEADING}"`).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(section);
  expect(block, `no shell block under "${HEADING}"`).not.toBeNull();
  return block![1]!;
}

let staging: RunningSandbox;
let prod: RunningSandbox;
let dir: string;
let env: Record<string, string>;
beforeAll(async () => {
  await ensureBuilt();
  [staging, prod] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0 })]);
  dir = await mkdtemp(join(tmpdir(), 'tkt-readme-copy-'));
  await symlink(BIN, join(dir, 'tkt'));
  env = { PATH: `${dir}:${process.env.PATH ?? ''}`, HOME: dir, TKT_CONFIG_DIR: join(dir, 'config') };
  for (const [profile, sandbox] of [
    ['staging', staging],
    ['prod', prod],
  ] as const) {
    await run(BIN, ['--profile', profile, 'login', '--url', sandbox.url, '-u', 'admin'], { env: { ...env, TKT_PASSWORD: 'admin' } });
  }
});
afterAll(async () => {
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  await Promise.all([staging?.close(), prod?.close()]);
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

test("the copy recipe creates staging's 3 listed tickets in prod, with their text and names", async () => {
  const before = prod.state.tickets.length;
  const { stderr } = await run('bash', ['-e', '-o', 'pipefail', '-c', await copyRecipe()], { cwd: dir, env });
  expect(stderr).toBe('created 3 tickets; report: create-from.report.jsonl\n');
  const copies = prod.state.tickets.slice(before);
  const listed = (await run(BIN, ['--profile', 'staging', 'list', '-q', '--limit', '3'], { env })).stdout.trim().split('\n').map(Number);
  const originals = staging.state.tickets.filter((ticket) => listed.includes(ticket.id));
  expect(originals).toHaveLength(3);
  const userName = (sandbox: RunningSandbox, id: string) => sandbox.state.users.find((user) => user.id === id)?.username;
  // What the recipe copies, by name: the demo data gives both sandboxes the same IDs for them.
  const copied = (sandbox: RunningSandbox) => (ticket: (typeof copies)[number]) => ({
    title: ticket.title,
    description: ticket.description,
    requester: userName(sandbox, ticket.creatorId),
    site: ticket.siteId,
    department: ticket.departmentId,
    status: ticket.ticketStatusId,
    priority: ticket.ticketPriorityId,
    category: ticket.ticketCategoryId,
    subcategory: ticket.ticketSubCategoryId,
    group: ticket.groupId,
  });
  const byTitle = (a: { title: string }, b: { title: string }) => a.title.localeCompare(b.title);
  expect(copies.map(copied(prod)).sort(byTitle)).toEqual(originals.map(copied(staging)).sort(byTitle));
});
