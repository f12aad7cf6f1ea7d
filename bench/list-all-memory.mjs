#!/usr/bin/env node
// Peak memory of `tkt list --all --json` over 20,000 sandbox tickets: --all must stream
// pages to stdout instead of holding every ticket.
//
// Usage: npm run build && node bench/list-all-memory.mjs [--tickets N] [--limit N]
// Starts `tkt sandbox --seed-tickets N --port 0` itself, or uses SANDBOX_URL when set
// (an already running sandbox with the demo logins). Loopback only.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = `${root}bin/tkt.js`;
const { values } = parseArgs({ options: { tickets: { type: 'string', default: '20000' }, limit: { type: 'string' } } });
const seedTickets = Number(values.tickets);

/** Starts the sandbox as a child process and resolves with its URL from the first stdout line mentioning one. */
async function startSandbox() {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--seed-tickets', String(seedTickets)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const url = line.match(/https?:\/\/127\.0\.0\.1:\d+/)?.[0];
    if (url) {
      // Keep draining its stdout so the child never blocks on a full pipe.
      child.stdout.resume();
      return { url, stop: () => child.kill('SIGINT') };
    }
  }
  throw new Error('the sandbox exited without printing its URL');
}

async function login(url) {
  const response = await fetch(`${url}/api/Users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'admin', Password: 'admin', RememberMe: false, Domain: '' }),
  });
  if (!response.ok) throw new Error(`login failed: HTTP ${response.status}`);
  const user = await response.json();
  return user.Token ?? user.token;
}

/** Peak RSS in KB of a process, from GNU time's report (or /proc polling without it). */
function runMeasured(args, env) {
  const useTime = existsSync('/usr/bin/time');
  const command = useTime ? '/usr/bin/time' : process.execPath;
  const argv = useTime ? ['-v', process.execPath, bin, ...args] : [bin, ...args];
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let items = 0;
    let stderr = '';
    let peakKb = 0;
    child.stdout.on('data', (chunk) => {
      bytes += chunk.length;
      // Each array element starts on a line indented by two spaces with "{".
      items += chunk.toString('utf8').match(/^ {2}\{$/gm)?.length ?? 0;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const poll = useTime
      ? undefined
      : setInterval(() => {
          const hwm = /VmHWM:\s+(\d+)/.exec(readFileSafe(`/proc/${child.pid}/status`))?.[1];
          if (hwm) peakKb = Math.max(peakKb, Number(hwm));
        }, 10);
    child.on('error', reject);
    child.on('close', (code) => {
      if (poll) clearInterval(poll);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (useTime) peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? 0);
      if (code !== 0) return reject(new Error(`tkt exited ${code}: ${stderr.slice(-2000)}`));
      resolve({ seconds, peakKb, bytes, items });
    });
  });
}

function readFileSafe(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

if (!existsSync(bin) || !existsSync(`${root}dist`)) {
  console.error('build first: npm run build');
  process.exit(1);
}
const configDir = mkdtempSync(join(tmpdir(), 'tkt-bench-'));
const sandbox = process.env.SANDBOX_URL ? { url: process.env.SANDBOX_URL, stop: () => {} } : await startSandbox();
try {
  const token = await login(sandbox.url);
  const env = { ...process.env, TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir };
  const limitArgs = values.limit ? ['--limit', values.limit] : [];
  const result = await runMeasured(['list', '--all', '--json', '--view', 'all-tickets', ...limitArgs], env);
  console.log(`tkt list --all --json: ${result.items} tickets, ${(result.bytes / 1024 / 1024).toFixed(1)} MB of JSON`);
  console.log(`  wall time: ${result.seconds.toFixed(2)} s`);
  console.log(`  peak RSS:  ${(result.peakKb / 1024).toFixed(1)} MB`);
} finally {
  sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
