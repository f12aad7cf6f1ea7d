// What each command loads, against a budget (README, Performance): the built CLI is run as a
// child against a sandbox (in a process of its own), and a load trace (test/helpers/load-trace.ts)
// says which dist/ files and which Node built-ins the run loaded. A command that starts to import
// something heavy, or a built-in its request does not use, fails here with what it loaded.
// Budgets live in BUDGETS, one row per command line; re-tune them there when a change is meant.
// `npm test` builds dist/ first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
// assert, crypto (a form's boundary takes its random bytes from /dev/urandom, src/api/upload.ts) and, from Node 22 on, worker_threads (undici's webidl; node:util's exports
// load it too, which is why the bundle takes built-ins as objects, scripts/build.mjs).
const UNDICI = ['perf_hooks', 'v8', 'assert', 'crypto', 'worker_threads'];
// (net is not among them: Node loads it for a piped stdout.)
const NO_REQUEST = [...NEVER, ...UNDICI, 'http'];
// node:module is Node's compile cache, which the bin enables only for the files Node compiles
// itself (the prepared help, completion, the full CLI): a command's bundle keeps its own compiled
// code, and the module with the cache's set-up cost a request about 0.1 MB of memory. So did
// node:timers/promises, loaded by a run that never waits (src/util/sleep.ts takes it for a wait).
const REQUEST_NEVER = [...NEVER, ...UNDICI, 'module', 'timers/promises'];
// node:fs/promises (with readline and node:os: about 1.1 MB of memory on Node 24, a millisecond on
// Node 20) is for create --from's report file only: an upload and a --message file are read
// through node:fs's callbacks (src/util/fs-promises.ts).
const NO_FROM_FILE_NEVER = [...REQUEST_NEVER, 'fs/promises'];
// The bin's own answers write to file descriptor 1 (src/util/stdout-sync.ts): Node's stdout
// stream on a pipe would load net and streams, about 10 ms of a Tab press; a Tab press lists
// template names through node:fs's callbacks, not node:fs/promises (a millisecond, above).
const FAST_ANSWER = [...NO_REQUEST, 'net', 'stream', 'fs/promises'];
// On Node 22.1+ a Tab press also loads dist/bundles.cjs (19.3 KB), which finds the folder of Node's
// compile cache in the config folder (bin/tkt.js): Node 20 has no such cache.
const NODE_CACHE_FINDER = 'enableCompileCache' in (await import('node:module')) ? { KB: 20, files: 1 } : { KB: 0, files: 0 };

