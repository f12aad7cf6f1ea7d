// `tkt mcp` typed at a terminal: it says what it is on stderr, never on stdout (the protocol's
// alone), and a Ctrl-C's error starts a line of its own, as watch's does.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/program.js';
import { fakeProcess, processSignals } from '../cli/fake-process.js';
import type { Harness } from '../helpers/harness.js';
import { useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

/** `tkt mcp` run whole, stdin and stderr terminals or not; stopped by Ctrl-C once it has started. */
async function mcpStoppedByCtrlC(terminal: boolean): Promise<{ code: number; stdout: string; stderr: string }> {
  const signals = processSignals();
  const keyboard = Object.assign(new PassThrough(), { isTTY: terminal });
  const proc = { ...fakeProcess({ stdout: false, stderr: terminal }, h.env), ...signals, stdin: keyboard };
  let [stdout, stderr] = ['', ''];
  proc.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const started = new Promise<void>((resolve) => proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')).includes('Ctrl-C') && resolve()));
  const run = runCli(['mcp'], proc);
  // Piped, the server says nothing: one round of the protocol shows it is serving.
  const answered = new Promise<void>((resolve) => proc.stdout.once('data', () => resolve()));
  keyboard.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
  await answered;
  if (terminal) await started;
  signals.send('SIGINT');
  return { code: await run, stdout, stderr };
}

const PONG = `${JSON.stringify({ result: {}, jsonrpc: '2.0', id: 1 })}\n`;

describe('tkt mcp at a terminal', () => {
  it('says on stderr what it is and how to stop it; Ctrl-C then ends with the error on a line of its own', async () => {
    const result = await mcpStoppedByCtrlC(true);
    expect(result.code).toBe(130);
    // stdout holds the protocol's answers and nothing else.
    expect(result.stdout).toBe(PONG);
    expect(result.stderr).toBe(
      'tkt mcp: an MCP server on stdin/stdout, for an assistant to start (README: Assistants); Ctrl-C to stop\n\nerror: interrupted\n',
    );
  });

  it('started by an assistant (stdin a pipe), says nothing', async () => {
    const result = await mcpStoppedByCtrlC(false);
    expect(result.stdout).toBe(PONG);
    expect(result.stderr).toBe('error: interrupted\n');
  });
});
