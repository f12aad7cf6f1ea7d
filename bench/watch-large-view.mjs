#!/usr/bin/env node
// `tkt watch --view all-tickets --state FILE` over a sandbox with --seed-tickets 20000: the CPU
// time of one poll and the memory after 100 polls, each against a yardstick taken in the same run.
//
// - CPU per poll: the watch's CPU time (utime + stime from /proc) from the end of its first poll
//   to the end of its 101st, over 100; against `tkt list --all --json` of the same view, one
//   page walk (CPU time from GNU time, medians of --rounds runs, half before the watch and half
//   after), and `list --limit 1 --json` of it for what is not the walk (Node's and tkt's start,
//   one request).
// - Memory after 100 polls: the watch's RSS then and its peak, against its RSS after the first
//   poll and the peak RSS of that `list --all --json`; the V8 heap after its last full collection
//   (Node's --trace-gc lines), against the same after the first poll.
//
// Polls run back to back: the test-only TKT_TEST_WATCH_INTERVAL_MS=0 replaces the 10 s minimum
// of --interval (README, Watching). A poll is the same work whatever the wait, so CPU per poll is
// honest; memory may be lower in a real watch, which idles between polls and collects meanwhile.
// Nothing changes in the view meanwhile: each poll reads, diffs and rewrites the state, telling
// nothing. Each poll is counted when the state file is replaced (a new inode).
//
//   npm run build && node bench/watch-large-view.mjs [--tickets 20000] [--polls 100] [--rounds 5]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, cleanEnv, login, machineLine, median, megabytes, requireBuild, runChild, startSandbox } from './lib.mjs';

const { values } = parseArgs({
  options: { tickets: { type: 'string', default: '20000' }, polls: { type: 'string', default: '100' }, rounds: { type: 'string', default: '5' } },
});
const [polls, rounds] = [Number(values.polls), Number(values.rounds)];
if (!Number.isInteger(polls) || polls < 1 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench/watch-large-view.mjs [--tickets N] [--polls N] [--rounds N]');
  process.exit(2);
}
requireBuild();
if (!existsSync('/usr/bin/time')) {
  console.error('needs GNU time (/usr/bin/time, Debian package time) for the CPU time of the yardsticks');
  process.exit(1);
}

// /proc/PID/stat counts CPU time in clock ticks: 100 a second on Linux.
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) so far of a running process, from /proc/PID/stat. */
function cpuSeconds(pid) {
  // Fields after the command name (which may hold spaces) in parentheses; utime, stime are 14, 15.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Resident set size now (VmRSS) and its peak so far (VmHWM), in KB. */
function rssKb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { now: Number(/VmRSS:\s+(\d+)/.exec(status)[1]), peak: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) };
}

/** User + system seconds of a finished child, from GNU time -v's report on its stderr. */
function timedCpuSeconds(stderr) {
  const seconds = (name) => Number(new RegExp(`${name} time \\(seconds\\): ([\\d.]+)`).exec(stderr)?.[1] ?? NaN);
  return seconds('User') + seconds('System');
}

/**
 * The heap used and committed after the latest full collection, in MB, from --trace-gc lines
 * ("Mark-Compact 40.1 (52.3) -> 31.2 (50.0) MB": used (committed) before -> after).
 */
function heapAfterFullGc(traceText) {
  const all = [...traceText.matchAll(/Mark-Compact(?: \(reduce\))? [\d.]+ \([\d.]+\) -> ([\d.]+) \(([\d.]+)\) MB/g)];
  return all.length === 0 ? undefined : { used: Number(all.at(-1)[1]), committed: Number(all.at(-1)[2]) };
}

// Polls after which the RSS is read, to see whether it settles.
const CHECKPOINTS = [1, 10, ...[0.25, 0.5, 0.75, 1].map((share) => Math.round(polls * share))];

