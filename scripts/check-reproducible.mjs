// Builds again and compares with the dist/ already built (`npm test` runs it right after
// `npm run build`): the same commit must give the same package, byte for byte, so that a packager
// can check a published tarball against the source. A name that depends on the order of esbuild's
// concurrent plugin calls (scripts/build.mjs) changes chunk hashes from build to build.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const DIST = join(ROOT, 'dist');

/** Each file under dist/ (path from dist/) with the hash of its content. */
function snapshot() {
  const files = readdirSync(DIST, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => {
      const file = join(entry.parentPath, entry.name);
      return [file.slice(DIST.length + 1), createHash('sha256').update(readFileSync(file)).digest('hex')];
    }),
  );
}

const first = snapshot();
const rebuild = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
if (rebuild.status !== 0) process.exit(rebuild.status ?? 1);
const second = snapshot();

const differing = [...new Set([...first.keys(), ...second.keys()])].filter((file) => first.get(file) !== second.get(file)).sort();
if (differing.length > 0) {
  const said = (file) => `  ${file}${first.has(file) ? (second.has(file) ? ' (content)' : ' (first build only)') : ' (second build only)'}`;
  console.error(`The build is not reproducible: two builds of the same tree differ in\n${differing.map(said).join('\n')}`);
  process.exit(1);
}
console.log(`Reproducible build: ${second.size} files of dist/ identical in a second build.`);
