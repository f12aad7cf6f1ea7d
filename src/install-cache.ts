// npm's postinstall, built to dist/install-cache.cjs (the bin's loader, src/bundle-loader.ts, reads what it writes).
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';
import { cacheFileName, COMMAND_BUNDLES, INSTALL_CACHE } from './code-cache-files.js';
import { inFolder } from './util/folder-path.js';

/**
 * bin/code-cache.cjs: the code of every function of each command's first
 * file, compiled under the Node that installs, written to dist/code-cache/ for the runs that have
 * no cache folder of their own: a CI job that never logged in runs each command as if for the
 * first time, every time (README, Performance). V8 compiles everything at once only under
 * --no-lazy, and takes cached code only under the flags it was made with: the flag is set back
 * before the code is taken. Files of other Node versions are left: the next install replaces the
 * folder. Throws on a failure: the caller makes it no failure of the install.
 */
export function writeInstallCache(): void {
  const folder = inFolder(__dirname, INSTALL_CACHE);
  mkdirSync(folder, { recursive: true, mode: 0o755 });
  const v8 = process.getBuiltinModule('node:v8');
  for (const [bundle, hash] of Object.entries(COMMAND_BUNDLES.hashes)) {
    if (!bundle.startsWith('commands/') || bundle.endsWith('.rest')) continue;
    const file = inFolder(__dirname, `${bundle}.cjs`);
    const source = readFileSync(file, 'latin1');
    v8.setFlagsFromString('--no-lazy');
    let script: Script;
    try {
      script = new Script(source, { filename: file });
    } finally {
      v8.setFlagsFromString('--lazy');
    }
    const target = inFolder(folder, cacheFileName(bundle, hash, ''));
    const temporary = `${target}.${process.pid}.tmp`;
    try {
      writeFileSync(temporary, script.createCachedData(), { mode: 0o644 });
      renameSync(temporary, target);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
}
