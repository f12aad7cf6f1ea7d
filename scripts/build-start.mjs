// Builds dist/start.cjs from src/fast-start.ts, the bin's first stop, which answers help, version and
// `__complete` without loading the CLI (README, Performance), and dist/complete.cjs, what `__complete` runs;
// and writes dist/argv-table.json, the command line's grammar taken from the CLI just built.
// The help and version texts are prepared here by running the CLI just built (dist/main.js) for
// each way of asking, so they are the CLI's own output by construction; a new command gets its
// prepared help without touching this file.
import { build } from 'esbuild';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// The help is prepared without the builder's aliases (src/fast-start.ts adds the user's): the CLI
// is run with a config folder that does not exist.
const NO_CONFIG = { TKT_CONFIG_DIR: 'build/no-config-folder' };

/** Runs `argv` through the built CLI with a piped fake process, in an environment of its own. */
async function runBuiltCli(runCli, argv) {
  const collect = () => ({
    text: '',
    isTTY: false,
    write(chunk) {
      this.text += String(chunk);
      return true;
    },
    on() {},
  });
  const proc = { stdin: process.stdin, stdout: collect(), stderr: collect(), env: NO_CONFIG, on() {}, off() {}, exit() {} };
  const code = await runCli(argv, proc);
  return { code, stdout: proc.stdout.text, stderr: proc.stderr.text };
}

// The words without which bin/tkt.js does not ask dist/start.cjs.
const BIN_ASKS = ['--help', '-h', 'help', '--version', '-V'];

/** Every way of asking for help or the version, for the program and each command and alias. */
function helpRequests(program) {
  const requests = [['--help'], ['-h'], ['help'], ['--version'], ['-V']];
  for (const command of program.createHelp().visibleCommands(program)) {
    if (command.name() === 'help') continue;
    for (const name of [command.name(), ...command.aliases()]) requests.push([name, '--help'], [name, '-h'], ['help', name]);
  }
  return requests;
}

async function prepareOutput() {
  const { commanderProgram, helpTopics, loadCommands, runCli } = await import(pathToFileURL('dist/main.js').href);
  const { buildProgram, programArgvTable } = await commanderProgram();
  const program = buildProgram(
    { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: NO_CONFIG },
    { stop: new AbortController(), halt: new AbortController(), graceful: false },
    await loadCommands(),
  );
  // The command line's grammar, for the quick path of src/program.ts (a run reads it beside main.js).
  writeFileSync('dist/argv-table.json', JSON.stringify(programArgvTable(program)));
  const texts = [];
  const answers = {};
  for (const argv of helpRequests(program)) {
    if (argv.length > 2) throw new Error(`bin/tkt.js asks dist/start.cjs about two arguments at most, not ${argv.join(' ')}`);
    if (!argv.some((arg) => BIN_ASKS.includes(arg)))
      throw new Error(`bin/tkt.js asks dist/start.cjs only with one of ${BIN_ASKS.join(' ')}, not ${argv.join(' ')}`);
    const { code, stdout, stderr } = await runBuiltCli(runCli, argv);
    // Anything that is not plain output on stdout stays with the full CLI.
    if (stderr !== '' || stdout === '') continue;
    if (!texts.includes(stdout)) texts.push(stdout);
    answers[argv.join('\0')] = [texts.indexOf(stdout), code];
  }
  // An alias's help (src/fast-start.ts): `tkt help WORD` takes a command or a topic first (the
  // words beyond those prepared here), and prints an alias's command's help after what it stands
  // for, that of a subcommand if the command has them.
  const everyWord = program.commands.flatMap((command) => [command.name(), ...command.aliases()]);
  const notAliases = [...everyWord, ...Object.keys(await helpTopics())].filter((word) => answers[`help\0${word}`] === undefined);
  const withSubcommands = program.commands.filter((command) => command.commands.length > 0).flatMap((command) => [command.name(), ...command.aliases()]);
  // The program's help flags an alias saved under a command's name, which the command hides.
  return { texts, answers, programHelp: answers['--help'][0], notAliases, withSubcommands, builtins: everyWord };
}

// These bundles hold only what their answers run. A dynamic import in their modules would pull a
// heavy module in (the HTTP client, prompts), so each becomes a stub that fails if ever reached.
const stubDynamicImports = {
  name: 'stub-dynamic-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'start-stub' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'start-stub' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`tkt: ${args.path} is loaded only by dist/main.js`)});`,
      loader: 'js',
    }));
  },
};

export async function buildStart({ version }) {
  const prepared = await prepareOutput();
  const result = await build({
    entryPoints: { start: 'src/fast-start.ts', complete: 'src/completion/entry.ts' },
    outdir: 'dist',
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    metafile: true,
    logLevel: 'warning',
    define: {
      TKT_VERSION: JSON.stringify(version),
      TKT_PREPARED_OUTPUT: JSON.stringify(prepared),
      TKT_COMMAND_NAMES: JSON.stringify(prepared.builtins.join(' ')),
    },
    plugins: [stubDynamicImports],
  });
  // For tests, outside dist/ (which is shipped); build.mjs has created build/.
  writeFileSync('build/start-meta.json', JSON.stringify(result.metafile));
}
