// What a run of the built CLI (bin/tkt.js, dist/) loads: the dist files, the bundle inputs they
// hold (build/meta.json, build/start-meta.json, build/commands-meta.json) and the Node built-ins.
// Each command line is run twice as a child: once with a module resolve hook that logs every file
// imported (the hook runs on a thread of its own, which loads built-ins of its own), and once with
// only a preload that records process.moduleLoadList at exit, so the built-ins are the run's own.
// A command's own bundle (dist/commands/, dist/vendor/) holds every module the command may need,
// each module it reaches on demand inside a function that runs it on first use: of those, the
// inputs are the ones the run ran, as V8's coverage of the first run says.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Every build's outputs: dist/main.js with its chunks, dist/start.cjs and dist/complete.cjs, the commands' bundles. */
export function readAllMetafiles(): Metafile {
  const main = readMetafile();
  const others = ['build/start-meta.json', 'build/commands-meta.json'].map((file) => readMetafile(path.join(root, file)).outputs);
  return { inputs: main.inputs, outputs: Object.assign({ ...main.outputs }, ...others) as Metafile['outputs'] };
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
  /** The bundle inputs those files hold (src/... and node_modules/... paths); of a command's bundle, those the run ran. */
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
  // files are logged from require's cache when the process exits; the commands' bundles, which
  // src/bundle-loader.ts compiles with vm.Script, as each is compiled.
  writeFileSync(
    path.join(dir, 'files.mjs'),
    `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
const logFile = process.env.TKT_TEST_LOAD_LOG;
register('./hooks.mjs', import.meta.url, { data: { logFile } });
const require = createRequire(import.meta.url);
const compiled = [];
vm.Script = class extends vm.Script {
  constructor(code, options) {
    super(code, options);
    if (typeof options?.filename === 'string') compiled.push(options.filename);
  }
};
process.on('exit', () => appendFileSync(logFile, [...Object.keys(require.cache), ...compiled].map((file) => pathToFileURL(file).href + '\\n').join('')));
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

  const runChild = (
    preload: string[],
    argsOf: readonly string[] | (() => readonly string[]),
    env: Record<string, string>,
    input: string | undefined,
    extraEnv: Record<string, string> = {},
  ) => {
    const args = typeof argsOf === 'function' ? argsOf() : argsOf;
    const logFile = path.join(dir, `run-${(runs += 1)}.log`);
    writeFileSync(logFile, '');
    const child = spawnSync(process.execPath, [...preload, bin, ...args], {
      // No session or settings from outside the test, unless the caller gives them.
      env: { ...process.env, TKT_CONFIG_DIR: dir, TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1', ...env, TKT_TEST_LOAD_LOG: logFile, ...extraEnv },
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
      const coverage = path.join(dir, `coverage-${runs}`);
      const files = runChild(['--import', pathToFileURL(path.join(dir, 'files.mjs')).href], args, env, input, {
        NODE_V8_COVERAGE: coverage,
        // Code compiled for coverage counts its blocks: none of it is for the code cache.
        NODE_DISABLE_COMPILE_CACHE: '1',
      });
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
        inputs: distFiles.flatMap((file) => ranInputs(meta, file, coverage)),
        builtins: log,
      };
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Where a bundle keeps a module it runs on first use: esbuild's wrapper, a function named after the module. */
const WRAPPED_MODULE = /= __(?:esm|commonJS)\(\{\n {2}"([^"]+)"\(/g;

/**
 * The inputs of `file` the run ran: all of them for a file of the full CLI (an ES module and its
 * chunks hold what they run), and for a command's bundle those outside a wrapper plus those whose
 * wrapper V8's coverage (written to `coverageDir`) saw called.
 */
function ranInputs(meta: Metafile, file: string, coverageDir: string): string[] {
  const inputs = inputsOf(meta, [file]);
  if (!/^dist\/(commands|vendor)\//.test(file)) return inputs;
  const wrapped = new Set([...readFileSync(path.join(root, file), 'utf8').matchAll(WRAPPED_MODULE)].map((match) => match[1]!));
  const called = new Set<string>();
  for (const report of readdirSync(coverageDir)) {
    const { result } = JSON.parse(readFileSync(path.join(coverageDir, report), 'utf8')) as {
      result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }>;
    };
    for (const script of result.filter(({ url }) => url === path.join(root, file) || url === pathToFileURL(path.join(root, file)).href)) {
      for (const fn of script.functions) if (fn.ranges[0]!.count > 0) called.add(fn.functionName);
    }
  }
  if (called.size === 0) throw new Error(`no coverage of ${file} in ${coverageDir}: the trace cannot say what it ran`);
  return inputs.filter((input) => !wrapped.has(input) || called.has(input));
}
