// Bundles src/main.ts into dist/ with code splitting, so that heavy modules
// (prompts, tables, multipart, the sandbox) become chunks loaded on first use.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

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
  plugins: [lazyChildProcessForCommander],
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __tktCreateRequire } from 'node:module'; const require = __tktCreateRequire(import.meta.url);" },
}).then(async (result) => {
  const { writeFileSync } = await import('node:fs');
  writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
});
