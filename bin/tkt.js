#!/usr/bin/env node
import module from 'node:module';

// Reuse V8's compiled code across runs where this Node has the cache (>= 22.1).
module.enableCompileCache?.();

const { main } = await import('../dist/main.js');
await main(process.argv.slice(2));
