// The layers of src/, checked by dependency-cruiser in `npm test` (docs/architecture.md):
//   entry -> commands -> features (fields | reading | listing | bulk | prompts | completion | dedup |
//     triage | account | raw-request | mcp | watch |
//     desk) -> cmdutil -> lookups -> context -> output -> model -> api
//     -> (config | util) -> errors
// A layer imports only layers after it (or its own folder), and nothing forms a cycle. The
// sandbox is a program of its own: it imports nothing of the client but leaf helpers of util/
// (files that import nothing, such as process-alive.ts: one copy, not two), and the client
// reaches it only through its entry (src/sandbox/index.ts, for `tkt sandbox`).
//
// dependency-cruiser reads TypeScript through the `typescript` package's compiler API, which
// TypeScript 7 (the compiler this project builds with) no longer has. So it cruises every file
// of src/ transpiled on its own by esbuild into build/layers/src/, with its type imports made
// plain imports first (esbuild would drop them): a type is a dependency like any other, so a
// layer may not name a type of a layer above it, and types form no cycle either.
import { cruise } from 'dependency-cruiser';
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'build', 'layers');

// In order, top to bottom; paths as dependency-cruiser names them (relative to OUT).
const LAYERS = [
  // The bundles' entries: the CLI, the start-up answers, `tkt __complete` (dist/complete.cjs), and
  // the commands' own bundles with their loader (dist/commands/, dist/bundles.cjs).
  ['entry', '^src/((program|commander-program|process-host|fast-start|cli-run|command-bundle|bundle-loader)\\.js|completion/entry\\.js)$'],
  ['commands', '^src/commands/'],
  ['features', '^src/(fields|reading|listing|bulk|prompts|completion|triage|account|raw-request|dedup|mcp|watch|desk)/'],
  // What commands share: text options, dry runs, the one-line answer of an action, kept files.
  ['cmdutil', '^src/cmdutil/'],
  ['lookups', '^src/lookups/'],
  ['context', '^src/context/'],
  ['output', '^src/output/'],
  // The ticket as data: the field table and the read model (the lookups take their kinds from it).
  ['model', '^src/model/'],
  ['api', '^src/api/'],
  ['base', '^src/(config|util)/'],
  ['errors', '^src/errors\\.js$'],
];
const SANDBOX = '^src/sandbox/';
const SANDBOX_ENTRY = '^src/sandbox/index\\.js$';
// What the sandbox may share with the client: helpers of util/ that import nothing (a rule below
// keeps them so).
const SHARED_LEAVES = '^src/util/process-alive\\.js$';

const anyOf = (patterns) => patterns.map((pattern) => `(${pattern})`).join('|');

const RULES = [
  ...LAYERS.slice(1).map(([name, path], index) => {
    // A file that matches an earlier layer belongs to it (completion/entry.ts is an entry).
    const above = anyOf(LAYERS.slice(0, index + 1).map(([, pattern]) => pattern));
    return {
      name: `${name}-imports-upward`,
      comment: `${name} may import only the layers below it`,
      severity: 'error',
      from: { path, pathNot: above },
      to: { path: above },
    };
  }),
  { name: 'no-cycle', severity: 'error', from: {}, to: { circular: true } },
  { name: 'unresolvable', severity: 'error', from: {}, to: { couldNotResolve: true } },
  {
    name: 'sandbox-apart',
    comment: 'the sandbox imports nothing of the client but leaf helpers of util/',
    severity: 'error',
    from: { path: SANDBOX },
    to: { path: '^src/', pathNot: anyOf([SANDBOX, SHARED_LEAVES]) },
  },
  {
    name: 'shared-leaf',
    comment: 'a helper the sandbox shares imports nothing of ours',
    severity: 'error',
    from: { path: SHARED_LEAVES },
    to: { path: '^src/' },
  },
  {
    name: 'sandbox-through-entry',
    comment: `the client uses the sandbox through ${SANDBOX_ENTRY} only`,
    severity: 'error',
    from: { pathNot: SANDBOX },
    to: { path: SANDBOX, pathNot: SANDBOX_ENTRY },
  },
];

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /(?<!\.d)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

