#!/usr/bin/env node
// Single-request commands against their floor (README, Performance): each tkt command against a
// child `node bench/floor.cjs` making the same request with bare `node:http` (same headers and
// bearer token, the same multipart form, the 1 MB file streamed) and printing the answer, and
// `node -e 0` for memory. Against one local sandbox (loopback only), every child without
// NODE_EXTRA_CA_CERTS, interleaved run by run (tkt, floor, tkt, floor...) after an untimed pass
// (which also fills tkt's lookup cache and the code cache of its bundles, as any earlier run
// would have; one row measures a run without the code cache), medians.
//
// Wall time is spawn to exit of each child; peak RSS is the child's own (GNU time's maximum
// resident set size; without /usr/bin/time, /proc polled every 10 ms, which can miss the peak).
// GNU time wraps every child alike, tkt's, the floor's and node -e 0's.
// Targets: tkt at most 1.4x the floor's time; tkt's peak RSS at most 1.2x node -e 0's.
//
//   npm run build && node bench/request-floor.mjs [--runs 20] [--node PATH] [--bin path/to/other/bin/tkt.js]
//
// --installed runs tkt as an npm global install does: a copy of the build under a prefix, through
// the link in PREFIX/bin (the checkout's short path hides what Node 22+ pays at start for a longer
// one). --node (or BENCH_NODE) measures a second Node after the one running the script, e.g.
// ~/.cache/tkt-ci-node/node-v24.21.0/bin/node. Every close and pickup run gets a ticket of its own,
// created open and unassigned through the API beforehand (not timed); attach adds a 1 MB .log
// file to one ticket made for it, so that `show 1013` prints the same ticket every run.
// --bin adds another build's run of each command in the same rounds, in a config folder of its
// own (its own lookup and code cache): a before and after, its time as a ratio to this build's.
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  bin,
  createOpenTickets,
  floorScript,
  interleavedRuns,
  machineLine,
  median,
  megabytes,
  nodesToMeasure,
  runChild,
  verdict,
  withLoggedInSandbox,
} from './lib.mjs';

const MAX_TIME_RATIO = 1.4;
const MAX_RSS_RATIO = 1.2;
const SHOWN_TICKET = '1013';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    node: { type: 'string' },
    installed: { type: 'boolean', default: false },
    bin: { type: 'string' },
  },
});
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/request-floor.mjs [--runs N] [--node PATH] [--installed] [--bin path/to/bin/tkt.js]');
  process.exit(2);
}

/**
 * The commands measured: tkt's argv and the floor's for a ticket ID (fresh for close and pickup),
 * with what each must print.
 */
function commandsOf({ userId, attachTo, upload }) {
  const ticketPath = `/api/TicketsApi/${SHOWN_TICKET}`;
  return [
    { name: `show ${SHOWN_TICKET}`, tkt: () => ['show', SHOWN_TICKET], floor: () => ['get', ticketPath], prints: [/^ID:\s+1013$/m, /"id":1013/] },
    { name: `show ${SHOWN_TICKET} --json`, tkt: () => ['show', SHOWN_TICKET, '--json'], floor: () => ['get', ticketPath], prints: [/"id": 1013/, /"id":1013/] },
    // The first run of a command after an install (or every run of a CI job that never logged
    // in): no compiled code kept from an earlier run (src/bundle-loader.ts), nor Node's own.
    {
      name: `show ${SHOWN_TICKET} --json, no code cache`,
      env: { NODE_DISABLE_COMPILE_CACHE: '1' },
      tkt: () => ['show', SHOWN_TICKET, '--json'],
      floor: () => ['get', ticketPath],
      prints: [/"id": 1013/, /"id":1013/],
    },
    // tkt list asks for the first page of 10 (its default, at a pipe as at a terminal).
    {
      name: 'list',
      tkt: () => ['list'],
      floor: () => ['post-json', '/api/TicketsApi', JSON.stringify({ page: 1, length: 10 })],
      prints: [/^\d+\t/m, /"ticketId":\d+/],
    },
    {
      name: 'close ID',
      takesId: true,
      tkt: (id) => ['close', id],
      floor: (id) => ['form', `/api/TicketsApi/close/${id}`, `TicketId=${id}`, `CloseBy=${userId}`],
      prints: [/closed/, /^204$/m],
    },
    {
      name: 'pickup ID',
      takesId: true,
      tkt: (id) => ['pickup', id],
      // tkt pickup reads the ticket first (whose it is), as a careful script would.
      floor: (id) => ['get-then-post', `/api/TicketsApi/${id}`, `/api/TicketsApi/pickup/${id}`],
      prints: [/picked up/, /"changed":true/],
    },
    {
      name: 'attach ID 1 MB',
      tkt: () => ['attach', attachTo, upload],
      floor: () => ['upload', `/api/TicketsApi/addfiles/${attachTo}`, upload],
      prints: [/upload\.log/, /"fileName":"upload\.log"/],
    },
  ];
}

