// Builds a bundle of its own for each command the quick path reads (dist/commands/NAME.cjs, entry
// src/command-bundle.ts, and what is cold in it, NAME.rest.cjs), the dependencies they load on
// demand (dist/vendor/NAME.cjs), and the
// bin's loader of both (dist/bundles.cjs, src/bundle-loader.ts), which compiles them with V8's
// code cache (docs/architecture.md, "Command bundles"). Runs after the full CLI is built:
// dist/argv-table.json gives the commands and each bundle carries its own part of it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { build, transformSync } from 'esbuild';
import { repoPath } from './repo-path.mjs';

// Commands that keep to the full CLI: triage draws with Ink, which awaits at its top level (no
// CommonJS for it); mcp, sandbox and watch run for hours, whose start is not worth a copy, and
// the full CLI loads ahead what they import later (Context.loadAhead), where a bundle would take
// a newer tkt's vendor files, installed under it, by their unchanging names; help and completion
// read the whole program (ActionOptions.readsProgram); the bin answers __complete itself.
const FULL_CLI_ONLY = ['triage', 'mcp', 'sandbox', 'watch', 'help', 'completion', '__complete'];

// A package that src/ imports is a file of its own (dist/vendor/), loaded when first needed:
// bundled into each command, the HTTP proxy's client, the prompts and the query language would
// be parsed by every run of a command that may need them (a run without a cache parses the
// whole file). Scoped packages share a file per scope (@inquirer/prompts and @inquirer/core).
const vendorOf = (specifier) =>
  specifier
    .split('/')[0]
    .replace(/^@/, '')
    .replace(/[^a-z0-9-]/gi, '-');
const BUILTINS = new Set(builtinModules);

/** How one file of dist/ asks for another (`tkt-bundle:vendor/undici`): src/bundle-loader.ts loads it once a run. */
const BUNDLE_PREFIX = 'tkt-bundle:';

/**
 * Imports of packages from src/ become `require('tkt-bundle:vendor/NAME')[SPECIFIER]`, recorded in
 * `wanted`. The stand-in is CommonJS, which esbuild, like Node, hands to an ES module of a
 * "type": "module" package (src/) as its default export whole: right for a CommonJS package
 * (undici's files), wrong for an ES module's default export. That one import is refused here.
 */
function vendorStandIns(wanted) {
  return {
    name: 'vendor-stand-ins',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${BUNDLE_PREFIX}`) }, (args) => ({ path: args.path, external: true }));
      build.onResolve({ filter: /^[@a-z]/ }, async (args) => {
        if (
          args.pluginData?.probing ||
          args.namespace !== 'file' ||
          !/[\\/]src[\\/]/.test(args.importer) ||
          args.path.startsWith('node:') ||
          BUILTINS.has(args.path)
        )
          return undefined;
        await refuseDefaultImportOfEsm(build, args);
        const vendor = vendorOf(args.path);
        if (!wanted.has(vendor)) wanted.set(vendor, new Set());
        wanted.get(vendor).add(args.path);
        return { path: args.path, namespace: 'vendor-stand-in', pluginData: { vendor } };
      });
      build.onLoad({ filter: /.*/, namespace: 'vendor-stand-in' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`${BUNDLE_PREFIX}vendor/${args.pluginData.vendor}`)})[${JSON.stringify(args.path)}];`,
        loader: 'js',
      }));
    },
  };
}

async function refuseDefaultImportOfEsm(build, args) {
  const source = readFileSync(args.importer, 'utf8');
  const quoted = args.path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  if (!new RegExp(`import\\s+(?!type\\b)[\\w$]+\\s*(,[^;]*)?from\\s*['"]${quoted}['"]`).test(source)) return;
  const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { probing: true } });
  if (resolved.errors.length > 0 || !isEsmFile(resolved.path)) return;
  throw new Error(`${args.importer}: the default import of ${args.path}, an ES module, would be its whole namespace in a command's bundle; import it by name`);
}

/** An ES module by Node's rules: .mjs, or .js under a package.json that says "type": "module". */
function isEsmFile(file) {
  if (file.endsWith('.mjs')) return true;
  if (file.endsWith('.cjs')) return false;
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module';
  }
  return false;
}

