// The bin's first stop, built to dist/start.cjs (CommonJS: Node starts it faster than an ES
// module). It answers what needs no command code without loading commander or a single command
// definition: help and version text prepared at build time by running the real CLI
// (scripts/build-start.mjs), and `__complete`, the completion scripts' call on every Tab press,
// from the lookup cache (dist/complete.cjs). Everything else is left to dist/main.js, so this file
// stays tiny: every run loads it.
import type { ProcessLike } from './process-host.js';
import { aliasHelpSection } from './desk/alias-help.js';
import { writeStdoutSync } from './util/stdout-sync.js';

/**
 * Handles `argv` when it can and returns true; false means: run dist/main.js. The bin calls it
 * only for at most two arguments with a help or version word among them, or `__complete KIND`
 * (what every answer here takes): keep it so, or change the bin.
 */
export function start(argv: string[]): boolean {
  const key = argv.join('\0');
  const prepared = Object.hasOwn(TKT_PREPARED_OUTPUT.answers, key) ? TKT_PREPARED_OUTPUT.answers[key] : undefined;
  if (prepared !== undefined) {
    // The program's help ends with the user's aliases, which only this run can know.
    const aliases = prepared[0] === TKT_PREPARED_OUTPUT.programHelp ? aliasHelpSection(process.env) : '';
    writeStdoutSync(TKT_PREPARED_OUTPUT.texts[prepared[0]]! + (aliases === '' ? '' : `${aliases}\n`), () => process.stdout);
    process.exitCode = prepared[1];
    return true;
  }
  if (argv.length === 2 && argv[0] === '__complete' && !argv[1]!.startsWith('-')) {
    const { completeInProcess } = require('./complete.cjs') as { completeInProcess(kind: string, proc: Pick<ProcessLike, 'env'>): Promise<void> };
    void completeInProcess(argv[1]!, { env: process.env });
    return true;
  }
  return false;
}