/** A bench case running `node ...argv`; resolves with { seconds, peakKb }, after checking the exit code and the output. */
function childCase(name, node, env, argvOf, prints) {
  return {
    name,
    run: async () => {
      const argv = argvOf();
      const result = await runChild(node.path, argv, { env, measureRss: true });
      if (result.code !== 0 || !prints.test(result.stdout)) {
        throw new Error(`${name} (${argv.join(' ')}) exited ${result.code}, printing:\n${result.stdout.slice(0, 500)}\n${result.stderr.slice(-1000)}`);
      }
      return { seconds: result.seconds, peakKb: result.peakKb };
    },
  };
}

const ms = (seconds) => `${(seconds * 1000).toFixed(1)} ms`;

/**
 * This build laid out as `npm install -g --prefix PREFIX` lays it out, run through the link npm
 * makes: the path Node resolves at start is an installed one, not the checkout's (README,
 * Performance: on Node 22+ a longer path costs Node's own start 2 MB).
 */
function installedBin(dir) {
  const prefix = join(dir, 'prefix');
  const packageDir = join(prefix, 'lib', 'node_modules', 'tkt-cli');
  for (const part of ['bin', 'dist', 'package.json']) cpSync(join(dirname(dirname(bin)), part), join(packageDir, part), { recursive: true });
  mkdirSync(join(prefix, 'bin'));
  symlinkSync(join('..', 'lib', 'node_modules', 'tkt-cli', 'bin', 'tkt.js'), join(prefix, 'bin', 'tkt'));
  return join(prefix, 'bin', 'tkt');
}

