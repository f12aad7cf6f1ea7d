#!/usr/bin/env node
'use strict';
// CommonJS (see bin/package.json). dist/start.cjs answers help, version and completion without
// loading the CLI; anything else loads the full CLI, dist/main.js.

// Reuse V8's compiled code across runs where this Node has the cache (>= 22.1).
require('node:module').enableCompileCache?.();

const argv = process.argv.slice(2);
// Every answer dist/start.cjs gives takes at most two arguments, one of them a help or version
// word, or is `__complete KIND` (scripts/build-start.mjs checks): other command lines skip it.
const ASKS = ['--help', '-h', 'help', '--version', '-V'];
const mayBePrepared = argv.length <= 2 && (argv[0] === '__complete' || argv.some((arg) => ASKS.includes(arg)));
if (!mayBePrepared || !require('../dist/start.cjs').start(argv)) {
  import('../dist/main.js').then(({ main }) => main(argv));
}
