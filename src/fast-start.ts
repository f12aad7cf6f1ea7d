// The bin's first stop for help and version, built to dist/start.cjs (CommonJS: Node starts it
// faster than an ES module). It answers without loading commander or a single command
// definition: help and version text prepared at build time by running the real CLI
// (scripts/build-start.mjs). `__complete`, the completion scripts' call on every Tab press, goes
// from the bin straight to dist/complete.cjs; everything else is left to dist/main.js.
import { aliasHelpSection } from './desk/alias-help.js';
import { writeStdoutSync } from './util/stdout-sync.js';

/**
 * Handles `argv` when it can and returns true; false means: run dist/main.js. The bin calls it
 * only for at most two arguments with a help or version word among them (what every answer here
 * takes): keep it so, or change the bin.
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
  return false;
}
