// The service's error-body shape is not specified (docs/service.md section 7), so any shape
// is turned into a few readable lines: problem+json, ASP.NET ModelState, a JSON
// string, {message}/{error}/{errors}, plain text or an HTML error page.
// Nothing is sanitized here; the output layer escapes control characters. Bodies of any
// size and depth give a few short lines: nesting is walked only so deep.
import { field, isObject } from './member-access.js';

const MAX_LINES = 5;
const MAX_LINE_LENGTH = 300;
/** Messages nested deeper than this are not looked for. */
const MAX_DEPTH = 8;

const MESSAGE_KEYS = ['message', 'error_description', 'errorMessage', 'error', 'msg', 'reason', 'description'] as const;
const FIELD_ERROR_MAPS = ['errors', 'modelState', 'validationErrors'] as const;

/**
 * The server's words in a few short lines: its body's, then `fromHeaders`, what its headers say
 * (a Retry-After, a WWW-Authenticate's error_description), each kept however much the body says.
 */
export function serverMessages(body: unknown, contentType: string | undefined, status: number, fromHeaders: readonly string[] = []): string[] {
  const lines = limit(typeof body === 'string' ? textMessages(body, contentType, status) : valueMessages(body));
  const added = limit(fromHeaders).filter((line) => !lines.includes(line));
  return added.length === 0 ? lines : [...lines, ...added];
}

function textMessages(text: string, contentType: string | undefined, status: number): string[] {
  if (looksLikeHtml(text, contentType)) return htmlMessages(text, status);
  return text.split(/\r?\n/);
}

export function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  if (contentType && /html/i.test(contentType)) return true;
  return /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text);
}

/** The page's title, else its first heading. */
export function htmlTitle(html: string): string | undefined {
  const page = pageText(html);
  return page.title ?? page.blocks.find((block) => block.tag === 'h1')?.text;
}

/**
 * An HTML error page as a reader sees it: its title with the status, then what its headings and
 * paragraphs say ("Ticket not found", "Username or password is incorrect."), or without any, the
 * text of its body; never markup, a script or a style. These lines decide the exit code as any
 * other body's do (a 400 page saying the ticket does not exist is exit 3).
 */
function htmlMessages(html: string, status: number): string[] {
  const { title, blocks } = pageText(html);
  const heading = title ?? blocks.find((block) => block.tag === 'h1')?.text;
  const summary = heading === undefined ? `HTTP ${status} (HTML error page)` : heading.includes(String(status)) ? heading : `HTTP ${status}: ${heading}`;
  const said = blocks.some((block) => block.tag !== undefined) ? blocks.filter((block) => block.tag !== undefined) : blocks;
  return [summary, ...said.map((block) => block.text).filter((text) => text !== heading)];
}

/** How much of a page is read: an error page says what went wrong near its top, and a bound keeps any page cheap. */
const PAGE_SCAN_CHARS = 64 * 1024;
/** Elements whose text a reader sees as the page's message. */
const MESSAGE_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
/** Elements whose content is no text to read: skipped to their end tag. */
const SKIPPED_TAGS = new Set(['script', 'style', 'template', 'noscript', 'svg', 'textarea']);
/** Elements that flow within a line; any other tag ends a block of text. */
const INLINE_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'br',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'img',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);
const TAG_NAME = /^<(\/?)([a-z][a-z0-9-]*)/i;

/** A block of a page's text; `tag` the heading or paragraph it is, none for other text of the body. */
interface TextBlock {
  tag: string | undefined;
  text: string;
}

/**
 * The text of an HTML page: its title and its blocks of text in order. One pass over at most
 * PAGE_SCAN_CHARS, each character looked at a bounded number of times, whatever the markup:
 * no regular expression runs over the page from each tag (a page of unclosed tags stays linear).
 */
function pageText(whole: string): { title: string | undefined; blocks: TextBlock[] } {
  const html = whole.length > PAGE_SCAN_CHARS ? whole.slice(0, PAGE_SCAN_CHARS) : whole;
  const blocks: TextBlock[] = [];
  let title: string | undefined;
  let current = '';
  let inMessage: string | undefined;
  const flush = (): void => {
    const text = readable(current);
    if (text !== '') blocks.push({ tag: inMessage, text });
    current = '';
  };
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    current += html.slice(at, open === -1 ? html.length : open);
    if (open === -1) break;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      at = end === -1 ? html.length : end + 3;
      continue;
    }
    const name = TAG_NAME.exec(html.slice(open, open + 32));
    const isMarkup = name !== null || html[open + 1] === '!' || html[open + 1] === '?';
    if (!isMarkup) {
      // "a < b" is text.
      current += '<';
      at = open + 1;
      continue;
    }
    const close = html.indexOf('>', open + 1);
    // A tag never closed: the rest of the page is inside it, no text.
    if (close === -1) break;
    at = close + 1;
    if (name === null) continue;
    const closing = name[1] === '/';
    const tag = name[2]!.toLowerCase();
    if (INLINE_TAGS.has(tag)) {
      current += tag === 'br' ? ' ' : '';
      continue;
    }
    if (!closing && (tag === 'title' || SKIPPED_TAGS.has(tag))) {
      const end = endTag(html, tag, at);
      if (tag === 'title') title ??= readable(html.slice(at, end?.start ?? html.length)) || undefined;
      if (end === undefined) break;
      at = end.after;
      continue;
    }
    flush();
    inMessage = !closing && MESSAGE_TAGS.has(tag) ? tag : undefined;
  }
  flush();
  return { title, blocks };
}

