// A signal that ends a run at once shows the cursor again (a prompt may have hidden it), at a
// terminal that moves its cursor only: TERM=dumb would show the escape as text (README:
// Environment and files).
import { describe, expect, it } from 'vitest';
import { runCommandLine } from '../../src/cli-run.js';
import { fakeProcess, processSignals } from './fake-process.js';

const SHOW_CURSOR = '\u001b[?25h';

/** stderr of a run at a terminal with `env`, ended at once by a Ctrl-C while its command waits. */
async function stderrOfInterruptedRun(env: Record<string, string>): Promise<string> {
  const signals = processSignals();
  const proc = { ...fakeProcess({ stdin: true, stdout: true, stderr: true }, env), ...signals };
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  let started = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  void runCommandLine(proc, { argv: [], run: () => (started(), new Promise(() => undefined)) });
  await running;
  signals.send('SIGINT');
  await new Promise((resolve) => setImmediate(resolve));
  expect(signals.exits).toEqual([130]);
  return stderr;
}

describe('a run ended at once by a signal', () => {
  it('shows the cursor again at a terminal', async () => {
    expect(await stderrOfInterruptedRun({ TERM: 'xterm' })).toContain(SHOW_CURSOR);
  });

  it('writes no escape at a dumb terminal (TERM=dumb), only the error line', async () => {
    expect(await stderrOfInterruptedRun({ TERM: 'dumb' })).toBe('\nerror: interrupted\n');
  });
});
