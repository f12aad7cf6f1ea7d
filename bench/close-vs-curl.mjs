#!/usr/bin/env node
// Bulk close (README, Performance): `tkt close -` of 500 tickets (IDs on stdin) at its default
// concurrency, stdout piped, without and with --json, against two yardsticks doing the same 500
// closes (the same multipart form) in the same run:
//   (a) the floor: `node bench/floor.cjs close-many 8 USER_ID`, a bare node:http script with 8
//       requests in flight on keep-alive connections, printing a line per ticket;
//   (b) one `curl --parallel --parallel-max 8 -K FILE`, FILE holding the 500 requests.
// Against one local sandbox (loopback only), every child without NODE_EXTRA_CA_CERTS, every run
// on 500 tickets of its own (created open through the API beforehand, not timed), interleaved
// rounds after an untimed pass, medians; ratios to (a). Every run must close every one of its
// tickets (HTTP 204), or the bench fails. (b) runs in rounds of its own after the others: the case
// run right after curl took 25-30 ms longer, even after half a second's pause (curl's burst leaves
// the sandbox something to pay off), and the rotating order put tkt's piped case there every round.
// Targets: tkt close - --json at most 1.5x (a); piped without --json at most 1.2x (a).
// (The older yardstick, `xargs -P 8` starting one curl per ID, measured process starts: ~40
// closes/s, which flattered any single process.)
//
//   npm run build && node bench/close-vs-curl.mjs [--count 500] [--rounds 5] [--concurrency 4,16] [--bin path/to/other/bin/tkt.js]
//
// --concurrency adds `tkt close - --concurrency N` (piped, without --json) for each N, to choose the default.
// --bin adds another build's `close -`, piped and --json, in the same rounds: a before and after
// measured side by side, where separate runs of a busy machine differ by more than the change.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, createOpenTickets, floorScript, interleavedMedians, machineLine, runChild, verdict, withLoggedInSandbox } from './lib.mjs';

const IN_FLIGHT = 8;
const MAX_JSON_RATIO = 1.5;
const MAX_PIPED_RATIO = 1.2;

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '' },
    bin: { type: 'string' },
  },
});
const count = Number(args.count);
const rounds = Number(args.rounds);
const extraConcurrency = args.concurrency === '' ? [] : args.concurrency.split(',').map(Number);
if (![count, rounds, ...extraConcurrency].every((n) => Number.isInteger(n) && n >= 1)) {
  console.error('usage: node bench/close-vs-curl.mjs [--count N] [--rounds N] [--concurrency N,N...] [--bin path/to/bin/tkt.js]');
  process.exit(2);
}

/** Runs one closing child; fails unless it exited 0 and `closedLines` counts one closed ticket per ID. */
async function timedClose(name, command, argv, options, ids, closedLines) {
  const result = await runChild(command, argv, options);
  const closed = closedLines(result.stdout);
  if (result.code !== 0 || closed !== ids.length)
    throw new Error(`${name} closed ${closed} of ${ids.length} (exit ${result.code}): ${result.stderr.slice(-2000)}`);
  return result.seconds;
}

const countMatching = (pattern) => (stdout) => stdout.split('\n').filter((line) => pattern.test(line)).length;

