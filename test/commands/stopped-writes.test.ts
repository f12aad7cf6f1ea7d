// A command that changes one ticket, stopped by SIGTERM or SIGINT (how CI cancels a job, Ctrl-C)
// while the service has its change: the answer is awaited, the outcome told as a run that was not
// stopped tells it, then the run ends with the signal's code and line (docs/cli.md section 8). A
// signal before the change leaves sends nothing.
import { describe, expect, it } from 'vitest';
import { processSignals } from '../cli/fake-process.js';
import { integrationCreateArgs } from '../helpers/create-args.js';
import type { Harness } from '../helpers/harness.js';
import { frontEnv, holdUntilReleased, requestTo, startFrontServer, useHarness } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));

const STOPS = [
  ['SIGTERM', 143, 'error: stopped by SIGTERM\n'],
  ['SIGINT', 130, 'error: interrupted\n'],
] as const;

/**
 * Runs `args` with the request `held` matches held at the service; once the service has it, the
 * run gets `signal`, then the service answers. `sent` counts the requests `held` matched.
 */
async function stoppedWhileHeld(args: string[], held: ReturnType<typeof requestTo>, signal: 'SIGTERM' | 'SIGINT', extraEnv: Record<string, string> = {}) {
  const gate = holdUntilReleased(held);
  const server = await startFrontServer(h, () => false, gate);
  try {
    const signals = processSignals();
    const running = h.cli(args, { env: { ...frontEnv(h, server), ...extraEnv }, signals });
    await gate.arrived;
    signals.send(signal);
    gate.release();
    const result = await running;
    return { ...result, exits: signals.exits };
  } finally {
    await server.close();
  }
}

describe('tkt create stopped while the service creates its ticket', () => {
  it.each(STOPS)('%s: prints the new ID (-q), then exits %i with its line', async (signal, code, line) => {
    const title = `stopped mid-create ${signal}`;
    const result = await stoppedWhileHeld(['create', ...integrationCreateArgs({ title }), '-q'], requestTo('POST', '/api/TicketsApi/new'), signal);
    const created = h.sandbox.state.tickets.filter((t) => t.title === title);
    expect(created).toHaveLength(1);
    expect(result).toMatchObject({ code, stdout: `${created[0]!.id}\n`, stderr: line, exits: [] });
  });
});
