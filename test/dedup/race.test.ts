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
