// Start-up must load only what the chosen command needs (README, Performance). The bin first loads
// dist/start.cjs, which answers help and version (prepared at build time) and, with
// dist/complete.cjs, `__complete`, without commander or any command definition; everything else
// goes to dist/main.js, whose heavy modules live in chunks imported on first use. Checked twice:
// in esbuild's metafiles (what each entry holds and imports statically) and at run time (which
// files `tkt --version`, `tkt --help` and a few commands actually load). `npm test` builds dist/.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const metaFile = path.join(root, 'build/meta.json');
const startMetaFile = path.join(root, 'build/start-meta.json');
const bin = path.join(root, 'bin/tkt.js');

/** Inputs that must stay out of the entry's static closure, and why each is heavy. */
const LAZY_INPUTS: Array<{ name: string; pattern: RegExp }> = [
  { name: '@inquirer/prompts', pattern: /(^|\/)node_modules\/@inquirer\// },
  { name: 'form-data', pattern: /(^|\/)node_modules\/form-data\// },
  { name: 'busboy', pattern: /(^|\/)node_modules\/busboy\// },
  { name: 'undici', pattern: /(^|\/)node_modules\/undici\// },
  { name: 'the sandbox', pattern: /^src\/sandbox\// },
  // chalk and the table helper's Intl.Segmenter cost about 10 ms of every `tkt --help`.
  { name: 'chalk', pattern: /(^|\/)node_modules\/chalk\// },
  { name: 'src/output/table.ts', pattern: /^src\/output\/table\.ts$/ },
  // tkt triage's terminal UI: Ink, React and the Yoga layout engine, about a megabyte.
  { name: 'ink', pattern: /(^|\/)node_modules\/ink\// },
  { name: 'react', pattern: /(^|\/)node_modules\/(react|react-reconciler|yoga-layout)\// },
  // tkt mcp's server: the MCP SDK and zod, its schemas, and the tools (the catalog of names is light).
  { name: '@modelcontextprotocol/sdk', pattern: /(^|\/)node_modules\/@modelcontextprotocol\// },
  { name: 'zod', pattern: /(^|\/)node_modules\/zod\// },
  { name: 'src/mcp (but its catalog)', pattern: /^src\/mcp\/(?!catalog\.ts$)/ },
];

interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, { imports: Array<{ path: string; kind: string; external?: boolean }>; inputs: Record<string, unknown> }>;
}

function readMetafile(file = metaFile): Metafile {
  if (!existsSync(file)) throw new Error(`${path.relative(root, file)} is missing: run \`npm run build\` (npm test does) first`);
  return JSON.parse(readFileSync(file, 'utf8')) as Metafile;
}

/** Both builds' outputs: dist/main.js with its chunks, dist/start.cjs and dist/complete.cjs. */
function readAllMetafiles(): Metafile {
  const main = readMetafile();
  return { inputs: main.inputs, outputs: { ...main.outputs, ...readMetafile(startMetaFile).outputs } };
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
      expect(
        everything.some((input) => pattern.test(input)),
        `${name} is in the bundle`,
      ).toBe(true);
    }
  });
});

describe('the start-up bundles (dist/start.cjs, dist/complete.cjs) in their metafile', () => {
  const outputInputs = (output: string) => Object.keys(readMetafile(startMetaFile).outputs[output]?.inputs ?? {});

  it('start.cjs holds the prepared help and nothing of the CLI itself', () => {
    const inputs = outputInputs('dist/start.cjs');

    expect(inputs).toContain('src/fast-start.ts');
    expect(inputs).toContain('<define:TKT_PREPARED_OUTPUT>');
    // Every run loads it: no dependency, no command, no settings code.
    expect(inputs.filter((input) => input.startsWith('src/') || input.includes('node_modules')).sort()).toEqual(['src/fast-start.ts']);
  });

  it('complete.cjs holds the lookup cache reader, without commander, commands or any lazily-loaded module', () => {
    const inputs = outputInputs('dist/complete.cjs');

    expect(inputs).toContain('src/completion/complete.ts');
    expect(inputs).toContain('src/lookups/index.ts');
    expect(inputs.filter((input) => /node_modules|^src\/commands\//.test(input))).toEqual([]);
    expect(lazyModulesAmong(inputs)).toEqual([]);
    // What the scripts are written from (the commands' options, the field table) is for
    // `tkt completion`, run once; a Tab press needs only the names of one kind.
    expect(inputs.filter((input) => /^src\/completion\/(spec|scripts)\.ts$|^src\/tickets\//.test(input))).toEqual([]);
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
    // The bin and the start-up bundles are CommonJS, which the resolve hook does not see: their
    // files are logged from require's cache when the process exits.
    writeFileSync(
      path.join(hookDir, 'register.mjs'),
      `import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
const logFile = process.env.TKT_TEST_IMPORT_LOG;
register('./hooks.mjs', import.meta.url, { data: { logFile } });
const require = createRequire(import.meta.url);
process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => 'builtin:' + name.slice(13));
  appendFileSync(logFile, [...Object.keys(require.cache).map((file) => pathToFileURL(file).href), ...builtins].map((line) => line + '\\n').join(''));
});
`,
    );
  });
  afterAll(() => rmSync(hookDir, { recursive: true, force: true }));

  /** Runs the bin with `args`; returns its exit code, stdout and the bundle inputs of every dist file it loaded. */
  function loadedInputs(
    args: string[],
    env: Record<string, string> = {},
  ): { code: number; stdout: string; distFiles: string[]; inputs: string[]; builtins: string[] } {
    const meta = readAllMetafiles();
    const logFile = path.join(hookDir, `${args.join('_').replace(/\W/g, '')}.log`);
    const child = spawnSync(process.execPath, ['--import', pathToFileURL(path.join(hookDir, 'register.mjs')).href, bin, ...args], {
      // An empty config folder and no session from the environment: nothing outside the test is read.
      env: { ...process.env, TKT_TEST_IMPORT_LOG: logFile, TKT_CONFIG_DIR: hookDir, TKT_URL: '', TKT_TOKEN: '', TKT_PROFILE: '', NO_COLOR: '1', ...env },
      encoding: 'utf8',
    });
    const lines = readFileSync(logFile, 'utf8').split('\n');
    const builtins = lines.filter((line) => line.startsWith('builtin:')).map((line) => line.slice('builtin:'.length));
    const distFiles = lines
      .filter((url) => url.startsWith('file:'))
      .map((url) => path.relative(root, fileURLToPath(url)).split(path.sep).join('/'))
      .filter((file, index, all) => file.startsWith('dist/') && all.indexOf(file) === index);
    return { code: child.status ?? -1, stdout: child.stdout, distFiles, inputs: inputsOf(meta, distFiles), builtins };
  }

  it('uploads a file without loading what form-data needs only for features tkt does not use', async () => {
    // A server in its own process (spawnSync blocks this one) that reads the body and answers its size.
    const server = spawn(
      process.execPath,
      [
        '-e',
        `
      const server = require('node:http').createServer((req, res) => {
        let received = 0;
        req.on('data', (chunk) => { received += chunk.length; });
        req.on('end', () => res.end(JSON.stringify({ received })));
      });
      server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(server.stdout!, 'data')) as [Buffer];
      const file = path.join(hookDir, 'upload.log');
      writeFileSync(file, 'x'.repeat(100_000));

      const { code, stdout, inputs, builtins } = loadedInputs(['attach', '1', file, '--json'], { TKT_URL: String(line).trim(), TKT_TOKEN: 'a-token' });

      expect(code).toBe(0);
      expect(JSON.parse(stdout).received).toBeGreaterThan(100_000);
      expect(inputs.some((input) => input.includes('node_modules/form-data/'))).toBe(true);
      // get-intrinsic (behind es-set-tostringtag) and https, with tls, cost about 30 ms of every upload.
      expect(inputs.filter((input) => /node_modules\/(get-intrinsic|es-set-tostringtag)\//.test(input))).toEqual([]);
      expect(builtins).toContain('crypto');
      expect(builtins).not.toContain('https');
      expect(builtins).not.toContain('tls');
    } finally {
      server.kill();
    }
  });

  it('lists and tells the queue into a pipe, -q or --json without loading string-width: only a table for people measures widths', async () => {
    // A server in its own process (spawnSync blocks this one): every list is one ticket on page 1.
    const server = spawn(
      process.execPath,
      [
        '-e',
        `
      const server = require('node:http').createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => { body += chunk; });
        req.on('end', () => {
          const page = JSON.parse(body || '{}').page ?? 1;
          res.setHeader('content-type', 'application/json').end(JSON.stringify(page === 1 ? [{ ticketId: 7, subject: 'Drucker in der Küche 打印机' }] : []));
        });
      });
      server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(server.stdout!, 'data')) as [Buffer];
      const env = { TKT_URL: String(line).trim(), TKT_TOKEN: 'a-token' };
      for (const args of [['list'], ['list', '-q'], ['list', '--json'], ['status', '--json'], ['status', '-q']]) {
        const { code, stdout, inputs } = loadedInputs(args, env);
        expect(code, args.join(' ')).toBe(0);
        expect(stdout).toContain('7');
        expect(
          inputs.filter((input) => /node_modules\/string-width\/|^src\/output\/table\.ts$/.test(input)),
          args.join(' '),
        ).toEqual([]);
      }
    } finally {
      server.kill();
    }
  });

  it.each([[['--version']], [['--help']], [['list', '--help']], [['help', 'sandbox']], [['view', '-h']]])(
    'tkt %j is answered by dist/start.cjs alone',
    (args) => {
      const { code, stdout, distFiles } = loadedInputs(args);

      expect(code).toBe(0);
      expect(stdout).toMatch(args[0] === '--version' ? /^\d+\.\d+\.\d+/ : /^Usage: tkt/);
      // The log saw the start-up bundle, so the absence of everything else means something.
      expect(distFiles).toEqual(['dist/start.cjs']);
    },
  );

  it('answers tkt __complete from the lookup cache with dist/start.cjs and dist/complete.cjs only', async () => {
    const url = 'http://127.0.0.1:9';
    const { createConfigStore } = await import('../../src/config/store.js');
    await createConfigStore(hookDir).writeCache('default', `lookups ${url} appmetadata`, { site: [{ id: 1, name: 'Head Office', aliases: [] }] }, 60_000);

    const { code, stdout, distFiles } = loadedInputs(['__complete', 'site'], { TKT_URL: url, TKT_TOKEN: 'a-token' });

    expect(code).toBe(0);
    expect(stdout).toBe('Head Office\n');
    expect(distFiles.sort()).toEqual(['dist/complete.cjs', 'dist/start.cjs']);
  });

  it('loads the full CLI, but none of the lazily-loaded modules, for a usage error', () => {
    const { code, distFiles, inputs } = loadedInputs(['list', '--no-such-flag']);

    expect(code).toBe(2);
    expect(distFiles).toContain('dist/main.js');
    expect(lazyModulesAmong(inputs)).toEqual([]);
  });

  it('refuses tkt triage without a terminal before loading its terminal UI library', () => {
    const { code, distFiles, inputs } = loadedInputs(['triage']);

    expect(code).toBe(2);
    expect(distFiles).toContain('dist/main.js');
    expect(lazyModulesAmong(inputs)).not.toContain('ink');
    expect(lazyModulesAmong(inputs)).not.toContain('react');
  });

  it('does not load the HTTP client for a command that only reads settings', () => {
    // whoami reads the profile and exits 4 for want of a login.
    const { code, inputs } = loadedInputs(['whoami']);

    expect(code).toBe(4);
    expect(lazyModulesAmong(inputs)).not.toContain('undici');
  });

  it('sends a request with node:http, loading undici (and node:v8 for its flag) only for a proxy', () => {
    // Port 9 (discard) refuses the connection: exit 1 after the client was loaded and used.
    const direct = loadedInputs(['show', '1'], { TKT_URL: 'http://127.0.0.1:9', TKT_TOKEN: 'a-token' });

    expect(direct.code).toBe(1);
    expect(direct.inputs).toContain('src/api/transport.ts');
    expect(lazyModulesAmong(direct.inputs)).not.toContain('undici');
    expect(direct.builtins).toContain('http');
    // On Node 22+, an ES import of node:http would also load Node's own undici (tls, http2, zlib...).
    expect(direct.builtins.filter((builtin) => ['v8', 'https', 'tls', 'http2', 'zlib'].includes(builtin))).toEqual([]);

    // The same refusal, from a proxy that NO_PROXY does not rule out.
    const proxied = loadedInputs(['show', '1'], { TKT_URL: 'http://127.0.0.1:9', TKT_TOKEN: 'a-token', HTTP_PROXY: 'http://127.0.0.1:9', NO_PROXY: '' });

    expect(proxied.code).toBe(1);
    expect(lazyModulesAmong(proxied.inputs)).toContain('undici');
    expect(proxied.builtins).toContain('v8');
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

      const { code, inputs, distFiles } = loadedInputs(['show', '1', '--json'], { TKT_CONFIG_DIR: configDir, TKT_URL: url });

      // Exit 1 (connection refused), not 4: the saved token was read and used.
      expect(code).toBe(1);
      expect(inputs).toContain('src/api/transport.ts');
      // Three arguments are more than any prepared answer takes: the bin goes straight to the CLI.
      expect(distFiles).not.toContain('dist/start.cjs');
    });
  });
});
