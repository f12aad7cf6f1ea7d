// Bundles src/main.ts into dist/ with code splitting, so that heavy modules
// (prompts, tables, multipart, the sandbox) become chunks loaded on first use.
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

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
  // CommonJS dependencies bundled into ESM still call require() for Node built-ins.
  banner: { js: "import { createRequire as __tktCreateRequire } from 'node:module'; const require = __tktCreateRequire(import.meta.url);" },
}).then(async (result) => {
  const { writeFileSync } = await import('node:fs');
  writeFileSync('dist/meta.json', JSON.stringify(result.metafile));
});
