// What the bench scripts share: the built tkt, a sandbox child process, logging in, the
// environment of a tkt child, running a child to the end with its peak memory, and medians.
// Loopback only; run `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const bin = join(root, 'bin', 'tkt.js');
/** The floor: the same requests made with nothing but node:http (see its head). */
export const floorScript = join(root, 'bench', 'floor.cjs');

/**
 * This process's environment without NODE_EXTRA_CA_CERTS, plus `extra`: with it set, Node 20
 * reads the CA file at every start, which slows `node -e 0` too and hides tkt's own cost.
 */
export function cleanEnv(extra = {}) {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/**
 * The environment of a tkt child: cleanEnv with the service's URL and token, a config folder of
 * its own (the bench neither reads nor writes the user's), no colour and no profile.
 */
export function tktEnv(url, token, configDir) {
  const env = cleanEnv({ TKT_URL: url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir, NO_COLOR: '1' });
  delete env.TKT_PROFILE;
  return env;
}

/** Exits with a hint when dist/ is missing: every bench runs the built tkt. */
export function requireBuild() {
  if (!existsSync(join(root, 'dist', 'main.js'))) {
    console.error('build first: npm run build');
    process.exit(1);
  }
}

/**
 * Starts `node bin/tkt.js sandbox --port 0 ...args` and resolves once it printed its URL, with
 * the child, the URL, the milliseconds from spawn to that line, and stop() (SIGINT, SIGKILL after 5 s).
 */
export async function startSandbox(args = [], { timeoutMs = 30_000 } = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'sandbox', '--port', '0', ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  // Its errors are shown until the bench stops it: then its "error: interrupted" is the bench's doing.
  const showErrors = (chunk) => process.stderr.write(chunk);
  child.stderr.on('data', showErrors);
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox printed no URL within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)/i.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited (${code}) before printing its URL:\n${seen}`));
    });
  });
  const startupMs = performance.now() - started;
  // Keep draining its stdout so the child never blocks on a full pipe.
  child.stdout.resume();
  return {
    child,
    url,
    startupMs,
    stop: () => {
      child.stderr.off('data', showErrors).resume();
      return stopChild(child);
    },
  };
}

async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

/** POST /api/Users/authenticate as a demo login; resolves with { token, userId }. */
export async function login(url, username = 'admin', password = username) {
  const response = await fetch(`${url}/api/Users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: username, Password: password, RememberMe: false, Domain: '' }),
  });
  if (!response.ok) throw new Error(`login as ${username} failed: HTTP ${response.status}`);
  const user = await response.json();
  return { token: user.Token ?? user.token, userId: user.Id ?? user.id };
}

/**
 * Runs `body({ sandbox, token, userId, dir, env })` against a fresh sandbox, logged in as admin,
 * with a temporary folder `dir` and `env` = tktEnv for it; then stops the sandbox and removes
 * the folder, whatever happened. Resolves with what body resolves with.
 */
export async function withLoggedInSandbox(dirPrefix, body) {
  requireBuild();
  const dir = await mkdtemp(join(os.tmpdir(), dirPrefix));
  let sandbox;
  try {
    sandbox = await startSandbox();
    const { token, userId } = await login(sandbox.url);
    return await body({ sandbox, token, userId, dir, env: tktEnv(sandbox.url, token, dir) });
  } finally {
    await sandbox?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Peak resident set size so far (VmHWM) of a running process, in KB; 0 once it is gone. */
export function peakRssKb(pid) {
  try {
    return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Runs a command to the end (SIGKILL after timeoutMs), feeding `stdin`. Resolves with its exit
 * code, stderr, wall seconds and, with measureRss, its peak RSS in KB (GNU time when present,
 * else VmHWM polled every 10 ms). stdout is collected unless onStdout takes the chunks.
 */
export function runChild(command, argv, { env = cleanEnv(), stdin = '', timeoutMs = 180_000, measureRss = false, onStdout } = {}) {
  const useTime = measureRss && existsSync('/usr/bin/time');
  const [file, args] = useTime ? ['/usr/bin/time', ['-v', command, ...argv]] : [command, argv];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peakKb = 0;
    child.stdout.on('data', onStdout ?? ((chunk) => (stdout += chunk)));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const poll = measureRss && !useTime ? setInterval(() => (peakKb = Math.max(peakKb, peakRssKb(child.pid))), 10) : undefined;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      clearInterval(poll);
      if (useTime) peakKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(stderr)?.[1] ?? 0);
      resolve({ code, stdout, stderr, peakKb, seconds: (performance.now() - started) / 1000 });
    });
    child.stdin.on('error', () => {}); // a child that exits without reading stdin is not our failure
    child.stdin.end(stdin);
  });
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export const megabytes = (kb) => `${(kb / 1024).toFixed(1)} MB`;

