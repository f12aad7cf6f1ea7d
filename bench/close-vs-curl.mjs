#!/usr/bin/env node
// Bulk close (README, Performance): `tkt close -` at its default settings against the shell loop it
// replaces, `xargs -P 8` running one curl per ID, against one local sandbox (loopback only), in
// interleaved rounds, medians; NODE_EXTRA_CA_CERTS removed from every child's environment.
//
//   npm run build && node bench/close-vs-curl.mjs [--count 1000] [--rounds 3] [--concurrency 4,8,16]
//
// Setup (not timed): start `tkt sandbox --port 0`, log in as admin over the API, create
// (2 + extra cases) x rounds x count + WARMUP open tickets with `tkt create --from`, and close
// WARMUP of them with curl so the sandbox's close path is warm for both sides. Timed, each round:
// count closes with `tkt close -` (IDs on stdin; the time includes starting node) at the default
// concurrency, and with `--concurrency N` for each N given (to choose the default), and count
// closes with `xargs -P 8 -I{} curl ... -F TicketId={} -F CloseBy=...` (one curl per ID, like
// -n 1). Every run must close every one of its tickets (HTTP 204), or the bench fails.
// Target: tkt at its default at least 5x faster than curl.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, cleanEnv, interleavedMedians, login, machineLine, requireBuild, runChild, startSandbox } from './lib.mjs';

const WARMUP = 100;
const CURL_PARALLEL = 8;
const TARGET_RATIO = 5;

const { values: args } = parseArgs({
  options: { count: { type: 'string', default: '1000' }, rounds: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '' } },
});
const count = Number(args.count);
const rounds = Number(args.rounds);
const extraConcurrency = args.concurrency === '' ? [] : args.concurrency.split(',').map(Number);
if (![count, rounds, ...extraConcurrency].every((n) => Number.isInteger(n) && n >= 1)) {
  console.error('usage: node bench/close-vs-curl.mjs [--count N] [--rounds N] [--concurrency N,N...]');
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
  const ids = result.stdout
    .trim()
    .split('\n')
    .map(Number)
    .sort((a, b) => a - b);
  if (ids.length !== total) throw new Error(`expected ${total} new tickets, got ${ids.length}`);
  return ids;
}

/** xargs -P 8 running one curl per ID; the token is read from a file, never put in argv. */
async function curlClose(url, headerFile, userId, ids) {
  const result = await runChild(
    'xargs',
    [
      '-P',
      String(CURL_PARALLEL),
      '-I{}',
      'curl',
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}\\n',
      '-X',
      'POST',
      '-H',
      `@${headerFile}`,
      '-F',
      'TicketId={}',
      '-F',
      `CloseBy=${userId}`,
      `${url}/api/TicketsApi/close/{}`,
    ],
    { stdin: `${ids.join('\n')}\n` },
  );
  const closed = result.stdout.split('\n').filter((code) => code === '204').length;
  if (result.code !== 0 || closed !== ids.length) throw new Error(`curl closed ${closed} of ${ids.length} (xargs exit ${result.code}): ${result.stderr}`);
  return result.seconds;
}

async function tktClose(env, ids, concurrency) {
  const flags = concurrency === undefined ? [] : ['--concurrency', String(concurrency)];
  const result = await runChild(process.execPath, [bin, 'close', '-', ...flags, '--json'], { env, stdin: `${ids.join('\n')}\n` });
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
    const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: dir, NO_COLOR: '1' });
    delete env.TKT_PROFILE;

    const tktCases = [undefined, ...extraConcurrency];
    // A batch per case for each round and for interleavedMedians' untimed first pass.
    const total = (tktCases.length + 1) * (rounds + 1) * count + WARMUP;
    console.log(`sandbox ${sandbox.url}; creating ${total} open tickets with tkt create --from ...`);
    const ids = await createTickets(env, dir, total);
    await curlClose(sandbox.url, headerFile, userId, ids.splice(0, WARMUP));
    // Each timed run takes the next `count` open tickets.
    const next = () => ids.splice(0, count);

    const cases = [
      ...tktCases.map((concurrency) => ({
        name: concurrency === undefined ? 'tkt close - (default)' : `tkt close - --concurrency ${concurrency}`,
        run: () => tktClose(env, next(), concurrency),
      })),
      { name: `xargs -P ${CURL_PARALLEL} curl`, run: () => curlClose(sandbox.url, headerFile, userId, next()) },
    ];
    const medians = await interleavedMedians(cases, rounds);

    const curlSeconds = medians.get(cases.at(-1).name);
    console.log(`${machineLine()}; ${count} closes, ${rounds} rounds, medians:`);
    for (const [name, seconds] of medians) {
      console.log(`  ${name.padEnd(32)} ${seconds.toFixed(2)} s (${rate(count, seconds)}), curl / this = ${(curlSeconds / seconds).toFixed(1)}`);
    }
    const ratio = curlSeconds / medians.get(cases[0].name);
    console.log(`target: tkt at its default at least ${TARGET_RATIO}x faster than curl: ${ratio.toFixed(1)}x, ${ratio >= TARGET_RATIO ? 'met' : 'MISSED'}`);
    process.exitCode = ratio >= TARGET_RATIO ? 0 : 1;
  } finally {
    await sandbox?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
