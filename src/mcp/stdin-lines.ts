// The server's input, a line at a time, in front of the SDK's stdio transport: that transport
// gives up at a message over its buffer's 10 MiB (it closes, and the process ends in silence,
// exit 0). Here a line over the limit is skipped as it comes, only its first and last bytes kept
// (memory stays bounded), and refused with its ID where those bytes show it; the lines within
// the limit reach the transport whole, at once, in the order they came. A last line that stdin
// ends without a newline is a line too: the transport would wait for its newline, and drop it.
import { EventEmitter } from 'node:events';
import type { Readable } from 'node:stream';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** The longest message read, without its newline: as much as the SDK's transport holds. */
export const MAX_MESSAGE_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE - 1;

/** How much of a refused line's start and end is kept to find its ID in. */
const KEPT_BYTES = 64 * 1024;

/** A line over the limit: its size, and its ID when its kept ends show one (else null). */
export interface RefusedLine {
  bytes: number;
  id: RequestId | null;
}

/**
 * What the SDK's transport reads from instead of stdin: the lines of `input` within `max` bytes,
 * each one 'data' event, emitted as the line completes, or as `input` ends for a last line
 * without its newline (a request read just before stdin closed is seen before its 'end'
 * listeners that come after this one); `refused` hears of each longer line once it ends, and a
 * line within the limit that `taken` takes (a batch, answered by the server) goes no further.
 */
export function limitedLines(
  input: Readable,
  refused: (line: RefusedLine) => void,
  { max = MAX_MESSAGE_BYTES, taken }: { max?: number; taken?: (line: Buffer) => boolean } = {},
): Readable {
  // The transport only listens to 'data' and 'error', and pauses its input when it closes.
  const lines = Object.assign(new EventEmitter(), { pause: () => input.pause() });
  let parts: Buffer[] = [];
  let size = 0;
  let head: Buffer | undefined;
  let tail = Buffer.alloc(0);
  const take = (piece: Buffer): void => {
    if (head === undefined && size + piece.length <= max) {
      parts.push(piece);
    } else {
      head ??= Buffer.concat([...parts, piece.subarray(0, KEPT_BYTES)]).subarray(0, KEPT_BYTES);
      // The end kept from the bytes before too: an ID can start before the piece that crosses the limit.
      tail = Buffer.concat([...parts, tail, piece.subarray(-KEPT_BYTES)]).subarray(-KEPT_BYTES);
      parts = [];
    }
    size += piece.length;
  };
  const end = (): void => {
    if (head !== undefined) refused({ bytes: size, id: requestIdOf(head, tail) });
    else {
      const line = Buffer.concat([...parts, NEWLINE]);
      if (taken?.(line.subarray(0, -1)) !== true) lines.emit('data', line);
    }
    parts = [];
    size = 0;
    head = undefined;
    tail = Buffer.alloc(0);
  };
  input.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    for (let newline = bytes.indexOf(10); newline !== -1; newline = bytes.indexOf(10, start)) {
      take(bytes.subarray(start, newline));
      end();
      start = newline + 1;
    }
    if (start < bytes.length) take(bytes.subarray(start));
  });
  // Whitespace alone is no message: a last "\r" or blank is not answered as unreadable.
  input.on('end', () => {
    if (head !== undefined || parts.some((part) => /\S/.test(part.toString('latin1')))) end();
  });
  input.on('error', (error) => lines.emit('error', error));
  return lines as unknown as Readable;
}

const NEWLINE = Buffer.from('\n');

/** JSON's tokens, enough to follow a message's top level: strings, punctuation, the other literals. */
const TOKEN = /\s*("(?:[^"\\]|\\.)*"|[{}[\]:,]|[^\s{}[\]:,"]+)/y;

/** A request's `id` among its first members. */
function leadingId(text: string): RequestId | undefined {
  const top: string[] = [];
  let depth = 0;
  TOKEN.lastIndex = 0;
  for (let match = TOKEN.exec(text); match !== null; match = TOKEN.exec(text)) {
    const token = match[1]!;
    if (token === '}' || token === ']') depth -= 1;
    if (depth === 1) top.push(token);
    if (token === '{' || token === '[') depth += 1;
    const at = top.length - 3;
    if (at >= 0 && top[at] === '"id"' && top[at + 1] === ':' && (at === 0 || top[at - 1] === ',')) return idValue(top[at + 2]!);
  }
  return undefined;
}

/** A request's `id` as its last member, or before a last `"jsonrpc": "2.0"` (the SDK's client writes it so). */
const TRAILING_ID = /[{,]\s*"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/;

function idValue(token: string): RequestId | undefined {
  try {
    const value: unknown = JSON.parse(token);
    return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value)) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The ID of a line too long to read, from its start or its end; null when neither shows it. */
export function requestIdOf(head: Buffer, tail: Buffer): RequestId | null {
  const trailing = TRAILING_ID.exec(tail.toString('utf8').replace(/\r$/, ''));
  return leadingId(head.toString('utf8')) ?? (trailing === null ? undefined : idValue(trailing[1]!)) ?? null;
}

/** A batch (a JSON array of messages): how many it holds, and the IDs its answers go to (null: a member that is no message). */
export interface Batch {
  size: number;
  ids: (RequestId | null)[];
}

/**
 * The batch `line` is, or undefined for any other line (and for one that is no JSON, which the
 * transport answers). A request's ID is answered; a notification is not (JSON-RPC answers none);
 * a member that is no message is answered with the null ID, as JSON-RPC 2.0 answers one.
 */
export function batchOf(line: Buffer): Batch | undefined {
  // Parsed only when it can be an array: a message is an object, and a batch is rare.
  if (!/^\s*\[/.test(line.subarray(0, 64).toString('latin1'))) return undefined;
  let members: unknown;
  try {
    members = JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(members)) return undefined;
  const ids = members.flatMap((member: unknown): (RequestId | null)[] => {
    if (typeof member !== 'object' || member === null || Array.isArray(member)) return [null];
    const { id, method } = member as { id?: unknown; method?: unknown };
    if (typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id))) return [id];
    return id === undefined && typeof method === 'string' ? [] : [null];
  });
  return { size: members.length, ids };
}
