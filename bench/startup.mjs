#!/usr/bin/env node
// Start-up time of tkt against Node itself (README, Performance), in a clean environment
// (NODE_EXTRA_CA_CERTS removed), interleaved rounds after an untimed pass (which also warms
// Node's compile cache where it has one, 22.1+), medians. Targets: `tkt --version`, `tkt --help`
// and `tkt list --help` at most 1.25x `node -e 0`; `tkt __complete site` (lookup cache filled)
// at most 1.3x. Commands that make a request: bench/request-floor.mjs.
//
//   npm run build && node bench/startup.mjs [--node PATH]
//
// --node (or BENCH_NODE) measures a second Node after the one running the script, e.g.
// ~/.cache/tkt-ci-node/node-v24.21.0/bin/node. Options (environment): BENCH_ROUNDS (default 30).
import { parseArgs } from 'node:util';
import { bin, interleavedMedians, machineLine, nodesToMeasure, runChild, verdict, withLoggedInSandbox } from './lib.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const HELP_LIMIT = 1.25;
const COMPLETE_LIMIT = 1.3;
const { values } = parseArgs({ options: { node: { type: 'string' } } });

const nodes = nodesToMeasure(values.node);
await withLoggedInSandbox('tkt-bench-startup-', async ({ sandbox, token, env }) => {
  const firstPage = await fetch(`${sandbox.url}/api/TicketsApi`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ length: 1 }),
  });
  const ticketId = String((await firstPage.json())[0].ticketId);

  const timed =
    (node, argv, check = () => {}) =>
    async () => {
      const result = await runChild(node.path, argv, { env });
      if (result.code !== 0) throw new Error(`${argv.join(' ')} exited with ${result.code}:\n${result.stderr}`);
      check(result.stdout);
      return result.seconds;
    };
  // Completion answers from the lookup cache: fill it as any command that resolves a name does.
  await timed(nodes[0], [bin, 'update', ticketId, '--site', 'head', '--dry-run'])();

  let missed = false;
  console.log(`${machineLine(nodes.map((node) => node.version))}; ${rounds} rounds, medians:`);
  for (const node of nodes) {
    const targets = [
      { name: 'tkt --version', limit: HELP_LIMIT, run: timed(node, [bin, '--version'], (out) => /^\d+\.\d+\.\d+/.test(out) || fail('--version', out)) },
      { name: 'tkt --help', limit: HELP_LIMIT, run: timed(node, [bin, '--help'], (out) => out.startsWith('Usage: tkt') || fail('--help', out)) },
      {
        name: 'tkt list --help',
        limit: HELP_LIMIT,
        run: timed(node, [bin, 'list', '--help'], (out) => out.startsWith('Usage: tkt list') || fail('list --help', out)),
      },
      {
        name: 'tkt __complete site',
        limit: COMPLETE_LIMIT,
        run: timed(node, [bin, '__complete', 'site'], (out) => out.includes('Head Office') || fail('__complete', out)),
      },
    ];
    const baseline = { name: 'node -e 0', run: timed(node, ['-e', '0']) };
    const medians = await interleavedMedians([baseline, ...targets], rounds);
    const baselineSeconds = medians.get(baseline.name);
    console.log(`  ${`${node.version}: node -e 0`.padEnd(22)} ${(baselineSeconds * 1000).toFixed(1).padStart(7)} ms`);
    for (const { name, limit } of targets) {
      const ratio = medians.get(name) / baselineSeconds;
      missed ||= ratio > limit;
      console.log(
        `  ${name.padEnd(22)} ${(medians.get(name) * 1000).toFixed(1).padStart(7)} ms  ${ratio.toFixed(2)}x node -e 0 (target ${limit}x: ${verdict(ratio <= limit)})`,
      );
    }
  }
  process.exitCode = missed ? 1 : 0;
});

function fail(what, output) {
  throw new Error(`${what} printed something unexpected:\n${output.slice(0, 300)}`);
}
