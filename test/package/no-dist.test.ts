// A package packed without its build (README, Install): `npm pack --ignore-scripts`, as hardened CI
// images run it, skips prepack, and dist/ is not in git. The bin then says so in one line, for
// each of the dist files it may load first, instead of Node's stack; and so does one whose dist/
// is there in part (an install or a build under way).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

let installed: string;

beforeAll(() => {
  installed = mkdtempSync(path.join(os.tmpdir(), 'tkt-no-dist-'));
  cpSync(path.join(root, 'bin'), path.join(installed, 'bin'), { recursive: true });
  cpSync(path.join(root, 'package.json'), path.join(installed, 'package.json'));
});

afterAll(() => {
  rmSync(installed, { recursive: true, force: true });
});

/** What the bin of the installation in `folder` says for `args`: it must print nothing on stdout and exit 1. */
function stderrOfFailedRun(folder: string, args: readonly string[]): string {
  const run = spawnSync(process.execPath, [path.join(folder, 'bin', 'tkt.js'), ...args], {
    env: { ...process.env, TKT_CONFIG_DIR: path.join(folder, 'config') },
    encoding: 'utf8',
  });
  expect(run.stdout).toBe('');
  expect(run.status).toBe(1);
  return run.stderr;
}

describe('an installation without dist/', () => {
  it.each([
    ['--version', ['--version']], // dist/start.cjs
    ['a command', ['list']], // dist/bundles.cjs
    ['a completion', ['__complete', 'site']], // dist/complete.cjs
  ])('says so in one line for %s, exit 1', (_name, args) => {
    expect(stderrOfFailedRun(installed, args)).toBe(
      'tkt: this installation has no dist/ (the package was packed without its build: run npm run build before npm pack, or pack without --ignore-scripts)\n',
    );
  });
});

describe('an installation with part of dist/ (an install or a build under way)', () => {
  it.each([
    ['a command', ['list']], // dist/bundles.cjs
    ['a completion', ['__complete', 'site']], // dist/complete.cjs
  ])('says so in one line for %s, exit 1', (_name, args) => {
    const partial = mkdtempSync(path.join(os.tmpdir(), 'tkt-part-dist-'));
    try {
      cpSync(path.join(installed, 'bin'), path.join(partial, 'bin'), { recursive: true });
      mkdirSync(path.join(partial, 'dist'));
      cpSync(path.join(root, 'dist', 'start.cjs'), path.join(partial, 'dist', 'start.cjs'));
      expect(stderrOfFailedRun(partial, args)).toBe(
        "tkt: this installation's dist/ lacks a file (an install or a build under way?): run the command again; if it says this again, reinstall tkt\n",
      );
    } finally {
      rmSync(partial, { recursive: true, force: true });
    }
  });
});