await withLoggedInSandbox('tkt-bench-close-', async ({ sandbox, token, userId, dir, env }) => {
  const stdinOf = (ids) => `${ids.join('\n')}\n`;

  const tktCase = (name, flags, closedLines, tkt = bin, tktEnv = env) => ({
    name,
    run: (ids) => timedClose(name, process.execPath, [tkt, 'close', '-', ...flags], { env: tktEnv, stdin: stdinOf(ids) }, ids, closedLines),
  });
  // The other build keeps its code cache in a config folder of its own: builds before 2026-11-27
  // removed every other build's cache file when they wrote their own, so two builds sharing one
  // folder each ran without a cache (the --bin figures of earlier days were such runs).
  const otherEnv = { ...env, TKT_CONFIG_DIR: join(dir, 'other-build') };
  if (args.bin !== undefined) await mkdir(otherEnv.TKT_CONFIG_DIR, { recursive: true });
  const cases = [
    tktCase('tkt close - (piped)', [], countMatching(/closed/)),
    tktCase('tkt close - --json', ['--json'], countMatching(/"status":\s*204/)),
    ...extraConcurrency.map((n) => tktCase(`tkt close - --concurrency ${n}`, ['--concurrency', String(n)], countMatching(/closed/))),
    ...(args.bin === undefined
      ? []
      : [
          tktCase('--bin close - (piped)', [], countMatching(/closed/), args.bin, otherEnv),
          tktCase('--bin close - --json', ['--json'], countMatching(/"status":\s*204/), args.bin, otherEnv),
        ]),
    {
      name: `(a) node:http, ${IN_FLIGHT} in flight`,
      run: (ids) =>
        timedClose(
          'the floor',
          process.execPath,
          [floorScript, 'close-many', String(IN_FLIGHT), userId],
          { env, stdin: stdinOf(ids) },
          ids,
          countMatching(/ 204$/),
        ),
    },
  ];
  const curlCase = {
    name: `(b) curl --parallel-max ${IN_FLIGHT}`,
    run: async (ids) => {
      // One block of options per request (`next` starts the next one); the token stays out of argv.
      const block = (id) =>
        [
          `url = "${sandbox.url}/api/TicketsApi/close/${id}"`,
          `form = "TicketId=${id}"`,
          `form = "CloseBy=${userId}"`,
          `header = "Authorization: Bearer ${token}"`,
          'output = "/dev/null"',
          'write-out = "%{http_code}\\n"',
        ].join('\n');
      const config = join(dir, 'curl.config');
      await writeFile(config, `${ids.map(block).join('\nnext\n')}\n`, { mode: 0o600 });
      const argv = ['--silent', '--parallel', '--parallel-max', String(IN_FLIGHT), '--config', config];
      return timedClose('curl', 'curl', argv, { env }, ids, countMatching(/^204$/));
    },
  };
  // A batch of fresh tickets for each case in each round and in the untimed first pass.
  const total = (cases.length + 1) * (rounds + 1) * count;
  console.log(`sandbox ${sandbox.url}; creating ${total} open tickets through the API ...`);
  const ids = (await createOpenTickets(sandbox.url, token, total)).map(String);
  const withTickets = (benchCase) => ({ name: benchCase.name, run: () => benchCase.run(ids.splice(0, count)) });
  const medians = await interleavedMedians(cases.map(withTickets), rounds);
  for (const [name, seconds] of await interleavedMedians([withTickets(curlCase)], rounds)) medians.set(name, seconds);

  const floor = medians.get(cases.find((benchCase) => benchCase.name.startsWith('(a)')).name);
  console.log(`${machineLine()}; ${count} closes a run, ${rounds} rounds, medians:`);
  for (const [name, seconds] of medians) {
    console.log(`  ${name.padEnd(32)} ${seconds.toFixed(3)} s  ${`${Math.round(count / seconds)}/s`.padStart(7)}  ${(seconds / floor).toFixed(2)}x (a)`);
  }
  const pipedRatio = medians.get(cases[0].name) / floor;
  const jsonRatio = medians.get(cases[1].name) / floor;
  console.log(`target: piped without --json at most ${MAX_PIPED_RATIO}x (a): ${pipedRatio.toFixed(2)}x, ${verdict(pipedRatio <= MAX_PIPED_RATIO)}`);
  console.log(`target: --json at most ${MAX_JSON_RATIO}x (a): ${jsonRatio.toFixed(2)}x, ${verdict(jsonRatio <= MAX_JSON_RATIO)}`);
  process.exitCode = pipedRatio <= MAX_PIPED_RATIO && jsonRatio <= MAX_JSON_RATIO ? 0 : 1;
});
