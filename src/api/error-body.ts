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

export function serverMessages(body: unknown, contentType: string | undefined, status: number): string[] {
  const lines = typeof body === 'string' ? textMessages(body, contentType, status) : valueMessages(body);
  return limit(lines);
}

function textMessages(text: string, contentType: string | undefined, status: number): string[] {
  if (looksLikeHtml(text, contentType)) return [htmlSummary(text, status)];
  return text.split(/\r?\n/);
}

export function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  if (contentType && /html/i.test(contentType)) return true;
  return /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text);
}

/** The page's title, else its first heading. */
export function htmlTitle(html: string): string | undefined {
  return firstTagText(html, 'title') ?? firstTagText(html, 'h1');
}

function htmlSummary(html: string, status: number): string {
  const heading = htmlTitle(html);
  if (!heading) return `HTTP ${status} (HTML error page)`;
  return heading.includes(String(status)) ? heading : `HTTP ${status}: ${heading}`;
}

function firstTagText(html: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(html);
  const text =
    match?.[1] &&
    decodeEntities(match[1].replace(/<[^>]*>/g, ''))
      .replace(/\s+/g, ' ')
      .trim();
  return text || undefined;
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

function limit(lines: string[]): string[] {
  const unique = [...new Set(lines.map(clip).filter((line) => line !== ''))];
  if (unique.length <= MAX_LINES) return unique;
  return [...unique.slice(0, MAX_LINES - 1), `(and ${unique.length - (MAX_LINES - 1)} more)`];
}

function clip(line: string): string {
  const trimmed = line.trim();
  return trimmed.length > MAX_LINE_LENGTH ? `${trimmed.slice(0, MAX_LINE_LENGTH - 1)}…` : trimmed;
}
