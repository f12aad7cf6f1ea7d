// `tkt show`: a ticket a technician can read at a glance. Names come from the nested objects
// of TicketApiModel when the service sends them; otherwise the IDs are turned into names
// through the lookups (fetched only when an ID actually needs naming).
import type { Lookups } from '../lookups/types.js';
import { HEADER_FIELDS, type LookupFieldSpec } from '../model/fields.js';
import { entryType } from '../model/entry-type.js';
import { dueState, readTicket, type Attachment, type ConversationEntry, type Ticket } from '../model/ticket.js';

// Named here for `tkt show`'s other readers (tkt mcp).
export { entryType };
import { sanitizeInline, sanitizeText } from '../output/sanitize.js';
import { createStyle, type Style } from '../output/style.js';
import { renderKeyValue, type Cell } from '../output/table.js';
import { wrapText } from '../output/width.js';
import { formatDate, formatDue, type DueState } from '../output/time.js';

export interface DetailOptions {
  lookups: Lookups;
  now: Date;
  color: boolean;
  /** Terminal width to wrap text to, by words; undefined: piped, the texts' lines as they are, each header field on one line. */
  width?: number | undefined;
  /** Only the last N conversation entries. */
  comments?: number | undefined;
  /**
   * The description right after what the ticket is and where it stands (ID, title, status,
   * priority), the other fields after it: for a pane that shows only the first lines (triage).
   */
  descriptionFirst?: boolean | undefined;
}

/** The header's first lines when the description comes first. */
const LEADING_FIELDS: ReadonlySet<string> = new Set(['ID', 'Title', 'Status', 'Priority']);

/** A related record: its name as the ticket gives it, else its ID named through the lookups, else the ID. */
export async function relatedName(ticket: Ticket, lookups: Lookups, spec: LookupFieldSpec): Promise<string | undefined> {
  const { name, id } = ticket.field(spec.key);
  if (name !== undefined) return name;
  if (id === undefined) return undefined;
  // A name is a nicety: when the lookups cannot be read, the ID still says something.
  const looked = await lookups.nameOf(spec.value.kind, id).catch(() => undefined);
  return looked ?? String(id);
}

/** Whether `tkt show` says the ticket is overdue ("2d overdue"): `status` is its status's name. */
export function isOverdue(ticket: Ticket, now: Date, status: string | undefined): boolean {
  return formatDue(ticket.due, now, dueState(ticket, status)).overdue;
}

function dateText(date: Date | undefined): string | undefined {
  return date === undefined ? undefined : formatDate(date);
}

/**
 * "2026-11-22 14:05 (2d overdue)": the word carries the warning, as the header is not coloured.
 * A resolved or closed ticket's due date is only a date.
 */
function dueText(due: Date | undefined, now: Date, state: DueState): string | undefined {
  if (due === undefined) return undefined;
  return state.settled === true ? formatDate(due) : `${formatDate(due)} (${formatDue(due, now, state).text})`;
}

async function headerPairs(ticket: Ticket, options: DetailOptions): Promise<[string, Cell][]> {
  const { lookups, now } = options;
  // Independent lookups run together; each source is still fetched at most once.
  const names = await Promise.all(HEADER_FIELDS.map((spec) => relatedName(ticket, lookups, spec)));
  const status = names[HEADER_FIELDS.findIndex((spec) => spec.key === 'status')];
  // renderKeyValue escapes the service's text, so no colour goes into these values.
  const pairs: [string, Cell][] = [
    ['ID', ticket.id],
    ['Title', ticket.title],
    ...HEADER_FIELDS.map((spec, index): [string, Cell] => [spec.label, names[index] ?? spec.header.whenEmpty]),
    ['CC', ticket.cc],
    ['Source', ticket.source],
    ['Due', dueText(ticket.due, now, dueState(ticket, status))],
    ['Created', dateText(ticket.created)],
    ['Updated', dateText(ticket.updated)],
    ['Deleted', ticket.deleted === undefined ? undefined : (dateText(ticket.deleted.on) ?? 'yes')],
  ];
  // Piped, a field is one line, as list's TSV is a ticket a line: a value's tabs and line breaks
  // become a space (README: Output), so `grep`, `cut` and `awk` see the lines tkt means.
  if (options.width !== undefined) return pairs;
  return pairs.map(([label, value]) => [label, typeof value === 'string' ? sanitizeInline(value) : value]);
}

function section(title: string, body: string, style: Style): string {
  return `\n${style.bold(title)}\n${body.endsWith('\n') ? body : body + '\n'}`;
}

function wrap(text: string, options: DetailOptions): string {
  return options.width === undefined ? text : wrapText(text, options.width);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
}

