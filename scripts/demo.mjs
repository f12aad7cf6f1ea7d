#!/usr/bin/env node
// `npm run demo`: a newcomer's first look at tkt. Starts the bundled sandbox on a free port,
// logs in as the demo technician in a throw-away config folder, and walks a triage session,
// printing each command before running it. Stops the sandbox and removes the folder at the
// end, whatever happened; exits non-zero when a step failed.
//
// Each step is the printed command line itself, run by sh on a terminal of its own (a pty made
// by `script`, 100x40 unless the demo runs at a terminal, whose size it takes): what a
// technician sees is what the demo shows, tables and all, not the tab-separated lines tkt
// prints into a pipe. Without `script` the steps run piped, and the demo says so.
//
// Uses the built CLI (bin/tkt.js -> dist/): `npm run demo` builds first.
import { spawn, spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(root, 'bin', 'tkt.js');
const STEP_TIMEOUT_MS = 30_000;
const SANDBOX_START_TIMEOUT_MS = 15_000;
const SANDBOX_STOP_TIMEOUT_MS = 5_000;

class StepFailed extends Error {}

// Set by Ctrl-C or by a reader that went away (`npm run demo | head`): no further step starts,
// and the sandbox and the temp folder are still cleaned up.
let stopped;
let outputClosed = false;
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  outputClosed = true;
  stopped ??= new StepFailed('its output was closed');
});
const out = (text) => {
  if (!outputClosed) process.stdout.write(text);
};

/** Environment of every step: `tkt` on PATH, the temp config folder, and nothing inherited that
 *  would point tkt at another service or account. The pager is cat: nothing waits for a key. */
function demoEnv(demoDir) {
  const env = {
    ...process.env,
    TKT_CONFIG_DIR: join(demoDir, 'config'),
    PATH: `${join(demoDir, 'bin')}:${process.env.PATH ?? ''}`,
    PAGER: 'cat',
    SHELL: '/bin/sh',
  };
  for (const name of ['TKT_URL', 'TKT_TOKEN', 'TKT_PROFILE', 'TKT_PASSWORD']) delete env[name];
  // Colour and progress bars only for a person watching; a log gets plain text.
  if (!process.stdout.isTTY) env.NO_COLOR = '1';
  return env;
}

/** `tkt` as a user has it: a command on PATH, here this clone's built CLI on this Node. */
async function installTkt(demoDir) {
  await mkdir(join(demoDir, 'bin'));
  const shim = join(demoDir, 'bin', 'tkt');
  await writeFile(shim, `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(bin)} "$@"\n`);
  await chmod(shim, 0o755);
}

const scriptInstalled = spawnSync('sh', ['-c', 'command -v script'], { stdio: 'ignore' }).status === 0;

/** How `line` runs on a terminal of its own: util-linux `script` (Linux), BSD `script` (macOS); else undefined. */
function onTerminal(line) {
  if (!scriptInstalled) return undefined;
  const columns = process.stdout.isTTY ? process.stdout.columns : 100;
  const rows = process.stdout.isTTY ? process.stdout.rows : 40;
  const sized = `stty cols ${columns} rows ${rows} 2>/dev/null; ${line}`;
  return process.platform === 'linux' ? ['script', ['-qec', sized, '/dev/null']] : ['script', ['-q', '/dev/null', 'sh', '-c', sized]];
}

// What a step prints for its terminal (script's pty) is copied to the demo's own, so what asks
// that terminal something is kept back: the demo's terminal would answer into the input of the
// user's shell, which runs it once the demo ends (tkt show asks for the terminal's status after its
// pager, src/util/terminal-handoff.ts). The demo answers that one itself, as a terminal does, so
// that tkt does not wait for it. Into a log (not a terminal) no escape sequence goes at all.
const ESCAPE_SEQUENCE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|[\]P^_X][^\x07\x1b]*(?:\x07|\x1b\\)|[ -/]*[0-~])/g;
const QUERY = /^\x1b(?:\[[?>=]?[0-9;]*[nc]|\[[?]?[0-9;]*\$p|\[>[0-9;]*q|\[[0-9;]*t|\][^\x07\x1b]*\?)/;
const STATUS_REQUEST = '\x1b[5n';
const STATUS_ANSWER = '\x1b[0n';
// An escape sequence cut by the end of a chunk: held back until the rest comes.
const UNFINISHED = /\x1b(?:\[[0-?]*[ -/]*|[\]P^_X][^\x07\x1b]*(?:\x1b)?|[ -/]*)?$/;

/**
 * The filter of a step's output on its way to the demo's terminal (or log): returns what to show
 * of each chunk, and calls `answer` with what the step's terminal would answer.
 */
function terminalFilter(answer) {
  let held = '';
  return (chunk) => {
    let text = held + chunk;
    const unfinished = UNFINISHED.exec(text);
    held = unfinished?.[0] ?? '';
    text = text.slice(0, text.length - held.length);
    return text.replace(ESCAPE_SEQUENCE, (sequence) => {
      if (sequence === STATUS_REQUEST) answer(STATUS_ANSWER);
      return process.stdout.isTTY && !QUERY.test(sequence) ? sequence : '';
    });
  };
}

/** Resolves with the exit code; kills the child when it outlives the step's time. */
function exited(child, what) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new StepFailed(`${what}: no answer within ${STEP_TIMEOUT_MS / 1000}s`));
    }, STEP_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? (signal ? 128 : 1));
    });
  });
}

