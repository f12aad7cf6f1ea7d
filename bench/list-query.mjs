#!/usr/bin/env node
// `tkt list --all` over 20,000 sandbox tickets, three ways, in interleaved rounds (medians):
//   plain:    list --all --json                                  (the yardstick)
//   filtered: list --all --status Open --query '[].ticketId' --raw
//   literal:  list --all --status Open --query '[].id' --raw     (the README's wording; the
//             sandbox's list items name the ID ticketId, so it prints nothing)
// Targets: filtered within 1.5x plain's time and peak RSS (README, Performance); plain at most 0.5 s and
// 80 MB (README, Performance: concurrent paging).
//
// Usage: npm run build && node bench/list-query.mjs [--tickets N] [--rounds N]
// Starts `tkt sandbox --seed-tickets N --port 0` itself. Loopback only; children run in a
// clean environment (no NODE_EXTRA_CA_CERTS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, cleanEnv, login, machineLine, median, requireBuild, runChild, startSandbox } from './lib.mjs';

const { values } = parseArgs({ options: { tickets: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' } } });

requireBuild();
const configDir = mkdtempSync(join(tmpdir(), 'tkt-bench-'));
const sandbox = await startSandbox(['--seed-tickets', values.tickets]);
try {
  const { token } = await login(sandbox.url);
  const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir });
  const list = ['list', '--all', '--view', 'all-tickets'];
  const cases = [
    { name: 'plain', argv: [...list, '--json'] },
    { name: 'filtered', argv: [...list, '--status', 'Open', '--query', '[].ticketId', '--raw'] },
    { name: 'literal', argv: [...list, '--status', 'Open', '--query', '[].id', '--raw'] },
  ];
  const samples = new Map(cases.map((c) => [c.name, { seconds: [], peakKb: [], bytes: 0 }]));
  const runCase = async (benchCase) => {
    let bytes = 0;
    const result = await runChild(process.execPath, [bin, ...benchCase.argv], { env, measureRss: true, onStdout: (chunk) => (bytes += chunk.length) });
    if (result.code !== 0) throw new Error(`${benchCase.name} exited ${result.code}: ${result.stderr.slice(-2000)}`);
    return { ...result, bytes };
  };
  // One untimed pass: warms the sandbox's caches and checks every case works.
  for (const benchCase of cases) samples.get(benchCase.name).bytes = (await runCase(benchCase)).bytes;
  const rounds = Number(values.rounds);
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < cases.length; i++) {
      const benchCase = cases[(round + i) % cases.length];
      const result = await runCase(benchCase);
      samples.get(benchCase.name).seconds.push(result.seconds);
      samples.get(benchCase.name).peakKb.push(result.peakKb);
    }
  }
  const figures = new Map([...samples].map(([name, s]) => [name, { seconds: median(s.seconds), mb: median(s.peakKb) / 1024, bytes: s.bytes }]));
  const plain = figures.get('plain');
  console.log(`${values.tickets} tickets, ${rounds} rounds, medians; ${machineLine()}`);
  for (const [name, f] of figures) {
    const argv = cases.find((c) => c.name === name).argv.join(' ');
    console.log(
      `  ${name.padEnd(8)} ${f.seconds.toFixed(3)} s (${(f.seconds / plain.seconds).toFixed(2)}x)  ${f.mb.toFixed(1)} MB (${(f.mb / plain.mb).toFixed(2)}x)  ${(f.bytes / 1024).toFixed(0)} KB out   tkt ${argv}`,
    );
  }
  const filtered = figures.get('filtered');
  const verdict = (ok) => (ok ? 'ok' : 'MISSED');
  console.log(
    `  target: filtered within 1.5x of plain: time ${verdict(filtered.seconds <= 1.5 * plain.seconds)}, RSS ${verdict(filtered.mb <= 1.5 * plain.mb)}`,
  );
  console.log(`  target: plain at most 0.5 s and 80 MB: time ${verdict(plain.seconds <= 0.5)}, RSS ${verdict(plain.mb <= 80)}`);
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
