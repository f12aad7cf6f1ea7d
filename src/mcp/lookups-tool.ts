// lookups: the names a ticket field takes (statuses, people, sites...), fetched by the lookups
// that resolve names everywhere (src/lookups/), so an assistant can pick a valid one.
import { z } from 'zod';
import { LOOKUP_KINDS, type LookupKind } from '../model/fields.js';
import { foldForMatch } from '../util/fold.js';
import { defined } from './summary.js';
import { FENCE_NOTE, clean, quoted } from './text.js';
import { READ_ONLY, defineTool } from './tool.js';

const MAX_ENTRIES = 50;

export const lookupsTool = defineTool({
  name: 'lookups',
  title: 'Lookup values',
  description: `The valid values of a ticket field, with their IDs: ${LOOKUP_KINDS.join(', ')}.`,
  input: {
    kind: z.enum(LOOKUP_KINDS as [LookupKind, ...LookupKind[]]),
    search: z.string().optional().describe('only names containing this text'),
  },
  output: {
    kind: z.string(),
    entries: z.array(z.object({ id: z.union([z.number(), z.string()]), name: z.string(), username: z.string().optional() })),
    total: z.number(),
  },
  annotations: READ_ONLY,
  readsTickets: false,
  async call(args, { lookups }) {
    // Folded as names are matched everywhere (lookups, triage): a decomposed "Müller" or "muller" finds Jörg Müller.
    const wanted = foldForMatch(args.search?.trim() ?? '');
    // Always the service's list, as `tkt metadata` reads it: an assistant has no --refresh, and it
    // asks for the values to choose one (README, Assistants); the list fetched is cached for names.
    const matching = (await lookups.entries(args.kind, { fresh: true })).filter(
      (entry) => wanted === '' || [entry.name, ...entry.aliases].some((name) => foldForMatch(name).includes(wanted)),
    );
    const entries = matching.slice(0, MAX_ENTRIES).map((entry) => defined({ id: entry.id, name: clean(entry.name) ?? '', username: clean(entry.username) }));
    const more = matching.length > entries.length ? [`... ${matching.length - entries.length} more: narrow with search`] : [];
    const lines =
      entries.length === 0
        ? [`No ${args.kind} matches.`]
        : [
            FENCE_NOTE,
            ...entries.map((entry) => `${entry.id}: ${quoted(entry.name)}${entry.username === undefined ? '' : ` (${quoted(entry.username)})`}`),
            ...more,
          ];
    return { structured: { kind: args.kind, entries, total: matching.length }, text: lines.join('\n') };
  },
});