// A dynamic import() of a built-in (child_process for an editor, a pager) would stay an import()
// in CommonJS, which vm.Script cannot run: it becomes the built-in's object, taken when reached.
const dynamicBuiltins = {
  name: 'dynamic-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, (args) =>
      args.kind === 'dynamic-import' && BUILTINS.has(args.path.replace(/^node:/, '')) ? { path: args.path, namespace: 'dynamic-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'dynamic-builtin' }, (args) => ({
      contents: `module.exports = process.getBuiltinModule(${JSON.stringify(args.path.startsWith('node:') ? args.path : `node:${args.path}`)});`,
      loader: 'js',
    }));
  },
};

const common = (plugins, define) => ({
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  // The loader reads each bundle as Latin-1 (src/bundle-loader.ts): esbuild escapes the rest.
  charset: 'ascii',
  metafile: true,
  write: false,
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'error' },
  define,
  plugins,
});

/** Checks what the loader takes for granted of a build's one output, and returns its text. */
function checked(result) {
  const [output] = result.outputFiles;
  // A bundle runs through vm.Script, which has no loader for ES modules (and import.meta is an
  // error: logOverride below).
  const dynamic = Object.values(result.metafile.outputs).flatMap((meta) => meta.imports.filter((entry) => entry.kind === 'dynamic-import'));
  if (dynamic.length > 0) throw new Error(`${output.path} imports ${dynamic.map((entry) => entry.path).join(', ')} with import(): a bundle is CommonJS only`);
  return commentsInAscii(output);
}

/**
 * The output with every character outside ASCII made "?". With charset "ascii", esbuild escapes
 * them in strings, templates, regular expressions and names, so what is left is in comments
 * it kept; the same program with its comments dropped proves it.
 */
function commentsInAscii(output) {
  const text = output.text.replace(/[^\x00-\x7f]/g, '?');
  const code = (source) => transformSync(source, { minifyWhitespace: true, legalComments: 'none', charset: 'ascii' }).code;
  if (text !== output.text && code(text) !== code(output.text)) throw new Error(`${output.path}: characters outside ASCII outside comments`);
  return text;
}

// --- Two files a command: what its runs run, and the rest (docs/architecture.md, "Command bundles") ---
// A run without a code cache parses the whole file it loads (V8 preparses each function it does
// not run): about 0.01 ms a KB on Node 20, a tenth of what show --json cost over its floor. So
// what a command imports only for a person at a prompt, for an option or for a proxy (COLD, and
// all it alone imports) is a second file, NAME.rest.cjs, loaded on the first such import; what
// its common runs import on demand stays in the first (a second file costs a run that loads it
// about 0.8 MB of memory, one more young collection: measured). Each module is in one file only
// (one instance: its classes, its state): the rest takes the first file's modules it uses from
// that file's registry, and the first file its import() of a cold module from the rest's.
const COLD = [
  'src/prompts/inquirer.ts', // a prompt: a person answering
  'src/prompts/fill.ts', // the questions for values not given
  'src/prompts/editor.ts', // an editor
  'src/output/query.ts', // --query
  'src/desk/browser.ts', // --web
  'src/api/undici-core.ts', // HTTP(S)_PROXY
  'src/cmdutil/dry-run.ts', // --dry-run
  'src/bulk/create-from.ts', // create --from
  'src/dedup/create.ts', // create --once
  'src/cmdutil/argument-encoding.ts', // an argument that holds U+FFFD
];
// A module renamed or moved would silently stop being cold: the build says so instead.
const gone = COLD.filter((input) => !existsSync(input));
if (gone.length > 0) throw new Error(`COLD in scripts/build-commands.mjs names ${gone.join(', ')}, which src/ no longer has`);
const CORE_REGISTRY = '__tktModules';
const REST_REGISTRY = 'modules';

/** A module of a file on disk (rather than a plugin's stand-in): one of src/ or of a package. */
const isFileInput = (input) => /^(src|node_modules)\//.test(input);

/**
 * The command's modules in two tiers, from the graph of its whole bundle: `core`, what the entry
 * imports but through COLD (`loaded`: what it imports statically, run as the file loads); `rest`,
 * everything else. `restRoots`: the modules of the rest the core imports (COLD's, dynamically);
 * `exposed`: the core's modules the rest imports.
 */
