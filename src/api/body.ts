// Response bodies, once read (size-limits.ts): parsed, and checked against what the endpoint
// returns. A service tkt does not control, or a gateway in front of it, may send a sign-in page
// with status 200, truncated JSON or JSON nested a million levels deep; none of it may run tkt
// out of stack, or pass for success.
import { isObject } from './member-access.js';
import { htmlTitle, looksLikeHtml } from './error-body.js';

/** Deeper JSON is refused: no service's answer nests like this, and printing it would exhaust the stack. */
const MAX_JSON_DEPTH = 256;

/**
 * What an endpoint returns when it succeeds:
 * - object: a JSON object (a ticket, the lookups, the logged-in user);
 * - json: a JSON array or object (a list, which some services wrap in an object);
 * - created: a JSON object (the new ticket), or nothing beside a Location header (its address:
 *   a 201 that gives only that);
 * - any: nothing, JSON or plain text (the actions, whose answers the spec does not show);
 * - unchecked: whatever came (`tkt api`).
 * Only `unchecked` accepts an HTML page or JSON that does not parse.
 */
export type Expectation = 'object' | 'json' | 'created' | 'any' | 'unchecked';

export interface ParsedBody {
  /** Parsed JSON when the body is JSON, the text otherwise, undefined when empty. */
  body: unknown;
  /** Why the body cannot be what an API answers: broken or absurdly deep JSON, an HTML page. */
  problem: string | undefined;
}

export function parseBody(text: string, contentType: string | undefined): ParsedBody {
  if (text === '') return { body: undefined, problem: undefined };
  // JSON wins over a content type that says otherwise: some services label JSON text/html.
  const declaredJson = isJsonType(contentType);
  if (declaredJson || /^\s*[[{"]/.test(text)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (depthExceeds(parsed, MAX_JSON_DEPTH)) return { body: text, problem: `JSON nested more than ${MAX_JSON_DEPTH} levels deep` };
      return { body: parsed, problem: undefined };
    } catch {
      if (!looksLikeHtml(text, contentType)) {
        return { body: text, problem: `JSON that does not parse (${formatBytes(Buffer.byteLength(text))}, truncated or malformed)` };
      }
    }
  }
  if (looksLikeHtml(text, contentType)) {
    const title = htmlTitle(text);
    return { body: text, problem: `an HTML page${title === undefined ? '' : ` ("${clip(title, 80)}")`}: is a sign-in gateway in front of the service?` };
  }
  return { body: text, problem: undefined };
}

function isJsonType(contentType: string | undefined): boolean {
  return contentType !== undefined && /[/+]json\b/i.test(contentType);
}

/**
 * Whether a body parseBody read prints as JSON (`tkt api`): a parsed value, or a string its
 * content type says is JSON (a bare JSON string, such as the service's 404). Otherwise it is
 * text, printed as it came: JSON that does not parse (an error body cut at its limit) too.
 */
export function printsAsJson(parsed: ParsedBody, contentType: string | undefined): boolean {
  return parsed.problem === undefined && (typeof parsed.body !== 'string' || isJsonType(contentType));
}

/** Why a 2xx body is not what the endpoint returns, or undefined when it is; `location`, the answer's Location header. */
export function unexpectedBody(parsed: ParsedBody, expectation: Expectation, location?: string): string | undefined {
  if (expectation === 'unchecked') return undefined;
  if (parsed.problem !== undefined) return parsed.problem;
  const { body } = parsed;
  if (expectation === 'any') return undefined;
  if (body === undefined) return expectation === 'created' && location ? undefined : 'an empty body';
  if (isObject(body)) return undefined;
  if (Array.isArray(body)) return expectation === 'json' ? undefined : 'a JSON array where an object was expected';
  if (typeof body === 'string') return `text ("${clip(body, 80)}")`;
  return `a JSON ${body === null ? 'null' : typeof body} where ${expectation === 'json' ? 'a list' : 'an object'} was expected`;
}

/**
 * Whether `value` nests deeper than `limit`; walks without recursion, so any depth is safe. Every
 * list page goes through here: only objects are stacked, their depths beside them, no tuple or
 * values array made per object.
 */
function depthExceeds(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const objects: object[] = [value];
  const depths: number[] = [0];
  while (objects.length > 0) {
    const current = objects.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth >= limit) return true;
    for (const key in current) {
      const inner = current[key];
      if (typeof inner === 'object' && inner !== null) {
        objects.push(inner);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** 64 MB, 1.5 GB, 900 bytes. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
}
