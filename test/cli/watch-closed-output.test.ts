// `tkt watch ... | head -1`: once the reader of its stdout is gone, a watch stops polling and
// ends quietly, even when it has nothing to write that would meet the closed pipe (README,
// Watching; docs/cli.md section 8). The built CLI into `head -1` in bash, as a user runs it. The
// polls come every 250 ms (the test-only TKT_TEST_WATCH_INTERVAL_MS); the test waits on the
// pipeline's end, bounded, never on time. Linux: the only system where tkt can see it (src/util/pipe-reader.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { useHarness, useTempDir } from '../helpers/sandbox-state.js';
import { skipWithout } from '../helpers/tools.js';

// perl waits on the pipe for tkt (src/util/pipe-reader.ts).
const skip = skipWithout(['bash', 'perl'], 'test/cli/watch-closed-output.test.ts');

const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
// Generous: a loaded 2-core CI machine starts Node slowly; a pass never waits this long.
const BOUND_MS = 15_000;
const POLL_MS = 250;

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir: string;
useTempDir('tkt-watch-closed-', (path) => (dir = path));

interface Ended {
  /** tkt's exit code. */
  code: number;
  stderr: string;
  /** Requests the sandbox had when `head` had printed its line. */
  requestsAtClose: number;
}

/**
 * Runs `tkt ARGS | head -1` in bash, a pipe as the user's shell makes it (one Node makes for a
 * child is a socket); rejects if the pipeline has not ended within BOUND_MS.
 */
function intoHead(args: string[]): Promise<Ended> {
  const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
  const env = {
    ...inherited,
    TKT_URL: h.sandbox.url,
    TKT_TOKEN: h.sandbox.issueToken('admin'),
    TKT_CONFIG_DIR: dir,
    NO_COLOR: '1',
    TKT_TEST_WATCH_INTERVAL_MS: String(POLL_MS),
  };
  const line = `"$0" "$@" | head -1; echo "tkt exited $\{PIPESTATUS[0]}" >&2`;
  const child = spawn('bash', ['-c', line, process.execPath, bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let requestsAtClose = -1;
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  child.stdout.once('data', () => (requestsAtClose = h.sandbox.stats.requests));
  return new Promise((resolve, reject) => {
    const bound = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running ${BOUND_MS / 1000} s after head ended; stderr: ${stderr}`));
    }, BOUND_MS);
    child.on('close', () => {
      clearTimeout(bound);
      const exited = /^tkt exited (\d+)\n$/m.exec(stderr);
      resolve({ code: Number(exited?.[1]), stderr: stderr.replace(/^tkt exited \d+\n$/m, ''), requestsAtClose });
    });
  });
}

describe.skipIf(skip)('tkt watch into a pipe whose reader goes away', () => {
  it('stops polling and exits 0 quietly, though no event comes to write', async () => {
    // One ticket, told once (--initial): the watch has nothing more to write.
    const [ticket] = h.sandbox.state.tickets;
    const ended = await intoHead(['watch', String(ticket!.id), '--initial']);
    expect(ended.stderr).toBe('');
    expect(ended.code).toBe(0);
    // It noticed within a few polls (the pipe is checked every second), not at its next write.
    expect(h.sandbox.stats.requests - ended.requestsAtClose).toBeLessThan(12);
  });

  it('--once: runs --exec for no event after the close, and still exits 1 for an --exec that failed before it', async () => {
    const events = h.sandbox.state.tickets.filter((ticket) => !ticket.isDeleted).length;
    const state = join(dir, 'state.json');
    const ended = await intoHead(['watch', '--once', '--initial', '-q', '--state', state, '--exec', 'echo ran >&2; exit 1']);
    const ran = ended.stderr.split('\n').filter((line) => line === 'ran').length;
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThan(events);
    expect(ended.stderr).toMatch(
      new RegExp(
        `^error: --exec failed for ${ran} of ${ran} ${ran === 1 ? 'event' : 'events'} told before stdout was closed \\(${events - ran} not told\\)$`,
        'm',
      ),
    );
    expect(ended.code).toBe(1);
    // As after any failed --exec of --once: the next run tells that poll's events again.
    expect(existsSync(state)).toBe(false);
  });

  it('--once: exits 0 when no --exec failed before the close', async () => {
    const ended = await intoHead(['watch', '--once', '--initial', '-q', '--exec', 'true']);
    expect(ended.stderr).toBe('');
    expect(ended.code).toBe(0);
  });
});
