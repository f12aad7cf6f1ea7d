// Bundles src/program.ts into dist/ with code splitting, so that heavy modules
// (prompts, tables, the sandbox) become chunks loaded on first use.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildStart } from './build-start.mjs';
import { buildCommandBundles } from './build-commands.mjs';
import { repoPath } from './repo-path.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Built-ins that a dependency loads with itself but uses only on paths tkt never takes. Each
// costs milliseconds of every start, so that dependency gets a stand-in that loads the real
// built-in on first use:
// - commander's node:child_process, for executable subcommands (tkt has none), about 6 ms;
// - undici's node:crypto, for boundaries of FormData bodies (tkt writes its multipart bodies itself,
//   src/api/upload.ts): crypto's twenty-odd internal modules are the bulk of what reading a token costs.
const LAZY_BUILTINS = { commander: ['child_process'], undici: ['crypto'] };
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(child_process|crypto)$/ }, (args) => {
      const builtin = args.path.replace(/^node:/, '');
      const owner = Object.keys(LAZY_BUILTINS).find(
        (name) => LAZY_BUILTINS[name].includes(builtin) && new RegExp(`[\\\\/]node_modules[\\\\/]${name}[\\\\/]`).test(args.importer),
      );
      return owner === undefined ? undefined : { path: builtin, namespace: 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => ({
      // __esModule is answered without loading: esbuild's ESM interop asks for it at import.
      contents:
        `let real; const load = () => (real ??= require('node:${args.path}'));` +
        " module.exports = new Proxy({}, { get: (_, key) => (key === '__esModule' ? undefined : load()[key]), has: (_, key) => key in load() });",
      loader: 'js',
    }));
  },
};

// Modules a dependency loads with itself for features tkt never uses. In the bundle they are
// stand-ins that fail loudly if ever called (tests run the dependencies unbundled):
// - undici's HTTP/2 client: it loads node:http2 (and with it tls and all of crypto) when undici
//   loads, though undici speaks HTTP/2 only with its allowH2 option, which tkt never sets.
const FAIL = (feature) => `throw new Error('tkt: ${feature} is not bundled')`;
const UNUSED_MODULES = [
  { owner: 'undici', request: './client-h2.js', contents: `module.exports = function connectH2() { ${FAIL('HTTP/2')}; };` },
  // @inquirer/core's signal-exit, which installs handlers for SIGINT, SIGTERM and a dozen others
  // while a prompt is open and re-raises the signal when it is the last listener. tkt handles
  // signals in one place (src/cli-run.ts) and closes an open prompt through its abort signal.
  { owner: '@inquirer[\\/]core', request: 'signal-exit', contents: 'exports.onExit = function onExit() { return function remove() {}; };' },
  // The same for Ink and its restore-cursor (signal-exit 3, whose default export is the
  // function): tkt triage closes its screen and shows the cursor on the first signal through the
  // run's abort signal (src/triage/app.ts).
  { owner: '(ink|restore-cursor)', request: 'signal-exit', contents: 'module.exports = function onExit() { return function remove() {}; };' },
  // Ink's React DevTools bridge, loaded only when DEV=true, needs react-devtools-core, which tkt
  // does not ship: that variable then does nothing.
  { owner: 'ink', request: './devtools.js', contents: '' },
];
const unusedModules = {
  name: 'unused-modules',
  setup(build) {
    build.onResolve({ filter: /^(\.\/client-h2\.js|\.\/devtools\.js|signal-exit)$/ }, (args) => {
      const index = UNUSED_MODULES.findIndex(
        ({ owner, request }) => request === args.path && new RegExp(`[\\\\/]node_modules[\\\\/]${owner}[\\\\/]`).test(args.importer),
      );
      return index === -1 ? undefined : { path: String(index), namespace: 'unused-module' };
    });
    build.onLoad({ filter: /.*/, namespace: 'unused-module' }, (args) => ({ contents: UNUSED_MODULES[Number(args.path)].contents, loader: 'js' }));
  },
};

