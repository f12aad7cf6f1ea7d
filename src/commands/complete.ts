// tkt __complete KIND (hidden): what the completion scripts (tkt completion) call for the names of
// a lookup kind, the profiles or the aliases. The bin answers it from dist/complete.cjs when it
// can (bin/tkt.js); this is the same answer for any other command line.
import type { CommandHost, Program } from './host.js';
import { builtinNames } from './names.js';

export function register(program: Program, host: CommandHost): void {
  const complete = program
    .command('__complete', { hidden: true })
    .description('print cached names of a lookup kind, or the profiles, for the completion scripts')
    .argument('<kind>');
  host.action(complete, async ([kind], _opts, ctx) => {
    const { printNames } = await import('../completion/complete.js');
    await printNames(kind, ctx, builtinNames());
  });
}
