// Where the wait notice shows (src/process-host.ts, output/waiting.ts): `tkt list` against a
// server on 127.0.0.1 that holds its requests until the test lets them through to the sandbox,
// with the notice's clock moved by the test. Only a person at a terminal sees the line; a pipe, CI,
// --debug or a disabled colour get nothing at all. The real terminal: test/pty/wait-notice.test.ts.
import type { IncomingMessage } from 'node:http';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { plans } from '../../src/api/plans.js';
import { run } from '../../src/commands/list.js';
import type { Context } from '../../src/context/context.js';
import { createConfigStore } from '../../src/config/store.js';
import type { IO } from '../../src/output/io.js';
import { WAIT_NOTICE_DELAY_MS } from '../../src/output/waiting.js';
import { buildContext, createProcessContext, createRunState, runAction, type ProcessLike } from '../../src/process-host.js';
import { registeredAction } from '../../src/cli-run.js';
import { loadCommands } from '../../src/commands/index.js';
import type { CommandName } from '../../src/commands/names.js';
import { readGlobals } from '../../src/config/globals.js';
import { fakeProcess } from './fake-process.js';
import { DEFAULT_GLOBALS, type Harness } from '../helpers/harness.js';
import { createCollector, createTestIO } from '../helpers/io.js';
import { manualTimer } from '../helpers/manual-clock.js';
import { createScriptedPrompter } from '../helpers/prompter.js';
import { frontEnv, holdUntilReleased, requestTo, startFrontServer, unusedTicket, useHarness } from '../helpers/sandbox-state.js';

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

/** A colour terminal's process as the CLI runs in it: stdin, stdout and stderr all terminals, what is written kept. */
function terminalProcess(env: Record<string, string>) {
  const [stdout, stderr] = [createCollector(), createCollector()];
  const tty = <T extends object>(stream: T) => Object.assign(stream, { isTTY: true });
  const proc: ProcessLike = { ...fakeProcess({ stdin: true }, env), stdout: tty(stdout.stream), stderr: tty(stderr.stream) };
  return { proc, stdout: stdout.text, stderr: stderr.text };
}

/** The module of `name` and the action it registers, as the CLI runs it. */
async function actionOf(name: CommandName) {
  const [loaded] = await loadCommands([name]);
  return registeredAction(loaded!.module)!;
}

describe('the wait notice of every command that sends a request', () => {
  // Each command's run built as the CLI builds it, from what its module registers, at a colour
  // terminal: the line is there once the run has a client to watch, whatever the command.
  it('is there for every command at a terminal, but triage, watch and mcp, which draw their own screen or speak a protocol', async () => {
    const without: string[] = [];
    for (const { name, module } of await loadCommands()) {
      // help and completion read the program and send nothing.
      const action = registeredAction(module);
      if (action === undefined) continue;
      const state = createRunState();
      const { proc } = terminalProcess({ TKT_CONFIG_DIR: h.configDir });
      const ctx = await createProcessContext(proc, readGlobals({}), state, name, action.options);
      await ctx.anonymousApi('http://127.0.0.1:9');
      await ctx.dispose();
      if (state.waitNotice === undefined) without.push(name);
    }
    expect(without).toEqual(['triage', 'watch', 'mcp']);
  });

  /**
   * `name` run as the CLI runs it at a colour terminal (runAction, the action its module registers),
   * against a server that holds the requests `held` matches until the test lets them through, on
   * the notice's clock moved by the test past a second once the first is held. What stderr showed
   * then, and the run's output.
   */
  async function runHeld(name: CommandName, line: { args: unknown[]; opts: Record<string, unknown> }, held: (req: IncomingMessage) => boolean, env = {}) {
    const gate = holdUntilReleased(held);
    const server = await startFrontServer(h, () => false, gate);
    try {
      const terminal = terminalProcess({ TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, server), PATH: process.env.PATH ?? '', ...env });
      const state = createRunState();
      const timer = manualTimer();
      state.waitTimer = timer.start;
      const running = runAction(terminal.proc, state, await actionOf(name), { command: name, ...line, runOptions: {} });
      const outcome = running.then(
        () => 'done',
        (error: unknown) => (error as Error).message,
      );
      await gate.arrived;
      timer.advance(WAIT_NOTICE_DELAY_MS);
      const whileWaiting = terminal.stderr();
      gate.release();
      return {
        outcome: await outcome,
        whileWaiting,
        stderr: terminal.stderr(),
        stdout: terminal.stdout(),
        timersLeft: timer.pending(),
        host: new URL(server.url).host,
      };
    } finally {
      await server.close();
    }
  }

  it('tkt close of one ID: the line while the service keeps the change, erased before the outcome is printed', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === 1);
    const closed = await runHeld('close', { args: [[String(ticket.id)]], opts: {} }, requestTo('POST', `/api/TicketsApi/close/${ticket.id}`));
    expect(closed.outcome).toBe('done');
    expect(closed.whileWaiting).toBe(`${ERASE_LINE}Waiting for ${closed.host}…`);
    expect(closed.stderr).toBe(`${ERASE_LINE}Waiting for ${closed.host}…${ERASE_LINE}`);
    expect(stripVTControlCharacters(closed.stdout)).toBe(`✓ #${ticket.id} closed\n`);
    expect(closed.timersLeft).toBe(0);
  });

  it('tkt reply: the line while the ticket is read, erased before the editor takes the terminal', async () => {
    const ticket = unusedTicket(h, (t) => t.ticketStatusId === 1 && !t.locked);
    const replied = await runHeld('reply', { args: [String(ticket.id)], opts: {} }, requestTo('GET', `/api/TicketsApi/${ticket.id}`), {
      EDITOR: `sh -c 'printf "On its way" > "$1"' --`,
    });
    expect(replied.outcome).toBe('done');
    expect(replied.whileWaiting).toBe(`${ERASE_LINE}Waiting for ${replied.host}…`);
    // The editor's own line ("waiting for your editor") comes once the wait line is gone, not after it on its line.
    expect(replied.stderr.startsWith(`${ERASE_LINE}Waiting for ${replied.host}…${ERASE_LINE}Reply to #${ticket.id}`), JSON.stringify(replied.stderr)).toBe(
      true,
    );
    expect(replied.stderr.split('Waiting for')).toHaveLength(2);
    expect(stripVTControlCharacters(replied.stdout)).toMatch(new RegExp(`^✓ replied to #${ticket.id} `));
    expect(replied.timersLeft).toBe(0);
  });
});

