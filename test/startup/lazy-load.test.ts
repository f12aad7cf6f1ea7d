// Start-up must load only what the chosen command needs (README, Performance). The bin first loads
// dist/start.cjs, which answers help and version (prepared at build time) and, with
// dist/complete.cjs, `__complete`, without commander or any command definition; everything else
// goes to dist/main.js, whose heavy modules live in chunks imported on first use. Checked twice:
// in esbuild's metafiles (what each entry holds and imports statically) and at run time (which
// files `tkt --version`, `tkt --help` and a few commands actually load). `npm test` builds dist/.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoadTracer, inputsOf, readMetafile, root, type LoadTracer, type Metafile } from '../helpers/load-trace.js';

const startMetaFile = path.join(root, 'build/start-meta.json');

/** Inputs that must stay out of the entry's static closure, and why each is heavy. */
const LAZY_INPUTS: Array<{ name: string; pattern: RegExp }> = [
  { name: '@inquirer/prompts', pattern: /(^|\/)node_modules\/@inquirer\// },
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

describe('text measuring in the bundle', () => {
  // string-width builds an Intl.Segmenter and four Unicode property regexes when it loads (about
  // 35 ms on Node 20), and a run's first Segmenter loads ICU's break rules: tkt show, tables and
  // wrapped text measure Latin text without either (scripts/build.mjs, src/output/width.ts).
  it('builds no Intl.Segmenter until a text outside Latin is measured', () => {
    const meta = readMetafile();
    const output = Object.keys(meta.outputs).find((file) => Object.keys(meta.outputs[file]!.inputs).includes('src/output/width.ts'));
    const countSegmenters =
      'const Real = Intl.Segmenter; let made = 0; Intl.Segmenter = class extends Real { constructor(...args) { super(...args); made += 1; } };' +
      ' globalThis.segmentersMade = () => made;';
    const script = `
      const width = await import(${JSON.stringify(pathToFileURL(path.join(root, output!)).href)});
      const seen = [segmentersMade()];
      width.displayWidth('Jörg Müller'); width.truncate('Drucker in der Küche', 8); width.wrapText('Jörg Müller meldet: der Drucker ist kaputt', 12);
      seen.push(segmentersMade());
      seen.push(width.displayWidth('打印机 🖨️'), segmentersMade());
      console.log(JSON.stringify(seen));`;
    const child = spawnSync(
      process.execPath,
      ['--input-type=module', '--import', `data:text/javascript,${encodeURIComponent(countSegmenters)}`, '-e', script],
      {
        encoding: 'utf8',
      },
    );

    expect(child.stderr).toBe('');
    const [afterLoad, afterLatin, measured, afterWide] = JSON.parse(child.stdout) as number[];
    expect(afterLoad).toBe(0);
    expect(afterLatin).toBe(0);
    // Measured by string-width (CJK and the emoji two columns each), which is loaded now.
    expect(measured).toBe(9);
    expect(afterWide).toBeGreaterThan(0);
  });
});

describe('the start-up bundles (dist/start.cjs, dist/complete.cjs) in their metafile', () => {
  const outputInputs = (output: string) => Object.keys(readMetafile(startMetaFile).outputs[output]?.inputs ?? {});

  it('start.cjs holds the prepared help and nothing of the CLI itself', () => {
    const inputs = outputInputs('dist/start.cjs');

    expect(inputs).toContain('src/fast-start.ts');
    expect(inputs).toContain('<define:TKT_PREPARED_OUTPUT>');
    // Every run loads it: no dependency, no command, no settings code but the reader of the
    // aliases that end the program's help (the settings file read as the store reads it:
    // util/json-text.ts), the splitter of an alias's words for its help, the layout of help
    // for a terminal narrower than it was prepared for, the words for a stdout that fails, and
    // the name of a control character an alias shows (util/code-point.ts, sanitize's).
    expect(inputs.filter((input) => input.startsWith('src/') || input.includes('node_modules')).sort()).toEqual([
      'src/config/paths.ts',
      'src/desk/alias-help.ts',
      'src/desk/alias-words.ts',
      'src/fast-start.ts',
      'src/output/reflow.ts',
      'src/output/sanitize.ts',
      'src/util/code-point.ts',
      'src/util/env.ts',
      'src/util/file-error.ts',
      'src/util/folder-path.ts',
      'src/util/json-object.ts',
      'src/util/json-text.ts',
      'src/util/stdout-sync.ts',
    ]);
  });

  it('complete.cjs holds the lookup cache reader, without commander, commands or any lazily-loaded module', () => {
    const inputs = outputInputs('dist/complete.cjs');

    expect(inputs).toContain('src/completion/complete.ts');
    expect(inputs).toContain('src/lookups/index.ts');
    expect(inputs.filter((input) => /node_modules|^src\/commands\//.test(input))).toEqual([]);
    expect(lazyModulesAmong(inputs)).toEqual([]);
    // Nor a run's context: IO, output formats and the terminal are for commands that print to people.
    expect(inputs.filter((input) => /^src\/(process-host|output\/format|util\/terminal-handoff)\.ts$/.test(input))).toEqual([]);
    // What the scripts are written from (the commands' options, the field table) is for
    // `tkt completion`, run once; a Tab press needs only the names of one kind.
    expect(inputs.filter((input) => /^src\/completion\/(spec|scripts)\.ts$|^src\/tickets\//.test(input))).toEqual([]);
  });
});

describe('the files tkt loads at run time', () => {
  let tracer: LoadTracer;
  beforeAll(() => {
    tracer = createLoadTracer();
  });
  afterAll(() => tracer.dispose());
  const loadedInputs = (args: string[], env: Record<string, string> = {}) => tracer.trace(args, env);

  it('uploads a file with no multipart library, no MIME database and nothing of node:crypto', async () => {
    // A server in its own process (spawnSync blocks this one) that reads the body and answers its size.
    const server = spawn(
      process.execPath,
      [
        '-e',
        `
      const server = require('node:http').createServer((req, res) => {
        let received = 0;
        req.on('data', (chunk) => { received += chunk.length; });
        req.on('end', () => res.end(JSON.stringify({ received, type: req.headers['content-type'] })));
      });
      server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(server.stdout!, 'data')) as [Buffer];
      const file = path.join(tracer.configDir, 'upload.log');
      writeFileSync(file, 'x'.repeat(100_000));

      const env = { TKT_URL: String(line).trim(), TKT_TOKEN: 'a-token' };
      const { code, stdout, inputs, builtins } = loadedInputs(['attach', '1', file, '--json'], env);

      expect(code).toBe(0);
      expect(JSON.parse(stdout).received).toBeGreaterThan(100_000);
      // The body is written by src/api/upload.ts: form-data with its streams and mime-db's 212 KB cost
      // about 10 ms of every form; its boundary's random bits come from /dev/urandom (the Web
      // Crypto took 1.2 ms and, on Node 24, 2.8 MB), new in each run.
      expect(inputs).toContain('src/api/upload.ts');
      expect(inputs.filter((input) => /node_modules\/(form-data|combined-stream|delayed-stream|asynckit|mime-db|mime-types)\//.test(input))).toEqual([]);
      expect(builtins.filter((builtin) => builtin.includes('crypto'))).toEqual([]);
      const boundary = (output: string) => /boundary=-+tkt([0-9a-f]{24})/.exec((JSON.parse(output) as { type: string }).type)?.[1];
      const again = loadedInputs(['attach', '1', file, '--json'], env);
      expect(boundary(stdout)).toMatch(/^[0-9a-f]{24}$/);
      expect(boundary(again.stdout)).toMatch(/^[0-9a-f]{24}$/);
      expect(boundary(again.stdout)).not.toBe(boundary(stdout));
      expect(builtins).not.toContain('https');
      expect(builtins).not.toContain('tls');
    } finally {
      server.kill();
    }
  });

  it('lists and tells the queue into a pipe, -q or --json without loading string-width or chalk: only a table for people measures widths', async () => {
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
          res.setHeader('content-type', 'application/json').end(JSON.stringify(page === 1 ? [{ ticketId: 7, subject: 'Drucker in der Küche 打印机', status: 'Open', assignee: null, dueDate: null }] : []));
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
          inputs.filter((input) => /node_modules\/(string-width|chalk)\/|^src\/output\/table\.ts$/.test(input)),
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

  it("answers tkt __complete from the lookup cache with dist/complete.cjs only (and dist/bundles.cjs, which finds the folder of Node 22.1+'s compile cache)", async () => {
    const url = 'http://127.0.0.1:9';
    const { createConfigStore } = await import('../../src/config/store.js');
    await createConfigStore(tracer.configDir).writeCache(
      'default',
      `lookups ${url} appmetadata`,
      { site: [{ id: 1, name: 'Head Office', aliases: [] }] },
      60_000,
    );

    const { code, stdout, distFiles } = loadedInputs(['__complete', 'site'], { TKT_URL: url, TKT_TOKEN: 'a-token' });

    expect(code).toBe(0);
    expect(stdout).toBe('Head Office\n');
    const nodeCacheFinder = 'enableCompileCache' in (await import('node:module')) ? ['dist/bundles.cjs'] : [];
    expect([...distFiles].sort()).toEqual([...nodeCacheFinder, 'dist/complete.cjs']);
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
    // Nothing of crypto (about 5 ms): only a form's boundary needs random bytes (src/api/upload.ts).
    expect(direct.builtins.filter((builtin) => builtin.includes('crypto'))).toEqual([]);

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
