#!/usr/bin/env node
// How `tkt triage` keeps up with a view of 20,000 tickets, at 80x24 in tmux (a private socket)
// against a sandbox with --seed-tickets 20000: from start to the screen counting the tickets,
// then each key of a filter typed one at a time, each Backspace, Esc clearing it, and j. Each
// time runs from sending the key to the screen showing its effect (tmux polled every 5 ms, so
// a figure includes up to one Ink frame and one poll). Medians over the runs.
//
//   npm run build && node bench/triage-large-view.mjs [--runs 3] [--bin path/to/other/bin/tkt.js]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, cleanEnv, login, machineLine, median, requireBuild, startSandbox } from './lib.mjs';

const FILTER = 'print';
const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, bin: { type: 'string', default: bin } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node bench/triage-large-view.mjs [--runs N] [--bin path/to/bin/tkt.js]');
  process.exit(2);
}
requireBuild();

// A tmux server per run: a new one on the socket of one just killed may fail to start.
let socket = '';
const tmux = (...args) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
const screen = () => tmux('capture-pane', '-p', '-t', 'triage');
const titleLine = () => screen().split('\n')[0] ?? '';
const highlighted = () => /^› +(\d+) /m.exec(screen())?.[1];
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from sending `keys` (tmux send-keys arguments) until `shown()` is true. */
async function timed(keys, shown, what) {
  const started = performance.now();
  tmux('send-keys', '-t', 'triage', ...keys);
  for (;;) {
    if (shown()) return performance.now() - started;
    if (performance.now() - started > 60_000) throw new Error(`timed out waiting for ${what}:\n${screen()}`);
    await pause(5);
  }
}

const quoted = (value) => `'${value.replace(/'/g, `'\\''`)}'`;

async function oneRun(run, url, token, configDir) {
  socket = `tkt-bench-triage-${process.pid}-${run}`;
  // Not CI (triage needs a terminal that may be asked); a config folder of its own.
  const env = Object.entries(cleanEnv({ TKT_URL: url, TKT_TOKEN: token, TKT_CONFIG_DIR: configDir, NO_COLOR: '1' }))
    .filter(([name]) => name !== 'CI')
    .map(([name, value]) => `${name}=${quoted(value)}`);
  const started = performance.now();
  tmux(
    'new-session',
    '-d',
    '-s',
    'triage',
    '-x',
    '80',
    '-y',
    '24',
    `env -i ${env.join(' ')} ${quoted(process.execPath)} ${quoted(values.bin)} triage --view all-tickets; sleep 600`,
  );
  try {
    for (;;) {
      if (/ \d+ tickets/.test(titleLine())) break;
      if (performance.now() - started > 120_000) throw new Error(`the view never loaded:\n${screen()}`);
      await pause(5);
    }
    const times = { load: performance.now() - started, key: [], backspace: [] };
    const count = /(\d+) tickets/.exec(titleLine())[1];
    await timed(['/'], () => titleLine().includes('filter: /▏'), '/');
    for (let typed = 1; typed <= FILTER.length; typed++) {
      const filter = FILTER.slice(0, typed);
      times.key.push(await timed(['-l', filter.at(-1)], () => titleLine().includes(`of ${count} tickets  filter: /${filter}▏`), `filter ${filter}`));
    }
    for (let left = FILTER.length - 1; left >= 0; left--) {
      const filter = FILTER.slice(0, left);
      times.backspace.push(await timed(['BSpace'], () => titleLine().includes(`filter: /${filter}▏`), `Backspace to ${filter}`));
    }
    await timed(['-l', FILTER], () => titleLine().includes(`filter: /${FILTER}▏`), 'the filter typed again');
    times.esc = await timed(['Escape'], () => titleLine().endsWith(`· ${count} tickets`), 'Esc clearing the filter');
    const before = highlighted();
    times.j = await timed(['j'], () => highlighted() !== before, 'j');
    return { count, ...times };
  } finally {
    tmux('kill-server');
  }
}

const sandbox = await startSandbox(['--seed-tickets', '20000']);
const configDir = await mkdtemp(join(tmpdir(), 'tkt-bench-triage-'));
try {
  const { token } = await login(sandbox.url);
  const results = [];
  for (let run = 0; run < runs; run++) results.push(await oneRun(run, sandbox.url, token, configDir));
  const ms = (values) => `${median(values).toFixed(0)} ms`;
  console.log(`${machineLine()}; ${values.bin}`);
  console.log(`tkt triage --view all-tickets, ${results[0].count} tickets, 80x24, medians of ${runs} runs:`);
  console.log(`  first screen with the count   ${ms(results.map((r) => r.load))}`);
  console.log(`  a filter key (/${FILTER})        ${ms(results.flatMap((r) => r.key))} (slowest ${Math.max(...results.flatMap((r) => r.key)).toFixed(0)} ms)`);
  console.log(
    `  a Backspace                   ${ms(results.flatMap((r) => r.backspace))} (slowest ${Math.max(...results.flatMap((r) => r.backspace)).toFixed(0)} ms)`,
  );
  console.log(`  Esc clearing the filter       ${ms(results.map((r) => r.esc))}`);
  console.log(`  j after that                  ${ms(results.map((r) => r.j))}`);
} finally {
  await sandbox.stop();
  await rm(configDir, { recursive: true, force: true });
}
