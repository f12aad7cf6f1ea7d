// tkt browse and tkt show --web: the web-url setting, $BROWSER, the platform's opener, -n (README: Open in the browser).
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { Harness } from '../helpers/harness.js';
import { useHarness, useTempDir } from '../helpers/sandbox-state.js';

let h: Harness;
useHarness({}, (harness) => (h = harness));
let dir = '';
useTempDir('tkt-browse-', (path) => (dir = path));

const WEB_URL = 'https://helpdesk.example.com/Ticket/Details/{id}';

/** A $BROWSER that writes its arguments, one a line, to a file. */
async function recordingBrowser(): Promise<{ command: string; calls: () => Promise<string> }> {
  const record = join(dir, `browser-${Math.random().toString(36).slice(2)}.txt`);
  const script = join(dir, 'browser.sh');
  await writeFile(script, '#!/bin/sh\nrecord="$1"; shift\nprintf "%s\\n" "$@" > "$record.tmp" && mv "$record.tmp" "$record"\n');
  await chmod(script, 0o755);
  // Started on its own: the command returns before the browser has run, so wait for its record.
  return { command: `${script} ${record}`, calls: () => vi.waitFor(() => readFile(record, 'utf8'), { timeout: 5000, interval: 20 }) };
}

describe('tkt browse', () => {
  it('exits 2 saying how to set web-url when it is not set', async () => {
    const result = await h.cli(['browse', '42'], { env: { BROWSER: 'true' } });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no web-url setting');
    expect(result.stderr).toContain("tkt config set web-url 'https://helpdesk.example.com/Ticket/Details/{id}'");
  });

  it('refuses a web-url without {id} or not http(s)', async () => {
    for (const value of ['https://helpdesk.example.com/Ticket/', 'ftp://example.com/{id}', 'not a url {id}']) {
      const result = await h.cli(['config', 'set', 'web-url', value]);
      expect(result.code, value).toBe(2);
    }
  });

  it('opens the page with $BROWSER, prints it with -n, and does the same for show --web', async () => {
    expect((await h.cli(['config', 'set', 'web-url', WEB_URL])).code).toBe(0);
    const browser = await recordingBrowser();
    const opened = await h.cli(['browse', '42'], { env: { BROWSER: browser.command, PATH: process.env.PATH! } });
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toBe('');
    expect(opened.stderr).toContain('Opening https://helpdesk.example.com/Ticket/Details/42 in your browser.');
    expect(await browser.calls()).toBe('https://helpdesk.example.com/Ticket/Details/42\n');

    const printed = await h.cli(['browse', '-n', '42'], { env: { BROWSER: browser.command } });
    expect(printed.stdout).toBe('https://helpdesk.example.com/Ticket/Details/42\n');

    const viaShow = await recordingBrowser();
    const shown = await h.cli(['show', '7', '--web'], { env: { BROWSER: viaShow.command, PATH: process.env.PATH! } });
    expect(shown.code, shown.stderr).toBe(0);
    expect(await viaShow.calls()).toBe('https://helpdesk.example.com/Ticket/Details/7\n');
    const showPrinted = await h.cli(['show', '7', '--web', '-n', '--json']);
    expect(JSON.parse(showPrinted.stdout)).toEqual({ id: 7, url: 'https://helpdesk.example.com/Ticket/Details/7', opened: false });
  });

  it('prints the URL with a warning when $BROWSER names a program that is not there, as when nothing can open it', async () => {
    expect((await h.cli(['config', 'set', 'web-url', WEB_URL])).code).toBe(0);
    for (const [browser, program] of [
      ['no-such-browser --new-window', 'no-such-browser'],
      ['MOZ_X=1 no-such-browser', 'no-such-browser'],
      [join(dir, 'missing', 'browser'), join(dir, 'missing', 'browser')],
    ] as const) {
      const result = await h.cli(['browse', '5'], { env: { BROWSER: browser, PATH: process.env.PATH! } });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe('https://helpdesk.example.com/Ticket/Details/5\n');
      expect(result.stderr).toBe(`warning: $BROWSER names ${program}, which is no program here: the URL is printed instead\n`);
    }
    // A setting before the program is sh's, not the program: the browser there is started.
    const browser = await recordingBrowser();
    const opened = await h.cli(['browse', '6'], { env: { BROWSER: `MOZ_X=1 ${browser.command}`, PATH: process.env.PATH! } });
    expect(opened.stderr).toContain('Opening https://helpdesk.example.com/Ticket/Details/6 in your browser.');
    expect(await browser.calls()).toBe('https://helpdesk.example.com/Ticket/Details/6\n');
  });

  it('a $BROWSER that is a path with spaces, given unquoted, gets the hint to quote it; quoted, it opens the page', async () => {
    expect((await h.cli(['config', 'set', 'web-url', WEB_URL])).code).toBe(0);
    const browser = await recordingBrowser();
    const [script, record] = browser.command.split(' ') as [string, string];
    const spaced = join(dir, 'Program Files', 'browser.sh');
    await mkdir(join(dir, 'Program Files'));
    await rename(script, spaced);
    const unquoted = await h.cli(['browse', '5'], { env: { BROWSER: spaced, PATH: process.env.PATH! } });
    expect(unquoted.code, unquoted.stderr).toBe(0);
    expect(unquoted.stdout).toBe('https://helpdesk.example.com/Ticket/Details/5\n');
    expect(unquoted.stderr).toBe(
      `warning: $BROWSER names ${join(dir, 'Program')}, which is no program here: the URL is printed instead\n` +
        `hint: $BROWSER is a path with spaces, which the shell splits: quote it: export BROWSER='"${spaced}"'\n`,
    );
    // As the hint says, with an argument after it too: the program is the quoted word.
    const opened = await h.cli(['browse', '6'], { env: { BROWSER: `"${spaced}" ${record}`, PATH: process.env.PATH! } });
    expect(opened.stderr).toContain('Opening https://helpdesk.example.com/Ticket/Details/6 in your browser.');
    expect(await browser.calls()).toBe('https://helpdesk.example.com/Ticket/Details/6\n');
  });

  it('prints the URL when there is no $BROWSER and no opener on PATH', async () => {
    expect((await h.cli(['--profile', 'default', 'config', 'set', 'web-url', WEB_URL])).code).toBe(0);
    const result = await h.cli(['browse', '9'], { env: { BROWSER: '', PATH: dir } });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('https://helpdesk.example.com/Ticket/Details/9\n');
  });
});