/** Runs the watch until `polls` + 1 polls are done; resolves with the figures read from /proc and its --trace-gc output. */
async function watchRun(env, dir) {
  const stateFile = join(dir, 'state.json');
  rmSync(stateFile, { force: true });
  const child = spawn(process.execPath, ['--trace-gc', bin, 'watch', '--view', 'all-tickets', '--json', '--interval', '10', '--state', stateFile], {
    env: { ...env, TKT_TEST_WATCH_INTERVAL_MS: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text) => (stderr += text));
  const exited = new Promise((resolve) => child.once('close', resolve));
  const figures = await new Promise((resolve, reject) => {
    let done = 0;
    let inode;
    let first;
    const rssAfter = new Map();
    const watcher = watch(dir, (_event, name) => {
      if (name !== 'state.json') return;
      let replaced;
      try {
        replaced = statSync(stateFile).ino;
      } catch {
        return; // between its removal and its replacement
      }
      if (replaced === inode) return;
      inode = replaced;
      done++;
      // Read at once: the next poll is already under way, and its work is not the one counted.
      const at = { cpu: cpuSeconds(child.pid), rss: rssKb(child.pid), heap: heapAfterFullGc(stdout), seconds: performance.now() / 1000 };
      if (done === 1) first = at;
      if (CHECKPOINTS.includes(done - 1)) rssAfter.set(done - 1, at.rss.now);
      if (done === polls + 1) {
        watcher.close();
        resolve({ first, last: at, rssAfter });
      }
    });
    child.once('close', (code) => {
      watcher.close();
      reject(new Error(`the watch exited (${code}) after ${done} polls:\n${stderr.slice(-2000)}`));
    });
  });
  child.kill('SIGTERM');
  await exited;
  const events = stdout.split('\n').filter((line) => line.startsWith('{'));
  if (events.length > 0) throw new Error(`the watch told ${events.length} events of a view that did not change`);
  return figures;
}

const dir = mkdtempSync(join(tmpdir(), 'tkt-bench-watch-'));
const sandbox = await startSandbox(['--seed-tickets', values.tickets]);
try {
  const { token } = await login(sandbox.url);
  const env = cleanEnv({ TKT_URL: sandbox.url, TKT_TOKEN: token, TKT_CONFIG_DIR: dir });
  const timed = async (argv) => {
    const result = await runChild(process.execPath, argv, { env, measureRss: true, onStdout: () => {} });
    if (result.code !== 0) throw new Error(`${argv.join(' ')} exited ${result.code}: ${result.stderr.slice(-2000)}`);
    return { cpu: timedCpuSeconds(result.stderr), peakKb: result.peakKb };
  };
  const listRuns = [];
  const startRuns = [];
  const yardsticks = async (count) => {
    for (let round = 0; round < count; round++) {
      listRuns.push(await timed([bin, 'list', '--all', '--json', '--view', 'all-tickets']));
      startRuns.push(await timed([bin, 'list', '--limit', '1', '--json', '--view', 'all-tickets']));
    }
  };
  // The yardsticks before and after the watch: a machine whose load changes meanwhile weighs on both.
  await yardsticks(Math.ceil(rounds / 2));
  const { first, last, rssAfter } = await watchRun(env, dir);
  await yardsticks(Math.floor(rounds / 2));
  const listCpu = median(listRuns.map((run) => run.cpu));
  const startCpu = median(startRuns.map((run) => run.cpu));
  const listPeakKb = median(listRuns.map((run) => run.peakKb));
  const perPoll = (last.cpu - first.cpu) / polls;
  const wallPerPoll = (last.seconds - first.seconds) / polls;
  console.log(machineLine());
  console.log(`tkt watch --view all-tickets --state FILE, ${values.tickets} extra tickets, ${polls} polls back to back after the first:`);
  console.log(`  CPU per poll: ${(perPoll * 1000).toFixed(0)} ms (wall ${(wallPerPoll * 1000).toFixed(0)} ms)`);
  console.log(
    `  yardstick, tkt list --all --json of the view (one page walk, start included), median of ${rounds}: ${(listCpu * 1000).toFixed(0)} ms CPU; list --limit 1: ${(startCpu * 1000).toFixed(0)} ms`,
  );
  console.log(
    `  a poll is ${(perPoll / listCpu).toFixed(2)}x list --all's CPU, ${(perPoll / (listCpu - startCpu)).toFixed(2)}x its walk alone (less list --limit 1)`,
  );
  console.log(`  RSS after the first poll ${megabytes(first.rss.now)}, after ${polls} more ${megabytes(last.rss.now)} (peak ${megabytes(last.rss.peak)})`);
  console.log(`  RSS after that many more polls: ${[...rssAfter].map(([done, kb]) => `${done}: ${megabytes(kb)}`).join(', ')}`);
  console.log(`  yardstick, list --all --json peak RSS: ${megabytes(listPeakKb)}`);
  const heapText = (heap) => (heap === undefined ? 'no full collection yet' : `${heap.used.toFixed(1)} MB (${heap.committed.toFixed(1)} MB committed)`);
  console.log(`  heap after the latest full collection: by the first poll's end ${heapText(first.heap)}, by poll ${polls + 1}'s ${heapText(last.heap)}`);
} finally {
  await sandbox.stop();
  rmSync(dir, { recursive: true, force: true });
}
