// get_ticket: `tkt show` for an assistant. The detail read model (src/model/ticket.ts), the facts
// `tkt show` gives, read by its code (src/reading/detail.ts), and only the last N conversation
// entries, each text bounded unless the whole is asked for.
import { z } from 'zod';
import { plans } from '../api/plans.js';
import { HEADER_FIELDS } from '../model/fields.js';
import { readTicket, type Attachment, type ConversationEntry } from '../model/ticket.js';
import { entryType, isOverdue, orderedConversation, relatedName, resolutionFacts, sizeText } from '../reading/detail.js';
import { sanitizeForModel } from '../output/sanitize.js';
import { defined } from './summary.js';
import { FENCE_NOTE, block, clean, cut, quoted } from './text.js';
import { READ_ONLY, defineTool, ticketIdInput } from './tool.js';

const DEFAULT_COMMENTS = 5;
const MAX_COMMENTS = 50;
/** A text of the ticket, cut unless `whole`, the marker naming the call that reads the rest. */
function bounded(text: string | undefined, whole: boolean | undefined): string | undefined {
  const cleaned = clean(text);
  return cleaned === undefined || whole === true ? cleaned : cut(cleaned, 'get_ticket with full_text: true');
}

const entrySchema = z.object({
  type: z.string(),
  from: z.string().optional(),
  to: z.string().optional(),
  cc: z.string().optional(),
  at: z.string().optional(),
  subject: z.string().optional(),
  message: z.string().optional(),
});

const ticketSchema = z.object({
  id: z.union([z.number(), z.string()]).optional(),
  title: z.string().optional(),
  // null: the ticket has none, and the header says so (the assignee: "unassigned").
  ...Object.fromEntries(
    HEADER_FIELDS.map((spec) => [spec.key, spec.header.whenEmpty === undefined ? z.string().optional() : z.string().nullable().optional()]),
  ),
  cc: z.string().optional(),
  source: z.string().optional(),
  due: z.string().optional(),
  overdue: z.boolean().optional(),
  created: z.string().optional(),
  updated: z.string().optional(),
  deleted: z.string().optional(),
  description: z.string().optional(),
  resolution: z.string().optional(),
  resolved_by: z.string().optional(),
  resolved_at: z.string().optional(),
});

const attachmentSchema = z.object({ name: z.string().optional(), size: z.number().optional().describe('bytes'), at: z.string().optional() });

function attachmentOf(attachment: Attachment): z.infer<typeof attachmentSchema> {
  return defined({ name: clean(attachment.name), size: attachment.size, at: attachment.at?.toISOString() });
}

function entryOf(entry: ConversationEntry, whole: boolean | undefined): z.infer<typeof entrySchema> {
  return defined({
    type: sanitizeForModel(entryType(entry)),
    from: clean(entry.from),
    to: clean(entry.to),
    cc: clean(entry.cc),
    at: entry.at?.toISOString(),
    subject: clean(entry.subject),
    message: bounded(entry.message, whole),
  });
}

