import type { CommandHost, Program } from './host.js';
import type { Context } from '../context/context.js';
import { completionScript, SHELLS, type Shell } from '../completion/scripts.js';
import { completionSpec } from '../completion/spec.js';
import { writeText } from '../output/write.js';

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('completion')
    .description('Print a shell completion script (commands, options, views and cached lookup names)')
    .addArgument(program.createArgument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `
Lookup names (--site, --status, --priority...) are completed from the lookup cache, which any
command that resolves a name fills; completion itself never contacts the service.

Examples:
  $ source <(tkt completion bash)                           # in ~/.bashrc
  $ mkdir -p ~/.zsh/functions && tkt completion zsh > ~/.zsh/functions/_tkt
      # and in ~/.zshrc:
      # fpath=(~/.zsh/functions $fpath); autoload -Uz compinit && compinit
  $ tkt completion fish > ~/.config/fish/completions/tkt.fish`,
    );
  // The CLI registers every command for this one (src/commands/index.ts), so all are in the script.
  host.action(command, ([shell], _opts, ctx) => run({ shell, program }, ctx), { readsProgram: true });
}

export interface CompletionOptions {
  shell: Shell;
  /** The whole CLI, whose commands and options the script completes. */
  program: Program;
}

export async function run(options: CompletionOptions, ctx: Context): Promise<void> {
  await writeText(ctx.io.stdout, completionScript(options.shell, completionSpec(options.program)));
}
