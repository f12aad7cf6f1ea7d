#!/usr/bin/env node
// Bulk close: `tkt close -` against the shell loop it replaces, `xargs -P 8` running one curl
// per ID, in one run against one local sandbox (loopback only).
//
//   npm run build && node bench/close-vs-curl.mjs [--count 1000] [--concurrency 8]
//
// Setup (not timed): start `tkt sandbox --port 0`, log in as admin over the API, create
// 2 x count + WARMUP open tickets with `tkt create --from`, and close WARMUP of them with curl
// so the sandbox's close path is warm for both sides. Timed: count closes with
// `tkt close - --concurrency N` (IDs on stdin; the time includes starting node), then count
// closes with `xargs -P 8 -I{} curl ... -F TicketId={} -F CloseBy=...`. Each side must close
// every one of its tickets (HTTP 204), or the bench fails. Target: tkt at least 3x faster.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, login, requireBuild, runChild, startSandbox } from './lib.mjs';

const WARMUP = 100;
const CURL_PARALLEL = 8;
const TARGET_RATIO = 3;

const { values: args } = parseArgs({
  options: { count: { type: 'string', default: '1000' }, concurrency: { type: 'string', default: '8' } },
});
const count = Number(args.count);
const concurrency = Number(args.concurrency);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  console.error('usage: node bench/close-vs-curl.mjs [--count N] [--concurrency N]');
  process.exit(2);
}

/** Open tickets to close, created with `tkt create --from` (the bulk path, not timed). */
async function createTickets(env, dir, total) {
  const rows = Array.from({ length: total }, (_, i) =>
    JSON.stringify({ title: `bench close ${i + 1}`, description: 'bench', requester: 'aberg', site: 1, department: 1, status: 'Open' }),
  );
  const file = join(dir, 'tickets.jsonl');
  await writeFile(file, `${rows.join('\n')}\n`);
  const result = await runChild(process.execPath, [bin, 'create', '--from', file, '--concurrency', '16', '-q'], { env });
  if (result.code !== 0) throw new Error(`tkt create --from failed (${result.code}): ${result.stderr}`);
  const ids = result.stdout.trim().split('\n').map(Number).sort((a, b) => a - b);
  if (ids.length !== total) throw new Error(`expected ${total} new tickets, got ${ids.length}`);
  return ids;
}

/** xargs -P 8 running one curl per ID; the token is read from a file, never put in argv. */
async function curlClose(url, headerFile, userId, ids) {
  const result = await runChild('xargs', [
    '-P', String(CURL_PARALLEL), '-I{}',
    'curl', '-s', '-o', '/dev/null', '-w', '%{http_code}\\n', '-X', 'POST', '-H', `@${headerFile}`,
    '-F', 'TicketId={}', '-F', `CloseBy=${userId}`, `${url}/api/TicketsApi/close/{}`,
  ], { stdin: `${ids.join('\n')}\n` });
  const closed = result.stdout.split('\n').filter((code) => code === '204').length;
  if (result.code !== 0 || closed !== ids.length) throw new Error(`curl closed ${closed} of ${ids.length} (xargs exit ${result.code}): ${result.stderr}`);
  return result.seconds;
}

async function tktClose(env, ids) {
  const result = await runChild(process.execPath, [bin, 'close', '-', '--concurrency', String(concurrency), '--json'], { env, stdin: `${ids.join('\n')}\n` });
  const closed = result.stdout.split('\n').filter((line) => line !== '' && JSON.parse(line).status === 204).length;
  if (result.code !== 0 || closed !== ids.length) throw new Error(`tkt closed ${closed} of ${ids.length} (exit ${result.code}): ${result.stderr}`);
  return result.seconds;
}

const rate = (n, seconds) => `${Math.round(n / seconds)}/s`;

async function main() {
  requireBuild();
  const dir = await mkdtemp(join(tmpdir(), 'tkt-bench-close-'));
  let sandbox;
  try {
    sandbox = await startSandbox();
    const { token, userId } = await login(sandbox.url);
    const headerFile = join(dir, 'auth-header');
    await writeFile(headerFile, `Authorization: Bearer ${token}\n`, { mode: 0o600 });
    const env = { ...process.env, TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: dir, NO_COLOR: '1' };
    delete env.TKT_PROFILE;

    console.log(`sandbox ${sandbox.url}; creating ${2 * count + WARMUP} open tickets with tkt create --from ...`);
    const ids = await createTickets(env, dir, 2 * count + WARMUP);
    await curlClose(sandbox.url, headerFile, userId, ids.slice(2 * count));

    const tktSeconds = await tktClose(env, ids.slice(0, count));
    const curlSeconds = await curlClose(sandbox.url, headerFile, userId, ids.slice(count, 2 * count));
    const ratio = curlSeconds / tktSeconds;
    console.log(`tkt close - --concurrency ${concurrency}: ${count} tickets in ${tktSeconds.toFixed(2)} s (${rate(count, tktSeconds)})`);
    console.log(`xargs -P ${CURL_PARALLEL} curl:         ${count} tickets in ${curlSeconds.toFixed(2)} s (${rate(count, curlSeconds)})`);
    console.log(`ratio: tkt is ${ratio.toFixed(1)}x faster (target >= ${TARGET_RATIO}x) ${ratio >= TARGET_RATIO ? 'OK' : 'BELOW TARGET'}`);
    if (ratio < TARGET_RATIO) process.exitCode = 1;
  } finally {
    await sandbox?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
