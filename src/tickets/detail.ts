// `tkt show`: a ticket a technician can read at a glance. Names come from the nested objects
// of TicketApiModel when the service sends them; otherwise the IDs are turned into names
// through the lookups (fetched only when an ID actually needs naming).
import { arrayField, field, stringField } from '../api/fields.js';
import type { LookupKind, Lookups } from '../lookups/types.js';
import { sanitizeInline, sanitizeText } from '../output/sanitize.js';
import { createStyle, type Style } from '../output/style.js';
import { renderKeyValue, wrapText, type Cell } from '../output/table.js';
import { formatDate, formatDue, type DueState } from '../output/time.js';
import { detailField } from './fields.js';
import { dateField, displayName, isSettled, nameField, overdueFlagOf, ticketIdOf } from './summary.js';

export interface DetailOptions {
  lookups: Lookups;
  now: Date;
  color: boolean;
  /** Terminal width to wrap text to, by words; undefined: lines as they are (piped). */
  width?: number | undefined;
  /** Only the last N conversation entries. */
  comments?: number | undefined;
}

// The service's entry types, as people say them; others are split into words.
const ENTRY_TYPES: Readonly<Record<string, string>> = {
  requesterreply: 'Reply from requester',
  reply: 'Reply',
  forward: 'Forward',
  close: 'Closed',
  resolve: 'Resolved',
  note: 'Note',
};

/** "RequesterReply" as "Reply from requester"; a draft says so. */
function entryType(entry: unknown): string {
  const raw = stringField(entry, 'type', 'kind') ?? 'Message';
  const words = ENTRY_TYPES[raw.toLowerCase()] ?? raw.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (first) => first.toUpperCase());
  const draft = field(entry, 'isDraft', 'draft') === true;
  return draft ? `${words} (draft)` : words;
}

/**
 * A related record, found where the field table says a ticket holds it: its nested object's
 * name, else the ID named through the lookups, else the ID.
 */
