// Five CI jobs failing at the same moment, each the built CLI in its own process against one
// sandbox: all five look up the key before any creates (the creates are held until all five are
// in flight), so all five create; after creating each looks again, and one open ticket is left.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, expect, test } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { holdUntilTogether, startFrontServer, useHarness } from '../helpers/sandbox-state.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';

const JOBS = 5;
const KEY = 'ci:pipeline/unit-tests';

let h: Harness;
useHarness({}, (harness) => (h = harness));
beforeAll(ensureBuilt);

test(`${JOBS} concurrent create --dedup-key processes leave exactly one open ticket`, async () => {
  const front = await startFrontServer(
    h,
    () => false,
    holdUntilTogether(JOBS, (req) => req.url === '/api/TicketsApi/new'),
  );
  try {
    const env = { ...process.env, TKT_URL: front.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: h.configDir, CI: 'true' };
    const job = (n: number) =>
      promisify(execFile)(
        'node',
        [BIN, 'create', '--integration', '--title', 'Unit tests failed', '--description', `run ${n}`, '--requester', 'ci-bot', '--dedup-key', KEY],
        { env },
      );
    const results = await Promise.all(Array.from({ length: JOBS }, (_, n) => job(n + 1)));

    const keyed = h.sandbox.state.tickets.filter((t) => t.title === `Unit tests failed [${KEY}]`);
    expect(keyed).toHaveLength(JOBS);
    const open = keyed.filter((t) => t.ticketStatusId !== 7);
    expect(open).toHaveLength(1);
    const survivor = open[0]!.id;
    expect(Math.min(...keyed.map((t) => t.id))).toBe(survivor);
    expect(results.map((r) => r.stdout).sort()).toEqual([`created #${survivor}\n`, ...Array.from({ length: JOBS - 1 }, () => `updated #${survivor}\n`)]);
    for (const { stderr } of results) expect(stderr).toBe('');
    // Each duplicate's close names the survivor, and its occurrence is a requester reply there.
    const closes = h.sandbox.state.conversations.filter((c) => c.type === 'Close' && keyed.some((t) => t.id === c.ticketId));
    expect(closes).toHaveLength(JOBS - 1);
    for (const close of closes) expect(close.message).toContain(`Duplicate of #${survivor}`);
    const replies = h.sandbox.state.conversations.filter((c) => c.type === 'RequesterReply' && c.ticketId === survivor);
    expect(replies.map((r) => r.subject)).toEqual(Array.from({ length: JOBS - 1 }, () => `Re: Unit tests failed [${KEY}]`));
  } finally {
    await front.close();
  }
});

// Each job pipes its log in (`make | tkt create ... --attach /dev/stdin#build.log`): the pipe is
// read once, by the upload to the job's own new ticket, yet the job that gives way sends its
// occurrence again, to the older ticket. That copy must carry the same bytes, not an empty file.
test('concurrent jobs attaching a piped log: the surviving ticket gets every job its whole log', async () => {
  const jobs = 3;
  const key = 'ci:race/piped-log';
  const front = await startFrontServer(
    h,
    () => false,
    holdUntilTogether(jobs, (req) => req.url === '/api/TicketsApi/new'),
  );
  try {
    const env = { ...process.env, TKT_URL: front.url, TKT_TOKEN: h.sandbox.issueToken('admin'), TKT_CONFIG_DIR: h.configDir, CI: 'true' };
    const args = (n: number) => ['create', '--integration', '--requester', 'ci-bot', '--title', 'Piped log', '--description', `job ${n}`];
    // A shell's pipe, as a CI job's: node would give the child a socket, which /dev/stdin cannot open.
    const job = (n: number) =>
      promisify(execFile)('sh', ['-c', `seq 1 ${n * 1000} | "$@"`, 'sh', 'node', BIN, ...args(n), '--attach', `/dev/stdin#build${n}.log`, '--dedup-key', key], {
        env,
      });
    const results = await Promise.all(Array.from({ length: jobs }, (_, n) => job(n + 1)));
    for (const { stderr } of results) expect(stderr).toBe('');

    const keyed = h.sandbox.state.tickets.filter((t) => t.title === `Piped log [${key}]`);
    const survivor = Math.min(...keyed.map((t) => t.id));
    const logSize = (n: number) => Array.from({ length: n * 1000 }, (_, i) => `${i + 1}\n`).join('').length;
    const onSurvivor = h.sandbox.state.attachments.filter((a) => a.ticketId === survivor).map((a) => [a.fileName, a.size]);
    expect(onSurvivor.sort()).toEqual(Array.from({ length: jobs }, (_, n) => [`build${n + 1}.log`, logSize(n + 1)]));
  } finally {
    await front.close();
  }
});
