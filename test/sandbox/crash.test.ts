// `tkt sandbox --data FILE` writes its state atomically: a crash (SIGKILL) while it is saving
// must leave the previous complete file, never half of a new one. The built sandbox runs as a
// child process under a stream of ticket creations and is killed several times: at random
// moments, and the instant a save's temp file appears (so the kill lands mid-write). After every
// kill the data file must parse, and the next start must load it and carry on from it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/tkt.js');
// Big enough (several MB of JSON) that a save takes long enough to be interrupted.
const SEED_TICKETS = 10_000;
const ROUNDS = 6;

let dir: string;
beforeAll(async () => {
  // `npm test` builds first; a bare `vitest run` of this file builds when dist is missing.
  if (!existsSync(join(ROOT, 'dist/main.js'))) await promisify(execFile)('node', ['scripts/build.mjs'], { cwd: ROOT });
  dir = mkdtempSync(join(tmpdir(), 'tkt-sandbox-crash-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Child {
  process: ChildProcess;
  url: string;
}

async function startChild(args: string[]): Promise<Child> {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let seen = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    seen += chunk;
    const url = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
    if (url) {
      child.stdout.resume();
      return { process: child, url };
    }
  }
  throw new Error(`the sandbox exited without printing its URL: ${seen}`);
}

async function kill(child: Child): Promise<void> {
  const exited = once(child.process, 'exit');
  child.process.kill('SIGKILL');
  await exited;
}

async function login(url: string): Promise<string> {
  const auth = await fetch(`${url}/api/Users/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'admin', Password: 'admin', RememberMe: false, Domain: '' }),
  });
  return ((await auth.json()) as { Token: string }).Token;
}

/** Creates tickets, four at a time, until the sandbox goes away. */
async function createUntilGone(url: string, token: string): Promise<void> {
  const worker = async (): Promise<void> => {
    for (;;) {
      const form = new FormData();
      form.append('Title', 'crash test');
      form.append('Description', 'x'.repeat(500));
      form.append('Requester', 'aberg');
      try {
        const response = await fetch(`${url}/api/TicketsApi/new`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
        if (response.status !== 201) throw new Error(`new answered ${response.status}`);
      } catch (error) {
        if (error instanceof TypeError) return; // fetch failed: the sandbox is gone
        throw error;
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Resolves when a save starts writing (its temp file, or the data file itself if it were written in place). */
async function saveStarted(): Promise<void> {
  const watcher = watch(dir);
  let timer: NodeJS.Timeout | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error('no save started within 10 s')), 10_000);
      watcher.on('change', (_event, name) => {
        if (/^state\.json(\.\d+\.tmp)?$/.test(String(name))) resolve();
      });
    });
  } finally {
    clearTimeout(timer);
    watcher.close();
  }
}

interface SavedState {
  tickets: { id: number }[];
  nextId: { ticket: number };
}

/** The data file must always parse; reading it is the check. */
function readSaved(dataFile: string): SavedState {
  return JSON.parse(readFileSync(dataFile, 'utf8')) as SavedState;
}

test('SIGKILL at random moments and mid-save never leaves a torn data file', { timeout: 60_000 }, async () => {
  const dataFile = join(dir, 'state.json');
  await kill(await startChild(['--data', dataFile, '--seed-tickets', String(SEED_TICKETS)]));
  let saved = readSaved(dataFile);
  expect(saved.tickets.length).toBeGreaterThan(SEED_TICKETS);
  let tornTempFiles = 0;

  for (let round = 0; round < ROUNDS; round++) {
    const child = await startChild(['--data', dataFile]);
    const token = await login(child.url);
    // It loaded the file: the last saved ticket is served.
    const lastId = Math.max(...saved.tickets.map((t) => t.id));
    expect(saved.nextId.ticket).toBe(lastId + 1);
    expect((await fetch(`${child.url}/api/TicketsApi/${lastId}`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    const creating = createUntilGone(child.url, token);
    // Odd rounds kill the instant a save opens its temp file, so the kill lands mid-write.
    if (round % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 400));
    else await saveStarted();
    await kill(child);
    await creating;

    const before = saved.tickets.length;
    saved = readSaved(dataFile);
    expect(saved.tickets.length).toBeGreaterThanOrEqual(before);
    // A temp file left behind is a save the kill interrupted; shorter than the file, it was torn.
    const tempFile = join(dir, `state.json.${child.process.pid}.tmp`);
    if (existsSync(tempFile)) {
      if (statSync(tempFile).size < statSync(dataFile).size) tornTempFiles++;
      rmSync(tempFile);
    }
  }
  expect(tornTempFiles).toBeGreaterThan(0);
});
