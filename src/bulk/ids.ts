import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { InterruptedError, TktError, UsageError } from '../errors.js';
import { STDIN } from '../cmdutil/text-input.js';
import { MAX_RUN_IDS, parseTicketId, separatedNumber, spanCount, spanIds, ticketSpans, type IdSpan } from '../util/ids.js';
import { guardText } from '../util/text-read.js';

// The first run of digits standing as a word: "42", "  42  Printer on fire", "✓ #42 closed",
// {"id":42,...}; not the 3 of "v3" nor the 2 of "2nd".
const FIRST_INTEGER = /\b\d+\b/;
// A "#" not followed by a digit starts a comment line.
const COMMENT = /^#(?!\d)/;
// What stands right before the first integer when it is "-106" or "+7" (a word of its own).
const SIGNED = /(^|\s)[-+]$/;
// A line of whole numbers (or ranges) and nothing else, apart by spaces, commas or semicolons:
// `echo $ids` puts every ID on one, which one is meant? Not by tabs: tkt's own TSV (`list
// --columns id,title`) starts with the ID, and a title may be a number.
const SEVERAL_NUMBERS = /^#?\d+(?:-#?\d+)?(?:(?: +| *[,;] *)#?\d+(?:-#?\d+)?)+$/;
// A line of IDs as tkt's summaries print them (src/bulk/ranges.ts), each with its "#", apart by a
// comma and a blank, a wrapped line's "," at its end: "#1001-1010, #1013,". And a range alone,
// with or without "#": "1001-1010".
const SUMMARY_LIST = /^#\d+(?:-#?\d+)?(?:,\s+#\d+(?:-#?\d+)?)*,?$/;
const LONE_RANGE = /^#?\d+-#?\d+,?$/;
// The first ID of a line written as a range as tkt prints one, among other words: a summary's
// line copied whole ("not started: #1033-5537"), whose first ID alone is not what is meant.
const RANGE_AMONG_WORDS = /^\d+-#?\d+\b/;
// The header of tkt's own CSV whose first column is the ticket IDs, as `tkt list --csv` writes
// it (`id,title,...`, or `id` alone): the first line only, so that `tkt list --csv | tkt close -`
// needs no `tail -n +2`. Anywhere else, or written otherwise, it is a line with no ID.
const CSV_ID_HEADER = /^id(?:,|$)/;
// A row of that CSV: its first cell, the ID, as tkt writes it (digits, unquoted); the cells after
// it are the row's own, a title that starts with a number among them (`1032,2025 budget`).
const CSV_ROW_ID = /^(\d+)(?:,|$)/;
const SHOWN_LINE_LENGTH = 60;
/** Where a line ends, as readline ends one: \n, \r\n, or a \r alone. */
const LINE_END = /\r\n|\r|\n/g;
/** About two million IDs: far more than any list, far less memory than an endless stdin. */
const MAX_STDIN_ID_BYTES = 16 * 1024 * 1024;
/** The bad lines after the first named by number in its error; the others are counted. */
const SHOWN_MORE_BAD_LINES = 3;

function quoteLine(line: string): string {
  const shown = line.length > SHOWN_LINE_LENGTH ? `${line.slice(0, SHOWN_LINE_LENGTH)}…` : line;
  return JSON.stringify(shown);
}

/** The ticket IDs of one stdin line: none for a blank or comment line, the IDs of a line of ranges. */
function idsOfLine(line: string, lineNumber: number): IdSpan[] {
  const text = line.trim();
  // "#42" and "#108: Wi-Fi dead zone" are tickets; "# from the morning list" is a comment.
  if (text === '' || COMMENT.test(text)) return [];
  // What a summary lists is read as it is printed: `tkt read -` with its "#1001-1010, #1013".
  if (SUMMARY_LIST.test(text) || LONE_RANGE.test(text)) return onLine(lineNumber, () => ticketSpans(text));
  const id = idOfLine(text, lineNumber);
  return [{ first: id, last: id }];
}

