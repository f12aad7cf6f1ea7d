#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json). dist/start.cjs answers help and version, dist/complete.cjs a
// completion script's `__complete KIND`, without loading the CLI; a command with a bundle of its
// own (dist/commands/) runs from it; anything else loads the full CLI, dist/main.js.

// Reuse V8's compiled code across runs where this Node has the cache (>= 22.1), for the files Node
// compiles itself: the prepared help, completion, the full CLI. A command's bundle keeps its own
// (dist/bundles.cjs): there node:module and the cache's set-up only cost memory (about 0.1 MB).
const useCompileCache = () => require('node:module').enableCompileCache?.();

// `tkt` alone prints the program's help on stdout, exit 0, as gh and docker do.
const argv = process.argv.length > 2 ? process.argv.slice(2) : ['--help'];
// Every answer dist/start.cjs gives takes at most two arguments, one of them a help or version
// word (scripts/build-start.mjs checks): other command lines skip it.
const ASKS = ['--help', '-h', 'help', '--version', '-V'];
const asks = argv.length <= 2 && argv.some((arg) => ASKS.includes(arg));
if (argv.length === 2 && argv[0] === '__complete' && !argv[1].startsWith('-')) {
  // A Tab press: the config folder and the lookup cache only, not even the prepared help.
  useCompileCache();
  require('../dist/complete.cjs').completeInProcess(argv[1], { env: process.env });
} else if (!asks || (useCompileCache(), !require('../dist/start.cjs').start(argv))) {
  // A command with a bundle of its own runs from it (dist/bundles.cjs), global options before it
  // or not; the full CLI reads any other command line, and the command lines a bundle leaves to
  // it, before it did anything.
  const bundled = require('../dist/bundles.cjs').bundledRun(argv);
  const fullCli = () => {
    useCompileCache();
    return import('../dist/main.js').then(({ main }) => main(argv));
  };
  (bundled === undefined ? Promise.resolve(false) : bundled(argv)).then((ran) => ran || fullCli());
}
