// `tkt list` at a real terminal (tmux, private socket) against a service that takes the
// connection and does not answer: after a second one line on stderr says what tkt waits for,
// and it is gone when the answer comes, or when Ctrl-C ends the run. The service here is a
// server on 127.0.0.1 that holds every request until the test lets it through to the sandbox.
// Every step waits for what the screen shows, never for a fixed time.
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, privateTmux, terminalFixture, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';
import { forwardTo, passAnswer } from '../helpers/sandbox-state.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const skip = skipWithout(['tmux'], 'test/pty/wait-notice.test.ts');

describe.skipIf(skip)('tkt list at a terminal, waiting for a service that does not answer', () => {
  let fixture: TerminalFixture;
  let server: Awaited<ReturnType<typeof listenOnLoopback>>;
  let url = '';
  /** Requests held so far, each let through to the sandbox when called. */
  const held: (() => void)[] = [];
  const terminal = privateTmux('wait');

  beforeAll(async () => {
    fixture = await terminalFixture('wait', 'tech');
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => held.push(() => void forwardTo(fixture.sandbox.url, req, Buffer.concat(chunks)).then((answer) => passAnswer(res, answer))));
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

  const start = async (session: string) => {
    // A colour terminal as a user has it: no CI, no NO_COLOR.
    const env = `env -u CI -u NO_COLOR -u FORCE_COLOR -u NODE_EXTRA_CA_CERTS TKT_CONFIG_DIR='${fixture.dir}' TKT_URL='${url}' TKT_TOKEN='${fixture.sandbox.issueToken('tech')}'`;
    await terminal.start(session, { width: 100, height: 20 }, `${env} node '${BIN}' list; echo "[exit $?]"; sleep 60`);
  };
  const waiting = () => `Waiting for ${new URL(url).host}…`;

  it('says what it waits for, and erases the line when the answer comes', async () => {
    await start('w1');
    await terminal.waitFor('w1', waiting(), { what: 'the wait notice' });
    await terminal.waitUntil('w1', () => held.length === 1, 'the request held');
    held.shift()!();
    const screen = await terminal.waitFor('w1', '[exit 0]');
    expect(screen).not.toContain('Waiting for');
    // The list's table starts on the first line: the notice left no empty line behind.
    expect(screen.split('\n')[0]).toMatch(/^\s*ID\s+TITLE/);
  });

  it('erases the line when Ctrl-C ends the run, leaving the error line alone on the screen', async () => {
    held.length = 0;
    await start('w2');
    await terminal.waitFor('w2', waiting(), { what: 'the wait notice' });
    await terminal.keys('w2', 'C-c');
    const screen = await terminal.waitFor('w2', '[exit 130]');
    expect(screen.trimEnd().split('\n')).toEqual(['error: interrupted', '[exit 130]']);
  });
});
