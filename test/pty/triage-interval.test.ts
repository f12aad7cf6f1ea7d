// tkt triage --interval on a real terminal (tmux, private socket) against a sandbox: a ticket
// changed through the service's API, by another tkt, shows on the screen, marked, without a key
// pressed. TKT_TEST_TRIAGE_INTERVAL_MS (test-only) shortens the interval; every step waits for
// what the screen shows, never for a fixed time.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/triage-interval.test.ts');

describe.skipIf(skip)('tkt triage --interval', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('triage-interval', 'tech', (made) => {
    fixture = made;
  });

  it('draws a ticket changed through the API, marked, without a key pressed; the highlight stays', async () => {
    const command = `env -u CI NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' TKT_TEST_TRIAGE_INTERVAL_MS=200 node '${BIN}' triage --interval 10; echo "[exit $?]"`;
    await terminal.start('t1', { width: 160, height: 40 }, command);
    const first = await terminal.waitFor('t1', (text) => /^› +\d+ /m.test(text) && /^Title: /m.test(text), { what: 'the first ticket and its detail' });
    const highlightedId = /^› +(\d+) /m.exec(first)![1]!;
    const otherId = Number(/^ {2,}(\d+) /m.exec(first.split('\n').slice(2).join('\n'))![1]);
    expect(first).not.toMatch(/^ \* /m);

    const ticket = fixture.sandbox.state.tickets.find((t) => t.id === otherId)!;
    const priority = fixture.sandbox.state.lookups.priorities.find((p) => p.id !== ticket.ticketPriorityId)!;
    await promisify(execFile)('node', [BIN, 'update', String(otherId), '--priority', priority.priority], {
      env: { ...process.env, TKT_CONFIG_DIR: fixture.dir },
    });

    const changed = await terminal.waitFor('t1', (text) => new RegExp(`^ \\* *${otherId} .*${priority.priority}`, 'm').test(text), {
      what: `#${otherId} marked with its new priority`,
    });
    expect(/^› +(\d+) /m.exec(changed)?.[1]).toBe(highlightedId);
    expect(changed).toContain(`#${otherId} changed (marked *)`);
  });
});
