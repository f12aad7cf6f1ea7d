#!/usr/bin/env node
// `npm run demo`: a newcomer's first look at tkt. Starts the bundled sandbox on a free port,
// logs in as the demo technician in a throw-away config folder, and walks a triage session,
// printing each command before running it. Stops the sandbox and removes the folder at the
// end, whatever happened; exits non-zero when a step failed.
//
// Uses the built CLI (bin/tkt.js -> dist/): `npm run demo` builds first.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = join(root, 'bin', 'tkt.js');
const STEP_TIMEOUT_MS = 30_000;
const SANDBOX_START_TIMEOUT_MS = 15_000;
const SANDBOX_STOP_TIMEOUT_MS = 5_000;

const out = (text) => process.stdout.write(text);

class StepFailed extends Error {}

/** Environment of every tkt run: the temp config folder, and nothing inherited that would
 *  point tkt at another service or account. */
function demoEnv(configDir) {
  const env = { ...process.env, TKT_CONFIG_DIR: configDir };
  for (const name of ['TKT_URL', 'TKT_TOKEN', 'TKT_PROFILE', 'TKT_PASSWORD']) delete env[name];
  return env;
}

function startTkt(args, env) {
  return spawn(process.execPath, [bin, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
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

/** Shows and collects what a child prints. */
function tee(child) {
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    out(chunk);
  });
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
  return () => stdout;
}

/**
 * Prints `$ tkt ...` and runs it; `shown` replaces the printed form (e.g. to show a pipe).
 * Returns the command's stdout; a non-zero exit fails the demo.
 */
async function tkt(env, args, { stdin = '', shown } = {}) {
  const display = shown ?? `tkt ${args.map(quote).join(' ')}`;
  out(`\n$ ${display}\n`);
  const child = startTkt(args, env);
  const stdout = tee(child);
  child.stdin.end(stdin);
  const code = await exited(child, display);
  if (code !== 0) throw new StepFailed(`"${display}" exited with ${code}`);
  return stdout();
}

/** `tkt A | tkt B`, as a shell runs it: B reads A's stdout through a real pipe. */
async function tktPipe(env, left, right) {
  const display = `tkt ${left.map(quote).join(' ')} | tkt ${right.map(quote).join(' ')}`;
  out(`\n$ ${display}\n`);
  const producer = startTkt(left, env);
  const consumer = startTkt(right, env);
  producer.stdin.end();
  producer.stdout.pipe(consumer.stdin);
  producer.stderr.on('data', (chunk) => process.stderr.write(chunk));
  tee(consumer);
  const [leftCode, rightCode] = await Promise.all([exited(producer, display), exited(consumer, display)]);
  if (leftCode !== 0 || rightCode !== 0) throw new StepFailed(`"${display}" exited with ${leftCode} | ${rightCode}`);
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
  const child = startTkt(['sandbox', '--port', '0'], env);
  child.stdin.end();
  child.stderr.on('data', (chunk) => process.stderr.write(chunk));
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
  return { child, url };
}

/** Ctrl-C for the sandbox (it closes its server and sockets), then SIGKILL if it lingers. */
async function stopSandbox(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('close', resolve));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), SANDBOX_STOP_TIMEOUT_MS);
  await gone;
  clearTimeout(timer);
}

async function walkthrough(env, url) {
  await tkt(env, ['login', '--url', url, '-u', 'tech', '--password-stdin'], {
    stdin: 'tech\n',
    shown: `echo tech | tkt login --url ${url} -u tech --password-stdin`,
  });
  await tkt(env, ['whoami']);

  out('\n# Start of the day: what is overdue?\n');
  await tkt(env, ['list', '--view', 'my-overdue-tickets']);
  const overdue = firstId(await tkt(env, ['list', '--view', 'my-overdue-tickets', '--limit', '1', '-q']), 'list -q');
  await tkt(env, ['show', overdue]);

  out('\n# A phone call: a new problem. Names work wherever IDs do.\n');
  const created = firstId(
    await tkt(env, [
      'create', '--title', 'Projector in room 4 flickers', '--description', 'Started after the firmware update this morning.',
      '--requester', 'Anna Berg', '--site', 'Head Office', '--department', 'IT', '--status', 'Open', '--priority', 'high', '-q',
    ]),
    'create -q',
  );
  await tkt(env, ['pickup', created]);
  await tkt(env, ['reply', created, '--message', 'Rolling the projector firmware back now; should be fixed within the hour.']);
  await tkt(env, ['resolve', created, '--details', 'Firmware rolled back to 2.3.1; flicker gone.']);
  await tkt(env, ['close', created, '--comments', 'Confirmed by phone.']);
  await tkt(env, ['show', created]);

  out('\n# End of the day: close everything resolved, in one go.\n');
  await tktPipe(env, ['list', '-q', '--view', 'my-completed-tickets', '--all'], ['close', '-']);
}

async function main() {
  const configDir = await mkdtemp(join(tmpdir(), 'tkt-demo-'));
  const env = demoEnv(configDir);
  let sandbox;
  let failure;
  const interrupt = () => {
    failure ??= new StepFailed('interrupted');
  };
  process.on('SIGINT', interrupt);
  try {
    out('# tkt demo: a local sandbox of the service, a technician\'s triage session.\n');
    sandbox = await startSandbox(env);
    await walkthrough(env, sandbox.url);
  } catch (error) {
    failure ??= error;
  } finally {
    if (sandbox) await stopSandbox(sandbox.child);
    await rm(configDir, { recursive: true, force: true });
    process.off('SIGINT', interrupt);
  }
  if (failure) {
    process.stderr.write(`\ndemo failed: ${failure instanceof StepFailed ? failure.message : failure.stack ?? failure}\n`);
    process.exitCode = 1;
    return;
  }
  out('\n# Done. The sandbox is stopped and the demo\'s settings are removed.\n# Next: "tkt sandbox" in one terminal, then "tkt login --url http://127.0.0.1:8642 -u tech".\n# Then "tkt triage": the queue full-screen, acting with single keys (? lists them).\n');
}

await main();