/** How a target's line ends. */
export const verdict = (met) => (met ? 'met' : 'MISSED');

/**
 * Runs every case once per round, in an order rotating by round (so a machine that slows down
 * mid-run slows every case alike, and cases listed side by side stay side by side: A B A B),
 * after one untimed pass that warms caches and checks that each case works. A case is
 * `{ name, run }`; `run` resolves with what it measured (or throws). Resolves with a Map of
 * name -> the results of its timed runs.
 */
export async function interleavedRuns(cases, rounds) {
  for (const benchCase of cases) await benchCase.run();
  const results = new Map(cases.map((benchCase) => [benchCase.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < cases.length; i++) {
      const benchCase = cases[(round + i) % cases.length];
      results.get(benchCase.name).push(await benchCase.run());
    }
  }
  return results;
}

/** interleavedRuns of cases whose `run` resolves with its seconds: a Map of name -> median seconds. */
export async function interleavedMedians(cases, rounds) {
  const runs = await interleavedRuns(cases, rounds);
  return new Map([...runs].map(([name, seconds]) => [name, median(seconds)]));
}

/**
 * Creates `count` open, unassigned tickets through the service's API (POST new, 16 at a time),
 * for benches that close or pick up a fresh ticket in every run; resolves with their IDs, ascending.
 */
export async function createOpenTickets(url, token, count) {
  const ids = [];
  let left = count;
  const lane = async () => {
    while (left > 0) {
      left--;
      const form = new FormData();
      form.append('Title', `bench ticket ${ids.length + 1}`);
      form.append('Description', 'made by a bench');
      form.append('Requester', 'aberg');
      const response = await fetch(`${url}/api/TicketsApi/new`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      if (response.status !== 201) throw new Error(`creating a ticket: HTTP ${response.status}: ${await response.text()}`);
      ids.push((await response.json()).id);
    }
  };
  await Promise.all(Array.from({ length: 16 }, lane));
  return ids.sort((a, b) => a - b);
}

/**
 * The Nodes a bench measures: the one running it, then the one `--node PATH` (or BENCH_NODE)
 * names, if any; each as { path, version }.
 */
export function nodesToMeasure(otherNode = process.env.BENCH_NODE) {
  const nodes = [{ path: process.execPath, version: process.version }];
  if (otherNode !== undefined && otherNode !== '') {
    const version = spawnSync(otherNode, ['--version'], { encoding: 'utf8', env: cleanEnv() }).stdout?.trim();
    if (!version) throw new Error(`not a Node: ${otherNode}`);
    nodes.push({ path: otherNode, version });
  }
  return nodes;
}

/** One line of a machine description for the figures: CPU model and count, load, the Nodes measured. */
export function machineLine(nodeVersions = [process.version]) {
  const cpus = os.cpus();
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  return `${cpus[0]?.model ?? 'unknown CPU'} x ${cpus.length}, load ${load}, node ${nodeVersions.join(' and ')}`;
}
