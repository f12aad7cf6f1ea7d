// Lists of ticket IDs or row numbers short enough for a terminal (README, "Scripting"):
// consecutive numbers as one range ("#1001-1010, #1013"), wrapped, and at a terminal cut to a
// few lines with the rest counted ("and 2460 more"); --json and the report keep every number.
import type { IO } from '../output/io.js';

interface RangeText {
  text: string;
  /** How many numbers the range stands for. */
  count: number;
}

function ranges(numbers: Iterable<number>, prefix: string): RangeText[] {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const found: RangeText[] = [];
  let index = 0;
  while (index < sorted.length) {
    const first = sorted[index]!;
    let last = first;
    while (sorted[index + 1] === last + 1) last = sorted[++index]!;
    index += 1;
    found.push({ text: last === first ? `${prefix}${first}` : `${prefix}${first}-${last}`, count: last - first + 1 });
  }
  return found;
}

/** "#1001-1010, #1013": sorted, duplicates dropped, consecutive numbers joined. */
export function formatRanges(numbers: Iterable<number>, prefix: string): string {
  return ranges(numbers, prefix)
    .map((range) => range.text)
    .join(', ');
}

export interface RangeLinesOptions {
  /** "#" for ticket IDs, "" for row numbers. */
  prefix: string;
  /** The widest a line may be (a range wider than that still gets a line of its own). */
  width: number;
  /** At most this many lines, the numbers left out counted on the last; no cap when absent. */
  maxLines?: number | undefined;
}

const CONTINUATION = '  ';
// At a terminal each list of a summary takes at most this many lines.
const TERMINAL_LIST_LINES = 2;
// main.ts indents each line under `error:`.
const DETAIL_INDENT = 2;
const NARROWEST = 40;

/**
 * How the lists under an `error:` line are laid out: wrapped to the terminal, and there cut to a
 * few lines each; a log (stderr not a terminal) keeps every number.
 */
export function summaryLayout(io: Pick<IO, 'size' | 'stderrIsTTY'>, prefix: string): RangeLinesOptions {
  return { prefix, width: Math.max(io.size().columns, NARROWEST) - DETAIL_INDENT, maxLines: io.stderrIsTTY ? TERMINAL_LIST_LINES : undefined };
}

/**
 * The ranges after `label:`, comma-separated, as many on a line as fit `width` (each line takes
 * at least one); each line as the ranges it holds.
 */
function wrap(label: string, texts: readonly string[], width: number): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  let length = label.length + 1;
  texts.forEach((text, index) => {
    const word = index < texts.length - 1 ? `${text},` : text;
    if (line.length > 0 && length + 1 + word.length > width) {
      lines.push(line);
      line = [];
      length = CONTINUATION.length - 1;
    }
    line.push(word);
    length += 1 + word.length;
  });
  lines.push(line);
  return lines;
}

function render(label: string, lines: readonly (readonly string[])[]): string[] {
  return lines.map((words, index) => (index === 0 ? [`${label}:`, ...words].join(' ') : `${CONTINUATION}${words.join(' ')}`));
}

/**
 * `label: ranges`, wrapped at `width` with continuation lines indented; `cut` tells that
 * `maxLines` left numbers out, counted on the last line ("and 2460 more").
 */
export function rangeLines(label: string, numbers: Iterable<number>, options: RangeLinesOptions): { lines: string[]; cut: boolean } {
  const { width, maxLines = Infinity } = options;
  const all = ranges(numbers, options.prefix);
  const texts = all.map((range) => range.text);
  const wrapped = wrap(label, texts, width);
  if (wrapped.length <= maxLines) return { lines: render(label, wrapped), cut: false };
  const total = all.reduce((sum, range) => sum + range.count, 0);
  // Fewer ranges than fill the lines, until the count of the rest fits after them.
  let shown = wrapped.slice(0, maxLines).reduce((sum, line) => sum + line.length, 0);
  for (; ; shown -= 1) {
    const kept = render(label, wrap(label, texts.slice(0, shown), width));
    const rest = total - all.slice(0, shown).reduce((sum, range) => sum + range.count, 0);
    const last = `${kept.at(-1)!} and ${rest} more`;
    if (shown === 1 || (kept.length <= maxLines && last.length <= width)) return { lines: [...kept.slice(0, -1), last], cut: true };
  }
}
