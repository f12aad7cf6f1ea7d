// `tkt __complete KIND`: what the completion scripts run on every Tab press. The start-up entry
// (src/start.ts) runs it without loading commander, from its own bundle (dist/complete.cjs), so
// it must stay light: the session and the lookup cache, never the network.
import { Readable, Writable } from 'node:stream';
import { createProcessContext, createRunState, readGlobals, type ProcessLike, type ProcessStreams } from '../cli.js';
import type { Context } from '../context.js';
import { createLookups } from '../lookups/index.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';
import { isLookupKind } from './spec.js';

/**
 * Names (and aliases, e.g. usernames) of one lookup kind from the cache, one per line. It never
 * makes a request and never fails: nothing cached, not logged in, or an unknown kind all print
 * nothing.
 */
export async function printCachedNames(kind: string, ctx: Context): Promise<void> {
  if (!isLookupKind(kind)) return;
  const cacheOnly: Context = {
    ...ctx,
    globals: { ...ctx.globals, refresh: false },
    api: () => Promise.reject(new Error('completion never contacts the service')),
  };
  try {
    const entries = await createLookups(cacheOnly).entries(kind);
    const names = new Set(entries.flatMap((entry) => [entry.name, ...entry.aliases]));
    await writeText(ctx.io.stdout, [...names].map((name) => `${sanitizeInline(name)}\n`).join(''));
  } catch {
    // Nothing cached (or no session): no suggestions.
  }
}

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
      await printCachedNames(kind, ctx);
    } finally {
      await ctx.dispose();
    }
  } catch {
    // Completion never fails: an unusable config folder just means no suggestions.
  }
}
