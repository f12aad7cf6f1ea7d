#!/usr/bin/env node
// `tkt list --all` over 20,000 sandbox tickets, three ways, each against a floor, in interleaved
// rounds (medians):
//   plain:    list --all --json                                  floor: every page, printed as one JSON array
//   filtered: list --all --status Open --query '[].ticketId' --raw
//                                                                floor: every page, the ticketId of each Open item a line
//   literal:  list --all --status Open --query '[].id' --raw     (the README's wording; the
//             sandbox's list items name the ID ticketId, so it prints nothing)
// The floors are `node bench/floor.cjs list-all AllTickets [--open-ids]`: bare node:http on
// keep-alive, the same list request (100 a page, listType AllTickets), 4 pages in flight as
// tkt keeps, the filter and projection in plain JS.
// Targets: each within 1.5x its floor's time (as bench/list-requester.mjs); filtered within 1.5x
// plain's time and peak RSS; plain at most 0.5 s and 80 MB (README, Performance).
//
// Usage: npm run build && node bench/list-query.mjs [--tickets N] [--rounds N]
// Starts `tkt sandbox --seed-tickets N --port 0` itself. Loopback only; children run in a
// clean environment (no NODE_EXTRA_CA_CERTS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, cleanEnv, floorScript, interleavedRuns, login, machineLine, median, requireBuild, runChild, startSandbox } from './lib.mjs';

const MAX_FLOOR_RATIO = 1.5;
const { values } = parseArgs({ options: { tickets: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' } } });

requireBuild();
const configDir = mkdtempSync(join(tmpdir(), 'tkt-bench-'));
const sandbox = await startSandbox(['--seed-tickets', values.tickets]);
try {
  const { token } = await login(sandbox.url);
  const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir });
  const list = [bin, 'list', '--all', '--view', 'all-tickets'];
  const floor = [floorScript, 'list-all', 'AllTickets'];
  const cases = [
    { name: 'plain', argv: [...list, '--json'] },
    { name: 'floor plain', argv: floor },
    { name: 'filtered', argv: [...list, '--status', 'Open', '--query', '[].ticketId', '--raw'] },
    { name: 'floor filtered', argv: [...floor, '--open-ids'] },
    { name: 'literal', argv: [...list, '--status', 'Open', '--query', '[].id', '--raw'] },
  ];
  const outputs = new Map();
  const runs = await interleavedRuns(
    cases.map((benchCase) => ({
      name: benchCase.name,
      run: async () => {
        let output = '';
        const result = await runChild(process.execPath, benchCase.argv, { env, measureRss: true, onStdout: (chunk) => (output += chunk) });
        if (result.code !== 0) throw new Error(`${benchCase.name} exited ${result.code}: ${result.stderr.slice(-2000)}`);
        outputs.set(benchCase.name, output);
        return result;
      },
    })),
    Number(values.rounds),
  );
  // tkt and its floor must print the same tickets.
  const parsedList = (name) => JSON.parse(outputs.get(name)).map((item) => item.ticketId);
  if (parsedList('plain').join() !== parsedList('floor plain').join()) throw new Error('plain and its floor printed different tickets');
  if (outputs.get('filtered') !== outputs.get('floor filtered')) throw new Error('filtered and its floor printed different IDs');
  const figures = new Map(
    [...runs].map(([name, results]) => [
      name,
      { seconds: median(results.map((r) => r.seconds)), mb: median(results.map((r) => r.peakKb)) / 1024, bytes: Buffer.byteLength(outputs.get(name)) },
    ]),
  );
  const plain = figures.get('plain');
  const rounds = Number(values.rounds);
  console.log(`${values.tickets} tickets, ${rounds} rounds, medians; ${machineLine()}`);
  for (const [name, f] of figures) {
    const argv = cases
      .find((c) => c.name === name)
      .argv.slice(1)
      .join(' ');
    const floorOf = figures.get(`floor ${name}`);
    const vsFloor = floorOf === undefined ? '' : `, ${(f.seconds / floorOf.seconds).toFixed(2)}x its floor`;
    console.log(
      `  ${name.padEnd(14)} ${f.seconds.toFixed(3)} s (${(f.seconds / plain.seconds).toFixed(2)}x plain${vsFloor})  ${f.mb.toFixed(1)} MB (${(f.mb / plain.mb).toFixed(2)}x)  ${(f.bytes / 1024).toFixed(0)} KB out   ${name.startsWith('floor') ? 'node bench/floor.cjs' : 'tkt'} ${argv}`,
    );
  }
  const filtered = figures.get('filtered');
  const ratioToFloor = (name) => figures.get(name).seconds / figures.get(`floor ${name}`).seconds;
  const checks = [
    [`plain within ${MAX_FLOOR_RATIO}x of its floor (${ratioToFloor('plain').toFixed(2)}x)`, ratioToFloor('plain') <= MAX_FLOOR_RATIO],
    [`filtered within ${MAX_FLOOR_RATIO}x of its floor (${ratioToFloor('filtered').toFixed(2)}x)`, ratioToFloor('filtered') <= MAX_FLOOR_RATIO],
    ['filtered within 1.5x of plain: time', filtered.seconds <= 1.5 * plain.seconds],
    ['filtered within 1.5x of plain: RSS', filtered.mb <= 1.5 * plain.mb],
    ['plain at most 0.5 s', plain.seconds <= 0.5],
    ['plain at most 80 MB', plain.mb <= 80],
  ];
  for (const [target, met] of checks) console.log(`  target: ${target}: ${met ? 'met' : 'MISSED'}`);
  process.exitCode = checks.every(([, met]) => met) ? 0 : 1;
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
