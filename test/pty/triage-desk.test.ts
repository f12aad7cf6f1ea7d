// Triage's desk keys on a real terminal (tmux, private socket) with the built CLI and a sandbox:
// r offering the reply templates of the config folder, the editor opened with the one picked
// filled for the ticket, and w opening the ticket's page with $BROWSER. Every step waits for what
// the screen, the sandbox or a file shows, never for a fixed time.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/triage-desk.test.ts');

describe.skipIf(skip)('triage at the desk on a real terminal', () => {
  let fixture: TerminalFixture;
  const terminal = useTerminal('desk', 'tech', (made) => {
    fixture = made;
  });
  let sessions = 0;
  const highlighted = (text: string) => /^› +(\d+) /m.exec(text)?.[1];
  // Not execFileSync: the sandbox answers in this process.
  const tkt = async (...args: string[]) =>
    (await promisify(execFile)('node', [BIN, ...args], { env: { ...process.env, TKT_CONFIG_DIR: fixture.dir }, encoding: 'utf8' })).stdout.trim();

  /** `tkt triage` at 80x24 with `env` added, on the first ticket once its detail shows; the pane stays once it ends, to be read. */
  /** An editor that saves the file as it was given (vi's :wq): its time moves. */
  const SAVES_UNCHANGED = "EDITOR='touch -d 2001-01-01'";

  async function openTriage(env: string) {
    sessions += 1;
    const name = `d${sessions}`;
    const command = `env -u CI -u VISUAL NO_COLOR=1 ${env} TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' triage; echo "[exit $?]"; sleep 60`;
    await terminal.start(name, { width: 80, height: 24 }, command);
    const waitFor = (test: RegExp | ((text: string) => boolean), what: string, capture?: string[]) => terminal.waitFor(name, test, { what, capture });
    const text = await waitFor((screen) => highlighted(screen) !== undefined && /^Title: /m.test(screen), 'the first ticket and its detail');
    return {
      id: Number(highlighted(text)),
      waitFor,
      keys: (...names: string[]) => terminal.keys(name, ...names),
      type: (text: string) => terminal.type(name, text),
    };
  }

  it('r offers the templates; the one picked is filled for the ticket, and saved as is it is sent as is', async () => {
    await mkdir(join(fixture.dir, 'templates'), { recursive: true });
    await writeFile(
      join(fixture.dir, 'templates', 'printer-fixed.md'),
      '---\nsubject: "Fixed: {{ticket.title}}"\n---\nHello {{requester.name}},\nticket {{ticket.id}} is fixed.\n',
    );
    await writeFile(join(fixture.dir, 'templates', 'vpn-reset.md'), 'Your VPN profile was reset.\n');
    // Saves the file as it was given (vi's :wq): the reply is the template's filled text.
    const triage = await openTriage(SAVES_UNCHANGED);
    const { id } = triage;
    const ticket = fixture.sandbox.state.tickets.find((t) => t.id === id)!;
    await triage.keys('r');
    await triage.waitFor(new RegExp(`Reply to #${id} with`), 'the template picker');
    const picker = await triage.waitFor(/printer-fixed/, 'the templates listed');
    expect(picker).toContain('(no template)');
    expect(picker).toContain('vpn-reset');
    await triage.type('printer');
    await triage.keys('Enter');
    await triage.waitFor(new RegExp(`✓ replied to #${id} `), 'the reply sent');
    const reply = fixture.sandbox.state.conversations.filter((entry) => entry.ticketId === id).at(-1);
    const creator = fixture.sandbox.state.users.find((user) => user.id === ticket.creatorId)!;
    const requester = `${creator.firstName} ${creator.lastName}`;
    expect(reply).toMatchObject({ message: `Hello ${requester},\nticket ${id} is fixed.`, subject: `Fixed: ${ticket.title}` });
    await triage.keys('q');
  });

  it("r with a template the editor quit without saving (vi's :q!) sends nothing, and says how to send it as it is", async () => {
    await writeFile(join(fixture.dir, 'templates', 'vpn-reset.md'), 'Your VPN profile was reset.\n');
    const triage = await openTriage('EDITOR=true');
    const { id } = triage;
    const replies = () => fixture.sandbox.state.conversations.filter((entry) => entry.ticketId === id).length;
    const before = replies();
    await triage.keys('r');
    await triage.waitFor(/vpn-reset/, 'the templates listed');
    await triage.type('vpn');
    await triage.keys('Enter');
    await triage.waitFor(new RegExp(`✗ replying to #${id}: aborted: the editor did not save the text, nothing was sent`), 'the reply not sent');
    expect(replies()).toBe(before);
    await triage.keys('q');
  });

  it('r with a template whose front-matter key is capitalised uses it; an unknown key is warned about once triage is left', async () => {
    await mkdir(join(fixture.dir, 'templates'), { recursive: true });
    await writeFile(join(fixture.dir, 'templates', 'capital.md'), '---\nSubject: "Done: {{ticket.title}}"\nPriority: high\n---\nDone.\n');
    const triage = await openTriage(SAVES_UNCHANGED);
    const { id } = triage;
    const ticket = fixture.sandbox.state.tickets.find((t) => t.id === id)!;
    await triage.keys('r');
    await triage.waitFor(/capital/, 'the templates listed');
    await triage.type('capital');
    await triage.keys('Enter');
    await triage.waitFor(new RegExp(`✓ replied to #${id} `), 'the reply sent');
    expect(fixture.sandbox.state.conversations.filter((entry) => entry.ticketId === id).at(-1)).toMatchObject({
      message: 'Done.',
      subject: `Done: ${ticket.title}`,
    });
    await triage.keys('q');
    // -J: the warning's line as written, not wrapped at 80 columns.
    const left = await triage.waitFor(/\[exit \d+\]/, 'triage left', ['-J']);
    expect(left).toContain('warning: templates/capital.md: unknown front-matter key "Priority" ignored (known keys: subject)');
    expect(left).toContain('[exit 0]');
  });

  it('r sends the lines of a template that start with #, saved as is: only what tkt wrote below the scissors is dropped', async () => {
    await mkdir(join(fixture.dir, 'templates'), { recursive: true });
    await writeFile(join(fixture.dir, 'templates', 'hash.md'), 'Hello {{requester.name}},\n\n#{{ticket.id}} is fixed.\n\n# What we did\n- replaced toner\n');
    const triage = await openTriage(SAVES_UNCHANGED);
    const { id } = triage;
    const ticket = fixture.sandbox.state.tickets.find((t) => t.id === id)!;
    const creator = fixture.sandbox.state.users.find((user) => user.id === ticket.creatorId)!;
    await triage.keys('r');
    await triage.waitFor(/hash/, 'the templates listed');
    await triage.type('hash');
    await triage.keys('Enter');
    await triage.waitFor(new RegExp(`✓ replied to #${id} `), 'the reply sent');
    const reply = fixture.sandbox.state.conversations.filter((entry) => entry.ticketId === id).at(-1);
    expect(reply?.message).toBe(`Hello ${creator.firstName} ${creator.lastName},\n\n#${id} is fixed.\n\n# What we did\n- replaced toner`);
    await triage.keys('q');
  });

  it("w runs $BROWSER with the highlighted ticket's page from the web-url setting", async () => {
    const opened = join(fixture.dir, 'opened.txt');
    const browser = join(fixture.dir, 'browser.sh');
    await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$@" > '${opened}'\n`);
    await chmod(browser, 0o755);
    await tkt('config', 'set', 'web-url', 'https://helpdesk.example.com/Ticket/Details/{id}');
    const triage = await openTriage(`BROWSER='${browser}'`);
    await triage.keys('j');
    const moved = await triage.waitFor((text) => highlighted(text) !== String(triage.id), 'j moving the highlight');
    const id = highlighted(moved)!;
    await triage.keys('w');
    await triage.waitFor(new RegExp(`opened https://helpdesk.example.com/Ticket/Details/${id} in the browser`), 'the status line saying where');
    await terminal.waitUntil(`d${sessions}`, () => existsSync(opened) && readFileSync(opened, 'utf8') !== '', 'the browser run');
    expect(readFileSync(opened, 'utf8')).toBe(`https://helpdesk.example.com/Ticket/Details/${id}\n`);
    await triage.keys('q');
  });
});
