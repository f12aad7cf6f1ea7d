// What each command loads, against a budget (README, Performance): the built CLI is run as a
// child against a sandbox (in a process of its own), and a load trace (test/helpers/load-trace.ts)
// says which dist/ files and which Node built-ins the run loaded. A command that starts to import
// something heavy, or a built-in its request does not use, fails here with what it loaded.
// Budgets live in BUDGETS, one row per command line; re-tune them there when a change is meant.
// `npm test` builds dist/ first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validCreateArgs } from '../helpers/create-args.js';
import { createLoadTracer, readAllMetafiles, root, type LoadTrace, type LoadTracer } from '../helpers/load-trace.js';

// Built-ins no command here has any use for: HTTP/2, TLS for an http:// URL, processes, line
// reading of stdin (the IDs are arguments), compression, SQLite, and terminals (every run here is
// piped).
const NEVER = ['http2', 'tls', 'https', 'child_process', 'readline', 'zlib', 'sqlite', 'tty'];
// What undici's transport loaded with every request, and a direct request (node:http, src/api/transport.ts)
// loads none of: perf_hooks, v8 (undici's flag, src/api/undici-core.ts, behind a proxy only),
// assert, crypto (a form's boundary takes the global Web Crypto's random bytes alone,
// src/api/upload.ts) and, from Node 22 on, worker_threads (undici's webidl; node:util's exports
// load it too, which is why the bundle takes built-ins as objects, scripts/build.mjs).
const UNDICI = ['perf_hooks', 'v8', 'assert', 'crypto', 'worker_threads'];
// (net is not among them: Node loads it for a piped stdout.)
const NO_REQUEST = [...NEVER, ...UNDICI, 'http'];
const REQUEST_NEVER = [...NEVER, ...UNDICI];
// The bin's own answers write to file descriptor 1 (src/util/stdout-sync.ts): Node's stdout
// stream on a pipe would load net and streams, about 10 ms of a Tab press.
const FAST_ANSWER = [...NO_REQUEST, 'net', 'stream'];

interface Budget {
  /** The command line after `tkt`; each of the two traced runs asks again (a fresh ticket for a change). */
  argv: () => readonly string[];
  /** The most dist/ JavaScript the run may load, in KB (1,000 bytes). */
  distKB: number;
  /** The most dist/ files it may load. */
  files: number;
  /** Built-ins the run must not load. */
  forbidden: readonly string[];
  /** Read by the quick path (src/program.ts): commander is not loaded at all. */
  quick?: true;
}

/** Tickets of the sandbox's demo data, handed out one per run to the commands that change one. */
let openTickets: string[] = [];
const nextTicket = () => {
  const id = openTickets.shift();
  if (id === undefined) throw new Error('no open ticket left in the sandbox for this test');
  return id;
};
let uploadFile = '';

// The one table. Each budget is what the run loaded when it was set (in the comment, Node 20)
// plus about 5 KB for a help, 10 KB for a request (less than a table renderer or a prompt
// library), and two files: Node 20 loads ES modules one file at a time, so many small chunks
// cost more than their bytes (scripts/build.mjs, the core of main.js). What a request command
// loads is mostly main.js (140 KB) and the HTTP transport's chunk (44 KB): commander (126 KB)
// only where the quick path leaves the command line to it (src/program.ts); dist/start.cjs
// (50 KB, the prepared help) is for help, version and completion only.
const BUDGETS: Record<string, Budget> = {
  '--help': { argv: () => ['--help'], distKB: 55, files: 1, forbidden: FAST_ANSWER }, // 50.3 KB, 1 file
  '--version': { argv: () => ['--version'], distKB: 55, files: 1, forbidden: FAST_ANSWER }, // 50.3 KB, 1 file
  '__complete site': { argv: () => ['__complete', 'site'], distKB: 50, files: 1, forbidden: FAST_ANSWER }, // 45.4 KB, 1 file
  'show ID': { argv: () => ['show', '1013'], distKB: 231, files: 16, forbidden: REQUEST_NEVER, quick: true }, // 220.5 KB, 14 files
  'show ID --json': { argv: () => ['show', '1013', '--json'], distKB: 193, files: 7, forbidden: REQUEST_NEVER, quick: true }, // 182.2 KB, 5 files
  list: { argv: () => ['list'], distKB: 212, files: 13, forbidden: REQUEST_NEVER, quick: true }, // 201.7 KB, 11 files
  'close ID': { argv: () => ['close', nextTicket()], distKB: 222, files: 16, forbidden: REQUEST_NEVER, quick: true }, // 211.9 KB, 14 files (200.8 KB before this session's checks in the core)
  'pickup ID': { argv: () => ['pickup', nextTicket()], distKB: 199, files: 13, forbidden: REQUEST_NEVER, quick: true }, // 189.0 KB, 11 files
  'attach ID FILE': { argv: () => ['attach', '1013', uploadFile], distKB: 191, files: 6, forbidden: REQUEST_NEVER, quick: true }, // 180.6 KB, 4 files
  create: {
    argv: () => ['create', '-q', ...validCreateArgs()],
    distKB: 244, // 233.9 KB, 13 files (222.2 KB before the checks of repeated --cc, stdin readers and empty values)
    files: 14,
    forbidden: REQUEST_NEVER,
    quick: true,
  },
};

