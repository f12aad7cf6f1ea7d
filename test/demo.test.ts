// `npm run demo` is the README's first command: it must run start to end on a fresh machine.
// Runs the built CLI (npm test builds first).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { skipWithout } from './helpers/tools.js';
import { privateTmux } from './helpers/terminal.js';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const DEMO_TIMEOUT_MS = 60_000;

/** Runs the demo; `closeOutputAt`: its reader goes away once the output shows it (`| head`). */
function runDemo(options: { tmp?: string; closeOutputAt?: RegExp } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...(options.tmp === undefined ? {} : { TMPDIR: options.tmp }) };
    // The demo must not depend on (or touch) the caller's settings.
    for (const name of ['TKT_URL', 'TKT_TOKEN', 'TKT_PROFILE', 'TKT_CONFIG_DIR']) delete env[name];
    const child = spawn(process.execPath, [join(root, 'scripts', 'demo.mjs')], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
      if (options.closeOutputAt?.test(stdout)) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), DEMO_TIMEOUT_MS - 5_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('npm run demo', () => {
  it(
    'walks the triage session against its own sandbox and exits 0, leaving the sandbox stopped',
    async () => {
      expect(existsSync(join(root, 'dist', 'main.js')), 'dist/main.js is missing: run "npm run build" first').toBe(true);
      const { code, stdout, stderr } = await runDemo();
      expect(stderr).not.toMatch(/demo failed|error:/);
      expect(code).toBe(0);
      const commands = [...stdout.matchAll(/^\$ (.*)$/gm)].map((match) => match[1]!);
      expect(commands[0]).toBe('tkt sandbox --port 0 &');
      expect(commands[1]).toMatch(/^echo tech \| tkt login --url http:\/\/127\.0\.0\.1:\d+ -u tech --password-stdin$/);
      for (const expected of [
        /^tkt list --view my-overdue-tickets$/,
        /^tkt show \d+$/,
        /^tkt create --title .* -q$/,
        /^tkt pickup \d+$/,
        /^tkt reply \d+ --message /,
        /^tkt resolve \d+ --details /,
        /^tkt close \d+ --comments /,
        /^tkt list -q --view my-completed-tickets --all \| tkt close -$/,
      ]) {
        expect(
          commands.some((command) => expected.test(command)),
          `a command matching ${expected}`,
        ).toBe(true);
      }
      // Each command shows what it shows a technician at a terminal (script gives it one): the
      // list as a table with its header, not the tab-separated lines of a pipe.
      if (!skipWithout(['script'], 'test/demo.test.ts (tables)')) {
        const overdueList = stdout.split('\n$ ').find((section) => section.startsWith('tkt list --view my-overdue-tickets\n'));
        expect(overdueList).toMatch(/^ *ID {2}TITLE +STATUS +PRIORITY +REQUESTER +ASSIGNEE +DUE$/m);
        expect(overdueList).toMatch(/overdue$/m);
        expect(overdueList).not.toContain('\t');
      }
      // A log of plain text: nothing of the terminal the steps ran on (tkt show's status request
      // after its pager, its mode resets), which a terminal showing the log would act on.
      expect(stdout).not.toContain('\x1b');
      // The ticket the demo created went all the way: picked up, replied to, resolved, closed.
      const created = /^tkt pickup (\d+)$/m.exec(commands.join('\n'))![1];
      expect(stdout).toContain(`✓ #${created} picked up`);
      expect(stdout).toContain(`✓ #${created} resolved`);
      expect(stdout).toContain(`✓ #${created} closed`);
      // The sandbox URL it printed no longer answers: nothing was left running.
      const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
      await expect(fetch(`${url}/api/TicketsApi/appmetadata`)).rejects.toThrow();
    },
    DEMO_TIMEOUT_MS,
  );

  it(
    'stops quietly when its reader goes away (npm run demo | head), stopping its sandbox and removing its folder',
    async () => {
      const tmp = mkdtempSync(join(tmpdir(), 'tkt-demo-test-'));
      try {
        const { code, stdout, stderr } = await runDemo({ tmp, closeOutputAt: /listening on http:\/\/\S+\n/ });
        expect(stderr).toBe('');
        expect(code).toBe(0);
        const url = /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
        await expect(fetch(`${url}/api/TicketsApi/appmetadata`)).rejects.toThrow();
        // Node's compile cache too is kept in the config folder, not the temporary one (bin/tkt.js).
        expect(readdirSync(tmp)).toEqual([]);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    },
    DEMO_TIMEOUT_MS,
  );

  it.skipIf(skipWithout(['tmux', 'script'], 'test/demo.test.ts (at a terminal)'))(
    'leaves nothing behind at a terminal: no answer of the terminal shown, and the next command runs as typed',
    async () => {
      const terminal = privateTmux('demo');
      try {
        // After the demo, cat -v shows what the shell would read next: what was typed, and
        // anything the terminal answered to a query the demo let through.
        await terminal.start('demo', { width: 100, height: 40 }, `cd '${root}' && env -u CI node scripts/demo.mjs; echo "[demo exit $?]"; cat -v`);
        // The demo runs longer than one screen's wait (10 s): waited for over a few.
        let ended = '';
        for (let waits = 0; ended === '' && waits < 4; waits++)
          ended = await terminal.waitFor('demo', /^\[demo exit \d+\]$/m, { what: 'the demo ending', capture: ['-S', '-2000'] }).catch(() => '');
        expect(ended).toContain('[demo exit 0]');
        await terminal.type('demo', 'clear');
        await terminal.keys('demo', 'Enter');
        const after = await terminal.waitFor('demo', /^clear\n.*clear$/m, { what: 'the line typed, echoed and read', capture: ['-S', '-2000'] });
        expect(after).not.toContain('^[');
        expect(after.match(/^.*clear$/gm)).toEqual(['clear', 'clear']);
      } finally {
        await terminal.close();
      }
    },
    DEMO_TIMEOUT_MS,
  );
});
