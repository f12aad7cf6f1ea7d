// The layers of src/ (issue 13), checked by `npm test`:
//   commands -> (tickets | bulk | prompts | completion) -> (lookups | output) -> api -> (config | util) -> errors
// A layer imports only layers after it (or its own folder), and nothing forms a cycle. The
// sandbox is a program of its own: it imports nothing of the client but leaf helpers of util/
// (files that import nothing, such as process-alive.ts: one copy, not two), and the client
// reaches it only through its entry (src/sandbox/index.ts, for `tkt sandbox`).
//
// dependency-cruiser and madge both parse TypeScript through the `typescript` package's API,
// which TypeScript 7 (the compiler this project builds with) no longer has; the imports of our
// own files are simple enough to read here: `from '...'` and `import('...')`, relative, `.js`.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

const LAYERS = [
  // The bundles' entries: the CLI, the start-up answers, and `tkt __complete` (dist/complete.cjs).
  ['entry', /^((main|cli|start|context)\.ts|completion\/entry\.ts)$/],
  ['commands', /^commands\//],
  ['features', /^(tickets|bulk|prompts|completion|triage)\//],
  ['presentation', /^(lookups|output)\//],
  ['api', /^api\//],
  ['base', /^(config|util)\//],
  ['errors', /^errors\.ts$/],
];
const SANDBOX = /^sandbox\//;
const SANDBOX_ENTRY = 'sandbox/index.ts';

function layerOf(file) {
  const index = LAYERS.findIndex(([, pattern]) => pattern.test(file));
  return index === -1 ? undefined : index;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(SRC, path)] : [];
  });
}

// What a module loads when it runs: static imports and re-exports, dynamic imports. Type-only
// imports (`import type`, `export type`) are left out, as dependency-cruiser does by default:
// they vanish from the build, so the shared types of context.ts can be named anywhere.
const STATEMENT = /^\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]|\bimport\s*\(\s*['"](\.{1,2}\/[^'"]+)['"]/gms;

function importsOf(file) {
  const text = readFileSync(join(SRC, file), 'utf8');
  const targets = [];
  for (const match of text.matchAll(STATEMENT)) {
    if (match[2] !== undefined) continue;
    const target = match[3] ?? match[4] ?? match[5];
    targets.push(relative(SRC, resolve(SRC, dirname(file), target.replace(/\.js$/, '.ts'))));
  }
  return targets;
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((file) => [file, importsOf(file)]));
const problems = [];

for (const file of files) {
  if (!SANDBOX.test(file) && layerOf(file) === undefined) problems.push(`${file}: in no layer (add it to scripts/check-layers.mjs)`);
}
for (const [from, targets] of graph) {
  for (const to of targets) {
    if (!graph.has(to)) problems.push(`${from}: imports ${to}, which does not exist`);
    else if (SANDBOX.test(from) && !SANDBOX.test(to) && !(/^util\//.test(to) && graph.get(to).length === 0)) {
      problems.push(`${from} -> ${to}: the sandbox imports nothing of the client but leaf helpers of util/`);
    }
    else if (!SANDBOX.test(from) && SANDBOX.test(to) && to !== SANDBOX_ENTRY) problems.push(`${from} -> ${to}: the client uses the sandbox through ${SANDBOX_ENTRY} only`);
    else if (!SANDBOX.test(from) && !SANDBOX.test(to)) {
      const [a, b] = [layerOf(from), layerOf(to)];
      if (a !== undefined && b !== undefined && b < a) problems.push(`${from} -> ${to}: ${LAYERS[a][0]} may not import ${LAYERS[b][0]}`);
    }
  }
}

// Cycles: Tarjan's strongly connected components; every component of more than one file is one.
let counter = 0;
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
function connect(file) {
  index.set(file, counter);
  low.set(file, counter);
  counter += 1;
  stack.push(file);
  onStack.add(file);
  for (const to of graph.get(file) ?? []) {
    if (!graph.has(to)) continue;
    if (!index.has(to)) {
      connect(to);
      low.set(file, Math.min(low.get(file), low.get(to)));
    } else if (onStack.has(to)) low.set(file, Math.min(low.get(file), index.get(to)));
  }
  if (low.get(file) !== index.get(file)) return;
  const component = [];
  let member;
  do {
    member = stack.pop();
    onStack.delete(member);
    component.push(member);
  } while (member !== file);
  if (component.length > 1) problems.push(`import cycle: ${component.sort().join(', ')}`);
}
for (const file of files) if (!index.has(file)) connect(file);

if (problems.length > 0) {
  console.error(`layer check: ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(`layer check: ${files.length} files, no upward import, no cycle`);
}