function tiersOf(metafile, entry) {
  const reach = (roots, follows) => {
    const seen = new Set();
    const pending = [...roots];
    for (let input = pending.pop(); input !== undefined; input = pending.pop()) {
      if (seen.has(input)) continue;
      seen.add(input);
      for (const imported of metafile.inputs[input]?.imports ?? []) if (!imported.external && follows(imported)) pending.push(imported.path);
    }
    return seen;
  };
  const loaded = reach([entry], (imported) => imported.kind !== 'dynamic-import');
  const core = reach([entry], (imported) => imported.kind !== 'dynamic-import' || !COLD.includes(imported.path));
  const rest = new Set([...reach([entry], () => true)].filter((input) => !core.has(input)));
  const importsOf = (from, to) =>
    [
      ...new Set(
        [...from].flatMap((input) =>
          metafile.inputs[input].imports.filter((imported) => !imported.external && to(imported.path)).map((imported) => imported.path),
        ),
      ),
    ].sort();
  const exposed = importsOf(rest, (input) => isFileInput(input) && core.has(input));
  // The rest gets them as namespaces: an ES module's default export would be lost on the way.
  const unfit = exposed.filter((input) => !input.startsWith('src/') || /^export default\b/m.test(readFileSync(input, 'utf8')));
  if (unfit.length > 0)
    throw new Error(
      `${entry}: a cold module imports ${unfit.join(', ')}, which the first file cannot lend (a package, or a default export): import it from src/ by name`,
    );
  return { core, loaded, rest, restRoots: importsOf(core, (input) => isFileInput(input) && rest.has(input)), exposed };
}

/**
 * An entry's export of `modules` by path, each a function that returns the module's namespace:
 * one that `loaded` holds, run as the file loads, by a namespace import (as it is, no more than its
 * exports listed); any other run on first call (esbuild's wrapper of a module that require() takes).
 */
function registryOf(name, modules, loaded = new Set()) {
  const namespace = (index) => `tktModule${index}`;
  const imports = modules.flatMap((input, index) => (loaded.has(input) ? [`import * as ${namespace(index)} from ${JSON.stringify(`./${input}`)};`] : []));
  const entries = modules.map(
    (input, index) => `  ${JSON.stringify(input)}: () => ${loaded.has(input) ? namespace(index) : `require(${JSON.stringify(`./${input}`)})`},`,
  );
  return [...imports, `export const ${name} = {`, ...entries, '};'].join('\n');
}

/**
 * A plugin that replaces each import of a module in `modules` (paths from the repository's root)
 * by a stand-in that takes it from dist/`bundle`.cjs's registry `registry`.
 */
