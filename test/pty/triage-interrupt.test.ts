// tkt triage left with Ctrl-C while an action is being sent to a service that never answers it
// (a server on 127.0.0.1 in front of the sandbox that holds the pickup): the first Ctrl-C
// closes the screen and says it waits and that Ctrl-C again gives up, the second gives up
// (docs/cli.md section 8), the action said in doubt, exit 130, the terminal as the shell had it;
// q closes it saying that Ctrl-C twice gives up (the first is the run's own interruption).
// Every step waits for what the screen shows, never for a fixed time but the 50 ms that tell a
// second Ctrl-C from the first.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, privateTmux, terminalFixture, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';
import { forwardTo, passAnswer } from '../helpers/sandbox-state.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const skip = skipWithout(['tmux', 'stty'], 'test/pty/triage-interrupt.test.ts');

describe.skipIf(skip)('tkt triage interrupted while an action waits for a service that does not answer', () => {
  let fixture: TerminalFixture;
  let server: Awaited<ReturnType<typeof listenOnLoopback>>;
  let url = '';
  /** The pickups the server has taken and never answers. */
  let held = 0;
  const terminal = privateTmux('triage-interrupt');

  beforeAll(async () => {
    fixture = await terminalFixture('triage-interrupt', 'tech');
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST' && req.url?.startsWith('/api/TicketsApi/pickup/') === true) {
          held += 1;
          return;
        }
        void forwardTo(fixture.sandbox.url, req, Buffer.concat(chunks)).then((answer) => passAnswer(res, answer));
      });
    });
    server = await listenOnLoopback(front);
    url = server.url;
  });

  afterAll(async () => {
    await terminal.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await server?.close();
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- unset when beforeAll failed
    await fixture?.close();
  });

  it('closes on the first Ctrl-C saying the second gives up, and gives up on the second: in doubt, exit 130', async () => {
    const env = `env -u CI -u PAGER -u LESS NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' TKT_URL='${url}' TKT_TOKEN='${fixture.sandbox.issueToken('tech')}'`;
    const modes = `echo "modes: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e echo -e -icanon -e -echo | sort | tr '\\n' ' ')"`;
    await terminal.start('i1', { width: 120, height: 30 }, `${env} node '${BIN}' triage; echo "[exit $?]"; ${modes}; sleep 60`);
    const screen = await terminal.waitFor('i1', (text) => /^› +\d+ /m.test(text) && /^Title: /m.test(text), { what: 'the triage screen' });
    const id = /^› +(\d+) /m.exec(screen)![1]!;
    await terminal.keys('i1', 'p');
    await terminal.waitUntil('i1', () => held === 1, 'the pickup held');

    await terminal.keys('i1', 'C-c');
    const waiting = await terminal.waitFor('i1', 'give up', { what: 'the notice of the wait' });
    expect(waiting).not.toContain('tkt triage ·');
    expect(waiting.trimEnd().split('\n')).toEqual([`waiting for what was being sent: picking up #${id}…; press Ctrl-C again to give up`]);

    await terminal.keys('i1', 'C-c');
    const left = await terminal.waitFor('i1', /^modes: /m, { what: 'the exit' });
    const lines = left.trimEnd().split('\n');
    expect(lines.slice(0, 1)).toEqual([`waiting for what was being sent: picking up #${id}…; press Ctrl-C again to give up`]);
    // One notice: the run's own ("waiting up to 30s") is not said as well.
    expect(left).not.toContain('waiting up to');
    expect(left).toContain(`? picking up #${id}: in doubt (it may have been carried out): look at it with "tkt show ${id}" before picking up again`);
    expect(left).toContain('error: interrupted');
    expect(left).toContain('[exit 130]');
    expect(held).toBe(1);
    // The terminal as the shell had it: the main screen, lines and echo.
    expect(await terminal.tmux('display-message', '-p', '-t', 'i1', '#{alternate_on}')).toBe('0\n');
    expect(left).toMatch(/^modes: echo icanon *$/m);
  });

  it("says on q how to give up what it waits for: Ctrl-C twice, the first being the run's own interruption", async () => {
    // q said it waited, and not how to stop waiting.
    const env = `env -u CI -u PAGER -u LESS NO_COLOR=1 TKT_CONFIG_DIR='${fixture.dir}' TKT_URL='${url}' TKT_TOKEN='${fixture.sandbox.issueToken('tech')}'`;
    await terminal.start('i2', { width: 120, height: 30 }, `${env} node '${BIN}' triage; echo "[exit $?]"; sleep 60`);
    const screen = await terminal.waitFor('i2', (text) => /^› +\d+ /m.test(text) && /^Title: /m.test(text), { what: 'the triage screen' });
    const id = /^› +(\d+) /m.exec(screen)![1]!;
    const before = held;
    await terminal.keys('i2', 'p');
    await terminal.waitUntil('i2', () => held === before + 1, 'the pickup held');

    await terminal.keys('i2', 'q');
    const notice = `waiting for what was being sent: picking up #${id}…; press Ctrl-C twice to give up`;
    const waiting = await terminal.waitFor('i2', 'give up', { what: 'the notice of the wait' });
    expect(waiting.trimEnd().split('\n')).toEqual([notice]);
    await terminal.keys('i2', 'C-c');
    const first = Date.now();
    await terminal.waitFor('i2', /press Ctrl-C again to give up$/m, { what: "the run's own notice" });
    // Past the 50 ms in which a repeat is the same signal sent twice (src/cli-run.ts).
    await terminal.waitUntil('i2', () => Date.now() - first >= 60, 'the second Ctrl-C told from the first');
    await terminal.keys('i2', 'C-c');
    const left = await terminal.waitFor('i2', /\[exit \d+\]/, { what: 'the exit' });
    expect(left).toContain(`? picking up #${id}: in doubt (it may have been carried out)`);
    expect(left).toContain('[exit 130]');
  });
});