export const getTicket = defineTool({
  name: 'get_ticket',
  title: 'Get a ticket',
  description: `One ticket: fields, texts, attachments, the last N conversation entries (default ${DEFAULT_COMMENTS}).`,
  input: {
    ...ticketIdInput,
    comments: z.number().int().min(0).max(MAX_COMMENTS).optional().describe(`last N conversation entries, default ${DEFAULT_COMMENTS}`),
    full_text: z.boolean().optional().describe('texts uncut'),
  },
  output: { ticket: ticketSchema, conversation: z.array(entrySchema), conversation_total: z.number(), attachments: z.array(attachmentSchema) },
  annotations: READ_ONLY,
  async call(args, { ctx, lookups }) {
    const body = (await (await ctx.api()).send(plans.getTicket(args.id))).body;
    const ticket = readTicket(body);
    const [names, resolution] = await Promise.all([
      Promise.all(HEADER_FIELDS.map((spec) => relatedName(ticket, lookups, spec))),
      resolutionFacts(ticket, lookups),
    ]);
    const facts = defined({
      id: ticket.id,
      title: clean(ticket.title),
      ...Object.fromEntries(HEADER_FIELDS.map((spec, index) => [spec.key, clean(names[index]) ?? (spec.header.whenEmpty === undefined ? undefined : null)])),
      cc: clean(ticket.cc),
      source: clean(ticket.source),
      due: ticket.due?.toISOString(),
      // As list_tickets gives it: true, or left out.
      overdue: isOverdue(ticket, ctx.now(), names[HEADER_FIELDS.findIndex((spec) => spec.key === 'status')]) || undefined,
      created: ticket.created?.toISOString(),
      updated: ticket.updated?.toISOString(),
      deleted: ticket.deleted === undefined ? undefined : (ticket.deleted.on?.toISOString() ?? 'yes'),
      description: bounded(ticket.description, args.full_text),
      resolution: bounded(resolution?.text, args.full_text),
      resolved_by: clean(resolution?.by),
      resolved_at: resolution?.at?.toISOString(),
    });
    const attachments = ticket.attachments.map(attachmentOf);
    const all = orderedConversation(ticket);
    const shown = all.slice(Math.max(0, all.length - (args.comments ?? DEFAULT_COMMENTS))).map((entry) => entryOf(entry, args.full_text));

    const lines = [FENCE_NOTE, `Ticket #${ticket.id ?? args.id}: ${quoted(facts.title)}`];
    for (const spec of HEADER_FIELDS) {
      const value = facts[spec.key as keyof typeof facts];
      if (value === null) lines.push(`${spec.label}: ${spec.header.whenEmpty}`);
      else if (value !== undefined) lines.push(`${spec.label}: ${quoted(String(value))}`);
    }
    for (const key of ['cc', 'source'] as const) if (facts[key] !== undefined) lines.push(`${key}: ${quoted(facts[key])}`);
    for (const key of ['due', 'created', 'updated', 'deleted'] as const)
      if (facts[key] !== undefined) lines.push(`${key}: ${facts[key]}${key === 'due' && facts.overdue === true ? ' OVERDUE' : ''}`);
    if (facts.description !== undefined) lines.push('Description:', block('description', facts.description));
    if (resolution !== undefined) {
      const said = [
        facts.resolved_by === undefined ? undefined : `by ${quoted(facts.resolved_by)}`,
        facts.resolved_at === undefined ? undefined : `at ${facts.resolved_at}`,
      ];
      const meta = said.filter((part) => part !== undefined).join(' ');
      lines.push(`Resolution${meta === '' ? '' : `, ${meta}`}:`, block('resolution', facts.resolution ?? ''));
    }
    lines.push(`Conversation: ${shown.length === all.length ? `${all.length} entries` : `last ${shown.length} of ${all.length}`}`);
    for (const entry of shown) {
      const parts = [
        `- ${quoted(entry.type)}`,
        entry.at === undefined ? undefined : `at ${entry.at}`,
        `from ${quoted(entry.from)}`,
        entry.to === undefined ? undefined : `to ${quoted(entry.to)}`,
        entry.cc === undefined ? undefined : `cc ${quoted(entry.cc)}`,
      ];
      lines.push(`${parts.filter(Boolean).join(' ')}${entry.subject === undefined ? '' : `, subject ${quoted(entry.subject)}`}`);
      if (entry.message !== undefined) lines.push(block('message', entry.message));
    }
    if (attachments.length > 0) {
      lines.push(`Attachments: ${attachments.length}`);
      for (const file of attachments)
        lines.push(['-', quoted(file.name), sizeText(file.size), file.at === undefined ? undefined : `at ${file.at}`].filter(Boolean).join(' '));
    }
    return { structured: { ticket: facts, conversation: shown, conversation_total: all.length, attachments }, text: lines.join('\n') };
  },
});