// Dependencies whose loading costs more than most of their uses, run on the first call of their
// default export instead (esbuild evaluates a module that is require()d lazily):
// - string-width builds an Intl.Segmenter and four Unicode property regexes when it loads,
//   \p{RGI_Emoji} alone about 22 ms (Node 20): tkt show, a table or a wrapped text load it, and
//   src/output/width.ts measures text that is Latin without it.
const LAZY_DEPENDENCIES = ['string-width'];
const lazyDependencies = {
  name: 'lazy-dependencies',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^(${LAZY_DEPENDENCIES.join('|')})$`) }, (args) =>
      args.namespace === 'file' && path.relative(process.cwd(), args.importer).startsWith('src')
        ? { path: args.path, namespace: 'lazy-dependency' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-dependency' }, (args) => ({
      contents: `export default function lazy(...args) { return require(${JSON.stringify(args.path)}).default(...args); }`,
      resolveDir: process.cwd(),
      loader: 'js',
    }));
  },
};

// `import process from 'node:process'` in an ES module dependency (chalk's supports-color, Ink,
// @inquirer/core) makes Node 20 build the built-in's ES module facade, which reads every property
// of process: opening stdin, stdout and stderr, 5-10 ms of the run that imports it. The process
// object is a global: they get it as it is, read only where used.
const processGlobal = {
  name: 'process-global',
  setup(build) {
    build.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-global' }));
    build.onLoad({ filter: /.*/, namespace: 'process-global' }, () => ({ contents: 'module.exports = process;', loader: 'js' }));
  },
};

// Every other built-in that bundled code imports as an ES module (tkt's own modules too) is the
// built-in's object, from process.getBuiltinModule, not its ES module facade: Node builds a facade
// by reading every export, and the getters behind them load what they stand for (node:util's
// parseArgs, diff and colours; node:fs's promises; on Node 24 worker_threads). For the built-ins
// main.js imports, the facades loaded 7 more of Node's modules on Node 20, and 20 more with
// 1.7 MB on Node 24. require() calls are left as they are: they get the object already.

const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));
const builtinObjects = {
  name: 'builtin-objects',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      // A dynamic import() stays Node's own: as an entry, a stand-in's namespace would hold the
      // object as its default export only.
      if (args.kind !== 'import-statement' || !BUILTINS.has(name)) return undefined;
      // A stand-in per importer (its path says which), so that it lands in the importer's output
      // rather than in a chunk of its own that every user of the built-in would load. Named by the
      // importer's path in the repository, not by the order of esbuild's concurrent calls, which
      // changes from build to build: the names decide chunk hashes, and the build is reproducible.
      return { path: `${name} for ${repoPath(args.importer)}`, namespace: 'builtin-object', pluginData: { name } };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin-object' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(`node:${args.pluginData.name}`)});`,
      loader: 'js',
    }));
  },
};

// --- One file for what every run loads (README, Performance) ---
// esbuild puts a module into dist/main.js only when no other entry (a module that something
// imports dynamically: each command, each lazily loaded feature) reaches it. The modules that
// src/program.ts loads statically are reached by most of them too, so esbuild split them into
// a chunk per set of entries that use them: about thirty files of a few hundred bytes each, and
// Node 20 loads ES modules one file at a time (measured: main.js with show's chain from 28
// files, 79 ms of CPU; the same code as one file, 55 ms). So those modules ("the core", below)
// live in main.js alone: main.js re-exports them, and the other modules import them from there.

// The core: what src/program.ts loads without a dynamic import, and the modules of src/ that at
// least CORE_SHARE command modules load statically (plans, ID parsing, the field table...), as
// long as they bring no dependency that the program does not load already.
const CORE_SHARE = 4;
const staticOnly = {
  name: 'static-only',
  setup: (probe) => probe.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined)),
};
const probe = (entryPoints) =>
  build({
    entryPoints,
    bundle: true,
    write: false,
    outdir: 'build/core-probe',
    format: 'esm',
    platform: 'node',
    metafile: true,
    logLevel: 'warning',
    define: { TKT_VERSION: '"0"' },
    plugins: [staticOnly],
  });

