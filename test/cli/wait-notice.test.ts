// Where the wait notice shows (src/process-host.ts, output/waiting.ts): `tkt list` against a
// server on 127.0.0.1 that holds its requests until the test lets them through to the sandbox,
// with the notice's clock moved by the test. Only a person at a terminal sees the line; a pipe, CI,
// --debug or a disabled colour get nothing at all. The real terminal: test/pty/wait-notice.test.ts.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/list.js';
import { createConfigStore } from '../../src/config/store.js';
import type { IO } from '../../src/output/io.js';
import { WAIT_NOTICE_DELAY_MS } from '../../src/output/waiting.js';
import { buildContext } from '../../src/process-host.js';
import { DEFAULT_GLOBALS, type Harness } from '../helpers/harness.js';
import { createTestIO } from '../helpers/io.js';
import { manualTimer } from '../helpers/manual-clock.js';
import { createScriptedPrompter } from '../helpers/prompter.js';
import { frontEnv, startFrontServer, useHarness } from '../helpers/sandbox-state.js';

const ERASE_LINE = '\r\u001b[2K';

let h: Harness;
useHarness({}, (harness) => (h = harness));

interface Terminal {
  /** stdin, stdout and stderr are TTYs (default); false: none is. */
  tty?: boolean;
  /** With tty: false for a stdout piped away from the terminal. */
  stdoutIsTTY?: boolean;
  color?: boolean;
  env?: Record<string, string>;
  debug?: boolean;
}

/** Runs `tkt list` with its first request held until the notice's clock has moved past a second. */
async function listWhileHeld(terminal: Terminal = {}) {
  let arrived = () => {};
  const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
  let letThrough = () => {};
  const released = new Promise<void>((resolve) => (letThrough = resolve));
  const server = await startFrontServer(h, () => false, {
    gate: async (req: IncomingMessage) => {
      if (req.method !== 'POST') return;
      arrived();
      await released;
    },
  });
  try {
    const tty = terminal.tty ?? true;
    const test = createTestIO({ isTTY: tty, color: terminal.color ?? tty });
    const io: IO = { ...test.io, stdoutIsTTY: terminal.stdoutIsTTY ?? tty };
    const timer = manualTimer();
    const ctx = await buildContext({
      io,
      globals: { ...DEFAULT_GLOBALS, debug: terminal.debug ?? false },
      env: { TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, server), ...terminal.env },
      config: createConfigStore(h.configDir),
      prompter: createScriptedPrompter([]),
      signal: new AbortController().signal,
      waiting: { timer: timer.start },
    });
    try {
      const listed = run({}, ctx);
      await requestArrived;
      timer.advance(WAIT_NOTICE_DELAY_MS);
      const whileWaiting = test.stderr().replace(/^debug: .*\n/gm, '');
      letThrough();
      await listed;
      return { whileWaiting, stderr: test.stderr(), stdout: test.stdout(), timersLeft: timer.pending(), host: new URL(server.url).host };
    } finally {
      await ctx.dispose();
    }
  } finally {
    await server.close();
  }
}

describe('the wait notice of tkt list', () => {
  it('at a terminal: one line after a second without an answer, erased before the list is printed', async () => {
    const listed = await listWhileHeld();
    expect(listed.whileWaiting).toBe(`${ERASE_LINE}Waiting for ${listed.host}…`);
    // Erased before anything else is printed (here list's hint of more pages).
    expect(listed.stderr.startsWith(`${ERASE_LINE}Waiting for ${listed.host}…${ERASE_LINE}`)).toBe(true);
    expect(listed.stderr.split('Waiting')).toHaveLength(2);
    expect(listed.stdout).toContain('TITLE');
    expect(listed.timersLeft).toBe(0);
  });

  it.each<[string, Terminal]>([
    ['stderr is not a terminal', { tty: false }],
    ['stdout is a pipe (tkt list --json | jq)', { stdoutIsTTY: false }],
    ['colour is disabled (NO_COLOR, --no-color: no spinners either)', { color: false }],
    ['CI is set', { env: { CI: 'true' } }],
    ['--debug traces every request already', { debug: true }],
  ])('nothing at all when %s', async (_when, terminal) => {
    const listed = await listWhileHeld(terminal);
    expect(listed.whileWaiting).toBe('');
    expect(listed.stderr).not.toContain('Waiting');
    expect(listed.stdout).not.toBe('');
    expect(listed.timersLeft).toBe(0);
  });
});
