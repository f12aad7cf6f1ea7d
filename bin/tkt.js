#!/usr/bin/env node
'use strict';
// A signal while Node is still loading tkt ends the run as the CLI's own handlers would: one
// error line, 130 or 143 (README, Interruption). src/cli-run.ts removes these as it sets those.
const EARLY_STOPS = { SIGINT: [130, 'interrupted'], SIGTERM: [143, 'stopped by SIGTERM'], SIGHUP: [129, 'stopped by SIGHUP'] };
const stopEarly = (name) => {
  // At a terminal, the line comes after the "^C" the terminal echoed.
  require('node:fs').writeSync(2, `${require('node:tty').isatty(2) ? '\n' : ''}error: ${EARLY_STOPS[name][1]}\n`);
  process.exit(EARLY_STOPS[name][0]);
};
for (const name in EARLY_STOPS) process.on(name, stopEarly);
globalThis[Symbol.for('tkt.handOverSignals')] = () => {
  for (const name in EARLY_STOPS) process.off(name, stopEarly);
};
// CommonJS (see bin/package.json). dist/start.cjs answers help and version, dist/complete.cjs a
// completion script's `__complete KIND`, without loading the CLI; a command with a bundle of its
// own (dist/commands/) runs from it; anything else loads the full CLI, dist/main.js.

// Node's compile cache (>= 22.1) for completion and the full CLI, in tkt's own cache folder
// (dist/bundles.cjs finds it), never in the shared temporary folder Node would choose, where
// another user's files could be taken for ours, and not written by a run without a config folder.
// A command's bundle keeps its own code cache. The prepared help and version compile each time:
// loading dist/bundles.cjs to find the folder costs them more than the cache saves.
const useCompileCache = () => {
  const { enableCompileCache } = require('node:module');
  const folder = enableCompileCache === undefined ? undefined : bundles().nodeCacheFolder();
  if (folder !== undefined) enableCompileCache(folder);
};

// dist/bundles.cjs, compiled here rather than required: require's look-up walks the path three
// more times (resolve, realpath, the module's search paths), and Node 22+ starts its Maglev
// compiler for its path code once a run's walks pass about 400 characters. Node's own start nears
// that for an install path of 40-odd characters; its first compile costs 2 MB of memory (README,
// Performance). The bundle requires only Node's built-ins.
function commandBundles() {
  const cut = Math.max(__dirname.lastIndexOf('/'), __dirname.lastIndexOf('\\'));
  const dir = `${__dirname.slice(0, cut + 1)}dist`;
  const file = `${dir}${__dirname[cut]}bundles.cjs`;
  const source = require('node:fs').readFileSync(file, 'utf8');
  const { Script } = require('node:vm');
  const module = { exports: {} };
  const run = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file }).runInThisContext();
  run(module.exports, require, module, file, dir);
  return module.exports;
}

// A package packed without its build (`npm pack --ignore-scripts` skips prepack; dist/ is not in
// git) has no dist/, and one being installed or built has part of it: one line instead of Node's
// stack, told where a dist file fails to load, so that the normal start looks for nothing more.
function fromDist(load) {
  try {
    return load();
  } catch (error) {
    stopIfNoDist(error);
  }
}

function stopIfNoDist(error) {
  const fs = require('node:fs');
  if (fs.existsSync(`${__dirname}/../dist`)) {
    if (!['ENOENT', 'MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'].includes(error?.code)) throw error;
    fs.writeSync(
      2,
      "tkt: this installation's dist/ lacks a file (an install or a build under way?): run the command again; if it says this again, reinstall tkt\n",
    );
  } else {
    fs.writeSync(
      2,
      'tkt: this installation has no dist/ (the package was packed without its build: run npm run build before npm pack, or pack without --ignore-scripts)\n',
    );
  }
  process.exit(1);
}

// Another build's file (an upgrade under way: src/bundle-loader.ts) met outside the run's own
// error handling (src/cli-run.ts): a command's first file, before it; the full CLI's, after the
// bundle left the command line to it. Told as that handling tells the files after them; a file
// missing there, as one missing before.
function stopIfBuildChanged(error) {
  const lines = loadedBundles?.buildChangedLines(error);
  if (lines === undefined) stopIfNoDist(error);
  require('node:fs').writeSync(2, `${lines.join('\n')}\n`);
  process.exit(1);
}

let loadedBundles;
const bundles = () => (loadedBundles ??= fromDist(commandBundles));

// `tkt` alone prints the program's help on stdout, exit 0, as gh and docker do.
const argv = process.argv.length > 2 ? process.argv.slice(2) : ['--help'];
// Every answer dist/start.cjs gives takes at most two arguments, one of them a help or version
// word (scripts/build-start.mjs checks): other command lines skip it.
const ASKS = ['--help', '-h', 'help', '--version', '-V'];
const asks = argv.length <= 2 && argv.some((arg) => ASKS.includes(arg));
if (argv.length === 2 && argv[0] === '__complete' && !argv[1].startsWith('-')) {
  // A Tab press: the config folder and the lookup cache only, not even the prepared help.
  useCompileCache();
  fromDist(() => require('../dist/complete.cjs')).completeInProcess(argv[1], { env: process.env });
} else if (!asks || !fromDist(() => require('../dist/start.cjs')).start(argv)) {
  // A command with a bundle of its own runs from it (dist/bundles.cjs), global options before it
  // or not; the full CLI reads any other command line, and the command lines a bundle leaves to
  // it, before it did anything.
  let bundled;
  try {
    bundled = bundles().bundledRun(argv);
  } catch (error) {
    stopIfBuildChanged(error);
  }
  const fullCli = () => {
    useCompileCache();
    return import('../dist/main.js').then(({ main }) => main(argv), stopIfBuildChanged);
  };
  (bundled === undefined ? Promise.resolve(false) : bundled(argv)).then((ran) => ran || fullCli());
}
