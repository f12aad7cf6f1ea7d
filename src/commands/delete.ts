import { plans } from '../api/plans.js';
import type { CommandHost, Program } from '../cli.js';
import type { Context } from '../context.js';
import { OperationError, UsageError } from '../errors.js';
import { writeText } from '../output/write.js';
import { runIdCommand, type IdCommandOptions } from '../tickets/id-command.js';
import { concurrencyOption, dryRunOption, idsArgument } from './shared-options.js';

export interface DeleteOptions extends IdCommandOptions {
  yes?: boolean | undefined;
}

export function register(program: Program, host: CommandHost): void {
  const command = program
    .command('delete')
    .description('Delete tickets (soft delete)')
    .addArgument(idsArgument())
    .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
    .addOption(concurrencyOption())
    .addOption(dryRunOption())
    .addHelpText(
      'after',
      `
At a terminal tkt asks before deleting; in scripts and CI, --yes is required.

Examples:
  $ tkt delete 42
  $ tkt delete 42 43 --yes
  $ tkt list -q --search "test ticket" | tkt delete - --yes`,
    );
  host.action(command, ([ids], opts, ctx) => run({ ids, ...opts }, ctx), { graceful: true });
}

const IDS_SHOWN = 10;

function describeIds(ids: readonly number[]): string {
  const shown = ids.slice(0, IDS_SHOWN).map((id) => `#${id}`).join(', ');
  const more = ids.length > IDS_SHOWN ? ` and ${ids.length - IDS_SHOWN} more` : '';
  return `${ids.length === 1 ? 'ticket' : `${ids.length} tickets`} ${shown}${more}`;
}

/** "#42 Printer on fire" for the first few, so the person confirming sees what goes. */
async function titleLines(ids: readonly number[], ctx: Context): Promise<string> {
  const [api, { summarizeTicket }, { sanitizeInline }] = await Promise.all([ctx.api(), import('../tickets/summary.js'), import('../output/sanitize.js')]);
  const lines = await Promise.all(
    ids.slice(0, IDS_SHOWN).map(async (id) => {
      const title = await api.send(plans.getTicket(id)).then(
        (response) => summarizeTicket(response.body).title ?? '(no title)',
        () => '(not found)',
      );
      return `  #${id} ${sanitizeInline(title)}\n`;
    }),
  );
  return lines.join('') + (ids.length > IDS_SHOWN ? `  and ${ids.length - IDS_SHOWN} more\n` : '');
}

async function confirmDelete(ids: readonly number[], ctx: Context): Promise<void> {
  if (!ctx.io.canPrompt) {
    throw new UsageError('refusing to delete without confirmation: pass --yes', { hint: 'no terminal to ask at (piped, CI or --no-input)' });
  }
  await writeText(ctx.io.stderr, await titleLines(ids, ctx));
  const confirmed = await ctx.prompter.confirm({ message: `Delete ${describeIds(ids)}?`, default: false });
  if (!confirmed) throw new OperationError('cancelled: nothing was deleted');
}

export async function run(options: DeleteOptions, ctx: Context): Promise<void> {
  await runIdCommand(ctx, options, {
    verb: 'deleted',
    plan: (id) => plans.deleteTicket(id),
    beforeSend: options.yes ? undefined : (ids) => confirmDelete(ids, ctx),
  });
}