const bin = path.join(root, 'bin/tkt.js');
let sandbox: ChildProcess;
let tracer: LoadTracer;
let env: Record<string, string>;

/** Runs the bin to prepare the world (not traced); fails on a non-zero exit. */
function tkt(args: string[], input = ''): string {
  const child = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, input, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(`tkt ${args.join(' ')} exited ${child.status}:\n${child.stderr}`);
  return child.stdout;
}

beforeAll(async () => {
  tracer = createLoadTracer();
  // In its own process: the traced runs block this one.
  sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [banner] = (await once(sandbox.stdout!, 'data')) as [Buffer];
  const url = /http:\/\/\S+/.exec(String(banner))![0];
  env = { TKT_CONFIG_DIR: tracer.configDir, TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1' };
  tkt(['login', '--url', url, '-u', 'admin', '--password-stdin'], 'admin\n');
  openTickets = tkt(['list', '-q', '--status', 'Open']).trim().split('\n');
  // __complete answers from the lookup cache: a dry run that resolves a site fills it.
  tkt(['update', '1013', '--site', 'head', '--dry-run']);
  uploadFile = path.join(tracer.configDir, 'upload.log');
  writeFileSync(uploadFile, 'x'.repeat(100_000));
});

afterAll(() => {
  sandbox.kill();
  tracer.dispose();
});

/** The biggest bundle inputs of a trace, for a failure message that says what grew. */
function biggestInputs(trace: LoadTrace): string[] {
  const meta = readAllMetafiles();
  return trace.distFiles
    .flatMap((file) => Object.entries(meta.outputs[file]?.inputs ?? {}).map(([input, { bytesInOutput }]) => ({ input, bytesInOutput })))
    .sort((a, b) => b.bytesInOutput - a.bytesInOutput)
    .slice(0, 15)
    .map(({ input, bytesInOutput }) => `${(bytesInOutput / 1000).toFixed(1)} KB ${input}`);
}

describe('what each command loads', () => {
  it.each(Object.entries(BUDGETS))('tkt %s stays within its budget', (_name, budget) => {
    const trace = tracer.trace(budget.argv, env);
    const builtins = trace.builtins.filter((builtin) => !builtin.startsWith('internal/'));
    const measured = `${(trace.distBytes / 1000).toFixed(1)} KB in ${trace.distFiles.length} dist files; built-ins: ${builtins.join(' ')}`;

    expect(trace.code, trace.stderr).toBe(0);
    // The trace saw the run: every run loads one of the bin's entries.
    expect(trace.distFiles.filter((file) => ['dist/start.cjs', 'dist/complete.cjs', 'dist/main.js'].includes(file))).not.toEqual([]);
    expect(
      builtins.filter((builtin) => budget.forbidden.includes(builtin)),
      measured,
    ).toEqual([]);
    expect(trace.distBytes, `${measured}\nbiggest inputs:\n${biggestInputs(trace).join('\n')}`).toBeLessThanOrEqual(budget.distKB * 1000);
    expect(trace.distFiles.length, `${measured}:\n${trace.distFiles.join('\n')}`).toBeLessThanOrEqual(budget.files);
    if (budget.quick) expect(commanderIn(trace), measured).toEqual([]);
  });

  it('loads commander for a command line the quick path leaves to it (a missing argument)', () => {
    const trace = tracer.trace(() => ['show'], env);
    expect(trace.code).toBe(2);
    expect(commanderIn(trace)).not.toEqual([]);
  });
});

/** The dist/ files of a trace that hold commander. */
function commanderIn(trace: LoadTrace): string[] {
  const meta = readAllMetafiles();
  return trace.distFiles.filter((file) => Object.keys(meta.outputs[file]?.inputs ?? {}).some((input) => input.includes('node_modules/commander/')));
}
