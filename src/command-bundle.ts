// The entry of a command's own bundle, dist/commands/NAME.cjs (scripts/build-commands.mjs): all that
// the command runs, in one CommonJS file, which the bin loads with V8's compiled code from the
// last run (src/bundle-loader.ts) for a command line that starts with the command's word. It
// holds neither commander, nor the other commands, nor the table of every command: what the
// quick path cannot read here (help, errors, an option it does not know) goes back to the bin,
// which hands the same command line to the full CLI (dist/main.js) before anything was done
// (docs/architecture.md, "Command bundles").
import type { ArgvTable } from './cmdutil/argv-table.js';
import { quickParse } from './cmdutil/quick-parse.js';
import type { CommandModule } from './commands/index.js';
import type { CommandName } from './commands/names.js';
import { runAction, type ProcessLike } from './process-host.js';
import { registeredAction, runCommandLine, settleProcess } from './cli-run.js';

/**
 * Runs `argv` with command `name` (its module and its part of the command line's table) and
 * returns the exit code, or undefined, having done nothing, where the full CLI must read it.
 */
export async function runBundled(
  argv: readonly string[],
  name: CommandName,
  module: CommandModule,
  table: ArgvTable,
  proc: ProcessLike,
): Promise<number | undefined> {
  const line = quickParse(argv, table);
  if (line?.command !== name) return undefined;
  const action = registeredAction(module);
  if (action === undefined) return undefined;
  return runCommandLine(proc, {
    argv,
    argvTable: table,
    async run(state, programOptions) {
      programOptions(() => line.programOpts);
      await runAction(proc, state, action, line);
      return undefined;
    },
  });
}

/** What a bundle gives the bin (src/bundle-loader.ts): true once it has run `argv`, false to hand it to the full CLI. */
export type BundleRun = (argv: readonly string[]) => Promise<boolean>;

/** The `run` of command `name`'s bundle: the process's own streams, its exit code set as the full CLI's main sets it. */
export function bundleEntry(name: CommandName, module: CommandModule, table: ArgvTable): BundleRun {
  return async (argv) => {
    const code = await runBundled(argv, name, module, table, process);
    if (code === undefined) return false;
    settleProcess(code);
    return true;
  };
}
