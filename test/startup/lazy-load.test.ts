// The bundle's entry must load only what the chosen command needs (issue 7): heavy modules
// live in chunks that are imported on first use. Checked twice: in esbuild's metafile (what
// dist/main.js imports statically) and at run time (which files `tkt --version`, `tkt --help`
// and a few commands actually load). `npm test` builds dist/ first.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const metaFile = path.join(root, 'dist/meta.json');
const bin = path.join(root, 'bin/tkt.js');

/** Inputs that must stay out of the entry's static closure, and why each is heavy. */
const LAZY_INPUTS: Array<{ name: string; pattern: RegExp }> = [
  { name: '@inquirer/prompts', pattern: /(^|\/)node_modules\/@inquirer\// },
  { name: 'cli-table3', pattern: /(^|\/)node_modules\/cli-table3\// },
  { name: 'form-data', pattern: /(^|\/)node_modules\/form-data\// },
  { name: 'busboy', pattern: /(^|\/)node_modules\/busboy\// },
  { name: 'undici', pattern: /(^|\/)node_modules\/undici\// },
  { name: 'the sandbox', pattern: /^src\/sandbox\// },
  // chalk and the table helper's Intl.Segmenter cost about 10 ms of every `tkt --help`.
  { name: 'chalk', pattern: /(^|\/)node_modules\/chalk\// },
  { name: 'src/output/table.ts', pattern: /^src\/output\/table\.ts$/ },
];

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown> }>;
}

function readMetafile(): Metafile {
  if (!existsSync(metaFile)) throw new Error('dist/meta.json is missing: run `npm run build` (npm test does) first');
  return JSON.parse(readFileSync(metaFile, 'utf8')) as Metafile;
}

/** Output files reachable from `entry` through static imports (what loading it loads). */
function staticClosure(meta: Metafile, entry: string): Set<string> {
  const seen = new Set<string>();
  const pending = [entry];
  for (let output = pending.pop(); output !== undefined; output = pending.pop()) {
    if (seen.has(output)) continue;
    seen.add(output);
    for (const imported of meta.outputs[output]?.imports ?? []) {
      if (imported.kind === 'import-statement' && imported.external !== true) pending.push(imported.path);
    }
  }
  return seen;
}

function inputsOf(meta: Metafile, outputs: Iterable<string>): string[] {
  return [...outputs].flatMap((output) => Object.keys(meta.outputs[output]?.inputs ?? {}));
}

/** The names of the lazily-loaded modules that `inputs` contains. */
function lazyModulesAmong(inputs: string[]): string[] {
  return LAZY_INPUTS.filter(({ pattern }) => inputs.some((input) => pattern.test(input))).map(({ name }) => name);
}

describe('the bundle entry (dist/main.js) in the metafile', () => {
  it('statically imports none of the lazily-loaded modules', () => {
    const meta = readMetafile();
    const eager = staticClosure(meta, 'dist/main.js');

    expect(eager.has('dist/main.js')).toBe(true);
    // The closure is real: the command files are in it.
    expect(inputsOf(meta, eager)).toContain('src/commands/index.ts');
    expect(lazyModulesAmong(inputsOf(meta, eager))).toEqual([]);
  });

  it('still bundles every lazily-loaded module (so the check above is not vacuous)', () => {
    // Without this, renaming a dependency would make the check above pass vacuously.
    const meta = readMetafile();
    const everything = inputsOf(meta, Object.keys(meta.outputs));
    for (const { name, pattern } of LAZY_INPUTS) {
      expect(everything.some((input) => pattern.test(input)), `${name} is in the bundle`).toBe(true);
    }
  });
});

describe('the files tkt loads at run time', () => {
  let hookDir: string;

  beforeAll(() => {
    // A module resolve hook that appends every resolved URL to a log file, written by the hooks
    // thread as each import is resolved, so the log is complete when the process has exited.
    hookDir = mkdtempSync(path.join(os.tmpdir(), 'tkt-lazy-'));
    writeFileSync(
      path.join(hookDir, 'hooks.mjs'),
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
    writeFileSync(
      path.join(hookDir, 'register.mjs'),
      `import { register } from 'node:module';
register('./hooks.mjs', import.meta.url, { data: { logFile: process.env.TKT_TEST_IMPORT_LOG } });
`,
    );
  });
  afterAll(() => rmSync(hookDir, { recursive: true, force: true }));

  /** Runs the bin with `args`; returns its exit code, stdout and the bundle inputs of every dist file it loaded. */
  function loadedInputs(args: string[], env: Record<string, string> = {}): { code: number; stdout: string; distFiles: string[]; inputs: string[] } {
    const meta = readMetafile();
    const logFile = path.join(hookDir, `${args.join('_').replace(/\W/g, '')}.log`);
    const child = spawnSync(process.execPath, ['--import', pathToFileURL(path.join(hookDir, 'register.mjs')).href, bin, ...args], {
      // An empty config folder and no session from the environment: nothing outside the test is read.
      env: { ...process.env, TKT_TEST_IMPORT_LOG: logFile, TKT_CONFIG_DIR: hookDir, TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1', ...env },
      encoding: 'utf8',
    });
    const distFiles = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((url) => url.startsWith('file:'))
      .map((url) => path.relative(root, fileURLToPath(url)).split(path.sep).join('/'))
      .filter((file) => file.startsWith('dist/'));
    return { code: child.status ?? -1, stdout: child.stdout, distFiles, inputs: inputsOf(meta, distFiles) };
  }

  it.each([[['--version']], [['--help']], [['list', '--help']], [['sandbox', '--help']]])('tkt %j loads none of the lazily-loaded modules', (args) => {
    const { code, stdout, distFiles, inputs } = loadedInputs(args);

    expect(code).toBe(0);
    expect(stdout).toMatch(args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /Usage: tkt/);
    // The hook saw the bundle being loaded, so an empty list below means something.
    expect(distFiles).toContain('dist/main.js');
    expect(lazyModulesAmong(inputs)).toEqual([]);
  });

  it('does not load the HTTP client for a command that only reads settings', () => {
    // whoami reads the profile and exits 4 for want of a login.
    const { code, inputs } = loadedInputs(['whoami']);

    expect(code).toBe(4);
    expect(lazyModulesAmong(inputs)).not.toContain('undici');
  });

  it('sees the HTTP client once a command sends a request', () => {
    // Port 9 (discard) refuses the connection: exit 1 after undici was loaded and used.
    const { code, inputs } = loadedInputs(['show', '1'], { TKT_URL: 'http://127.0.0.1:9', TKT_TOKEN: 'a-token' });

    expect(code).toBe(1);
    expect(lazyModulesAmong(inputs)).toContain('undici');
  });

  describe('with a config folder of its own', () => {
    let configDir: string;
    beforeAll(() => {
      configDir = mkdtempSync(path.join(os.tmpdir(), 'tkt-lazy-config-'));
    });
    afterAll(() => rmSync(configDir, { recursive: true, force: true }));

    it('reads a saved token and sends it', () => {
      const url = 'http://127.0.0.1:9';
      mkdirSync(path.join(configDir, 'tokens'), { recursive: true });
      writeFileSync(path.join(configDir, 'tokens', 'default.json'), JSON.stringify({ token: 'a-token', url, expiresAt: '2099-01-01T00:00:00.000Z' }));

      const { code, inputs } = loadedInputs(['show', '1', '--json'], { TKT_CONFIG_DIR: configDir, TKT_URL: url });

      // Exit 1 (connection refused), not 4: the saved token was read and used.
      expect(code).toBe(1);
      expect(lazyModulesAmong(inputs)).toContain('undici');
    });
  });
});
