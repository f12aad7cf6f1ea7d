// The first signal's line, while requests are in flight, says how to give them up: at a terminal
// (stdin or stderr one) "press Ctrl-C again", else the signal's own name (README, Interruption).
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli-run.js';
import { fakeProcess, processSignals, type Terminals } from './fake-process.js';

type Signal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** stderr and exit codes of a graceful run (a bulk change) with one request in flight when `sent` come. */
async function signalled(terminals: Terminals, sent: readonly Signal[]): Promise<{ stderr: string; exits: number[] }> {
  const signals = processSignals();
  const proc = { ...fakeProcess(terminals, { TERM: 'xterm' }), ...signals };
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  void runCommandLine(proc, {
    argv: [],
    run: (state) => {
      state.graceful = true;
      state.requests.count = 1;
      started();
      return new Promise(() => undefined);
    },
  });
  await running;
  for (const signal of sent) signals.send(signal);
  await new Promise((resolve) => setImmediate(resolve));
  return { stderr, exits: signals.exits };
}

/** The first signal's line: how to give up the request in flight. */
async function firstSignalLine(terminals: Terminals, signal: Signal): Promise<string> {
  const { stderr, exits } = await signalled(terminals, [signal]);
  expect(exits).toEqual([]);
  return stderr.split('; ').at(-1)!;
}

describe('the first signal with requests in flight', () => {
  it('asks for Ctrl-C again at a terminal, stdin a file or not (`tkt close - < ids`)', async () => {
    expect(await firstSignalLine({ stdin: true, stdout: true, stderr: true }, 'SIGINT')).toBe('press Ctrl-C again to give up\n');
    expect(await firstSignalLine({ stdin: false, stdout: true, stderr: true }, 'SIGINT')).toBe('press Ctrl-C again to give up\n');
  });

  it('names the signal where no Ctrl-C can come: no terminal, or a SIGTERM', async () => {
    expect(await firstSignalLine({}, 'SIGINT')).toBe('another SIGINT gives up\n');
    expect(await firstSignalLine({ stdin: true, stdout: true, stderr: true }, 'SIGTERM')).toBe('another SIGTERM gives up\n');
  });
});

describe('a third signal', () => {
  it('ends the run with the first signal’s exit code, the one its line names (SIGINT, SIGTERM, then SIGHUP: 130)', async () => {
    const { stderr, exits } = await signalled({}, ['SIGINT', 'SIGTERM', 'SIGHUP']);
    expect(stderr.split('\n').at(-2)).toBe('error: interrupted');
    expect(exits).toEqual([130]);
  });
});
