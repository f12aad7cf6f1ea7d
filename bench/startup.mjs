// Start-up time of tkt, measured against Node itself (issue 7).
// Targets: `tkt --help` at most 1.5x `node -e 0`; `tkt show ID --json` at most 2x `node -e 0`
// plus the request's own time on loopback (a bare HTTP GET of the same ticket, new connection).
//
//   npm run build && node bench/startup.mjs
//
// Spawns `node bin/tkt.js sandbox --port 0` for the show case and stops it afterwards.
// The cases run interleaved (each round runs every case once, in rotating order), so a
// machine that slows down mid-run slows every case alike.
// Options (environment): BENCH_ROUNDS (default 30).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const bin = fileURLToPath(new URL('../bin/tkt.js', import.meta.url));
if (!existsSync(new URL('../dist/main.js', import.meta.url))) {
  throw new Error('dist/main.js is missing: run `npm run build` first');
}

async function startSandbox() {
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    output += chunk;
    const url = /listening on (http:\/\/\S+)/i.exec(output)?.[1];
    if (url) {
      // Keep draining so the child never blocks on a full pipe.
      child.stdout.resume();
      return { url, stop: async () => { child.kill('SIGINT'); await once(child, 'exit'); } };
    }
  }
  throw new Error(`the sandbox did not print its URL:\n${output}`);
}

/** One HTTP request on a new connection (as a CLI run makes it); resolves with status and body. */
function httpRequest(url, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs a command to its end; resolves with its exit code and stdout. */
async function runProcess(args, env) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  const stdout = [];
  const stderr = [];
  child.stdout.on('data', (chunk) => stdout.push(chunk));
  child.stderr.on('data', (chunk) => stderr.push(chunk));
  const [code] = await once(child, 'close');
  return { code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const configDir = mkdtempSync(path.join(os.tmpdir(), 'tkt-bench-'));
const sandbox = await startSandbox();
try {
  const authenticated = await httpRequest(new URL('/api/Users/authenticate', sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'admin', Password: 'admin', RememberMe: false, Domain: '' }),
  });
  if (authenticated.status !== 200) throw new Error(`authenticate: HTTP ${authenticated.status}`);
  const token = JSON.parse(authenticated.body).Token;
  const firstPage = await httpRequest(new URL('/api/TicketsApi', sandbox.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ length: 1 }),
  });
  const ticketId = String(JSON.parse(firstPage.body)[0].ticketId);
  const ticketUrl = new URL(`/api/TicketsApi/${ticketId}`, sandbox.url);

  // A temporary config folder: the bench neither reads nor writes the user's settings.
  const env = { ...process.env, TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir, NO_COLOR: '1' };
  delete env.TKT_PROFILE;
  const tkt = (...args) => () => runProcess([bin, ...args], env);
  const cases = [
    { name: 'node -e 0', run: () => runProcess(['-e', '0'], env) },
    { name: 'tkt --version', run: tkt('--version') },
    { name: 'tkt --help', run: tkt('--help') },
    { name: 'tkt list --help', run: tkt('list', '--help') },
    { name: `tkt show ${ticketId} --json`, run: tkt('show', ticketId, '--json'), isShow: true },
    {
      name: `bare GET /api/TicketsApi/${ticketId}`,
      run: async () => {
        const res = await httpRequest(ticketUrl, { headers: { authorization: `Bearer ${token}` } });
        return { code: res.status === 200 ? 0 : res.status, stdout: res.body, stderr: '' };
      },
    },
  ];

  // One untimed pass: proves every case works (a failing case would bench an error path)
  // and warms the file system cache.
  for (const benchCase of cases) {
    const result = await benchCase.run();
    if (result.code !== 0) throw new Error(`${benchCase.name} exited with ${result.code}:\n${result.stderr}`);
    if (benchCase.isShow && String(JSON.parse(result.stdout).id) !== ticketId) {
      throw new Error(`${benchCase.name} printed another ticket:\n${result.stdout.slice(0, 200)}`);
    }
  }

  const timings = new Map(cases.map((benchCase) => [benchCase.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < cases.length; i++) {
      const benchCase = cases[(round + i) % cases.length];
      const started = performance.now();
      const result = await benchCase.run();
      const elapsed = performance.now() - started;
      if (result.code !== 0) throw new Error(`${benchCase.name} exited with ${result.code}:\n${result.stderr}`);
      timings.get(benchCase.name).push(elapsed);
    }
  }

  const medians = new Map([...timings].map(([name, values]) => [name, median(values)]));
  const nodeBaseline = medians.get('node -e 0');
  const requestTime = medians.get(cases[cases.length - 1].name);
  console.log(`node ${process.version}, ${os.cpus().length} CPUs, ${rounds} rounds, medians:`);
  for (const [name, value] of medians) {
    console.log(`  ${name.padEnd(34)} ${value.toFixed(1).padStart(7)} ms  ${(value / nodeBaseline).toFixed(2)}x node -e 0`);
  }
  const help = medians.get('tkt --help');
  const show = medians.get(cases.find((c) => c.isShow).name);
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  console.log('targets:');
  console.log(`  tkt --help <= 1.5x node -e 0: ${(help / nodeBaseline).toFixed(2)}x, ${verdict(help <= 1.5 * nodeBaseline)}`);
  const showLimit = 2 * nodeBaseline + requestTime;
  console.log(`  tkt show --json <= 2x node -e 0 + request (${showLimit.toFixed(1)} ms): ${show.toFixed(1)} ms, ${verdict(show <= showLimit)}`);
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
