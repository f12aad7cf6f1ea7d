// The service's error-body shape is not specified (spec section 7), so any shape
// is turned into a few readable lines: problem+json, ASP.NET ModelState, a JSON
// string, {message}/{error}/{errors}, plain text or an HTML error page.
// Nothing is sanitized here; the output layer escapes control characters.
import { field, isObject } from './fields.js';

const MAX_LINES = 5;
const MAX_LINE_LENGTH = 300;

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

function looksLikeHtml(text: string, contentType: string | undefined): boolean {
  if (contentType && /html/i.test(contentType)) return true;
  return /^\s*<(!doctype\s+html|html|head|body)\b/i.test(text);
}

function htmlSummary(html: string, status: number): string {
  const heading = firstTagText(html, 'title') ?? firstTagText(html, 'h1');
  if (!heading) return `HTTP ${status} (HTML error page)`;
  return heading.includes(String(status)) ? heading : `HTTP ${status}: ${heading}`;
}

function firstTagText(html: string, tag: string): string | undefined {
  const match = new RegExp(`<${tag}\\b[^>]*>([\\s\\S]*?)</${tag}\\s*>`, 'i').exec(html);
  const text = match?.[1] && decodeEntities(match[1].replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
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

function valueMessages(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return value.split(/\r?\n/);
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (Array.isArray(value)) return value.flatMap(valueMessages);
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
    if (inner !== undefined) lines.push(...valueMessages(inner));
  }
  for (const key of FIELD_ERROR_MAPS) lines.push(...fieldErrors(field(value, key)));
  if (lines.length === 0) lines.push(JSON.stringify(value));
  return lines;
}

/** `{"Title": ["is required"]}` -> "Title: is required"; an array of errors is read item by item. */
function fieldErrors(errors: unknown): string[] {
  if (Array.isArray(errors)) return errors.flatMap(fieldErrorItem);
  if (!isObject(errors)) return [];
  return Object.entries(errors).flatMap(([name, messages]) =>
    valueMessages(messages).map((message) => (name ? `${name}: ${message}` : message)),
  );
}

function fieldErrorItem(item: unknown): string[] {
  if (!isObject(item)) return valueMessages(item);
  const name = field(item, 'field', 'property', 'propertyName', 'name', 'key');
  const message = field(item, 'message', 'errorMessage', 'description', 'detail', 'error');
  if (message === undefined) return valueMessages(item);
  return valueMessages(message).map((text) => (typeof name === 'string' && name ? `${name}: ${text}` : text));
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
