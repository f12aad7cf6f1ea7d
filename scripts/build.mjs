// Bundles src/program.ts into dist/ with code splitting, so that heavy modules
// (prompts, tables, multipart, the sandbox) become chunks loaded on first use.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildStart } from './build-start.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Built-ins that a dependency loads with itself but uses only on paths tkt never takes. Each
// costs milliseconds of every start, so that dependency gets a stand-in that loads the real
// built-in on first use:
// - commander's node:child_process, for executable subcommands (tkt has none), about 6 ms;
// - undici's node:crypto, for boundaries of FormData bodies (tkt's multipart is built by form-data):
//   crypto's twenty-odd internal modules are the bulk of what reading a token costs;
// - form-data's node:https (with tls) and node:http, for its submit() (tkt sends with its own
//   client, src/api/transport.ts, which loads node:https only for an https service), and its
//   node:crypto, needed only once a boundary is made: about 10 ms of every upload.
const LAZY_BUILTINS = { commander: ['child_process'], undici: ['crypto'], 'form-data': ['http', 'https', 'crypto'] };
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?(child_process|crypto|https?)$/ }, (args) => {
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
// And one that is replaced by what it polyfills:
// - form-data's es-set-tostringtag, which loads get-intrinsic (about 20 ms of every upload) to
//   define FormData.prototype[Symbol.toStringTag], which every Node tkt supports can do natively.
const FAIL = (feature) => `throw new Error('tkt: ${feature} is not bundled')`;
const UNUSED_MODULES = [
  { owner: 'undici', request: './client-h2.js', contents: `module.exports = function connectH2() { ${FAIL('HTTP/2')}; };` },
  {
    owner: 'form-data',
    request: 'es-set-tostringtag',
    contents:
      'module.exports = function setToStringTag(object, value, options = {}) {' +
      ' if (options.force || !Object.hasOwn(object, Symbol.toStringTag))' +
      ' Object.defineProperty(object, Symbol.toStringTag, { configurable: !options.nonConfigurable, enumerable: false, value, writable: false }); };',
  },
  // @inquirer/core's signal-exit, which installs handlers for SIGINT, SIGTERM and a dozen others
  // while a prompt is open and re-raises the signal when it is the last listener. tkt handles
  // signals in one place (src/program.ts) and closes an open prompt through its abort signal.
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
    build.onResolve({ filter: /^(\.\/client-h2\.js|\.\/devtools\.js|es-set-tostringtag|signal-exit)$/ }, (args) => {
      const index = UNUSED_MODULES.findIndex(
        ({ owner, request }) => request === args.path && new RegExp(`[\\\\/]node_modules[\\\\/]${owner}[\\\\/]`).test(args.importer),
      );
      return index === -1 ? undefined : { path: String(index), namespace: 'unused-module' };
    });
    build.onLoad({ filter: /.*/, namespace: 'unused-module' }, (args) => ({ contents: UNUSED_MODULES[Number(args.path)].contents, loader: 'js' }));
  },
};

// Stale chunks from earlier builds would otherwise be shipped with the package.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/program.ts' },
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
  plugins: [lazyBuiltins, unusedModules],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __tktCreateRequire } from 'node:module'; const require = __tktCreateRequire(import.meta.url);" },
}).then((result) => {
  writeBuildReport(result.metafile);
  writeThirdPartyNotices(result.metafile);
});

// The bin's first stop, with help prepared from the CLI just built (scripts/build-start.mjs).
await buildStart({ version: pkg.version });

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