/** The ticket ID of a stdin line that holds no list of them: its first integer, refused where that is not the ID meant. */
function idOfLine(text: string, lineNumber: number): number {
  const match = FIRST_INTEGER.exec(text);
  if (!match) throw new UsageError(`stdin line ${lineNumber} has no ticket ID: ${quoteLine(text)}`);
  if (SIGNED.test(text.slice(0, match.index))) {
    throw new UsageError(`stdin line ${lineNumber}: ${quoteLine(text)} is not a ticket ID (a signed number)`);
  }
  // "1,031" is not ticket 1, nor "1031.5" ticket 1031 (README: Scripting).
  const separated = separatedNumber(text.slice(match.index));
  if (separated !== undefined) {
    const why = separated.reason === undefined ? `: ${separated.advice}` : ` (${separated.reason})`;
    throw new UsageError(`stdin line ${lineNumber}: ${quoteLine(text)} is no ticket ID${why}`);
  }
  if (SEVERAL_NUMBERS.test(text)) {
    const what = idRangeAt(text.slice(match.index)) ? 'ID or range' : 'ID';
    throw new UsageError(`stdin line ${lineNumber}: ${quoteLine(text)} holds several IDs: write one ${what} per line`);
  }
  if (text.slice(0, match.index).endsWith('#') && RANGE_AMONG_WORDS.test(text.slice(match.index)))
    throw new UsageError(`stdin line ${lineNumber}: ${quoteLine(text)} holds a range among other words: write the IDs alone on their line`);
  return onLine(lineNumber, () => parseTicketId(match[0]));
}

/** Whether a range (1001-1010) stands anywhere in a line of numbers. */
const idRangeAt = (text: string): boolean => /\d-#?\d/.test(text);

/** What `read` makes of the stdin line numbered `lineNumber`, or exit 2 naming the line (an ID too large, 0). */
function onLine<T>(lineNumber: number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof UsageError) throw new UsageError(`stdin line ${lineNumber}: ${error.message}`);
    throw error;
  }
}

/** The ticket ID of a row of tkt's own CSV (after its header), none for a blank line. */
function idOfCsvRow(line: string, lineNumber: number): IdSpan[] {
  if (line.trim() === '') return [];
  const match = CSV_ROW_ID.exec(line);
  if (!match) throw new UsageError(`stdin line ${lineNumber} has no ticket ID: ${quoteLine(line.trim())}`);
  const id = onLine(lineNumber, () => parseTicketId(match[1]!));
  return [{ first: id, last: id }];
}

/** More IDs than one run takes (MAX_RUN_IDS): `where` names the stdin line they reached it on. */
const tooManyIds = (where = ''): UsageError => new UsageError(`${where}more than ${MAX_RUN_IDS} ticket IDs: too many for one run`);

/**
 * The lines of stdin that hold no ID: the first one's error, the numbers of the others. A bad line
 * does not end the read: at a terminal, what was typed after it would go to the shell once tkt
 * exits, and the Ctrl-D asked for would end the shell (README: Scripting).
 */
class BadLines {
  private first: UsageError | undefined;
  private readonly more: number[] = [];
  private moreCount = 0;

  get any(): boolean {
    return this.first !== undefined;
  }

  add(error: UsageError, lineNumber: number): void {
    if (this.first === undefined) this.first = error;
    else if (this.moreCount++ < SHOWN_MORE_BAD_LINES) this.more.push(lineNumber);
  }

  /** The first bad line's error, as it reads alone, with how many more and where: `(and 2 more bad lines: 4, 5)`. */
  error(): UsageError {
    const first = this.first!;
    if (this.moreCount === 0) return first;
    const where = `${this.more.join(', ')}${this.moreCount > this.more.length ? ', …' : ''}`;
    const more = `${this.moreCount} more bad line${this.moreCount === 1 ? '' : 's'}`;
    return new UsageError(`${first.message} (and ${more}: ${where})`, { hint: first.hint, details: first.details });
  }
}

