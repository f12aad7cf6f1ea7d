// Node puts back, as it exits, the terminal modes it found on fds 0-2 at its start. Beside a
// pager (`tkt list --all | less`), those were less's raw mode, put back after less had restored
// the terminal: no echo at the shell's prompt. util-linux `script` gives the pty; the shell in it
// plays less: raw mode before tkt starts, the terminal restored while tkt waits for its answer.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startServer, type TestServer } from '../api/server.js';
import { BIN, ensureBuilt } from '../helpers/terminal.js';
import { skipWithout } from '../helpers/tools.js';

const skip = skipWithout(['script', 'stty'], 'test/pty/terminal-modes.test.ts');

describe.skipIf(skip)('the terminal modes tkt leaves', () => {
  let dir = '';
  let server: TestServer;
  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'tkt-modes-'));
    // Answers once the shell has restored the terminal (the file "go"), as a pager quits while tkt still runs.
    server = await startServer((_req, res) => {
      writeFileSync(join(dir, 'arrived'), '');
      const answer = setInterval(() => {
        if (!existsSync(join(dir, 'go'))) return;
        clearInterval(answer);
        sendJson(res, 200, { id: 1, title: 'Printer' });
      }, 5);
    });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are those the terminal has when it exits, not the raw mode another program had set when it started', async () => {
    const { NODE_EXTRA_CA_CERTS: _ca, ...inherited } = process.env;
    const env = { ...inherited, TKT_URL: server.url, TKT_TOKEN: 'token', TKT_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1' };
    const shell = [
      'stty raw -echo',
      `node '${BIN}' show 1 --json > /dev/null & pid=$!`,
      `while [ ! -e '${dir}/arrived' ]; do sleep 0.01; done`,
      'stty sane',
      `touch '${dir}/go'`,
      'wait $pid; echo "tkt exit $?"',
      'stty -a',
    ].join('; ');
    const screen = await new Promise<string>((resolve, reject) => {
      const child = execFile('script', ['-qec', shell, '/dev/null'], { env, timeout: 20_000 }, (error, stdout) =>
        error === null ? resolve(stdout.replaceAll('\r', '')) : reject(new Error(`${String(error)}: ${stdout}`)),
      );
      child.stdin?.end();
    });
    expect(screen).toContain('tkt exit 0');
    const modes = screen.slice(screen.indexOf('tkt exit 0')).split(/\s+/);
    expect(modes).toContain('echo');
    expect(modes).toContain('icanon');
  });
});