function fromTier(namespace, modules, bundle, registry) {
  return {
    name: namespace,
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.probing || args.path.startsWith(BUNDLE_PREFIX) || args.kind === 'entry-point') return undefined;
        const resolved = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { probing: true },
        });
        if (resolved.errors.length > 0 || resolved.namespace !== 'file') return undefined;
        const input = repoPath(resolved.path);
        return modules.has(input) ? { path: input, namespace } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`${BUNDLE_PREFIX}${bundle}`)}).${registry}[${JSON.stringify(args.path)}]();`,
        loader: 'js',
      }));
    },
  };
}
const toRest = (rest, bundle) => fromTier('command-rest', rest, bundle, REST_REGISTRY);
const toCore = (core, bundle) => fromTier('command-core', core, bundle, CORE_REGISTRY);

// The loader compiles each file as it is (src/bundle-loader.ts): a CommonJS module, in the function
// Node wraps one in, written here so that the loader copies no text.
const wrapped = (text) => `(function (exports, require, module, __filename, __dirname) {${text}\n})`;

const hashOf = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

export async function buildCommandBundles({ version, plugins }) {
  const table = JSON.parse(readFileSync('dist/argv-table.json', 'utf8'));
  const define = { TKT_VERSION: JSON.stringify(version), 'process.env.NODE_ENV': '"production"' };
  const commands = table.commands.filter((command) => !FULL_CLI_ONLY.includes(command.names[0]));
  const wanted = new Map();
  const outputs = new Map();
  const metafiles = [];
  mkdirSync('dist/commands', { recursive: true });
  mkdirSync('dist/vendor', { recursive: true });

  await Promise.all(
    commands.map(async (command) => {
      const name = command.names[0];
      // The command's part of the table: the program's options, and the one command.
      const own = { options: table.options, digitShort: table.digitShort, commands: [command] };
      const options = (entry, tierPlugins, outfile) =>
        build({
          ...common([...tierPlugins, dynamicBuiltins, ...plugins, vendorStandIns(wanted)], { ...define, TKT_ARGV_TABLE: JSON.stringify(own) }),
          stdin: { contents: entry.join('\n'), resolveDir: process.cwd(), sourcefile: `command-bundle-${name}.ts`, loader: 'ts' },
          outfile,
        }).catch((error) => {
          // Ink awaits at its top level, which CommonJS cannot: such a command stays with the full CLI.
          throw new Error(`the bundle of tkt ${name} does not build (a module CommonJS cannot hold? then list ${name} in FULL_CLI_ONLY): ${error.message}`);
        });
      const entry = [
        `import { bundleEntry } from './src/command-bundle.ts';`,
        `import * as command from './src/commands/${name}.ts';`,
        `export const run = bundleEntry(${JSON.stringify(name)}, command, TKT_ARGV_TABLE);`,
      ];
      // The command whole, for its graph of modules; the file itself when nothing is left for a rest.
      const whole = await options(entry, [], `dist/commands/${name}.cjs`);
      const tiers = tiersOf(whole.metafile, `command-bundle-${name}.ts`);
      if (tiers.restRoots.length === 0) {
        metafiles.push(whole.metafile);
        outputs.set(`commands/${name}`, checked(whole));
        return;
      }
      const coreName = `commands/${name}`;
      const restName = `commands/${name}.rest`;
      const [core, rest] = await Promise.all([
        options([...entry, registryOf(CORE_REGISTRY, tiers.exposed, tiers.loaded)], [toRest(tiers.rest, restName)], `dist/${coreName}.cjs`),
        options([registryOf(REST_REGISTRY, tiers.restRoots)], [toCore(tiers.core, coreName)], `dist/${restName}.cjs`),
      ]);
      const referred = Object.keys(rest.metafile.inputs)
        .filter((input) => input.startsWith('command-core:'))
        .map((input) => input.slice('command-core:'.length));
      const unexposed = referred.filter((input) => !tiers.exposed.includes(input));
      if (unexposed.length > 0) throw new Error(`${restName} takes ${unexposed.join(', ')} from ${coreName}, which does not expose it`);
      metafiles.push(core.metafile, rest.metafile);
      outputs.set(coreName, checked(core));
      outputs.set(restName, checked(rest));
    }),
  );

  await Promise.all(
    [...wanted].map(async ([vendor, specifiers]) => {
      const result = await build({
        ...common(plugins, define),
        stdin: {
          contents: `module.exports = {\n${[...specifiers].map((specifier) => `  ${JSON.stringify(specifier)}: require(${JSON.stringify(specifier)}),`).join('\n')}\n};`,
          resolveDir: process.cwd(),
          sourcefile: `vendor-${vendor}.js`,
          loader: 'js',
        },
        outfile: `dist/vendor/${vendor}.cjs`,
      }).catch((error) => {
        throw new Error(
          `the vendor file of ${[...specifiers].join(', ')} does not build (a package CommonJS cannot hold? then list the commands that import it in FULL_CLI_ONLY): ${error.message}`,
        );
      });
      metafiles.push(result.metafile);
      outputs.set(`vendor/${vendor}`, checked(result));
    }),
  );

  const hashes = {};
  for (const [bundle, text] of [...outputs].sort(([a], [b]) => a.localeCompare(b))) {
    const hash = hashOf(wrapped(text));
    // The loader takes a file only under the hash it expects (src/bundle-loader.ts, bundleStamp):
    // a run under way through an upgrade finds the next build's files under the same names.
    writeFileSync(`dist/${bundle}.cjs`, `/*tkt ${hash}*/${wrapped(text)}`);
    hashes[bundle] = hash;
  }
  const words = Object.fromEntries(commands.flatMap((command) => command.names.map((word) => [word, command.names[0]])));
  const loader = await build({
    ...common(plugins, {
      ...define,
      TKT_COMMAND_BUNDLES: JSON.stringify({ commands: words, program: { options: table.options, digitShort: table.digitShort }, hashes }),
    }),
    entryPoints: { bundles: 'src/bundle-loader.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    write: true,
  });
  metafiles.push(loader.metafile);
  // For tests, outside dist/ (which is shipped).
  const outputsOfAll = Object.assign({}, ...metafiles.map((meta) => meta.outputs));
  const inputsOfAll = Object.assign({}, ...metafiles.map((meta) => meta.inputs));
  writeFileSync('build/commands-meta.json', JSON.stringify({ inputs: inputsOfAll, outputs: outputsOfAll }));
}
