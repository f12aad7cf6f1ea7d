// The colour and prompting decisions of createIO (docs/cli.md sections 1 and 3):
// colour follows stderr's TTY, NO_COLOR, FORCE_COLOR and --no-color; prompting
// needs stdin and stderr to be terminals, and neither --no-input nor CI.
import { describe, expect, it } from 'vitest';
import { readGlobals } from '../../src/config/globals.js';
import { createIO } from '../../src/process-host.js';
import { fakeProcess, type Terminals } from './fake-process.js';

const ALL_TTY: Terminals = { stdin: true, stdout: true, stderr: true };

/** The IO of a run with these terminals, environment and command-line options. */
function io(terminals: Terminals, env: Record<string, string> = {}, flags: Record<string, unknown> = {}) {
  return createIO(fakeProcess(terminals, env), readGlobals(flags));
}

describe('colour', () => {
  it('is on when stderr is a terminal and off when it is not', () => {
    expect(io(ALL_TTY).color).toBe(true);
    expect(io({}).color).toBe(false);
  });

  it('follows stderr, not stdout: piping the data keeps colour on the messages', () => {
    expect(io({ stdout: false, stderr: true }).color).toBe(true);
    expect(io({ stdout: true, stderr: false }).color).toBe(false);
  });

  it('is off with NO_COLOR set to anything but the empty string', () => {
    expect(io(ALL_TTY, { NO_COLOR: '1' }).color).toBe(false);
    expect(io(ALL_TTY, { NO_COLOR: 'false' }).color).toBe(false);
    expect(io(ALL_TTY, { NO_COLOR: '' }).color).toBe(true);
  });

  it('is off with --no-color', () => {
    expect(io(ALL_TTY, {}, { color: false }).color).toBe(false);
  });

  it('is forced on by FORCE_COLOR=1 without a terminal, and off by FORCE_COLOR=0 at one', () => {
    expect(io({}, { FORCE_COLOR: '1' }).color).toBe(true);
    expect(io(ALL_TTY, { FORCE_COLOR: '0' }).color).toBe(false);
    expect(io(ALL_TTY, { FORCE_COLOR: 'false' }).color).toBe(false);
  });

  it('paints stdout only when it is a terminal too: FORCE_COLOR never paints a pipe', () => {
    expect(io({}, { FORCE_COLOR: '1' }).stdoutColor).toBe(false);
    expect(io({ stdout: true, stderr: true }, {}).stdoutColor).toBe(true);
    expect(io({ stdout: false, stderr: true }, {}).stdoutColor).toBe(false);
    expect(io({ stdout: true }, { NO_COLOR: '1' }).stdoutColor).toBe(false);
    expect(io({ stdout: true }, {}, { color: false }).stdoutColor).toBe(false);
  });

  it('leaves stdout plain at a terminal when stderr is not one (2>/dev/null), unless FORCE_COLOR', () => {
    expect(io({ stdout: true, stderr: false }, {}).stdoutColor).toBe(false);
    expect(io({ stdout: true, stderr: false }, { FORCE_COLOR: '1' }).stdoutColor).toBe(true);
    expect(io({ stdout: true, stderr: false }, { FORCE_COLOR: '1', NO_COLOR: '1' }).stdoutColor).toBe(false);
  });

  it('stays off when FORCE_COLOR meets NO_COLOR or --no-color: the user asked for none', () => {
    expect(io(ALL_TTY, { FORCE_COLOR: '1', NO_COLOR: '1' }).color).toBe(false);
    expect(io(ALL_TTY, { FORCE_COLOR: '1' }, { color: false }).color).toBe(false);
  });
});

describe('a dumb terminal (TERM=dumb: Emacs M-x shell, some IDE consoles)', () => {
  it('gets no colour on either stream, as chalk and gh decide, unless FORCE_COLOR asks for it', () => {
    const dumb = io(ALL_TTY, { TERM: 'dumb' });
    expect([dumb.color, dumb.stdoutColor]).toEqual([false, false]);
    const forced = io(ALL_TTY, { TERM: 'dumb', FORCE_COLOR: '1' });
    expect([forced.color, forced.stdoutColor]).toEqual([true, true]);
    expect(io(ALL_TTY, { TERM: 'xterm-256color' }).color).toBe(true);
  });

  it('moves no cursor: no progress bar, spinner, pager or screen, not even with FORCE_COLOR', () => {
    expect(io(ALL_TTY, { TERM: 'dumb' }).cursorControl).toBe(false);
    expect(io(ALL_TTY, { TERM: 'dumb', FORCE_COLOR: '1' }).animate).toBe(false);
    expect(io(ALL_TTY, { TERM: 'dumb' }).animate).toBe(false);
    expect(io(ALL_TTY, { TERM: 'xterm' }).cursorControl).toBe(true);
    expect(io(ALL_TTY).cursorControl).toBe(true);
  });
});

