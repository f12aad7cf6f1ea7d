// $BROWSER at a real terminal (tmux, private socket) with the built CLI and a sandbox: a text
// browser (w3m, lynx on a headless box) needs the terminal, so tkt browse and triage's w run it
// in the foreground, lend it the terminal and wait for it, as gh does (README: Open in the
// browser). The recording browser checks that it got a terminal and reads a line typed there.
// Every step waits for what the screen or a file shows, never for a fixed time.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, useTerminal, type TerminalFixture } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['tmux'], 'test/pty/browser-terminal.test.ts');
const WEB_URL = 'https://helpdesk.example.com/Ticket/Details/';

describe.skipIf(skip)('$BROWSER at a real terminal', () => {
  let fixture: TerminalFixture;
  let browser = '';
  let record = '';
  const terminal = useTerminal('browser', 'tech', async (made) => {
    fixture = made;
    record = join(fixture.dir, 'browser-record');
    browser = join(fixture.dir, 'text-browser.sh');
    // Like w3m: it shows the page on the terminal and waits for a key; BROWSER_EXIT is how it ends.
    await writeFile(
      browser,
      [
        '#!/bin/sh',
        'if [ -t 0 ] && [ -t 1 ]; then got=terminal; else got=none; fi',
        'printf "text browser on %s\\n" "$1"',
        'printf "key> "',
        'read -r typed',
        `printf "%s\\n%s\\n%s\\n" "$got" "$1" "$typed" > '${record}.tmp' && mv '${record}.tmp' '${record}'`,
        'exit "${BROWSER_EXIT:-0}"',
        '',
      ].join('\n'),
    );
    await chmod(browser, 0o755);
    await promisify(execFile)('node', [BIN, 'config', 'set', 'web-url', `${WEB_URL}{id}`], { env: { ...process.env, TKT_CONFIG_DIR: fixture.dir } });
  });
  let sessions = 0;

  /** Starts `tkt ARGS` at an 80x24 terminal with `env` added; returns the session's name. */
  async function start(env: string, args: string): Promise<string> {
    sessions += 1;
    const name = `b${sessions}`;
    await rm(record, { force: true });
    const command = `env -u CI -u VISUAL NO_COLOR=1 BROWSER='${browser}' ${env} TKT_CONFIG_DIR='${fixture.dir}' node '${BIN}' ${args}; echo "[exit $?]"; sleep 60`;
    await terminal.start(name, { width: 80, height: 24 }, command);
    return name;
  }

  /** What the browser recorded: whether it had a terminal, the URL, the line typed to it. */
  const recorded = () => readFileSync(record, 'utf8').split('\n').slice(0, 3);

  it('tkt browse runs it with the terminal and waits for it, then exits 0', async () => {
    const name = await start('', 'browse 1001');
    const waiting = await terminal.waitFor(name, 'key>', { what: 'the browser waiting for a key' });
    expect(waiting).toContain(`Opening ${WEB_URL}1001 in your browser.`);
    expect(waiting).not.toContain('[exit');
    await terminal.type(name, 'seen');
    await terminal.keys(name, 'Enter');
    expect(await terminal.waitFor(name, /\[exit \d+\]/, { what: 'tkt to exit' })).toContain('[exit 0]');
    expect(recorded()).toEqual(['terminal', `${WEB_URL}1001`, 'seen']);
  });

  it('tkt show --web says that the browser failed, exit 1', async () => {
    const name = await start('BROWSER_EXIT=3', 'show 1002 --web');
    await terminal.waitFor(name, 'key>', { what: 'the browser waiting for a key' });
    await terminal.keys(name, 'Enter');
    // -J: the error line, with the browser's long path, is wrapped at 80 columns.
    const screen = await terminal.waitFor(name, /\[exit \d+\]/, { what: 'tkt to exit', capture: ['-J'] });
    expect(screen).toContain(`error: the browser "${browser}" ($BROWSER) failed (exit code 3)`);
    expect(screen).toContain('[exit 1]');
  });

  it("triage's w lends it the terminal as it does the editor, and the screen comes back", async () => {
    const name = await start('', 'triage');
    const highlighted = (text: string) => /^› +(\d+) /m.exec(text)?.[1];
    const first = await terminal.waitFor(name, (text) => highlighted(text) !== undefined && /^Title: /m.test(text), { what: 'the first ticket' });
    const id = highlighted(first)!;
    await terminal.keys(name, 'w');
    const lent = await terminal.waitFor(name, 'key>', { what: 'the browser waiting for a key' });
    expect(lent).not.toMatch(/^› /m);
    await terminal.type(name, 'back');
    await terminal.keys(name, 'Enter');
    await terminal.waitFor(name, `opened ${WEB_URL}${id} in the browser`, { what: 'the screen back, saying where' });
    await terminal.waitUntil(name, () => existsSync(record), 'the browser record');
    expect(recorded()).toEqual(['terminal', `${WEB_URL}${id}`, 'back']);
    await terminal.keys(name, 'q');
    expect(await terminal.waitFor(name, /\[exit \d+\]/, { what: 'triage to quit' })).toContain('[exit 0]');
  });
});