async function coreModules() {
  const program = Object.keys((await probe(['src/program.ts'])).metafile.inputs);
  const commands = readdirSync('src/commands')
    .filter((file) => file.endsWith('.ts'))
    .map((file) => `src/commands/${file}`);
  const users = new Map();
  for (const output of Object.values((await probe(commands)).metafile.outputs)) {
    for (const input of Object.keys(output.inputs)) users.set(input, (users.get(input) ?? 0) + 1);
  }
  const shared = [...users].filter(([input, count]) => count >= CORE_SHARE && input.startsWith('src/')).map(([input]) => input);
  const core = [...new Set([...program, ...shared])].filter((input) => input.startsWith('src/'));
  const all = Object.keys((await probe(core)).metafile.inputs);
  const added = all.filter((input) => !input.startsWith('src/') && !program.includes(input));
  if (added.length > 0) throw new Error(`the core of main.js would load ${added.join(', ')}: raise CORE_SHARE or make the import lazy`);
  return all.filter((input) => input.startsWith('src/'));
}

/** What each of `modules` exports (main.js re-exports them with export *, which has no default). */
async function exportsOf(modules) {
  const result = await build({
    entryPoints: modules,
    bundle: false,
    write: false,
    outdir: 'build/core-probe',
    outbase: '.',
    format: 'esm',
    metafile: true,
    logLevel: 'warning',
  });
  const names = new Map();
  for (const output of Object.values(result.metafile.outputs)) {
    if (output.exports.includes('default')) throw new Error(`${output.entryPoint}: the core of main.js re-exports named exports only`);
    names.set(output.entryPoint, output.exports);
  }
  return names;
}

const core = await coreModules();
const coreExports = await exportsOf(core);
const MAIN_ENTRY = 'tkt-main-entry';
const coreInMain = {
  name: 'core-in-main',
  setup(build) {
    const isCore = (file) => coreExports.has(repoPath(file));
    build.onResolve({ filter: new RegExp(`^${MAIN_ENTRY}$`) }, () => ({ path: MAIN_ENTRY, namespace: 'main-entry' }));
    build.onLoad({ filter: /.*/, namespace: 'main-entry' }, () => ({
      // Two core modules may export the same binding (a re-export): export * keeps it once.
      contents: core.map((file) => `export * from ${JSON.stringify(`./${file}`)};`).join('\n'),
      resolveDir: process.cwd(),
      loader: 'js',
    }));
    // A module outside the core importing one inside it gets the binding from main.js: a stand-in
    // of its own (its path names the importer), so that no stand-in is shared, and split, either.
    // So does a core module's dynamic import of another (a lazy import in code that main.js
    // holds): as an entry of its own, the module would be split out of main.js with what it imports.
    build.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.probing || args.namespace !== 'file' || !repoPath(args.importer).startsWith('src/')) return undefined;
      if (isCore(args.importer) && args.kind !== 'dynamic-import') return undefined;
      const resolved = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { probing: true } });
      if (resolved.errors.length > 0 || !isCore(resolved.path)) return undefined;
      const file = repoPath(resolved.path);
      return { path: `${file} from ${repoPath(args.importer)}`, namespace: 'core-ref', pluginData: { file } };
    });
    build.onLoad({ filter: /.*/, namespace: 'core-ref' }, (args) => ({
      contents: `export { ${coreExports.get(args.pluginData.file).join(', ')} } from 'tkt-main-js';`,
      loader: 'js',
    }));
    // Every other output is in dist/chunks/.
    build.onResolve({ filter: /^tkt-main-js$/ }, () => ({ path: '../main.js', external: true }));
  },
};