interface Budget {
  /** The command line after `tkt`; each of the two traced runs asks again (a fresh ticket for a change). */
  argv: () => readonly string[];
  /** The most dist/ JavaScript the run may load, in KB (1,000 bytes). */
  distKB: number;
  /** The most dist/ files it may load. */
  files: number;
  /** Built-ins the run must not load. */
  forbidden: readonly string[];
  /** Run from the command's own bundle (src/command-bundle.ts): neither dist/main.js nor commander is loaded. */
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

// The one table. Each budget is what the run loaded when it was last set (in the comment, Node
// 20, with the figure before the last change that moved it) plus a few KB (2-5: far less than a
// table renderer or a prompt library). A request command runs from its own bundle
// (dist/commands/NAME.cjs, src/command-bundle.ts), which the bin's loader (dist/bundles.cjs)
// compiles with the code cache of an earlier run: the bundle holds every module the command's
// common runs may need, those it needs on demand run only when reached (test/helpers/load-trace.ts
// says which ran), so its bytes are what a run without a cache parses. What is cold (prompts,
// --query, --dry-run, a proxy: scripts/build-commands.mjs) is in NAME.rest.cjs, which these runs
// must not load: their budget of files is the loader and the bundle, so that a common run that
// starts importing a cold module fails here. commander (126 KB) and dist/main.js only where the
// bundle leaves the command line to the full CLI; dist/start.cjs (50 KB, the prepared help) is
// for help, version and completion only.
const BUDGETS: Record<string, Budget> = {
  // 61.9 KB with the layout of help for a narrower terminal (src/output/reflow.ts, 5.9 KB).
  '--help': { argv: () => ['--help'], distKB: 78, files: 1, forbidden: FAST_ANSWER }, // 76.5 KB, 1 file (76.4 before update's help said what an update of values the ticket has already prints; budget 76 before each command's help pointed to the global options, where 74.2 was measured; budget 74 before list's help said where its one-page note goes when piped, where 73.4 was measured; budget 73 before an alias that starts with no tkt command was counted as one that cannot run, where 70.3 was measured when it was set; 69.6 before an empty or relative HOME taken as unset and no home folder made, src/config/paths.ts)
  '--version': { argv: () => ['--version'], distKB: 78, files: 1, forbidden: FAST_ANSWER }, // 76.5 KB, 1 file (76.4 before update's help said what an update of values the ticket has already prints; budget 76 before each command's help pointed to the global options, where 74.2 was measured; budget 74 before list's help said where its one-page note goes when piped, where 73.4 was measured; budget 73 before an alias that starts with no tkt command was counted as one that cannot run, where 70.3 was measured when it was set; 69.6 before an empty or relative HOME taken as unset and no home folder made, src/config/paths.ts)
  // A user's alias of a command: the prepared help of the command (tkt alias set mine ...).
  'mine --help': { argv: () => ['mine', '--help'], distKB: 78, files: 1, forbidden: FAST_ANSWER }, // 76.5 KB, 1 file (76.4 before update's help said what an update of values the ticket has already prints; budget 76 before each command's help pointed to the global options, where 74.2 was measured; budget 74 before list's help said where its one-page note goes when piped, where 73.4 was measured; budget 73 before an alias that starts with no tkt command was counted as one that cannot run, where 70.3 was measured when it was set; 69.6 before an empty or relative HOME taken as unset and no home folder made, src/config/paths.ts)
  // The template names (a folder and its templates read through node:fs's callbacks).
  '__complete template': {
    argv: () => ['__complete', 'template'],
    distKB: 86 + NODE_CACHE_FINDER.KB,
    files: 1 + NODE_CACHE_FINDER.files,
    forbidden: FAST_ANSWER,
  }, // 83.8 KB, 1 file (83.0 before a misspelt lookup name was said as meant, 105.2 KB with dist/bundles.cjs on Node 22+; 82.1 before the broken-UTF-8 hint's decoder on the settings' path; 81.4 before an alias that starts with no tkt command was one that cannot run; 79.2 before the templates a Tab press offers were read as templates list reads them; 78.0 before a loop of aliases was one that cannot run, which takes the command names; 76.9 before a failed stdout's words and a misspelt setting's suggestion; 74.8 before the CI review's fixes: the wrong base path's 404, the unreadable token)
  '__complete site': { argv: () => ['__complete', 'site'], distKB: 86 + NODE_CACHE_FINDER.KB, files: 1 + NODE_CACHE_FINDER.files, forbidden: FAST_ANSWER }, // 83.8 KB, 1 file (83.0 before a misspelt lookup name was said as meant, 105.2 KB with dist/bundles.cjs on Node 22+; 82.1 before the broken-UTF-8 hint's decoder on the settings' path; 81.4 before an alias that starts with no tkt command was one that cannot run; 79.2 before the templates a Tab press offers were read as templates list reads them; 78.0 before a loop of aliases was one that cannot run, which takes the command names; 76.9 before a failed stdout's words and a misspelt setting's suggestion; 74.8 before the CI review's fixes: the wrong base path's 404, the unreadable token)
  'show ID': { argv: () => ['show', '1013'], distKB: 351, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 349.4 KB, 2 files (346.9 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 344.6 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 340.2 before an HTML error page's headings and paragraphs were read (error-body.ts); 337.5 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 335.5 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 334.1 before a change's first signal gave up its reads in flight; 332.6 before the Unicode name of a character and the key-value layout's room were shared; 330.0 before a stdout failing in a batch let go was heard; 328.5 before a token tkt cannot read was shown to the service before asking for --by; 327.4 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 325.3 before a client's request deadlines shared one timer; 323.4 before idle connections were ended by one timer of their own; 322.6 before a failed login's folders were taken back; 320.5 before the check that each file is of the run's own build; 318.4 before the CI and screen-reader reviews' fixes: a wrong base path, the --json lines of a run failed before sending, an unreadable token; 347.7 before the cold features, the prompts, --query, --web, --dry-run and the proxy's client, moved to dist/commands/show.rest.cjs)
  'show ID --json': { argv: () => ['show', '1013', '--json'], distKB: 351, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 349.4 KB, 2 files (346.9 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 344.6 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 340.2 before an HTML error page's headings and paragraphs were read (error-body.ts); 337.5 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 335.5 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 334.1 before a change's first signal gave up its reads in flight; 332.6 before the Unicode name of a character and the key-value layout's room were shared; 330.0 before a stdout failing in a batch let go was heard; 328.5 before a token tkt cannot read was shown to the service before asking for --by; 327.4 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 325.3 before a client's request deadlines shared one timer; 323.4 before idle connections were ended by one timer of their own; 322.6 before a failed login's folders were taken back; 320.5 before the same; 318.4 before the reviews' fixes; 347.7 before the cold features moved to dist/commands/show.rest.cjs)
  list: { argv: () => ['list'], distKB: 375, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 373.9 KB, 2 files (369.0 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 366.7 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 363.4 before an HTML error page's headings and paragraphs were read (error-body.ts); 363.0 before a refusal for a ticket's state was said once in a bulk run (errors.ts, TicketStateError); 362.0 before later merges; 360.2 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 358.1 before the session's merges (a list --all --limit refusal, metadata -q, tkt's CSV header skipped on stdin, an error answer that says whether its body is JSON, arguments checked as UTF-8); 356.2 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 354.1 before a change's first signal gave up its reads in flight; 353.9 before tkt api's plan held its path as sent; 352.3 earlier; 350.7 before a terminal that hangs up was heard (its EIO); 349.3 before a token tkt cannot read was shown to the service before asking for --by; 348.1 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 346.0 before a client's request deadlines shared one timer; 344.2 before idle connections were ended by one timer of their own; 343.4 before a failed login's folders were taken back; 341.2 before the same; 339.1 before the reviews' fixes; 362.3 before the cold features moved to dist/commands/list.rest.cjs)
  // Global options before the command's word: the same bundle (src/bundle-loader.ts finds the word).
  '--profile default --json show ID': {
    argv: () => ['--profile', 'default', '--json', 'show', '1013'],
    distKB: 351,
    files: 2,
    forbidden: NO_FROM_FILE_NEVER,
    quick: true,
  }, // 349.4 KB, 2 files (346.9 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 344.6 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 340.2 before an HTML error page's headings and paragraphs were read (error-body.ts); 337.5 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 334.1 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 332.6 before the Unicode name of a character and the key-value layout's room were shared; 330.0 before this session's fixes of a stdout that cannot be written, a terminal that hangs up)
  'close ID': { argv: () => ['close', nextTicket()], distKB: 398, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 397.0 KB, 2 files (392.7 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 390.4 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 386.4 before an HTML error page's headings and paragraphs were read (error-body.ts); 385.7 before a refusal for a ticket's state was said once in a bulk run (errors.ts, TicketStateError); 384.2 before later merges; 382.3 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 380.0 before the IDs on stdin were read to their end after a bad line; 378.5 before an argument holding U+FFFD was checked for bytes that are not UTF-8 (src/cli-run.ts); 375.2 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 373.4 before an upload's progress was told through the HTTP client and the drafts' resend hint; 371.9 before a title and a subject were held to one line; 369.1 before a stdout failing in a batch let go was heard; 367.1 before a stdout that cannot be written was told as such; 365.5 before a token tkt cannot read was shown to the service before asking for --by; 364.1 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 362.0 before a client's request deadlines shared one timer; 359.6 before idle connections were ended by one timer of their own; 358.8 before a failed login's folders were taken back; 356.6 before the same; 353.7 before the reviews' fixes; 384.0 before the cold features moved to dist/commands/close.rest.cjs)
  '-q close ID': { argv: () => ['-q', 'close', nextTicket()], distKB: 398, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 397.0 KB, 2 files (392.7 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 390.4 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 386.4 before an HTML error page's headings and paragraphs were read (error-body.ts); 385.7 before a refusal for a ticket's state was said once in a bulk run (errors.ts, TicketStateError); 384.2 before later merges; 382.3 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 380.0 before the IDs on stdin were read to their end after a bad line; 378.5 before an argument holding U+FFFD was checked for bytes that are not UTF-8 (src/cli-run.ts); 375.2 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 373.4 before an upload's progress was told through the HTTP client and the drafts' resend hint; 371.9 before a title and a subject were held to one line; 369.1 before a stdout failing in a batch let go was heard; 367.1 before a stdout that cannot be written was told as such; 365.5 before a token tkt cannot read was shown to the service before asking for --by; 364.1 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 362.0 before a client's request deadlines shared one timer; 359.6 before idle connections were ended by one timer of their own; 358.8 before a failed login's folders were taken back; 356.6 before the same; 353.7 before the reviews' fixes; 384.0 before the cold features moved to dist/commands/close.rest.cjs)
  'pickup ID': { argv: () => ['pickup', nextTicket()], distKB: 369, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 367.4 KB, 2 files (361.9 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 359.6 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 356.9 before an HTML error page's headings and paragraphs were read (error-body.ts); 355.6 before the hints of a bulk run stopped early named where its own output lists the IDs (report.ts); 354.9 before a refusal for a ticket's state was said once in a bulk run (errors.ts, TicketStateError); 353.6 before a bulk run stopped at a service that answers nothing (exchange.ts counts the answers); 352.3 before later merges; 350.6 before the IDs on stdin were read to their end after a bad line; 348.5 before the session's merges (a list --all --limit refusal, metadata -q, tkt's CSV header skipped on stdin, an error answer that says whether its body is JSON, arguments checked as UTF-8); 346.4 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 344.3 before reads in flight were given up at a change command's first signal and an upload's progress was told; 344.1 before a saved draft's hint, create's description preview and Esc at a picker; 342.7 before the Unicode name of a character was shared; 340.3 before a stdout failing in a batch let go was heard; 337.9 before a stdout that cannot be written was told as such; 336.9 before a token tkt cannot read was shown to the service before asking for --by; 335.5 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 333.4 before a client's request deadlines shared one timer; 331.1 before idle connections were ended by one timer of their own; 330.2 before a failed login's folders were taken back; 328.0 before the same; 325.4 before the reviews' fixes; 355.0 before the cold features moved to dist/commands/pickup.rest.cjs)
  'attach ID FILE': { argv: () => ['attach', '1013', uploadFile], distKB: 320, files: 2, forbidden: NO_FROM_FILE_NEVER, quick: true }, // 318.1 KB, 2 files (315.8 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 312.4 before an HTML error page's headings and paragraphs were read (error-body.ts); 311.4 before a bulk run stopped at a service that answers nothing (exchange.ts counts the answers); 310.1 before later merges; 308.1 before the session's merges (a list --all --limit refusal, metadata -q, tkt's CSV header skipped on stdin, an error answer that says whether its body is JSON, arguments checked as UTF-8); 305.3 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 302.1 before its upload's progress at a terminal (output/upload-progress.ts); 300.2 before one hint for a change made (errors.ts); 298.7 before a terminal that hangs up was heard (its EIO); 297.8 before a token tkt cannot read was shown to the service before asking for --by; 296.5 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 294.4 before a client's request deadlines shared one timer; 292.6 before idle connections were ended by one timer of their own; 291.8 before a failed login's folders were taken back; 289.6 before the same; 287.2 before the reviews' fixes; 312.0 before the cold features moved to dist/commands/attach.rest.cjs)
  create: {
    argv: () => ['create', '-q', ...validCreateArgs()],
    distKB: 448, // 446.1 KB, 2 files (441.2 before this session's last merges: list items judged on their detail, HTML error pages and Retry-After read, ID ranges, Esc a cancel; 438.1 before a refusal's Retry-After and WWW-Authenticate were said (retry.ts, http-errors.ts); 435.2 before an HTML error page's headings and paragraphs were read (error-body.ts); 433.5 before a bulk run stopped at a service that answers nothing and a refusal for a ticket's state was said once (exchange.ts, errors.ts); 433.2 before later merges; 429.0 before this session's merges (the wait line on every request command, interactive update's question, a dedup key's ends, stdin read to its end, did-you-mean for views and lookups); 427.5 before an argument holding U+FFFD was checked for bytes that are not UTF-8 (src/cli-run.ts); 425.1 before the broken-UTF-8 hint's decoder, a directory refused on stdin and one in-doubt hint; 423.4 before a change's first signal gave up its reads in flight; 420.4 before a saved draft's hint, create's description preview and Esc at a picker; 418.2 before a title and a subject were held to one line; 416.5 before a terminal that hangs up was heard (its EIO); 415.0 before a token tkt cannot read was shown to the service before asking for --by; 413.7 before bulk requests skipped URL parsing and read the Keep-Alive hint once; 411.6 before a client's request deadlines shared one timer; 409.8 before idle connections were ended by one timer of their own; 409.0 before a failed login's folders were taken back; 406.8 before the check that each file is of the run's own build; 404.7 before the reviews' fixes; 475.3 before the cold features, the prompts, --from, --once, --dry-run and the proxy's client, moved to dist/commands/create.rest.cjs)
    files: 2,
    forbidden: REQUEST_NEVER,
    quick: true,
  },
};

const bin = path.join(root, 'bin/tkt.js');
// Records each call of node:path's walking functions (each reads the whole path, character by
// character) but those of Node's own start of the main module, and writes them at exit.
const PATH_WALKS_PRELOAD = `const path = require('node:path');
const walks = [];
for (const name of ['resolve', 'normalize', 'join', 'relative']) {
  const original = path[name];
  path[name] = function (...args) {
    const stack = new Error().stack;
    if (!stack.includes('node:internal/modules/run_main')) walks.push(name + '(' + args.join(', ') + ')' + stack.split('\\n').slice(2, 5).join(''));
    return original.apply(this, args);
  };
}
process.on('exit', () => require('node:fs').writeFileSync(process.env.TKT_TEST_WALKS, JSON.stringify(walks)));
`;
let walksPreload = '';
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
  // Its stderr is kept, not inherited: the "stopped by SIGTERM" of afterAll's kill is no failure.
  // Extra tickets: enough open ones for every run that changes one (each takes its own).
  sandbox = spawn(process.execPath, [bin, 'sandbox', '--port', '0', '--seed-tickets', '300'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let sandboxStderr = '';
  sandbox.stderr!.setEncoding('utf8').on('data', (text: string) => (sandboxStderr += text));
  const [banner] = (await Promise.race([
    once(sandbox.stdout!, 'data'),
    once(sandbox, 'exit').then(([code]) => Promise.reject(new Error(`the sandbox exited ${code} before it listened:\n${sandboxStderr}`))),
  ])) as [Buffer];
  const url = /http:\/\/\S+/.exec(String(banner))![0];
  env = { TKT_CONFIG_DIR: tracer.configDir, TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1' };
  tkt(['login', '--url', url, '-u', 'admin', '--password-stdin'], 'admin\n');
  openTickets = tkt(['list', '-q', '--status', 'Open', '--limit', '100']).trim().split('\n');
  tkt(['alias', 'set', 'mine', 'list --assignee @me']);
  // __complete template reads each template, to offer only those tkt can use.
  mkdirSync(path.join(tracer.configDir, 'templates'));
  writeFileSync(path.join(tracer.configDir, 'templates', 'printer-fixed.md'), '---\nsubject: "Fixed"\n---\nFixed.\n');
  writeFileSync(path.join(tracer.configDir, 'templates', 'u16.md'), Buffer.from('\ufeffBonjour\r\n', 'utf16le'));
  // __complete answers from the lookup cache: a dry run that resolves a site fills it.
  tkt(['update', '1013', '--site', 'head', '--dry-run']);
  uploadFile = path.join(tracer.configDir, 'upload.log');
  writeFileSync(uploadFile, 'x'.repeat(100_000));
  walksPreload = path.join(tracer.configDir, 'path-walks.cjs');
  writeFileSync(walksPreload, PATH_WALKS_PRELOAD);
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
    expect(trace.distFiles.filter((file) => ['dist/start.cjs', 'dist/complete.cjs', 'dist/bundles.cjs', 'dist/main.js'].includes(file))).not.toEqual([]);
    expect(
      builtins.filter((builtin) => budget.forbidden.includes(builtin)),
      measured,
    ).toEqual([]);
    expect(trace.distBytes, `${measured}\nbiggest inputs:\n${biggestInputs(trace).join('\n')}`).toBeLessThanOrEqual(budget.distKB * 1000);
    expect(trace.distFiles.length, `${measured}:\n${trace.distFiles.join('\n')}`).toBeLessThanOrEqual(budget.files);
    if (budget.quick) {
      expect(commanderIn(trace), measured).toEqual([]);
      expect(
        trace.distFiles.filter((file) => file === 'dist/main.js' || file.startsWith('dist/chunks/')),
        measured,
      ).toEqual([]);
      expect(
        trace.distFiles.filter((file) => file.startsWith('dist/commands/')),
        measured,
      ).toHaveLength(1);
    }
  });

  // A long-running command loads ahead what it may import later (docs/architecture.md,
  // "Long-running commands"); undici, half a megabyte, only a request through a proxy imports.
  it('loads the proxy client ahead for tkt mcp only where the environment names a proxy', () => {
    const meta = readAllMetafiles();
    const undiciFiles = (trace: LoadTrace) =>
      trace.distFiles.filter((file) => Object.keys(meta.outputs[file]?.inputs ?? {}).some((input) => input.includes('node_modules/undici/')));
    const noProxy = { HTTP_PROXY: '', HTTPS_PROXY: '', http_proxy: '', https_proxy: '' };

    const direct = tracer.trace(['mcp'], { ...env, ...noProxy });
    const proxied = tracer.trace(['mcp'], { ...env, ...noProxy, https_proxy: 'http://127.0.0.1:9' });

    expect(direct.code, direct.stderr).toBe(0);
    expect(proxied.code, proxied.stderr).toBe(0);
    // The trace saw the load ahead: the MCP server's own chunk is among the files.
    expect(direct.inputs).toContain('src/mcp/server.ts');
    expect(undiciFiles(direct)).toEqual([]);
    expect(undiciFiles(proxied)).not.toEqual([]);
  });

  it('loads commander for a command line the quick path leaves to it (a missing argument)', () => {
    const trace = tracer.trace(() => ['show'], env);
    expect(trace.code).toBe(2);
    expect(commanderIn(trace)).not.toEqual([]);
  });
});

describe('path walks', () => {
  // Node 22+ starts its Maglev compiler for its path code once a run's walks pass about 400
  // characters, and the first compile costs 2 MB of memory; Node's own start of bin/tkt.js
  // comes near that from an install path of 40-odd characters (README, Performance).
  it.each(Object.entries(BUDGETS).filter(([, budget]) => budget.quick))('tkt %s walks no path after Node has started the bin', (_name, budget) => {
    const walksFile = path.join(tracer.configDir, 'walks.json');
    const child = spawnSync(process.execPath, ['--require', walksPreload, bin, ...budget.argv()], {
      env: { ...process.env, ...env, TKT_TEST_WALKS: walksFile },
      encoding: 'utf8',
    });
    expect(child.status, child.stderr).toBe(0);
    expect(JSON.parse(readFileSync(walksFile, 'utf8'))).toEqual([]);
  });
});

// V8's second tier (Maglev, on from Node 22) compiles a function that a run calls thousands of
// times, and its first compile costs a run 2 MB of memory: a command's own work is far below that
// (a callback per pair of member names, run as model/ticket.ts loaded, was not; README, Performance).
describe('functions hot enough to compile', () => {
  it.each(Object.entries(BUDGETS).filter(([, budget]) => budget.quick))('tkt %s gets none compiled by V8 while it runs', (_name, budget) => {
    const child = spawnSync(process.execPath, ['--trace-opt', bin, ...budget.argv()], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout.split('\n').filter((line) => line.startsWith('[marking '))).toEqual([]);
  });
});

/** The dist/ files of a trace that hold commander. */
function commanderIn(trace: LoadTrace): string[] {
  const meta = readAllMetafiles();
  return trace.distFiles.filter((file) => Object.keys(meta.outputs[file]?.inputs ?? {}).some((input) => input.includes('node_modules/commander/')));
}
