#!/usr/bin/env node
// `tkt list --requester USER --all --json` over one requester's 20,000 tickets (README, Performance: "the
// same for list --requester --all"). List-by-username answers 25 tickets a page, whole ticket
// details (docs/service.md 4.16), so this is 800 page requests and 32 MB of JSON, against list --all's 200
// pages of 100 short items. Its yardstick is the floor of those pages in the same run: a bare
// script making the same requests, 4 at a time (tkt's page window), parsing each answer and
// printing nothing. Interleaved rounds, medians; tkt's peak RSS. Targets: list --all's (0.5 s,
// 80 MB), and within 1.5x of the floor (what the sandbox itself takes is not tkt's to cut).
//
//   npm run build && node bench/list-requester.mjs [--tickets N] [--rounds N]
//
// The sandbox is started with --seed-tickets N --data FILE, stopped, every ticket of FILE given
// to one requester, and started again on FILE. Loopback only; children run without
// NODE_EXTRA_CA_CERTS.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, cleanEnv, interleavedMedians, login, machineLine, megabytes, median, requireBuild, runChild, startSandbox, verdict } from './lib.mjs';

const { values } = parseArgs({ options: { tickets: { type: 'string', default: '20000' }, rounds: { type: 'string', default: '7' } } });
const REQUESTER = 'aberg';
const PAGE_SIZE = 25;
const MAX_SECONDS = 0.5;
const MAX_MB = 80;
const MAX_FLOOR_RATIO = 1.5;

// The floor: list-by-username's pages, 4 requests at a time, until a short page; prints the count.
const FLOOR = `
const [url, token, username] = process.argv.slice(1);
let next = 1, done = false, count = 0;
async function lane() {
  while (!done) {
    const form = new FormData();
    form.append('username', username);
    form.append('page', String(next++));
    const response = await fetch(url + '/api/TicketsApi/list', { method: 'POST', body: form, headers: { authorization: 'Bearer ' + token } });
    const items = await response.json();
    count += items.length;
    if (items.length < ${PAGE_SIZE}) done = true;
  }
}
Promise.all([lane(), lane(), lane(), lane()]).then(() => console.log(count));
`;

requireBuild();
const dir = mkdtempSync(join(tmpdir(), 'tkt-bench-requester-'));
const data = join(dir, 'sandbox.json');
const seeding = await startSandbox(['--seed-tickets', values.tickets, '--data', data]);
await seeding.stop();
const state = JSON.parse(readFileSync(data, 'utf8'));
const requesterId = state.users.find((user) => user.username === REQUESTER).id;
for (const ticket of state.tickets) ticket.creatorId = requesterId;
writeFileSync(data, JSON.stringify(state));
const total = state.tickets.filter((ticket) => !ticket.isDeleted).length;

const sandbox = await startSandbox(['--data', data]);
try {
  const { token } = await login(sandbox.url);
  const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: dir });
  const peaks = [];
  const tkt = async () => {
    let bytes = 0;
    const result = await runChild(process.execPath, [bin, 'list', '--requester', REQUESTER, '--all', '--json'], {
      env,
      measureRss: true,
      onStdout: (chunk) => (bytes += chunk.length),
    });
    if (result.code !== 0) throw new Error(`tkt exited ${result.code}: ${result.stderr.slice(-2000)}`);
    peaks.push(result.peakKb);
    return { seconds: result.seconds, bytes };
  };
  const floor = async () => {
    const result = await runChild(process.execPath, ['-e', FLOOR, sandbox.url, token, REQUESTER], { env: cleanEnv() });
    if (result.code !== 0 || Number(result.stdout) !== total) throw new Error(`the floor script failed (${result.code}): ${result.stderr}${result.stdout}`);
    return result.seconds;
  };
  const bytes = (await tkt()).bytes;
  const medians = await interleavedMedians(
    [
      { name: 'tkt', run: async () => (await tkt()).seconds },
      { name: 'floor', run: floor },
    ],
    Number(values.rounds),
  );
  const seconds = medians.get('tkt');
  const ratio = seconds / medians.get('floor');
  const peakKb = median(peaks);
  console.log(
    `${total} tickets of one requester (${Math.ceil(total / PAGE_SIZE)} pages, ${(bytes / 1024 / 1024).toFixed(1)} MB of JSON out), ${values.rounds} rounds, medians; ${machineLine()}`,
  );
  console.log(`  tkt list --requester ${REQUESTER} --all --json  ${seconds.toFixed(3)} s  peak RSS ${megabytes(peakKb)}`);
  console.log(`  floor (the same pages, 4 at a time, parsed)  ${medians.get('floor').toFixed(3)} s`);
  console.log(
    `targets: within ${MAX_FLOOR_RATIO}x of the floor: ${ratio.toFixed(2)}x, ${verdict(ratio <= MAX_FLOOR_RATIO)}; at most ${MAX_SECONDS} s: ${verdict(seconds <= MAX_SECONDS)}; at most ${MAX_MB} MB: ${verdict(peakKb / 1024 <= MAX_MB)}`,
  );
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