// `import type { A }`, `import { type A, b }` and `export type { A } from` as plain imports, so
// that esbuild keeps them for dependency-cruiser (the names need not exist: nothing runs this).
const keepTypeImports = {
  name: 'keep-type-imports',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const contents = source
        .replace(/\bimport\s+type\s+(?=[{*\w])/g, 'import ')
        .replace(/\bexport\s+type\s+(?=[{*])/g, 'export ')
        .replace(/([{,]\s*)type\s+(?=\w+\s*(,|\}|\sas\s))/g, '$1');
      return { contents, loader: path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: sourceFiles(join(ROOT, 'src')),
  outbase: ROOT,
  outdir: OUT,
  bundle: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
  // fast-start.ts requires dist/complete.cjs, a file of the build, not of src/.
  logOverride: { 'unsupported-require-call': 'silent' },
  plugins: [keepTypeImports],
});

const { output } = await cruise(['src'], {
  baseDir: OUT,
  includeOnly: '^src/',
  validate: true,
  ruleSet: { forbidden: RULES },
  outputType: 'json',
});
const result = JSON.parse(output);
const asSource = (path) => path.replace(/\.js$/, '.ts');
const problems = result.summary.violations.map(
  ({ from, to, rule, cycle }) =>
    `${asSource(from)} -> ${asSource(to)}: ${rule.name}${cycle ? ` (${cycle.map(({ name }) => asSource(name)).join(' -> ')})` : ''}`,
);
// Folders form no cycle either (features of one layer may import each other, one way only).
// A file directly in src/ (errors.ts), or an entry of a bundle, counts as a folder of its own.
const ENTRY = new RegExp(LAYERS[0][1]);
const folderOf = (path) => (path.split('/').length > 2 && !ENTRY.test(path) ? path.split('/').slice(0, -1).join('/') : path);
const folderEdges = new Map();
for (const { source, dependencies } of result.modules) {
  for (const { resolved } of dependencies) {
    if (!resolved.startsWith('src/') || folderOf(resolved) === folderOf(source)) continue;
    if (!folderEdges.has(folderOf(source))) folderEdges.set(folderOf(source), new Set());
    folderEdges.get(folderOf(source)).add(folderOf(resolved));
  }
}
// Strongly connected folders (Tarjan): each group of two or more is a cycle.
const index = new Map();
const low = new Map();
const stack = [];
let counter = 0;
const visit = (folder) => {
  index.set(folder, counter);
  low.set(folder, counter);
  counter += 1;
  stack.push(folder);
  for (const next of folderEdges.get(folder) ?? []) {
    if (!index.has(next)) {
      visit(next);
      low.set(folder, Math.min(low.get(folder), low.get(next)));
    } else if (stack.includes(next)) low.set(folder, Math.min(low.get(folder), index.get(next)));
  }
  if (low.get(folder) !== index.get(folder)) return;
  const group = stack.splice(stack.indexOf(folder));
  if (group.length > 1) problems.push(`folders import each other: ${group.map(asSource).sort().join(', ')}`);
};
for (const folder of folderEdges.keys()) if (!index.has(folder)) visit(folder);
const inALayer = new RegExp(anyOf([...LAYERS.map(([, path]) => path), SANDBOX]));
for (const { source } of result.modules) {
  if (!inALayer.test(source)) problems.push(`${asSource(source)}: in no layer (add it to ${relative(ROOT, import.meta.filename)})`);
}

if (problems.length > 0) {
  console.error(`layer check (dependency-cruiser): ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(`layer check (dependency-cruiser): ${result.summary.totalCruised} files, no upward import, no cycle between files or folders`);
}
