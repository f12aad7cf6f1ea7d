#!/usr/bin/env node
// Start-up time of tkt against Node itself (README, Performance), in a clean environment
// (NODE_EXTRA_CA_CERTS removed), interleaved rounds, medians. Targets:
// - `tkt --version`, `tkt --help`, `tkt list --help`, `tkt __complete site` (with the lookup
//   cache filled): at most 1.5x `node -e 0`, 1.3x where Node has the compile cache (22.1+; the
//   untimed first pass warms it);
// - `tkt show ID --json`: at most 2x `node -e 0` plus the request's own time (a bare HTTP GET of
//   the same ticket on a new connection).
//
//   npm run build && node bench/startup.mjs            # the Node that runs it is the one measured
//   npm run build && ~/.cache/tkt-ci-node/24/bin/node bench/startup.mjs
//
// Options (environment): BENCH_ROUNDS (default 30).
import { mkdtempSync, rmSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { bin, cleanEnv, interleavedMedians, login, machineLine, requireBuild, runChild, startSandbox } from './lib.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const hasCompileCache = typeof module.enableCompileCache === 'function';
const quickLimit = hasCompileCache ? 1.3 : 1.5;

requireBuild();
const configDir = mkdtempSync(path.join(os.tmpdir(), 'tkt-bench-'));
const sandbox = await startSandbox();
try {
  const { token } = await login(sandbox.url);
  const headers = { authorization: `Bearer ${token}` };
  const firstPage = await fetch(`${sandbox.url}/api/TicketsApi`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ length: 1 }),
  });
  const ticketId = String((await firstPage.json())[0].ticketId);

  // A temporary config folder: the bench neither reads nor writes the user's settings.
  const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir, NO_COLOR: '1' });
  delete env.TKT_PROFILE;
  const timed =
    (argv, check = () => {}) =>
    async () => {
      const result = await runChild(process.execPath, argv, { env });
      if (result.code !== 0) throw new Error(`${argv.join(' ')} exited with ${result.code}:\n${result.stderr}`);
      check(result.stdout);
      return result.seconds;
    };
  // Completion answers from the lookup cache: fill it as any command that resolves a name does.
  await timed([bin, 'update', ticketId, '--site', 'head', '--dry-run'])();

  const quick = [
    { name: 'tkt --version', run: timed([bin, '--version'], (out) => /^\d+\.\d+\.\d+/.test(out) || fail('--version', out)) },
    { name: 'tkt --help', run: timed([bin, '--help'], (out) => out.startsWith('Usage: tkt') || fail('--help', out)) },
    { name: 'tkt list --help', run: timed([bin, 'list', '--help'], (out) => out.startsWith('Usage: tkt list') || fail('list --help', out)) },
    { name: 'tkt __complete site', run: timed([bin, '__complete', 'site'], (out) => out.includes('Head Office') || fail('__complete', out)) },
  ];
  const show = {
    name: `tkt show ${ticketId} --json`,
    run: timed([bin, 'show', ticketId, '--json'], (out) => String(JSON.parse(out).id) === ticketId || fail('show', out)),
  };
  const request = {
    name: `bare GET /api/TicketsApi/${ticketId}`,
    run: async () => {
      const started = performance.now();
      // A new connection each time, as a CLI run makes it.
      const response = await fetch(`${sandbox.url}/api/TicketsApi/${ticketId}`, { headers: { ...headers, connection: 'close' } });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`GET: HTTP ${response.status}`);
      return (performance.now() - started) / 1000;
    },
  };
  const node = { name: 'node -e 0', run: timed(['-e', '0']) };

  const medians = await interleavedMedians([node, ...quick, show, request], rounds);
  const baseline = medians.get(node.name);
  console.log(`${machineLine()}; ${rounds} rounds, medians:`);
  for (const [name, seconds] of medians) {
    console.log(`  ${name.padEnd(34)} ${(seconds * 1000).toFixed(1).padStart(7)} ms  ${(seconds / baseline).toFixed(2)}x node -e 0`);
  }
  const verdict = (ok) => (ok ? 'met' : 'MISSED');
  console.log(`targets (${hasCompileCache ? 'Node with compile cache' : 'Node without compile cache'}):`);
  let missed = false;
  for (const { name } of quick) {
    const ratio = medians.get(name) / baseline;
    missed ||= ratio > quickLimit;
    console.log(`  ${name} <= ${quickLimit}x node -e 0: ${ratio.toFixed(2)}x, ${verdict(ratio <= quickLimit)}`);
  }
  const showLimit = 2 * baseline + medians.get(request.name);
  missed ||= medians.get(show.name) > showLimit;
  console.log(
    `  tkt show --json <= 2x node -e 0 + request (${(showLimit * 1000).toFixed(1)} ms): ${(medians.get(show.name) * 1000).toFixed(1)} ms, ${verdict(medians.get(show.name) <= showLimit)}`,
  );
  process.exitCode = missed ? 1 : 0;
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}

function fail(what, output) {
  throw new Error(`${what} printed something unexpected:\n${output.slice(0, 300)}`);
}
