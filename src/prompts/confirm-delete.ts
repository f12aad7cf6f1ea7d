// delete's question at a terminal: the tickets named with their titles, so the person
// confirming sees what goes, and the profile when it is not the default, so that they see where
// (a delete on the wrong service cannot be undone); no terminal, no question (--yes is required then).
import { plans } from '../api/plans.js';
import { onProfile, profileToName } from '../config/session.js';
import type { Context } from '../context/context.js';
import { whyNothingIsAsked } from '../context/nothing-asked.js';
import { OperationError, UsageError } from '../errors.js';
import { readTicket } from '../model/ticket.js';
import { sanitizeInline } from '../output/sanitize.js';
import { writeText } from '../output/write.js';

const IDS_SHOWN = 10;

export async function confirmDelete(ids: readonly number[], ctx: Context): Promise<void> {
  if (!ctx.io.canPrompt) {
    throw new UsageError(`refusing to delete without confirmation (${whyNothingIsAsked(ctx).reason})`, { hint: 'pass --yes' });
  }
  await writeText(ctx.io.stderr, await titleLines(ids, ctx));
  // --profile or TKT_PROFILE, as triage's close question names it.
  const on = onProfile(profileToName(ctx));
  const confirmed = await ctx.prompter.confirm({ message: `Delete ${describeIds(ids)}${on}?`, default: false });
  if (!confirmed) throw new OperationError('cancelled: nothing was deleted');
}

function describeIds(ids: readonly number[]): string {
  const shown = ids
    .slice(0, IDS_SHOWN)
    .map((id) => `#${id}`)
    .join(', ');
  const more = ids.length > IDS_SHOWN ? ` and ${ids.length - IDS_SHOWN} more` : '';
  return `${ids.length === 1 ? 'ticket' : `${ids.length} tickets`} ${shown}${more}`;
}

/** "#42 Printer on fire" for the first few. */
async function titleLines(ids: readonly number[], ctx: Context): Promise<string> {
  const api = await ctx.api();
  const lines = await Promise.all(
    ids.slice(0, IDS_SHOWN).map(async (id) => {
      const title = await api.send(plans.getTicket(id)).then(
        (response) => readTicket(response.body).title ?? '(no title)',
        () => '(not found)',
      );
      return `  #${id} ${sanitizeInline(title)}\n`;
    }),
  );
  return lines.join('') + (ids.length > IDS_SHOWN ? `  and ${ids.length - IDS_SHOWN} more\n` : '');
}
