// `--json` output (docs/cli.md section 3): stdout is exactly one JSON document, the API's
// body unmodified in content; the ID... commands print JSON Lines instead.
import type { Writable } from 'node:stream';
import { escapeJsonControls } from './sanitize.js';
import { writeText } from './write.js';

const INDENT = 2;

// JSON.stringify(undefined) is not JSON; an absent body prints as null (as it would inside an array).
function stringify(value: unknown, indent?: number): string {
  return escapeJsonControls(JSON.stringify(value === undefined ? null : value, null, indent));
}

/** One pretty-printed JSON document followed by a newline. */
export function writeJson(stream: Writable, value: unknown): Promise<void> {
  return writeText(stream, stringify(value, INDENT) + '\n');
}

/** One compact JSON object per line (JSON Lines). */
export function writeJsonLine(stream: Writable, value: unknown): Promise<void> {
  return writeText(stream, stringify(value) + '\n');
}

export interface JsonArrayWriter {
  /** Writes elements now, in one write (a page of 100 tickets is one write, not 100); resolves when the stream can take more. */
  push(...items: unknown[]): Promise<void>;
  /** Closes the array (prints `[]` when nothing was pushed). */
  end(): Promise<void>;
  /**
   * Closes the array of a run that stops before its end (interrupted, a page that failed), so
   * that stdout stays one JSON document with the elements printed so far; prints nothing when
   * none was: a run that failed before any answer prints no `[]` that would claim an empty list.
   */
  cutShort(): Promise<void>;
}

/**
 * A JSON array written element by element, for `list --all --json`: pages are printed as
 * they arrive instead of being held in memory. The text is byte-for-byte what
 * writeJson(stream, allItems) would print.
 */
export function createJsonArrayWriter(stream: Writable): JsonArrayWriter {
  let count = 0;
  return {
    async push(...items) {
      if (items.length === 0) return;
      // The page as an array of its own, brackets cut off: "[\n  A,\n  B\n]" holds the elements
      // indented as inside the whole array, in one stringify (no indenting pass per item).
      const elements = stringify(items, INDENT).slice('[\n'.length, -'\n]'.length);
      const text = (count === 0 ? '[\n' : ',\n') + elements;
      count += items.length;
      return writeText(stream, text);
    },
    end() {
      return writeText(stream, count === 0 ? '[]\n' : '\n]\n');
    },
    async cutShort() {
      if (count > 0) await writeText(stream, '\n]\n');
    },
  };
}