// CommonJS dependencies bundled into ESM still call require() for Node built-ins: each output
// starts with one. Only those that use it keep it (dropUnusedRequire).
const REQUIRE_BANNER = "import { createRequire as __tktCreateRequire } from 'node:module'; const require = __tktCreateRequire(import.meta.url);";

/**
 * The outputs that never say `require` lose the banner: createRequire turns the file's URL into
 * a path and works out its node_modules folders, for each of a run's dozen files, and that work
 * on a path as long as a global install's made V8 optimise Node's URL and path functions during
 * a single request (TurboFan's code: 3.5 MB more resident memory).
 */
function dropUnusedRequire(metafile) {
  for (const output of Object.keys(metafile.outputs).filter((file) => file.endsWith('.js'))) {
    const text = readFileSync(output, 'utf8');
    if (!text.startsWith(REQUIRE_BANNER)) throw new Error(`${output} does not start with the require banner`);
    const body = text.slice(REQUIRE_BANNER.length);
    if (!/\brequire\b/.test(body)) writeFileSync(output, body.replace(/^\n/, ''));
  }
}

/**
 * For each ES module it loads, Node looks for the package.json that says how to read it, from the
 * file's folder up: dist/chunks/, dist/, then the package's own. Each step turns a URL into a
 * path; a dozen modules a run at the depth of a global install made V8 optimise Node's URL and
 * path functions during a single request (TurboFan's code: 3.5 MB more resident memory). The
 * answer is given in the first folder looked at.
 */
function writeModuleScopes() {
  const scope = `${JSON.stringify({ description: 'dist/ holds ES modules: said here, so that Node looks no further up (scripts/build.mjs)', type: 'module' }, null, 2)}\n`;
  for (const dir of ['dist', 'dist/chunks']) writeFileSync(`${dir}/package.json`, scope);
}

// --- What a long-running command loads at its start (docs/architecture.md, "Long-running commands") ---
// The bundle imports most modules on first use, from files whose names carry a hash of their
// content: a newer tkt installed under a running `tkt mcp` has other names, and the old process's
// first use of a module it had not loaded yet fails. So such a command loads at its start
// (Context.loadAhead) every file it may import: the modules its own module reaches through static
// and dynamic imports, those of the Context's HTTP client and wait notice, and, where it can
// prompt, those of the prompts (src/process-host.ts), listed here in dist/load-ahead.json.
// Loading the files is not enough: Node resolves a dynamic import again, the file's existence
// included, the first time each module makes it (its cache is by importing module and specifier).
// So each file that imports others on first use exports its import() calls as they are written,
// `__tktLazyImports` (by the file each loads, from dist/), and the command makes them all at start.
// A long-running command is one whose run calls ctx.loadAhead(): the full CLI refuses one not listed.
const LONG_RUNNING = ['mcp', 'triage', 'watch', 'sandbox'];
// The modules the Context imports on first use (src/process-host.ts): the client's for every
// long-running command, the prompts' only where it can prompt.
const CONTEXT_CLIENT = ['src/api/http.ts', 'src/output/waiting.ts'];
const CONTEXT_PROMPTS = ['src/prompts/inquirer.ts', 'src/config/settings.ts'];
// The proxy's client (undici, half a megabyte), which the transport imports only for a request
// that goes through HTTP(S)_PROXY (src/api/transport.ts): loaded ahead only where the run's
// environment names a proxy. The environment is read once, at the start: a run without a proxy
// then never imports it.
const CONTEXT_PROXY = ['src/api/undici-core.ts'];
// What picks the command (its registry, the alias expansion, commander): the command running
// has been picked, so their dynamic imports, of every other command, are not followed.
const DISPATCH = ['src/program.ts', 'src/commands/index.ts'];