// Nothing tkt does asks a question or lends the terminal with a request in flight today; the
// Context sees to it that, should one ever, the line is not left on the prompt nor drawn over it.
describe('the wait notice while a prompt, the editor or the pager has the terminal', () => {
  /** What the prompt or the program does while it has the terminal: the test's clock moves on, and stderr is read. */
  let whileUp = () => {};
  it.each([
    ['a prompt', (ctx: Context) => ctx.prompter.confirm({ message: 'Go on?' })],
    ['a program lent the terminal (the editor, the pager)', (ctx: Context) => ctx.lendTerminal(async () => whileUp())],
  ])('%s: the line is erased before it, not drawn while it is up, and back after while the request waits', async (_what, takeTerminal) => {
    const ticket = unusedTicket(h);
    const gate = holdUntilReleased(requestTo('GET', `/api/TicketsApi/${ticket.id}`));
    const server = await startFrontServer(h, () => false, gate);
    try {
      const test = createTestIO({ isTTY: true, color: true });
      const timer = manualTimer();
      const ctx = await buildContext({
        io: { ...test.io, liveLines: new Set() },
        globals: DEFAULT_GLOBALS,
        env: { TKT_CONFIG_DIR: h.configDir, ...frontEnv(h, server) },
        config: createConfigStore(h.configDir),
        // A question whose answer comes once the clock has moved on.
        prompter: { ...createScriptedPrompter([]), confirm: async () => (whileUp(), true) },
        signal: new AbortController().signal,
        waiting: { timer: timer.start },
      });
      let seen = '';
      whileUp = () => {
        timer.advance(WAIT_NOTICE_DELAY_MS);
        seen = test.stderr();
      };
      try {
        const read = (await ctx.api()).send(plans.getTicket(ticket.id)).then(({ status }) => status);
        await gate.arrived;
        timer.advance(WAIT_NOTICE_DELAY_MS);
        const waiting = `${ERASE_LINE}Waiting for ${new URL(server.url).host}…`;
        await takeTerminal(ctx);
        expect(seen).toBe(`${waiting}${ERASE_LINE}`);
        expect(test.stderr()).toBe(`${waiting}${ERASE_LINE}${waiting}`);
        gate.release();
        expect(await read).toBe(200);
        expect(test.stderr()).toBe(`${waiting}${ERASE_LINE}${waiting}${ERASE_LINE}`);
        expect(timer.pending()).toBe(0);
      } finally {
        gate.release();
        await ctx.dispose();
      }
    } finally {
      await server.close();
    }
  });
});
