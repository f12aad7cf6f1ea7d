#!/usr/bin/env node
// Uploads at line speed (README, Performance): `tkt attach ID FILE` of a 1 GB file against curl sending
// the same multipart upload, to a local server that reads and discards the body (so the server
// costs both sides alike and little), in interleaved rounds, medians. Also tkt's peak RSS with the
// 1 GB file against a 1 MB one: uploads must stream. Targets: tkt's throughput at least 80% of
// curl's; peak RSS growth under 50 MB. The 1 GB file is sparse (truncate); loopback only.
// Throughput is bytes over the time spent moving them: each side's 1 MB run (starting the
// process, loading, connecting: 0.07-0.09 s for Node, 0.01 s for curl) is subtracted from its
// 1 GB run. Start-up has its own target (bench/startup.mjs); the whole runs are printed too.
//
//   npm run build && node bench/attach-vs-curl.mjs
//
// Options (environment): BENCH_ROUNDS (default 5), BENCH_MB (default 1024).
import { spawn } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bin, cleanEnv, interleavedMedians, machineLine, megabytes, requireBuild, runChild, tktEnv, verdict } from './lib.mjs';

const MB = 1024 * 1024;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const size = Number(process.env.BENCH_MB ?? 1024) * MB;
const MIN_THROUGHPUT_RATIO = 0.8;
const MAX_GROWTH_KB = 50 * 1024;

// Reads every request body to its end and answers how many bytes it got, in its own process.
const DISCARDING_SERVER = `
const server = require('node:http').createServer((req, res) => {
  let received = 0;
  req.on('data', (chunk) => { received += chunk.length; });
  req.on('end', () => { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ received })); });
});
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));
`;

async function startDiscardingServer() {
  const child = spawn(process.execPath, ['-e', DISCARDING_SERVER], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.setEncoding('utf8');
  const [url] = await new Promise((resolve, reject) => {
    child.stdout.once('data', (line) => resolve([line.trim()]));
    child.once('exit', (code) => reject(new Error(`the discarding server exited (${code})`)));
  });
  return { url, stop: () => child.kill() };
}

requireBuild();
const dir = await mkdtemp(join(tmpdir(), 'tkt-bench-upload-'));
const server = await startDiscardingServer();
try {
  const big = join(dir, 'big.log');
  const small = join(dir, 'small.log');
  for (const [file, bytes] of [
    [big, size],
    [small, MB],
  ]) {
    await writeFile(file, '');
    await truncate(file, bytes);
  }
  const env = tktEnv(server.url, 'bench-token', dir);
  const tktAttach = async (file, measureRss = false) => {
    const result = await runChild(process.execPath, [bin, 'attach', '1', file, '--json'], { env, measureRss });
    if (result.code !== 0) throw new Error(`tkt attach exited ${result.code}: ${result.stderr.slice(-2000)}`);
    if (!(JSON.parse(result.stdout).received > (file === big ? size : MB))) throw new Error(`the server got too little: ${result.stdout}`);
    return result;
  };
  const curlAttach = async (file) => {
    const result = await runChild('curl', [
      '-sS',
      '--fail',
      '-F',
      `Uploads=@${file}`,
      '-H',
      'Authorization: Bearer bench-token',
      `${server.url}/api/TicketsApi/addfiles/1`,
    ]);
    if (result.code !== 0 || !(JSON.parse(result.stdout).received > (file === big ? size : MB)))
      throw new Error(`curl failed (${result.code}): ${result.stderr}${result.stdout}`);
    return result;
  };

  // The 1 MB runs time what each side costs besides moving bytes (tkt: starting Node and loading
  // its HTTP client), for the transfer-only figure.
  const medians = await interleavedMedians(
    [
      { name: 'tkt attach', run: async () => (await tktAttach(big)).seconds },
      { name: 'curl -F', run: async () => (await curlAttach(big)).seconds },
      { name: 'tkt attach 1 MB', run: async () => (await tktAttach(small)).seconds },
      { name: 'curl -F 1 MB', run: async () => (await curlAttach(small)).seconds },
    ],
    rounds,
  );
  const tktPeaks = [];
  for (const file of [small, big]) tktPeaks.push((await tktAttach(file, true)).peakKb);
  const growth = tktPeaks[1] - tktPeaks[0];

  const mb = size / MB;
  const rate = (seconds) => `${(mb / seconds).toFixed(0)} MB/s`;
  const ratio = medians.get('curl -F') / medians.get('tkt attach');
  const transferRatio = (medians.get('curl -F') - medians.get('curl -F 1 MB')) / (medians.get('tkt attach') - medians.get('tkt attach 1 MB'));
  console.log(`${machineLine()}; ${rounds} rounds of ${mb} MB, medians:`);
  for (const [name, seconds] of medians) console.log(`  ${name.padEnd(16)} ${seconds.toFixed(3)} s${name.endsWith('1 MB') ? '' : ` (${rate(seconds)})`}`);
  console.log(`  throughput, whole runs: tkt ${(ratio * 100).toFixed(0)}% of curl; transfer only (minus the 1 MB runs): ${(transferRatio * 100).toFixed(0)}%`);
  console.log(`  tkt peak RSS: 1 MB ${megabytes(tktPeaks[0])}, ${mb} MB ${megabytes(tktPeaks[1])}, growth ${megabytes(growth)}`);
  const throughputOk = transferRatio >= MIN_THROUGHPUT_RATIO;
  const memoryOk = growth < MAX_GROWTH_KB;
  console.log(
    `targets: throughput >= ${MIN_THROUGHPUT_RATIO * 100}% of curl: ${(transferRatio * 100).toFixed(0)}%, ${verdict(throughputOk)}; RSS growth < ${megabytes(MAX_GROWTH_KB)}: ${verdict(memoryOk)}`,
  );
  process.exitCode = throughputOk && memoryOk ? 0 : 1;
} finally {
  server.stop();
  await rm(dir, { recursive: true, force: true });
}
