// tkt at a real terminal (tmux, private socket) against a service that takes the connection and
// does not answer: after a second one line on stderr says what tkt waits for, whatever the command
// (list, a close of one ID, reply), and it is gone when the answer comes, before the editor opens,
// or when Ctrl-C ends the run or says what it waits for. The service here is a server on 127.0.0.1
// that holds every request until the test lets it through to the sandbox. Every step waits for
// what the screen shows, never for a fixed time.
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, privateTmux, terminalFixture, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';
import { forwardTo, passAnswer } from '../helpers/sandbox-state.js';
import { listenOnLoopback } from '../helpers/loopback.js';

const skip = skipWithout(['tmux'], 'test/pty/wait-notice.test.ts');

describe.skipIf(skip)('tkt at a terminal, waiting for a service that does not answer', () => {
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

  const start = async (session: string, args = 'list', extraEnv = '') => {
    // A colour terminal as a user has it: no CI, no NO_COLOR.
    const env = `env -u CI -u NO_COLOR -u FORCE_COLOR -u NODE_EXTRA_CA_CERTS -u VISUAL ${extraEnv} TKT_CONFIG_DIR='${fixture.dir}' TKT_URL='${url}' TKT_TOKEN='${fixture.sandbox.issueToken('tech')}'`;
    await terminal.start(session, { width: 100, height: 20 }, `${env} node '${BIN}' ${args}; echo "[exit $?]"; sleep 60`);
  };
  /** Lets the request held first through to the sandbox, once the service has it. */
  const answerHeld = async (session: string) => {
    await terminal.waitUntil(session, () => held.length > 0, 'a request held');
    held.shift()!();
  };
  const openTicket = (taken: Set<number>) => {
    const ticket = fixture.sandbox.state.tickets.find((t) => t.ticketStatusId === 1 && !t.locked && !taken.has(t.id))!;
    taken.add(ticket.id);
    return ticket.id;
  };
  const used = new Set<number>();
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

  it('tkt close of one ID: the line while the service keeps the change, gone when the answer comes', async () => {
    held.length = 0;
    const id = openTicket(used);
    await start('w3', `close ${id}`);
    await terminal.waitFor('w3', waiting(), { what: 'the wait notice' });
    await answerHeld('w3');
    const screen = await terminal.waitFor('w3', '[exit 0]');
    expect(screen.trimEnd().split('\n')).toEqual([`✓ #${id} closed`, '[exit 0]']);
  });

  // The terminal echoes "^C" at the end of the line: it goes with the line, and the notice of the
  // change awaited takes its place, on the first row, with no blank row before it.
  it('tkt close of one ID, Ctrl-C while the line shows: the notice of the change in flight takes its place', async () => {
    held.length = 0;
    const id = openTicket(used);
    await start('w4', `close ${id}`);
    await terminal.waitFor('w4', waiting(), { what: 'the wait notice' });
    await terminal.keys('w4', 'C-c');
    const notice = 'interrupted: waiting up to 30s for 1 request in flight; press Ctrl-C again to give up';
    await terminal.waitFor('w4', notice);
    await answerHeld('w4');
    const screen = await terminal.waitFor('w4', '[exit 130]');
    const rows = screen.trimEnd().split('\n');
    expect(rows[0]).toBe(notice);
    expect(screen).not.toContain('Waiting for');
    expect(rows).toContain(`✓ #${id} closed`);
    expect(rows.at(-1)).toBe('[exit 130]');
  });

  it('tkt reply: the line while the ticket is read, gone before the editor opens, and again while the reply is sent', async () => {
    held.length = 0;
    const id = openTicket(used);
    // An editor that says it is open, then writes the line typed at the terminal into the file.
    const editor = join(fixture.dir, 'editor.sh');
    await writeFile(editor, `#!/bin/sh\necho "editor open"\nread line\nprintf '%s\\n' "$line" > "$1"\n`, { mode: 0o755 });
    await start('w5', `reply ${id}`, `EDITOR='${editor}'`);
    await terminal.waitFor('w5', waiting(), { what: 'the wait notice while the ticket is read' });
    await answerHeld('w5');
    const editing = await terminal.waitFor('w5', 'editor open');
    expect(editing).not.toContain('Waiting for');
    expect(editing.split('\n')[0]).toMatch(new RegExp(`^Reply to #${id}\\b.*\\(waiting for your editor to close the file\\.\\.\\.\\)$`));
    await terminal.type('w5', 'On its way');
    await terminal.keys('w5', 'Enter');
    await terminal.waitFor('w5', (text) => text.includes(waiting()), { what: 'the wait notice while the reply is sent' });
    await answerHeld('w5');
    const screen = await terminal.waitFor('w5', '[exit 0]');
    expect(screen).not.toContain('Waiting for');
    // What this editor printed stays (a full-screen one leaves nothing), the line typed in it went with the editor's line.
    expect(screen.trimEnd().split('\n').slice(1)).toEqual(['editor open', expect.stringMatching(new RegExp(`^✓ replied to #${id} `)), '[exit 0]']);
  });
});
