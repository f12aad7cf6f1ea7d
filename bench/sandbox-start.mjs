#!/usr/bin/env node
// How long `tkt sandbox` takes to start: from spawning `node bin/tkt.js sandbox --port 0` to the
// line with its URL (it listens before printing it), median of N runs, with the demo data alone
// and with --seed-tickets 20000. Target: under a second.
//
//   npm run build && node bench/sandbox-start.mjs [--runs 10]
import { parseArgs } from 'node:util';
import { median, requireBuild, startSandbox } from './lib.mjs';

const TARGET_MS = 1000;
const { values } = parseArgs({ options: { runs: { type: 'string', default: '10' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/sandbox-start.mjs [--runs N]');
  process.exit(2);
}
requireBuild();

const cases = [
  ['demo data', []],
  ['--seed-tickets 20000', ['--seed-tickets', '20000']],
];
let allFast = true;
for (const [label, args] of cases) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const sandbox = await startSandbox(args);
    times.push(sandbox.startupMs);
    await sandbox.stop();
  }
  const middle = median(times);
  allFast &&= middle < TARGET_MS;
  console.log(
    `tkt sandbox, ${label.padEnd(20)}: median ${middle.toFixed(0)} ms (min ${Math.min(...times).toFixed(0)}, max ${Math.max(...times).toFixed(0)}, ${runs} runs; target < ${TARGET_MS}) ${middle < TARGET_MS ? 'OK' : 'TOO SLOW'}`,
  );
}
process.exitCode = allFast ? 0 : 1;
