// Bundles src/main.ts into dist/ with code splitting, so that heavy modules
// (prompts, tables, multipart, the sandbox) become chunks loaded on first use.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// commander requires node:child_process when it loads, only to spawn executable subcommands,
// which tkt has none of; loading that built-in is about 6 ms of every start. commander gets a
// stand-in that loads the real module on first use.
const lazyChildProcessForCommander = {
  name: 'lazy-child-process-for-commander',
  setup(build) {
    build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'lazy-builtin' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, () => ({
      contents:
        "let real; const load = () => (real ??= require('node:child_process'));" +
        ' module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });',
      loader: 'js',
    }));
  },
};

// conf imports ajv (+ ajv-formats) for JSON-schema validation and semver for migrations when it
// loads: about 11 ms of every command that reads settings. tkt gives conf neither a schema nor
// migrations, so in the bundle those imports become stand-ins that fail loudly if ever used.
const UNUSED_BY_CONF = {
  'ajv/dist/2020.js': "export class Ajv2020 { constructor() { throw new Error('tkt: conf schema support is not bundled'); } }",
  'ajv-formats': "export default { default() { throw new Error('tkt: conf schema support is not bundled'); } };",
  semver: "export default new Proxy({}, { get() { throw new Error('tkt: conf migrations are not bundled'); } });",
};
const confWithoutSchemaOrMigrations = {
  name: 'conf-without-schema-or-migrations',
  setup(build) {
    build.onResolve({ filter: /^(ajv\/dist\/2020\.js|ajv-formats|semver)$/ }, (args) =>
      /[\\/]node_modules[\\/]conf[\\/]/.test(args.importer) ? { path: args.path, namespace: 'unused-by-conf' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'unused-by-conf' }, (args) => ({ contents: UNUSED_BY_CONF[args.path], loader: 'js' }));
  },
};

// Stale chunks from earlier builds would otherwise be shipped with the package.
rmSync('dist', { recursive: true, force: true });

await build({
  entryPoints: { main: 'src/main.ts' },
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
  define: { TKT_VERSION: JSON.stringify(pkg.version) },
  plugins: [lazyChildProcessForCommander, confWithoutSchemaOrMigrations],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __tktCreateRequire } from 'node:module'; const require = __tktCreateRequire(import.meta.url);" },
}).then(async (result) => {
  const { writeFileSync } = await import('node:fs');
  writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
});
