// dist/complete.cjs: `tkt __complete KIND` as the bin runs it (bin/tkt.js), without
// loading commander, any command or a run's context, so every Tab press stays light.
import { readGlobals } from '../config/globals.js';
import { defaultConfigDir } from '../config/paths.js';
import { resolveSession } from '../config/session.js';
import { createConfigReader } from '../config/store-read.js';
import type { ProcessLike } from '../process-host.js';
import { writeStdoutSync } from '../util/stdout-sync.js';
import { namesText } from './complete.js';

/**
 * `tkt __complete KIND` as the start-up entry runs it: the config folder and the lookup cache
 * only. Completion reads no input, reports nothing and sends nothing, so it builds no IO, output
 * or client, and opens neither stdin nor stderr nor Node's stdout stream (milliseconds of every
 * Tab press).
 */
export async function completeInProcess(kind: string, proc: Pick<ProcessLike, 'env'>): Promise<void> {
  let text = '';
  try {
    const globals = readGlobals({});
    const config = createConfigReader(defaultConfigDir(proc.env));
    text = await namesText(
      kind,
      {
        globals,
        env: proc.env,
        config,
        output: { warning: async () => {} },
        // It lists names, never matches one: no error that could list people.
        io: { stderrIsTTY: false },
        session: async () => resolveSession({ globals, env: proc.env, config, now: new Date() }),
      },
      TKT_COMMAND_NAMES.split(' '),
    );
  } catch {
    // Completion never fails: an unusable config folder just means no suggestions.
  }
  writeStdoutSync(text, () => process.stdout);
}