async function related(ticket: unknown, lookups: Lookups, kind: LookupKind): Promise<string | undefined> {
  const { detail } = detailField(kind);
  const named = nameField(ticket, ...(detail.nested ?? []));
  if (named !== undefined) return named;
  const id = field(ticket, ...detail.ids);
  if ((typeof id !== 'number' && typeof id !== 'string') || id === '' || id === 0) return undefined;
  // A name is a nicety: when the lookups cannot be read, the ID still says something.
  const name = await lookups.nameOf(kind, id).catch(() => undefined);
  return name ?? String(id);
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

// The related records in the header, in this order (status first: it decides whether overdue counts).
const HEADER_KINDS: readonly LookupKind[] = ['status', 'priority', 'requester', 'assignee', 'site', 'department', 'category', 'subcategory', 'item', 'group', 'level', 'client'];

async function header(ticket: unknown, options: DetailOptions): Promise<string> {
  const { lookups, now } = options;
  // Independent lookups run together; each source is still fetched at most once.
  const names = new Map(await Promise.all(HEADER_KINDS.map(async (kind) => [kind, await related(ticket, lookups, kind)] as const)));
  // renderKeyValue escapes the service's text, so no colour goes into these values.
  const pairs: [string, Cell][] = [
    ['ID', ticketIdOf(ticket)],
    ['Title', nameField(ticket, 'title', 'subject')],
    ...HEADER_KINDS.map((kind): [string, Cell] => [detailField(kind).label, kind === 'assignee' ? (names.get(kind) ?? 'unassigned') : names.get(kind)]),
    ['CC', stringField(ticket, 'cc') || undefined],
    ['Source', stringField(ticket, 'source')],
    ['Due', dueText(dateField(ticket, 'dueDate', 'due', 'dueOn'), now, { overdue: overdueFlagOf(ticket, names.get('status')), settled: isSettled(ticket, names.get('status')) })],
    ['Created', dateText(dateField(ticket, 'createdOn', 'createdAt', 'created', 'createdDate'))],
    ['Updated', dateText(dateField(ticket, 'updatedOn', 'updatedAt', 'updated', 'modifiedOn'))],
    ['Deleted', field(ticket, 'isDeleted') === true ? (dateText(dateField(ticket, 'deletedOn')) ?? 'yes') : undefined],
  ];
  return renderKeyValue(pairs, { color: options.color, width: options.width });
}

function section(title: string, body: string, style: Style): string {
  return `\n${style.bold(title)}\n${body.endsWith('\n') ? body : body + '\n'}`;
}

function wrap(text: string, options: DetailOptions): string {
  return options.width === undefined ? text : wrapText(text, options.width);
}

function indent(text: string): string {
  return text.split('\n').map((line) => (line === '' ? '' : `  ${line}`)).join('\n');
}

async function resolutionSection(ticket: unknown, options: DetailOptions, style: Style): Promise<string> {
  const resolution = field(ticket, 'resolution');
  if (resolution === undefined || resolution === null) return '';
  if (typeof resolution === 'string') return section('Resolution', indent(sanitizeText(resolution)), style);
  const by = stringField(resolution, 'submitBy', 'resolvedBy');
  // submitBy is a user ID; technicians are who resolve.
  const byName = by === undefined ? undefined : ((await options.lookups.nameOf('assignee', by).catch(() => undefined)) ?? by);
  const when = dateText(dateField(resolution, 'submitDate', 'resolvedOn', 'createdOn'));
  const meta = [byName === undefined ? undefined : `by ${sanitizeInline(byName)}`, when].filter(Boolean).join(', ');
  const details = sanitizeText(stringField(resolution, 'details', 'resolution', 'text') ?? '');
  return section('Resolution', (meta === '' ? '' : `  ${style.dim(meta)}\n`) + wrap(indent(details), options), style);
}

function conversationsSection(ticket: unknown, options: DetailOptions, style: Style): string {
  const all = arrayField(ticket, 'conversations', 'conversation', 'thread')
    .map((entry, index) => ({ entry, index, at: dateField(entry, 'createdOn', 'createdAt', 'date', 'sentOn')?.getTime() }))
    // Oldest first, newest last, whatever order the service used; ties keep its order.
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || a.index - b.index);
  if (all.length === 0) return '';
  const conversations = options.comments === undefined ? all : all.slice(Math.max(0, all.length - options.comments));
  const blocks = conversations.map(({ entry }) => {
    const type = entryType(entry);
    const from = displayName(field(entry, 'from', 'sender', 'createdBy'));
    const to = displayName(field(entry, 'to', 'sendTo'));
    const cc = displayName(field(entry, 'cc', 'ccTo'));
    const when = dateText(dateField(entry, 'createdOn', 'createdAt', 'date', 'sentOn'));
    const route = [from, to === undefined ? undefined : `→ ${to}`, cc === undefined ? undefined : `(cc ${cc})`].filter(Boolean).join(' ');
    const headline = [sanitizeInline(type), when, sanitizeInline(route)].filter((part) => part !== undefined && part !== '').join(' · ');
    const subject = stringField(entry, 'subject', 'title');
    const message = stringField(entry, 'message', 'body', 'text');
    return (
      `${style.cyan(wrap(`  ${headline}`, options))}\n` +
      (subject ? `${style.bold(wrap(`  ${sanitizeInline(subject)}`, options))}\n` : '') +
      (message ? `${wrap(indent(indent(sanitizeText(message))), options)}\n` : '')
    );
  });
  const title = conversations.length === all.length ? `Conversation (${all.length})` : `Conversation (last ${conversations.length} of ${all.length})`;
  return section(title, blocks.join('\n'), style);
}

function sizeText(bytes: number | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function attachmentsSection(ticket: unknown, style: Style): string {
  const attachments = arrayField(ticket, 'attachments', 'files', 'uploads');
  if (attachments.length === 0) return '';
  const lines = attachments.map((attachment) => {
    const name = stringField(attachment, 'fileName', 'name', 'originalName') ?? '(unnamed)';
    const size = field(attachment, 'size', 'length', 'fileSize');
    const when = dateText(dateField(attachment, 'createdOn', 'uploadedOn', 'createdAt'));
    const meta = [sizeText(typeof size === 'number' ? size : undefined), when].filter(Boolean).join(', ');
    return `  ${sanitizeInline(name)}${meta === '' ? '' : `  ${style.dim(meta)}`}\n`;
  });
  return section(`Attachments (${attachments.length})`, lines.join(''), style);
}

/** The whole detail view of a TicketApiModel. */
export async function renderTicketDetail(ticket: unknown, options: DetailOptions): Promise<string> {
  const style = createStyle(options.color);
  const description = stringField(ticket, 'description', 'body');
  return (
    (await header(ticket, options)) +
    (description ? section('Description', wrap(indent(sanitizeText(description)), options), style) : '') +
    (await resolutionSection(ticket, options, style)) +
    conversationsSection(ticket, options, style) +
    attachmentsSection(ticket, style)
  );
}