async function readStdinIds(stdin: Readable, signal: AbortSignal | undefined): Promise<number[]> {
  const ids: number[] = [];
  // The IDs of the lines so far, those of bad lines included, to stop at MAX_RUN_IDS.
  let count = 0;
  const bad = new BadLines();
  let lineNumber = 0;
  // After tkt's CSV header, each line is a row of that CSV: its ID is its first cell.
  let csvRows = false;
  const take = (line: string): void => {
    lineNumber += 1;
    if (lineNumber === 1 && CSV_ID_HEADER.test(line)) {
      csvRows = true;
      return;
    }
    let spans: IdSpan[];
    try {
      spans = csvRows ? idOfCsvRow(line, lineNumber) : idsOfLine(line, lineNumber);
      // The line that goes past it is the one refused, not every line after it.
      if (count <= MAX_RUN_IDS && (count += spanCount(spans)) > MAX_RUN_IDS) throw tooManyIds(`stdin line ${lineNumber}: `);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      bad.add(error, lineNumber);
      return;
    }
    // Once a line is bad nothing is sent: the lines after it are checked, their IDs not kept.
    if (!bad.any) for (const id of spanIds(spans)) ids.push(id);
  };
  // Split here rather than by node:readline, whose seven modules a `close -` loaded only for this,
  // as readline splits: a line ends at \n, \r\n or a \r alone, a \r ends its line at once (a
  // signal before the next chunk keeps it), and a \n that starts the next chunk is its \r's.
  const decoder = new StringDecoder('utf8');
  // The line under way, in the pieces the chunks brought: a long line is joined once, at its end.
  let pieces: string[] = [];
  let afterCarriageReturn = false;
  try {
    for await (const chunk of guardText(stdin, 'the IDs on stdin', signal, MAX_STDIN_ID_BYTES)) {
      let text = decoder.write(chunk as Buffer);
      // Nothing decoded yet (a character split across chunks): what follows the \r is still to come.
      if (text === '') continue;
      if (afterCarriageReturn && text.startsWith('\n')) text = text.slice(1);
      afterCarriageReturn = text.endsWith('\r');
      let start = 0;
      for (const end of text.matchAll(LINE_END)) {
        pieces.push(text.slice(start, end.index));
        take(pieces.join(''));
        pieces = [];
        start = end.index + end[0].length;
      }
      if (start < text.length) pieces.push(text.slice(start));
    }
    // Bytes of a character cut short at the very end are dropped, as readline dropped them.
    if (pieces.length > 0) take(pieces.join(''));
  } catch (error) {
    // A bad line came first: it is what the run says, whatever ended the read after it (a signal,
    // then said too by src/cli-run.ts; the size limit; bytes that are no text).
    if (bad.any && error instanceof TktError) throw bad.error();
    // Stopped while a writer was still giving IDs: those read so far are the run's, each
    // reported as not started (README: Scripting).
    if (!(error instanceof InterruptedError && signal?.aborted === true)) throw error;
  } finally {
    // Whatever ended the read (its end, a signal, a fault), an open stdin must not keep tkt running.
    stdin.destroy();
  }
  if (bad.any) throw bad.error();
  return ids;
}

/**
 * The IDs of an `ID...` command: the arguments, or with a lone "-" the first integer on each
 * line of stdin (so `tkt list -q --all | tkt close -` works), blank lines and `# ` comments skipped,
 * and a first line that is tkt's CSV header (`tkt list --csv | tkt close -`); stdin without any
 * is an empty list. Ranges and lists are read as tkt's summaries print them, in arguments
 * (ticketSpans) and on a line of their own (`#1001-1010, #1013`), so that a run's "not started"
 * list goes back in as it is.
 * Every ID is validated before any request; duplicates are dropped keeping the first order.
 * Stdin is read to its end even after a bad line, which is then exit 2 (with how many more).
 * Stopped by `signal` while stdin is read, the IDs read so far are the list (a bad line read
 * before the signal is still refused).
 * `stdin` is asked for only then: Node opens it when first asked, and a file on stdin (cron's
 * /dev/null, `< file`) costs a file stream and the modules behind it, about 0.9 MB of memory.
 */
export async function collectIds(args: readonly string[], stdin: () => Readable, signal?: AbortSignal): Promise<number[]> {
  const given = givenIds(args);
  if (given !== undefined && given.length === 0) throw new UsageError('no ticket IDs given', { hint: 'pass IDs, or - to read them from stdin' });
  // No IDs on stdin (a cron job's empty list) is nothing to do: the caller says so and exits 0.
  return [...new Set(given ?? (await readStdinIds(stdin(), signal)))];
}

/**
 * The ID arguments read, undefined for "-" (stdin's): a word that is no ID is a usage error
 * before anything else is checked, asked or sent (`resolve 7 "fixed it"`: notes without --details).
 */
export function givenIds(args: readonly string[]): number[] | undefined {
  if (!args.includes(STDIN)) {
    const spans = args.flatMap(ticketSpans);
    if (spanCount(spans) > MAX_RUN_IDS) throw tooManyIds();
    return spanIds(spans);
  }
  if (args.length > 1) throw new UsageError('"-" (read IDs from stdin) cannot be combined with other IDs');
  return undefined;
}
