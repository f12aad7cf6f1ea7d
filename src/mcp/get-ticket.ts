// get_ticket: `tkt show` for an assistant. The detail read model (src/model/ticket.ts), related
// names as `tkt show` gives them, and only the last N conversation entries, each bounded.
import { z } from 'zod';
import { plans } from '../api/plans.js';
import { HEADER_FIELDS } from '../model/fields.js';
import { readTicket, type ConversationEntry } from '../model/ticket.js';
import { entryType, orderedConversation, relatedName } from '../reading/detail.js';
import { stripControls } from '../output/sanitize.js';
import { defined } from './summary.js';
import { FENCE_NOTE, block, clean, quoted } from './text.js';
import { READ_ONLY, defineTool } from './tool.js';

const DEFAULT_COMMENTS = 5;
const MAX_COMMENTS = 50;
// A pasted log in a description or message would fill the model's context on its own.
const MAX_TEXT_CHARS = 4000;

function bounded(text: string | undefined): string | undefined {
  const cleaned = clean(text);
  if (cleaned === undefined || cleaned.length <= MAX_TEXT_CHARS) return cleaned;
  return `${cleaned.slice(0, MAX_TEXT_CHARS)}\n[... ${cleaned.length - MAX_TEXT_CHARS} more characters: tkt show]`;
}

const entrySchema = z.object({
  type: z.string(),
  from: z.string().optional(),
  to: z.string().optional(),
  at: z.string().optional(),
  subject: z.string().optional(),
  message: z.string().optional(),
});

const ticketSchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  title: z.string().optional(),
  ...Object.fromEntries(HEADER_FIELDS.map((spec) => [spec.key, z.string().optional()])),
  due: z.string().optional(),
  created: z.string().optional(),
  updated: z.string().optional(),
  description: z.string().optional(),
  resolution: z.string().optional(),
});

function entryOf(entry: ConversationEntry): z.infer<typeof entrySchema> {
  return defined({
    type: stripControls(entryType(entry)),
    from: clean(entry.from),
    to: clean(entry.to),
    at: entry.at?.toISOString(),
    subject: clean(entry.subject),
    message: bounded(entry.message),
  });
}

export const getTicket = defineTool({
  name: 'get_ticket',
  title: 'Get a ticket',
  description: `One ticket: its fields, description and the last N conversation entries (default ${DEFAULT_COMMENTS}).`,
  input: {
    id: z.number().int().positive().describe('ticket ID'),
    comments: z.number().int().min(0).max(MAX_COMMENTS).optional().describe(`last N conversation entries, default ${DEFAULT_COMMENTS}`),
  },
  output: { ticket: ticketSchema, conversation: z.array(entrySchema), conversation_total: z.number() },
  annotations: READ_ONLY,
  async call(args, { ctx, lookups }) {
    const body = (await (await ctx.api()).send(plans.getTicket(args.id))).body;
    const ticket = readTicket(body);
    const names = await Promise.all(HEADER_FIELDS.map((spec) => relatedName(ticket, lookups, spec)));
    const { resolution } = ticket;
    const resolutionText = resolution === undefined ? undefined : 'text' in resolution ? resolution.text : resolution.details;
    const facts = defined({
      id: ticket.id,
      title: clean(ticket.title),
      ...Object.fromEntries(HEADER_FIELDS.map((spec, index) => [spec.key, clean(names[index])])),
      due: ticket.due?.toISOString(),
      created: ticket.created?.toISOString(),
      updated: ticket.updated?.toISOString(),
      description: bounded(ticket.description),
      resolution: bounded(resolutionText),
    });
    const all = orderedConversation(ticket);
    const shown = all.slice(Math.max(0, all.length - (args.comments ?? DEFAULT_COMMENTS))).map(entryOf);

    const lines = [FENCE_NOTE, `Ticket #${ticket.id ?? args.id}: ${quoted(facts.title)}`];
    for (const spec of HEADER_FIELDS) {
      const value = facts[spec.key as keyof typeof facts];
      if (value !== undefined) lines.push(`${spec.label}: ${quoted(String(value))}`);
    }
    for (const key of ['due', 'created', 'updated'] as const) if (facts[key] !== undefined) lines.push(`${key}: ${facts[key]}`);
    if (facts.description !== undefined) lines.push('Description:', block('description', facts.description));
    if (facts.resolution !== undefined) lines.push('Resolution:', block('resolution', facts.resolution));
    lines.push(`Conversation: ${shown.length === all.length ? `${all.length} entries` : `last ${shown.length} of ${all.length}`}`);
    for (const entry of shown) {
      lines.push(
        `- ${quoted(entry.type)}${entry.at === undefined ? '' : ` at ${entry.at}`} from ${quoted(entry.from)}${entry.subject === undefined ? '' : `, subject ${quoted(entry.subject)}`}`,
      );
      if (entry.message !== undefined) lines.push(block('message', entry.message));
    }
    return { structured: { ticket: facts, conversation: shown, conversation_total: all.length }, text: lines.join('\n') };
  },
});