describe('progress bars and spinners', () => {
  it('are drawn only when stderr is a terminal and colour is not disabled', () => {
    expect(io(ALL_TTY).animate).toBe(true);
    expect(io({ stdout: true, stderr: false }).animate).toBe(false);
    expect(io(ALL_TTY, { NO_COLOR: '1' }).animate).toBe(false);
    expect(io(ALL_TTY, {}, { color: false }).animate).toBe(false);
  });

  it('are never forced by FORCE_COLOR into a stderr that is not a terminal (a CI log keeps every frame)', () => {
    expect(io({}, { FORCE_COLOR: '1' }).color).toBe(true);
    expect(io({}, { FORCE_COLOR: '1' }).animate).toBe(false);
  });
});

describe('prompting', () => {
  it('is allowed when stdin and stderr are terminals', () => {
    expect(io(ALL_TTY).canPrompt).toBe(true);
    expect(io({ stdin: true, stdout: false, stderr: true }).canPrompt).toBe(true);
  });

  it('is refused when stdin or stderr is not a terminal', () => {
    expect(io({ stdout: true, stderr: true }).canPrompt).toBe(false);
    expect(io({ stdin: true, stdout: true }).canPrompt).toBe(false);
  });

  it('is refused with --no-input', () => {
    expect(io(ALL_TTY, {}, { input: false }).canPrompt).toBe(false);
  });

  it('is refused when CI is set, unless CI is empty, "false" or "0"', () => {
    expect(io(ALL_TTY, { CI: 'true' }).canPrompt).toBe(false);
    expect(io(ALL_TTY, { CI: '1' }).canPrompt).toBe(false);
    expect(io(ALL_TTY, { CI: '' }).canPrompt).toBe(true);
    expect(io(ALL_TTY, { CI: 'false' }).canPrompt).toBe(true);
    expect(io(ALL_TTY, { CI: '0' }).canPrompt).toBe(true);
  });
});

describe('stdin', () => {
  // process.stdin is a stream made on first read: over a pipe or /dev/null it costs a run 2-3 ms
  // (net or fs streams loaded for it) when stdout is a file, though most commands never read stdin.
  it('is not touched by a run that neither reads it nor could prompt', () => {
    const proc = fakeProcess({ stdout: true });
    let reads = 0;
    const stdin = proc.stdin;
    Object.defineProperty(proc, 'stdin', { get: () => (reads++, stdin) });
    const made = createIO(proc, readGlobals({}));

    expect([made.color, made.stdoutColor, made.animate, made.canPrompt, made.stdoutIsTTY]).toEqual([false, false, false, false, true]);
    expect(reads).toBe(0);
    // The stream and its TTY flag when a command asks.
    expect(made.stdin).toBe(stdin);
    expect(made.stdinIsTTY).toBe(false);
    expect(reads).toBeGreaterThan(0);
  });
});

describe('readGlobals', () => {
  it('defaults to a 30-second time-out and accepts fractions', () => {
    expect(readGlobals({}).timeout).toBe(30);
    expect(readGlobals({ timeout: '0.5' }).timeout).toBe(0.5);
  });

  it('refuses a time-out that is not a positive number as a usage error', () => {
    for (const timeout of ['0', '-1', 'abc', '', 'Infinity']) {
      expect(() => readGlobals({ timeout }), timeout).toThrow(expect.objectContaining({ exitCode: 2 }));
    }
  });
});

// A screen-reader review: drawn pickers were read again whole at each arrow key, and the only way
// to line-by-line questions was TERM=dumb, which triage refuses.
describe('TKT_SCREEN_READER', () => {
  // That the questions then come line by line: test/pty/dumb-terminal.test.ts, at a real terminal.
  it('is on for a reader, who gets nothing animated, at a terminal that still moves its cursor', () => {
    const reader = io(ALL_TTY, { TKT_SCREEN_READER: '1' });
    expect(reader).toMatchObject({ screenReader: true, animate: false, cursorControl: true, color: true });
    expect(io(ALL_TTY)).toMatchObject({ screenReader: false, animate: true });
  });

  it('is off when empty, 0 or false, and TERM=dumb does not set it (its own cursorControl does)', () => {
    for (const value of ['', '0', 'false', 'FALSE']) expect(io(ALL_TTY, { TKT_SCREEN_READER: value }).screenReader, value).toBe(false);
    expect(io(ALL_TTY, { TERM: 'dumb' })).toMatchObject({ cursorControl: false, screenReader: false });
  });
});
