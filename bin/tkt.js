#!/usr/bin/env node
import module from 'node:module';
import v8 from 'node:v8';

// Reuse V8's compiled code across runs where this Node has the cache (>= 22.1).
module.enableCompileCache?.();

// undici parses HTTP with a WebAssembly module. V8 recompiles it with TurboFan on background
// threads, and Node waits for those threads before it exits: about 80 ms on every command
// that makes a request. The baseline (Liftoff) code is fast enough for a CLI's responses.
v8.setFlagsFromString('--liftoff-only');

const { main } = await import('../dist/main.js');
await main(process.argv.slice(2));
