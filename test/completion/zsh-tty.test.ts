// Completion in zsh itself (issue 12): the script `tkt completion zsh` prints, installed the way
// the README says (a folder on fpath, compinit), driven by Tab in an interactive zsh under tmux.
// Lookup names come from a stand-in `tkt __complete` on PATH, so the test needs no session.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../helpers/tools.js';

const run = promisify(execFile);
const bin = fileURLToPath(new URL('../../bin/tkt.js', import.meta.url));
const socket = `tkt-zsh-test-${process.pid}`;
const skip = skipWithout(['tmux', 'zsh'], 'test/completion/zsh-tty.test.ts');

let home: string;
const tmux = async (...args: string[]) => (await run('tmux', ['-L', socket, ...args])).stdout;
const screen = () => tmux('capture-pane', '-p', '-t', 'zsh');

async function waitFor(pattern: RegExp): Promise<string> {
  let text = '';
  for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 100))) {
    text = await screen();
    if (pattern.test(text)) return text;
  }
  throw new Error(`timed out waiting for ${pattern}; screen:\n${text}`);
}

/** Types `line`, presses Tab, and returns the screen once it shows `pattern`; then clears the line. */
async function complete(line: string, pattern: RegExp): Promise<string> {
  await tmux('send-keys', '-t', 'zsh', '-l', line);
  await tmux('send-keys', '-t', 'zsh', 'Tab');
  try {
    return await waitFor(pattern);
  } finally {
    await tmux('send-keys', '-t', 'zsh', 'C-c');
    await tmux('send-keys', '-t', 'zsh', 'clear', 'Enter');
  }
}

describe.skipIf(skip)('zsh completion at a real terminal', () => {
  beforeAll(async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'tkt-zsh-'));
    const functions = path.join(home, '.zsh', 'functions');
    mkdirSync(functions, { recursive: true });
    writeFileSync(path.join(functions, '_tkt'), execFileSync(process.execPath, [bin, 'completion', 'zsh'], { encoding: 'utf8' }));
    mkdirSync(path.join(home, 'bin'));
    const names: Record<string, string[]> = { site: ['Head Office', 'Harbour Depot'], status: ['Open', 'On Hold'], requester: ["Sam O'Neil"] };
    const cases = Object.entries(names)
      .map(([kind, list]) => `  ${kind}) printf '%s\\n' ${list.map((name) => `'${name.replace(/'/g, `'\\''`)}'`).join(' ')} ;;`)
      .join('\n');
    writeFileSync(path.join(home, 'bin', 'tkt'), `#!/bin/sh\n[ "$1" = __complete ] || exit 0\ncase "$2" in\n${cases}\nesac\n`);
    chmodSync(path.join(home, 'bin', 'tkt'), 0o755);
    // As the README says: a folder the user owns on fpath, then compinit.
    writeFileSync(path.join(home, '.zshrc'), `fpath=(~/.zsh/functions $fpath)\nautoload -Uz compinit && compinit -u\nPS1='zsh> '\n`);
    const env = `env -i HOME=${home} ZDOTDIR=${home} PATH=${path.join(home, 'bin')}:/usr/bin:/bin TERM=xterm-256color`;
    await tmux('new-session', '-d', '-s', 'zsh', '-x', '160', '-y', '40', `${env} zsh -i`);
    await waitFor(/^zsh>/m);
  }, 20_000);

  afterAll(async () => {
    await run('tmux', ['-L', socket, 'kill-server']).catch(() => undefined);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('completes commands', async () => {
    expect(await complete('tkt pick', /tkt pickup$/m)).toMatch(/tkt pickup$/m);
  });

  it('completes lookup names with spaces, quoted for the shell', async () => {
    expect(await complete('tkt list --site Harb', /--site Harbour\\ Depot$/m)).toContain('Harbour\\ Depot');
  });

  it('completes names without regard to case, as tkt matches them', async () => {
    expect(await complete('tkt list --status on', /--status On\\ Hold$/m)).toContain('On\\ Hold');
  });

  it("keeps an apostrophe in a name", async () => {
    expect(await complete('tkt create --requester sam', /--requester Sam\\ O\\'Neil$/m)).toContain("Sam\\ O\\'Neil");
  });

  it('offers global options after the command', async () => {
    expect(await complete('tkt list --jso', /tkt list --json$/m)).toContain('--json');
  });
});
