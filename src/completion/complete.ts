// `tkt __complete KIND`: what the completion scripts run on every Tab press, from the full CLI or
// (src/completion/entry.ts) from its own light bundle: the session and the lookup cache, never
// the network.
import type { Context } from '../context.js';
import { createLookups } from '../lookups/index.js';
import { isLookupKind } from '../lookups/types.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';

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