/** Where the end tag of a raw-text element (a script, a title) starts and ends, from `from`; none when the page has none. */
function endTag(html: string, tag: string, from: number): { start: number; after: number } | undefined {
  const pattern = new RegExp(`</${tag}\\s*>`, 'gi');
  pattern.lastIndex = from;
  const match = pattern.exec(html);
  return match === null ? undefined : { start: match.index, after: match.index + match[0].length };
}

/** Text of a page as a line: its entities decoded, its white space one space. */
function readable(text: string): string {
  return decodeEntities(text).replace(/\s+/g, ' ').trim();
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? whole;
  });
}

function valueMessages(value: unknown, depth = 0): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/\r?\n/);
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (depth >= MAX_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((item) => valueMessages(item, depth + 1));
  if (!isObject(value)) return [];

  const lines: string[] = [];
  // problem+json: title is the summary, detail the specifics.
  for (const key of ['title', 'detail']) {
    const text = field(value, key);
    if (typeof text === 'string') lines.push(text);
  }
  for (const key of MESSAGE_KEYS) {
    const inner = field(value, key);
    // {error: {message: ...}} nests; {error: "invalid_grant"} is a plain line.
    if (inner !== undefined) lines.push(...valueMessages(inner, depth + 1));
  }
  for (const key of FIELD_ERROR_MAPS) lines.push(...fieldErrors(field(value, key), depth + 1));
  if (lines.length === 0) lines.push(compactJson(value, MAX_LINE_LENGTH));
  return lines;
}

/**
 * `value` as compact JSON, cut after about `max` characters; nesting too deep to show is "…".
 * Unlike JSON.stringify, it never walks more than it prints.
 */
function compactJson(value: unknown, max: number): string {
  let text = '';
  const write = (part: string) => {
    text += part;
    return text.length < max;
  };
  const walk = (inner: unknown, depth: number): boolean => {
    if (typeof inner !== 'object' || inner === null) return write((JSON.stringify(inner) as string | undefined) ?? 'null');
    if (depth >= MAX_DEPTH) return write('…');
    const entries = Array.isArray(inner) ? inner.map((item): [string | undefined, unknown] => [undefined, item]) : Object.entries(inner);
    if (!write(Array.isArray(inner) ? '[' : '{')) return false;
    for (const [index, [key, item]] of entries.entries()) {
      if (index > 0 && !write(',')) return false;
      if (key !== undefined && !write(`${JSON.stringify(key)}:`)) return false;
      if (!walk(item, depth + 1)) return false;
    }
    return write(Array.isArray(inner) ? ']' : '}');
  };
  walk(value, 0);
  return text;
}

/** `{"Title": ["is required"]}` -> "Title: is required"; an array of errors is read item by item. */
function fieldErrors(errors: unknown, depth: number): string[] {
  if (Array.isArray(errors)) return errors.flatMap((item) => fieldErrorItem(item, depth + 1));
  if (!isObject(errors)) return [];
  return Object.entries(errors).flatMap(([name, messages]) => valueMessages(messages, depth + 1).map((message) => (name ? `${name}: ${message}` : message)));
}

function fieldErrorItem(item: unknown, depth: number): string[] {
  if (!isObject(item)) return valueMessages(item, depth);
  const name = field(item, 'field', 'property', 'propertyName', 'name', 'key');
  const message = field(item, 'message', 'errorMessage', 'description', 'detail', 'error');
  if (message === undefined) return valueMessages(item, depth);
  return valueMessages(message, depth + 1).map((text) => (typeof name === 'string' && name ? `${name}: ${text}` : text));
}

function limit(lines: readonly string[]): string[] {
  const unique = [...new Set(lines.map(clip).filter((line) => line !== ''))];
  if (unique.length <= MAX_LINES) return unique;
  return [...unique.slice(0, MAX_LINES - 1), `(and ${unique.length - (MAX_LINES - 1)} more)`];
}

function clip(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > MAX_LINE_LENGTH ? `${trimmed.slice(0, MAX_LINE_LENGTH - 1)}…` : trimmed;
}
