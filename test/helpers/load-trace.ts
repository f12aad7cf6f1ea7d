// What a run of the built CLI (bin/tkt.js, dist/) loads: the dist files, the bundle inputs they
// hold (build/meta.json, build/start-meta.json) and the Node built-ins. Each command line is run
// twice as a child: once with a module resolve hook that logs every file imported (the hook
// runs on a thread of its own, which loads built-ins of its own), and once with only a preload
// that records process.moduleLoadList at exit, so the built-ins are the run's own.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = path.join(root, 'bin/tkt.js');

export interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<
    string,
    { bytes: number; imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, { bytesInOutput: number }> }
  >;
}

export function readMetafile(file = path.join(root, 'build/meta.json')): Metafile {
  if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: run \`npm run build\` (npm test does) first`);
  return JSON.parse(readFileSync(file, 'utf8')) as Metafile;
}

/** Both builds' outputs: dist/main.js with its chunks, dist/start.cjs and dist/complete.cjs. */
export function readAllMetafiles(): Metafile {
  const main = readMetafile();
  return { inputs: main.inputs, outputs: { ...main.outputs, ...readMetafile(path.join(root, 'build/start-meta.json')).outputs } };
}

export function inputsOf(meta: Metafile, outputs: Iterable<string>): string[] {
  return [...outputs].flatMap((output) => Object.keys(meta.outputs[output]?.inputs ?? {}));
}

export interface LoadTrace {
  code: number;
  stdout: string;
  stderr: string;
  /** The dist/ files the run loaded, as dist/... paths. */
  distFiles: string[];
  /** Their size in bytes, all together. */
  distBytes: number;
  /** The bundle inputs those files hold (src/... and node_modules/... paths). */
  inputs: string[];
  /** The Node built-ins the run loaded beyond Node's own start-up, as process.moduleLoadList names them (http, internal/crypto/random). */
  builtins: string[];
}

export interface LoadTracer {
  /** The config folder the runs use unless their environment names another (empty to start with). */
  configDir: string;
  /**
   * Runs the bin with `args`, in the environment given (over this one's), with `input` on stdin.
   * A command that changes the service's state is given a function: each of the two runs gets
   * its own arguments (another ticket), so that both take the same path.
   */
  trace(args: readonly string[] | (() => readonly string[]), env?: Record<string, string>, input?: string): LoadTrace;
  dispose(): void;
}

export function createLoadTracer(): LoadTracer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tkt-load-trace-'));
  // A resolve hook that appends every resolved URL to a log file, written by the hooks thread as
  // each import is resolved, so the log is complete when the process has exited.
  writeFileSync(
    path.join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let logFile;
export function initialize(data) { logFile = data.logFile; }
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(logFile, resolved.url + '\\n');
  return resolved;
}
`,
  );
  // The bin and the start-up bundles are CommonJS, which the resolve hook does not see: their
  // files are logged from require's cache when the process exits.
  writeFileSync(
    path.join(dir, 'files.mjs'),
    `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
const logFile = process.env.TKT_TEST_LOAD_LOG;
register('./hooks.mjs', import.meta.url, { data: { logFile } });
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(logFile, Object.keys(require.cache).map((file) => pathToFileURL(file).href + '\\n').join('')));
`,
  );
  // The built-ins loaded after this preload ran: Node's own start-up is not the run's.
  writeFileSync(
    path.join(dir, 'builtins.cjs'),
    `const { writeFileSync } = require('node:fs');
const before = new Set(process.moduleLoadList);
process.on('exit', () => {
  const loaded = process.moduleLoadList.filter((name) => name.startsWith('NativeModule ') && !before.has(name)).map((name) => name.slice('NativeModule '.length));
  writeFileSync(process.env.TKT_TEST_LOAD_LOG, loaded.join('\\n'));
});
`,
  );
  let runs = 0;

  const runChild = (preload: string[], argsOf: readonly string[] | (() => readonly string[]), env: Record<string, string>, input: string | undefined) => {
    const args = typeof argsOf === 'function' ? argsOf() : argsOf;
    const logFile = path.join(dir, `run-${(runs += 1)}.log`);
    writeFileSync(logFile, '');
    const child = spawnSync(process.execPath, [...preload, bin, ...args], {
      // No session or settings from outside the test, unless the caller gives them.
      env: { ...process.env, TKT_CONFIG_DIR: dir, TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1', ...env, TKT_TEST_LOAD_LOG: logFile },
      encoding: 'utf8',
      input: input ?? '',
    });
    return {
      child,
      log: readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line !== ''),
    };
  };

  return {
    configDir: dir,
    trace(args, env = {}, input) {
      const meta = readAllMetafiles();
      const files = runChild(['--import', pathToFileURL(path.join(dir, 'files.mjs')).href], args, env, input);
      const distFiles = [
        ...new Set(
          files.log
            .filter((url) => url.startsWith('file:'))
            .map((url) => path.relative(root, fileURLToPath(url)).split(path.sep).join('/'))
            .filter((file) => file.startsWith('dist/')),
        ),
      ];
      const { child, log } = runChild(['--require', path.join(dir, 'builtins.cjs')], args, env, input);
      if (child.status !== files.child.status) throw new Error(`the two runs exited ${files.child.status} and ${child.status}:\n${child.stderr}`);
      return {
        code: child.status ?? -1,
        stdout: child.stdout,
        stderr: child.stderr,
        distFiles,
        distBytes: distFiles.reduce((sum, file) => sum + readFileSync(path.join(root, file)).length, 0),
        inputs: inputsOf(meta, distFiles),
        builtins: log,
      };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}