function writeLoadAheadLists(metafile) {
  // A core module imported from outside main.js is a stand-in (coreInMain): the module itself.
  const sourceOf = (input) => (input.startsWith('core-ref:') ? input.slice('core-ref:'.length).split(' from ')[0] : input);
  const hostImports = metafile.inputs['src/process-host.ts'].imports.filter((imported) => imported.kind === 'dynamic-import').map((imported) => imported.path);
  const unlisted = hostImports.map(sourceOf).filter((input) => ![...CONTEXT_CLIENT, ...CONTEXT_PROMPTS].includes(input));
  // As the host imports them (a core module through its stand-in, a file of its own).
  const hostPart = (modules) => hostImports.filter((input) => modules.includes(sourceOf(input)));
  if (unlisted.length > 0) throw new Error(`src/process-host.ts imports ${unlisted.join(', ')} on first use: list it in CONTEXT_CLIENT or CONTEXT_PROMPTS`);
  const reached = (roots) => {
    const seen = new Set();
    const pending = [...roots];
    for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
      if (seen.has(input)) continue;
      seen.add(input);
      // A stand-in is kept too: one imported dynamically is a file of its own (filesOf).
      if (sourceOf(input) !== input) pending.push(sourceOf(input));
      for (const imported of metafile.inputs[input]?.imports ?? []) {
        const onDemand = imported.kind === 'dynamic-import' && (DISPATCH.includes(input) || CONTEXT_PROXY.includes(sourceOf(imported.path)));
        if (!imported.external && !onDemand) pending.push(imported.path);
      }
    }
    return seen;
  };
  // The files that hold any of `inputs`, or stand for one as a dynamic import's entry (whose code
  // may sit in a chunk it imports), but main.js, loaded already.
  const filesOf = (inputs) =>
    Object.entries(metafile.outputs)
      .filter(
        ([output, { inputs: held, entryPoint }]) =>
          output.startsWith('dist/chunks/') && output.endsWith('.js') && (inputs.has(entryPoint) || Object.keys(held).some((input) => inputs.has(input))),
      )
      .map(([output]) => path.posix.relative('dist', output))
      .sort();
  const commands = Object.fromEntries(
    LONG_RUNNING.map((name) => {
      if (metafile.inputs[`src/commands/${name}.ts`] === undefined) throw new Error(`LONG_RUNNING: no src/commands/${name}.ts`);
      return [name, filesOf(reached([`src/commands/${name}.ts`, ...hostPart(CONTEXT_CLIENT)]))];
    }),
  );
  const missing = CONTEXT_PROXY.filter((input) => metafile.inputs[input] === undefined);
  if (missing.length > 0) throw new Error(`CONTEXT_PROXY: ${missing.join(', ')} is not in the bundle`);
  const lists = { commands, prompts: filesOf(reached(hostPart(CONTEXT_PROMPTS))), proxy: filesOf(reached(CONTEXT_PROXY)) };
  writeFileSync('dist/load-ahead.json', `${JSON.stringify(lists, null, 2)}\n`);
  for (const [output, { imports }] of Object.entries(metafile.outputs)) {
    const targets = imports.filter((imported) => imported.kind === 'dynamic-import' && !imported.external).map((imported) => imported.path);
    if (targets.length === 0) continue;
    const text = readFileSync(output, 'utf8');
    const loaders = targets.map((target) => {
      const specifier = `./${path.posix.relative(path.posix.dirname(output), target)}`;
      const call = `import(${JSON.stringify(specifier)})`;
      if (!text.includes(call)) throw new Error(`${output} has no ${call}: the load-ahead lists would not make its own import() calls`);
      return `${JSON.stringify(path.posix.relative('dist', target))}: () => ${call}`;
    });
    writeFileSync(output, `${text}export const __tktLazyImports = { ${loaders.join(', ')} };\n`);
  }
}

