// A script for a child Node process that runs tkt's own modules from src/ (TypeScript), bundled
// by esbuild: tests of what several processes do at once (locks, config writes, signals).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * `body`, an ES module script with `imports` in scope (each name from its module under src/, e.g.
 * `{ createConfigStore: 'config/store.ts' }`), bundled to `outDir`/script.mjs; returns its path.
 */
export async function childScript(outDir: string, imports: Record<string, string>, body: string): Promise<string> {
  const src = fileURLToPath(new URL('../../src/', import.meta.url));
  const lines = Object.entries(imports).map(([name, module]) => `import { ${name} } from ${JSON.stringify(path.join(src, module))};`);
  const outfile = path.join(outDir, 'script.mjs');
  await build({
    stdin: { contents: `${lines.join('\n')}\n${body}`, resolveDir: src, loader: 'ts' },
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
  });
  return outfile;
}