/** A resolution as `tkt show` gives it: its text, and who resolved it (named) and when, when it says. */
export interface ResolutionFacts {
  text: string | undefined;
  by: string | undefined;
  at: Date | undefined;
}

export async function resolutionFacts(ticket: Ticket, lookups: Lookups): Promise<ResolutionFacts | undefined> {
  const { resolution } = ticket;
  if (resolution === undefined) return undefined;
  if ('text' in resolution) return { text: resolution.text, by: undefined, at: undefined };
  const { by } = resolution;
  // submitBy is a user ID; technicians are who resolve.
  const byName = by === undefined ? undefined : ((await lookups.nameOf('assignee', by).catch(() => undefined)) ?? by);
  return { text: resolution.details, by: byName, at: resolution.at };
}

async function resolutionSection(ticket: Ticket, options: DetailOptions, style: Style): Promise<string> {
  const resolution = await resolutionFacts(ticket, options.lookups);
  if (resolution === undefined) return '';
  const meta = [resolution.by === undefined ? undefined : `by ${sanitizeInline(resolution.by)}`, dateText(resolution.at)].filter(Boolean).join(', ');
  const details = sanitizeText(resolution.text ?? '');
  return section('Resolution', (meta === '' ? '' : `  ${style.dim(meta)}\n`) + wrap(indent(details), options), style);
}

/** The conversation oldest first, newest last, whatever order the service used; ties keep its order. */
export function orderedConversation(ticket: Ticket): ConversationEntry[] {
  return ticket.conversation
    .map((entry, index) => ({ entry, index, at: entry.at?.getTime() }))
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || a.index - b.index)
    .map(({ entry }) => entry);
}

function conversationsSection(ticket: Ticket, options: DetailOptions, style: Style): string {
  const all = orderedConversation(ticket);
  if (all.length === 0) return '';
  const conversations = options.comments === undefined ? all : all.slice(Math.max(0, all.length - options.comments));
  const blocks = conversations.map((entry) => {
    const type = entryType(entry);
    const { from, to, cc, subject, message } = entry;
    const route = [from, to === undefined ? undefined : `→ ${to}`, cc === undefined ? undefined : `(cc ${cc})`].filter(Boolean).join(' ');
    const headline = [sanitizeInline(type), dateText(entry.at), sanitizeInline(route)].filter((part) => part !== undefined && part !== '').join(' · ');
    return (
      `${style.cyan(wrap(`  ${headline}`, options))}\n` +
      (subject ? `${style.bold(wrap(`  ${sanitizeInline(subject)}`, options))}\n` : '') +
      (message ? `${wrap(indent(indent(sanitizeText(message))), options)}\n` : '')
    );
  });
  const title = conversations.length === all.length ? `Conversation (${all.length})` : `Conversation (last ${conversations.length} of ${all.length})`;
  return section(title, blocks.join('\n'), style);
}

/** A size as `tkt show` prints it: 512 B, 1.5 KB. */
export function sizeText(bytes: number | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function attachmentLine(attachment: Attachment, style: Style): string {
  const meta = [sizeText(attachment.size), dateText(attachment.at)].filter(Boolean).join(', ');
  return `  ${sanitizeInline(attachment.name ?? '(unnamed)')}${meta === '' ? '' : `  ${style.dim(meta)}`}\n`;
}

function attachmentsSection(ticket: Ticket, style: Style): string {
  const { attachments } = ticket;
  if (attachments.length === 0) return '';
  return section(`Attachments (${attachments.length})`, attachments.map((attachment) => attachmentLine(attachment, style)).join(''), style);
}

/** The whole detail view of a TicketApiModel. */
export async function renderTicketDetail(body: unknown, options: DetailOptions): Promise<string> {
  const style = createStyle(options.color);
  const ticket = readTicket(body);
  const { description } = ticket;
  const pairs = await headerPairs(ticket, options);
  // The fields before the description and after it line up in one column.
  const keyValues = (chosen: [string, Cell][]) => renderKeyValue(chosen, { color: options.color, width: options.width, alignedWith: pairs });
  const descriptionText = description ? section('Description', wrap(indent(sanitizeText(description)), options), style) : '';
  const leading = options.descriptionFirst === true ? pairs.filter(([label]) => LEADING_FIELDS.has(label)) : pairs;
  const others = options.descriptionFirst === true ? keyValues(pairs.filter(([label]) => !LEADING_FIELDS.has(label))) : '';
  return (
    keyValues(leading) +
    descriptionText +
    (others === '' ? '' : `\n${others}`) +
    (await resolutionSection(ticket, options, style)) +
    conversationsSection(ticket, options, style) +
    attachmentsSection(ticket, style)
  );
}