/**
 * Prints `$ line` and runs it as typed at a terminal. Returns what it printed (a terminal's line
 * ends made plain); a non-zero exit fails the demo.
 */
async function step(env, line) {
  if (stopped) throw stopped;
  out(`\n$ ${line}\n`);
  const terminal = onTerminal(line);
  const [command, args] = terminal ?? ['sh', ['-c', line]];
  // script copies its input to the step's terminal: the demo's answers, nothing typed.
  const child = spawn(command, args, { env, stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
  child.stdin?.on('error', () => undefined);
  const filter = terminalFilter((text) => child.stdin?.write(text));
  let printed = '';
  const show = (chunk) => {
    const text = filter(String(chunk)).replace(/\r\n/g, '\n');
    printed += text;
    out(text);
  };
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', show);
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  const code = await exited(child, line).finally(() => child.stdin?.end());
  if (code !== 0) throw new StepFailed(`"${line}" exited with ${code}`);
  return printed;
}

/** `tkt ARGS...` as a command line. */
function tkt(...args) {
  return `tkt ${args.map(quote).join(' ')}`;
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function firstId(text, what) {
  const match = /\b\d+\b/.exec(text);
  if (!match) throw new StepFailed(`${what} printed no ticket ID`);
  return match[0];
}

/** Runs `tkt sandbox --port 0` and waits for the URL it prints. */
async function startSandbox(env) {
  out('$ tkt sandbox --port 0 &\n');
  const child = spawn('tkt', ['sandbox', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const forwardErrors = (chunk) => process.stderr.write(chunk);
  child.stderr.on('data', forwardErrors);
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new StepFailed(`the sandbox printed no URL within ${SANDBOX_START_TIMEOUT_MS / 1000}s`)), SANDBOX_START_TIMEOUT_MS);
    const onData = (chunk) => {
      seen += chunk;
      const match = /listening on (https?:\/\/\S+)/i.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      out(seen);
      // Keep draining its output so it never blocks on a full pipe.
      child.stdout.resume();
      resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new StepFailed(`the sandbox exited (${code}) before printing its URL`));
    });
  });
  return { child, url, forwardErrors };
}

/**
 * Ctrl-C for the sandbox (it closes its server and sockets), then SIGKILL if it lingers. Its
 * "error: interrupted" line (exit 130) is the demo's own doing: not shown.
 */
async function stopSandbox({ child, forwardErrors }) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.stderr.off('data', forwardErrors);
  child.stderr.resume();
  const gone = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), SANDBOX_STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}

async function walkthrough(env, url) {
  await step(env, `echo tech | tkt login --url ${url} -u tech --password-stdin`);
  await step(env, tkt('whoami'));

  out('\n# Start of the day: what is overdue?\n');
  await step(env, tkt('list', '--view', 'my-overdue-tickets'));
  const overdue = firstId(await step(env, tkt('list', '--view', 'my-overdue-tickets', '--limit', '1', '-q')), 'list -q');
  await step(env, tkt('show', overdue));

  out('\n# A phone call: a new problem. Names work wherever IDs do.\n');
  const created = firstId(
    await step(
      env,
      tkt(
        'create',
        '--title',
        'Projector in room 4 flickers',
        '--description',
        'Started after the firmware update this morning.',
        '--requester',
        'Anna Berg',
        '--site',
        'Head Office',
        '--department',
        'IT',
        '--status',
        'Open',
        '--priority',
        'high',
        '-q',
      ),
    ),
    'create -q',
  );
  await step(env, tkt('pickup', created));
  await step(env, tkt('reply', created, '--message', 'Rolling the projector firmware back now; should be fixed within the hour.'));
  await step(env, tkt('resolve', created, '--details', 'Firmware rolled back to 2.3.1; flicker gone.'));
  await step(env, tkt('close', created, '--comments', 'Confirmed by phone.'));
  await step(env, tkt('show', created));

  out('\n# End of the day: close everything resolved, in one go.\n');
  await step(env, `${tkt('list', '-q', '--view', 'my-completed-tickets', '--all')} | ${tkt('close', '-')}`);
}

async function main() {
  const demoDir = await mkdtemp(join(tmpdir(), 'tkt-demo-'));
  const env = demoEnv(demoDir);
  let sandbox;
  let failure;
  const interrupt = () => {
    stopped ??= new StepFailed('interrupted');
  };
  process.on('SIGINT', interrupt);
  try {
    await installTkt(demoDir);
    out("# tkt demo: a local sandbox of the service, a technician's triage session.\n");
    if (!scriptInstalled) out('# (No `script` command here to give tkt a terminal: output shown as piped, tab-separated.)\n');
    sandbox = await startSandbox(env);
    await walkthrough(env, sandbox.url);
  } catch (error) {
    failure = stopped ?? error;
  } finally {
    if (sandbox) await stopSandbox(sandbox);
    await rm(demoDir, { recursive: true, force: true });
    process.off('SIGINT', interrupt);
  }
  // Nobody reads on: like tkt with a closed stdout, end quietly.
  if (outputClosed) return;
  if (failure) {
    process.stderr.write(`\ndemo failed: ${failure instanceof StepFailed ? failure.message : (failure.stack ?? failure)}\n`);
    process.exitCode = 1;
    return;
  }
  out(
    '\n# Done. The sandbox is stopped and the demo\'s settings are removed.\n# Next: "tkt sandbox" in one terminal, then "tkt login --url http://127.0.0.1:8642 -u tech".\n# Then "tkt triage": the queue full-screen, acting with single keys (? lists them).\n',
  );
}

await main();
