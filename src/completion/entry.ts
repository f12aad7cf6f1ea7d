// dist/complete.cjs: `tkt __complete KIND` as the start-up entry (src/fast-start.ts) runs it, without
// loading commander or any command, so every Tab press stays light.
import { Readable, Writable } from 'node:stream';
import { createProcessContext, createRunState, readGlobals, type ProcessLike, type ProcessStreams } from '../process-host.js';
import { printNames } from './complete.js';

/**
 * `tkt __complete KIND` as the start-up entry runs it: this process's context, no commander.
 * Completion reads no input and reports nothing, so it never opens stdin or stderr (opening
 * them loads Node's tty, net or file stream modules: milliseconds of every Tab press).
 */
export async function completeInProcess(kind: string, proc: Pick<ProcessLike, 'stdout' | 'env'>): Promise<void> {
  try {
    const quiet: ProcessStreams = { ...proc, stdin: Readable.from([]), stderr: new Writable({ write: (_chunk, _encoding, done) => done() }) };
    const ctx = await createProcessContext(quiet, readGlobals({}), createRunState());
    try {
      await printNames(kind, ctx);
    } finally {
      await ctx.dispose();
    }
  } catch {
    // Completion never fails: an unusable config folder just means no suggestions.
  }
}
