import { Argument, type Command } from 'commander';
import type { CommandHost } from '../cli.js';
import type { Context } from '../context.js';
import { completionScript, SHELLS, type Shell } from '../completion/scripts.js';
import { completionSpec, isLookupKind } from '../completion/spec.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';

export function register(program: Command, host: CommandHost): void {
  program
    .command('completion')
    .description('Print a shell completion script (commands, options, views and cached lookup names)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `
Lookup names (--site, --status, --priority...) are completed from the lookup cache, which any
command that resolves a name fills; completion itself never contacts the service.

Examples:
  $ source <(tkt completion bash)                           # in ~/.bashrc
  $ tkt completion zsh > "\${fpath[1]}/_tkt"                 # then restart zsh
  $ tkt completion fish > ~/.config/fish/completions/tkt.fish`,
    )
    // `program` is complete by the time the action runs, so every command is in the script.
    .action(host.action((args, _opts, ctx) => run({ shell: args[0] }, ctx, program)));

  program
    .command('__complete', { hidden: true })
    .description('print cached names of a lookup kind, for the completion scripts')
    .argument('<kind>')
    .action(host.action((args, _opts, ctx) => runComplete(args[0], ctx)));
}

export async function run(options: { shell: Shell }, ctx: Context, program: Command): Promise<void> {
  await writeText(ctx.io.stdout, completionScript(options.shell, completionSpec(program)));
}

/**
 * Names (and aliases, e.g. usernames) of one lookup kind from the cache, one per line. It runs
 * on every Tab press, so it never makes a request and never fails: nothing cached, not logged
 * in, or an unknown kind all print nothing.
 */
async function runComplete(kind: string, ctx: Context): Promise<void> {
  if (!isLookupKind(kind)) return;
  const { createLookups } = await import('../lookups/index.js');
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