// Stale chunks from earlier builds would otherwise be shipped with the package.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: { main: MAIN_ENTRY },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  sourcemap: false,
  minify: false,
  metafile: true,
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  // React (bundled for `tkt triage`) picks its production build by NODE_ENV: decided here, not
  // by whatever the user's environment says.
  define: { TKT_VERSION: JSON.stringify(pkg.version), 'process.env.NODE_ENV': '"production"' },
  plugins: [coreInMain, lazyBuiltins, lazyDependencies, unusedModules, processGlobal, builtinObjects],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: REQUIRE_BANNER },
}).then(async (result) => {
  dropUnusedRequire(result.metafile);
  writeModuleScopes();
  writeLoadAheadLists(result.metafile);
  await checkCoreInMain(result.metafile);
  writeBuildReport(result.metafile);
  writeThirdPartyNotices(result.metafile);
});

// The bin's first stop, with help prepared from the CLI just built (scripts/build-start.mjs).
await buildStart({ version: pkg.version });
// Each request command's own bundle, for its table part written just now (scripts/build-commands.mjs).
// CommonJS, where a built-in is require()d as it is (no facade to avoid: processGlobal and
// builtinObjects are for ES modules; in a bundle, builtinObjects' stand-ins would each copy the
// whole built-in's properties, esbuild's interop for a CommonJS module imported as ESM).
await buildCommandBundles({ version: pkg.version, plugins: [lazyBuiltins, lazyDependencies, unusedModules] });

/**
 * The stand-ins import the core from '../main.js' by name: every other output must be in
 * dist/chunks/, and main.js must export every name of the core (export * drops a name that two
 * core modules export as different bindings: rename one).
 */
async function checkCoreInMain(metafile) {
  const misplaced = Object.keys(metafile.outputs).filter((output) => output !== 'dist/main.js' && !output.startsWith('dist/chunks/'));
  if (misplaced.length > 0) throw new Error(`outputs outside dist/chunks/: ${misplaced.join(', ')}`);
  // What Node sees (the metafile lists a name that export * dropped).
  const exported = new Set(Object.keys(await import(pathToFileURL('dist/main.js').href)));
  const missing = [...coreExports].flatMap(([file, names]) => names.filter((name) => !exported.has(name)).map((name) => `${name} (${file})`));
  if (missing.length > 0) throw new Error(`dist/main.js does not export ${missing.join(', ')}`);
}

// --- Package contents (README, Install): what the build writes besides the bundle. ---

// The metafile is for tests (what the entry loads); it lives outside dist/, which is shipped.
function writeBuildReport(metafile) {
  mkdirSync('build', { recursive: true });
  writeFileSync('build/meta.json', JSON.stringify(metafile));
}

// Packages published without their licence file (yoga-layout, under Ink): the text from their
// repository, kept in scripts/licences/NAME.txt.
function publishedWithoutLicence(name) {
  const file = new URL(`licences/${name.replace('/', '+')}.txt`, import.meta.url);
  return existsSync(file) ? file : undefined;
}

// The bundle contains other people's code, so the package ships each bundled package's licence,
// taken from exactly the inputs esbuild put into dist/ (a package dropped from the bundle drops out).
function writeThirdPartyNotices(metafile) {
  const packageDirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    // A plugin's stand-in (namespace:name) is tkt's code, though its name may give its importer's path.
    if (/^[a-z-]+:/.test(input)) continue;
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packageDirs.add(match[1]);
  }
  const sections = [...packageDirs].sort().map((dir) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((name) => /^(licen[cs]e|copying)([.-]|$)/i.test(name));
    const licencePath = licenceFile === undefined ? publishedWithoutLicence(manifest.name) : path.join(dir, licenceFile);
    if (licencePath === undefined) throw new Error(`${manifest.name}: no licence file to ship in THIRD-PARTY-NOTICES`);
    const text = readFileSync(licencePath, 'utf8').trim();
    const licence = manifest.license ?? manifest.licenses?.map((entry) => entry.type).join(' OR ');
    return `## ${manifest.name}@${manifest.version} (${licence})\n\n${text}\n`;
  });
  const header = `tkt bundles the following packages into dist/. Their licences follow.\n\n`;
  writeFileSync('dist/THIRD-PARTY-NOTICES.md', header + [...new Set(sections)].join('\n'));
}
