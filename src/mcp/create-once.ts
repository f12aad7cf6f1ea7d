// create_ticket's dedup_key: one open ticket per key, as `tkt create --dedup-key` keeps it, through
// the same code (src/dedup/): an assistant that gave up on a create at its timeout never saw the
// new ID, and the call it sends again adds to that ticket instead of opening a second one.
import { z } from 'zod';
import { cleanErrorText } from '../cmdutil/error-text.js';
import type { Context } from '../context/context.js';
import { createOnce, type DedupAction, type DedupDecision, type DedupDone } from '../dedup/create.js';
import { dedupCreateSpec, type DedupOptions, type KeyedCreateInput } from '../dedup/options.js';
import type { Lookups } from '../lookups/types.js';
import { dryRunOutput } from './change.js';
import { defined } from './summary.js';
import type { ToolOutput } from './tool.js';

export const dedupKeyInput = {
  dedup_key: z.string().optional().describe('one open ticket per key: a repeat adds to it as a requester reply (a safe retry)'),
};

/** The members the CLI's `--json` gives a run of the key, `{id, action, key}`. */
export const dedupOutput = {
  action: z.enum(['created', 'updated', 'skipped', 'reopened'] satisfies DedupAction[]).optional(),
  key: z.string().optional(),
};

/** What each action did, for the text. */
const DONE: Record<DedupAction, (id: number, key: string) => string> = {
  created: (id, key) => `Created ticket #${id} (key ${key}).`,
  updated: (id, key) => `Ticket #${id} of key ${key} is open: this one was added to it as a requester reply; no ticket was created.`,
  skipped: (id, key) => `Ticket #${id} of key ${key} is open: nothing was sent.`,
  reopened: (id, key) => `Ticket #${id} of key ${key} was re-opened by this one, added as a requester reply.`,
};

/**
 * Creates the ticket of `request` unless the key has one open, as `tkt create --dedup-key` does.
 * The look-up's warnings (a login that sees only its own tickets) are said in the `note`, and so
 * is an error after a ticket was acted on: not an error result, since the ticket exists and an
 * assistant told of a failure would send the call again.
 */
export async function createWithKey(ctx: Context, lookups: Lookups, dedup: DedupOptions & { key: string }, create: KeyedCreateInput): Promise<ToolOutput> {
  const notes: string[] = [];
  const noting: Context = { ...ctx, output: { ...ctx.output, warning: async (text) => void notes.push(cleanErrorText(text.trim())) } };
  const spec = await dedupCreateSpec(noting, lookups, dedup, create);
  let done: DedupDone | undefined;
  let decision: DedupDecision | undefined;
  try {
    await createOnce(noting, spec, { done: async (outcome) => void (done = outcome), decided: async (decided) => void (decision = decided) });
  } catch (error) {
    if (done === undefined) throw error;
    notes.push(`then: ${cleanErrorText(error instanceof Error ? error.message : String(error))}`);
  }
  const { key } = dedup;
  const note = notes.length === 0 ? undefined : notes.join('; ');
  const noted = (text: string) => (note === undefined ? text : `${text} Note: ${note}.`);
  if (decision !== undefined) {
    const id = decision.target?.id;
    if (decision.request === undefined) {
      const text = noted(`Dry run: ticket #${id} of key ${key} is open: nothing would be sent.`);
      return { structured: defined({ id, dry_run: true, changed: false, action: decision.action, key, note }), text };
    }
    const planned = dryRunOutput(id, [decision.request]);
    const would = id === undefined ? `key ${key} has no open ticket: it would create one.` : `it would add this to ticket #${id} of key ${key}.`;
    return { structured: defined({ ...planned.structured, action: decision.action, key, note }), text: noted(`${planned.text}\nSo ${would}`) };
  }
  const { action, id } = done!;
  return { structured: defined({ id, changed: action !== 'skipped', action, key, note }), text: noted(DONE[action](id, key)) };
}
