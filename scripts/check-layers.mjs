// The layers of src/, checked by dependency-cruiser in `npm test` (docs/architecture.md):
//   entry -> commands -> (tickets | bulk | prompts | completion | triage | account) -> lookups
//     -> context -> output -> model -> api -> (config | util) -> errors
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
  // The bundles' entries: the CLI, the start-up answers, and `tkt __complete` (dist/complete.cjs).
  ['entry', '^src/((program|process-host|fast-start)\\.js|completion/entry\\.js)$'],
  ['commands', '^src/commands/'],
  ['features', '^src/(tickets|bulk|prompts|completion|triage|account)/'],
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
const inALayer = new RegExp(anyOf([...LAYERS.map(([, path]) => path), SANDBOX]));
for (const { source } of result.modules) {
  if (!inALayer.test(source)) problems.push(`${asSource(source)}: in no layer (add it to ${relative(ROOT, import.meta.filename)})`);
}

if (problems.length > 0) {
  console.error(`layer check (dependency-cruiser): ${problems.length} problem(s)\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exitCode = 1;
} else {
  console.log(`layer check (dependency-cruiser): ${result.summary.totalCruised} files, no upward import, no cycle`);
}