const nodes = nodesToMeasure(values.node);
await withLoggedInSandbox('tkt-bench-floor-', async ({ sandbox, token, userId, dir, env }) => {
  const tktBin = values.installed ? installedBin(dir) : bin;
  if (values.installed) console.log(`tkt run as installed: ${tktBin}`);
  const upload = join(dir, 'upload.log');
  await writeFile(upload, `${'a log line of the 1 MB upload'.padEnd(63, '.')}\n`.repeat(16_384));

  // Each run of close and pickup, timed or not, on each Node, for tkt and for the floor: a ticket.
  const otherEnv = { ...env, TKT_CONFIG_DIR: join(dir, 'other-build') };
  if (values.bin !== undefined) mkdirSync(otherEnv.TKT_CONFIG_DIR);
  const runners = values.bin === undefined ? 2 : 3;
  const freshIds = await createOpenTickets(sandbox.url, token, nodes.length * 2 * runners * (runs + 1) + 1);
  const attachTo = String(freshIds.pop());
  const takeId = () => String(freshIds.shift());
  const commands = commandsOf({ userId, attachTo, upload });

  const rows = [];
  for (const node of nodes) {
    const nodeCase = childCase('node -e 0', node, env, () => ['-e', '0'], /^$/);
    const cases = [nodeCase];
    for (const command of commands) {
      const idFor = () => (command.takesId ? takeId() : undefined);
      const commandEnv = { ...env, ...command.env };
      cases.push(childCase(`tkt ${command.name}`, node, commandEnv, () => [tktBin, ...command.tkt(idFor())], command.prints[0]));
      cases.push(childCase(`floor ${command.name}`, node, commandEnv, () => [floorScript, ...command.floor(idFor())], command.prints[1]));
      if (values.bin !== undefined) {
        const env = { ...otherEnv, ...command.env };
        cases.push(childCase(`--bin ${command.name}`, node, env, () => [values.bin, ...command.tkt(idFor())], command.prints[0]));
      }
    }
    const results = await interleavedRuns(cases, runs);
    const medianOf = (name, key) => median(results.get(name).map((result) => result[key]));
    const baseline = { seconds: medianOf(nodeCase.name, 'seconds'), peakKb: medianOf(nodeCase.name, 'peakKb') };
    console.log(`${node.version}: node -e 0 ${ms(baseline.seconds)}, peak RSS ${megabytes(baseline.peakKb)}`);
    for (const command of commands) {
      const tkt = { seconds: medianOf(`tkt ${command.name}`, 'seconds'), peakKb: medianOf(`tkt ${command.name}`, 'peakKb') };
      const floor = { seconds: medianOf(`floor ${command.name}`, 'seconds'), peakKb: medianOf(`floor ${command.name}`, 'peakKb') };
      rows.push({
        node: node.version,
        command: command.name,
        tkt,
        floor,
        other:
          values.bin === undefined ? undefined : { seconds: medianOf(`--bin ${command.name}`, 'seconds'), peakKb: medianOf(`--bin ${command.name}`, 'peakKb') },
        timeRatio: tkt.seconds / floor.seconds,
        rssRatio: tkt.peakKb / baseline.peakKb,
        baseline,
      });
    }
  }

  console.log(
    `\n${machineLine(nodes.map((node) => node.version))}; ${runs} runs each, medians; peak RSS by ${existsSync('/usr/bin/time') ? 'GNU time' : 'polling /proc'}`,
  );
  const header = ['node', 'command', 'tkt', 'floor', `tkt/floor (<= ${MAX_TIME_RATIO}x)`, 'tkt RSS', 'floor RSS', `tkt RSS/node -e 0 (<= ${MAX_RSS_RATIO}x)`];
  const table = rows.map((row) => [
    row.node,
    `tkt ${row.command}`,
    ms(row.tkt.seconds),
    ms(row.floor.seconds),
    `${row.timeRatio.toFixed(2)}x ${verdict(row.timeRatio <= MAX_TIME_RATIO)}`,
    megabytes(row.tkt.peakKb),
    megabytes(row.floor.peakKb),
    `${row.rssRatio.toFixed(2)}x ${verdict(row.rssRatio <= MAX_RSS_RATIO)}`,
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...table.map((cells) => cells[column].length)));
  for (const cells of [header, widths.map((width) => '-'.repeat(width)), ...table]) {
    console.log(`| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`);
  }
  if (values.bin !== undefined) {
    console.log(`\n--bin ${values.bin}, in the same rounds:`);
    for (const row of rows) {
      const { other, tkt, floor } = row;
      console.log(
        `${row.node} ${row.command}: ${ms(other.seconds)} (${(other.seconds / floor.seconds).toFixed(2)}x the floor; this build ${(tkt.seconds / other.seconds).toFixed(3)}x its time), ${megabytes(other.peakKb)}`,
      );
    }
  }
  const missed = rows.filter((row) => row.timeRatio > MAX_TIME_RATIO || row.rssRatio > MAX_RSS_RATIO).length;
  console.log(`targets: ${rows.length - missed} of ${rows.length} commands meet both`);
  process.exitCode = missed === 0 ? 0 : 1;
});
