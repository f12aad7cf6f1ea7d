// Text checked as UTF-8 (README: Text values), for the readers of files and stdin (text-read.ts),
// of files read whole (config.json, json-text.ts) and of the command line's bytes
// (cmdutil/argument-encoding.ts): this module loads nothing of streams, so a command reading its
// settings pays for the check alone. Text is UTF-8 only: a Windows-1252 CSV
// from Excel was once sent with its accents as U+FFFD, and Notepad's "Unicode" (UTF-16) as NULs.
import { shellWord } from './shell-word.js';

/** The largest text input: the most tkt reads of a ticket from the service, too. */
export const MAX_TEXT_INPUT_BYTES = 64 * 1024 * 1024;

/** Why an input is not text: a plain Error, so each caller names the input its own way. */
export class NotTextError extends Error {
  constructor(
    message: string,
    /** How to make it text, for the caller's error (a command that converts it). */
    readonly hint?: string,
    /** The encoding it likely is, as iconv names it (the one the hint converts from). */
    readonly encoding?: string,
  ) {
    super(message);
  }
}

/** An input larger than tkt reads: a caller may say how to cut it up (create --from: split it). */
export class TooLargeInputError extends NotTextError {}

/** Throws TooLargeInputError for `size` bytes beyond `limit`: checked as they come, or before a file is read whole. */
export function refuseBeyondLimit(size: number, limit: number): void {
  if (size > limit) throw new TooLargeInputError(`larger than ${Math.round(limit / (1024 * 1024))} MB, more than tkt reads`);
}

/** How to make a refused input text, when there is a way: the hint of a caller's error. */
export const notTextHint = (error: unknown): string | undefined => (error instanceof NotTextError ? error.hint : undefined);

/** The hint that says how to convert a file (or stdin) from `encoding`, as iconv names it (BROKEN_UTF8: drop its broken bytes). */
export type ConvertHint = (encoding: string) => string;

/** The "encoding" of UTF-8 with broken bytes: what a cut (`tail -c`, `head -c`) or a stray byte leaves. */
export const BROKEN_UTF8 = 'UTF-8';

/** iconv's options that make `encoding` UTF-8: for broken UTF-8, -c drops the broken bytes. */
const iconvOptions = (encoding: string) => (encoding === BROKEN_UTF8 ? '-f UTF-8 -t UTF-8 -c' : `-f ${encoding} -t UTF-8`);

/** What the hint says before its command: broken UTF-8 is not converted, its broken bytes are dropped. */
const BROKEN_UTF8_DROP = 'it is UTF-8 with broken bytes (cut short?): drop them';

/**
 * The hint for text converted on its way into tkt, where there is no file to convert (stdin, a
 * command's output, an argument): `command` places the iconv command in the user's line.
 */
export const onItsWayIn = (encoding: string, command: (iconv: string) => string): string =>
  `${encoding === BROKEN_UTF8 ? BROKEN_UTF8_DROP : 'convert it'} on its way in: ${command(`iconv ${iconvOptions(encoding)}`)}`;

/**
 * How to convert the file at `path`: into PATH.utf8, or, when tkt reads it by its name (`keepName`:
 * a template, config.json), into the same file again, where tkt finds it.
 */
export const convertFile =
  (path: string, keepName = false): ConvertHint =>
  (encoding) => {
    // `<(command)` is /dev/fd/63: there is no file to convert, only a command's output.
    const broken = encoding === BROKEN_UTF8;
    if (/^\/(dev|proc)\//.test(path)) return onItsWayIn(encoding, (iconv) => `<(... | ${iconv})`);
    const iconv = `iconv ${iconvOptions(encoding)} ${shellWord(path)}`;
    const converted = keepName
      ? `${iconv} > ${shellWord(`${path}.new`)} && mv ${shellWord(`${path}.new`)} ${shellWord(path)}`
      : `${iconv} > ${shellWord(`${path}.utf8`)}`;
    if (broken) return `${BROKEN_UTF8_DROP}: ${converted}`;
    return `save it as UTF-8${/\.csv$/i.test(path) ? ' (in Excel: "CSV UTF-8")' : ''}, or convert it: ${converted}`;
  };

export const convertStdin: ConvertHint = (encoding) => onItsWayIn(encoding, (iconv) => `... | ${iconv} | tkt ...`);

/** Windows' "ANSI" code page, the likeliest encoding of a file that is not UTF-8 (Excel's CSV). */
export const LIKELY_ENCODING = 'WINDOWS-1252';

/** A whole UTF-8 character of 2 to 4 bytes, in bytes read as Latin-1 (RFC 3629's table, so no overlong form or surrogate). */
export const MULTI_BYTE_UTF8 =
  /[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}|\xf4[\x80-\x8f][\x80-\xbf]{2}/;

const strictDecoder = () => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const countLines = (text: string): number => {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines += 1;
  return lines;
};

/**
 * Where UTF-8 stops: `texts` decoded so far, then `bytes` (the bytes a decoder held back, then
 * the chunk it refused). Located only once decoding failed, so reading valid text pays nothing.
 */
function notUtf8(texts: readonly string[], bytes: Uint8Array, hint: ConvertHint): NotTextError {
  // Prefixes decoded as a stream (a character cut at the end is only held back) stay valid up to
  // the bad byte: the longest that decodes ends there.
  const decodes = (end: number) => {
    try {
      strictDecoder().decode(bytes.subarray(0, end), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let valid = 0;
  let invalid = bytes.length + 1;
  if (decodes(bytes.length)) valid = bytes.length;
  while (invalid - valid > 1) {
    const middle = (valid + invalid) >>> 1;
    if (decodes(middle)) valid = middle;
    else invalid = middle;
  }
  const lastText = strictDecoder().decode(bytes.subarray(0, valid), { stream: true });
  const badByte = bytes[Buffer.byteLength(lastText)]!;
  const before = (texts.join('') + lastText).replace(/^\uFEFF/, '');
  const column = [...before.slice(before.lastIndexOf('\n') + 1)].length + 1;
  const where = `byte 0x${badByte.toString(16).toUpperCase().padStart(2, '0')} on line ${countLines(before)}, column ${column}`;
  // A whole multi-byte character before the bad byte or after it makes it UTF-8 with broken bytes
  // (`tail -c` cutting a character, a stray byte in a compiler's output), which converting from
  // Windows-1252 would mangle; Windows-1252 text seldom holds one.
  const after = Buffer.from(bytes.buffer, bytes.byteOffset + Buffer.byteLength(lastText) + 1, bytes.length - Buffer.byteLength(lastText) - 1);
  const encoding = /[^\u0000-\u007f\ufeff]/.test(before) || MULTI_BYTE_UTF8.test(after.toString('latin1')) ? BROKEN_UTF8 : LIKELY_ENCODING;
  return new NotTextError(`not UTF-8 text: ${where}`, hint(encoding), encoding);
}

const startsUtf16 = (bytes: Uint8Array) => bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));

/** Why `bytes` (`first`: an input's first) are no text: UTF-16, NUL bytes (binary data); undefined when they may be. */
export function notTextBytes(bytes: Uint8Array, first: boolean, hint: ConvertHint): NotTextError | undefined {
  if (first && startsUtf16(bytes)) return new NotTextError('UTF-16 text, not UTF-8', hint('UTF-16'), 'UTF-16');
  if (bytes.includes(0)) return new NotTextError('not text: it holds NUL bytes (binary data?)');
  return undefined;
}

/**
 * A text's bytes checked and decoded as UTF-8 chunk by chunk, as they come (push), then the text,
 * a BOM dropped (end). Throws NotTextError at the first byte that is not UTF-8 (a Latin-1 or
 * Windows-1252 file, which would be sent mangled), at a NUL byte (binary data, /dev/zero) or when
 * more than `limit` bytes come. A character whose bytes two chunks share is completed by the next.
 */
export function textDecoding(limit: number, hint: ConvertHint) {
  const decoder = strictDecoder();
  const texts: string[] = [];
  // The last bytes read (at most a character's 4), some of which the decoder may hold back.
  let tail: Buffer = Buffer.alloc(0);
  let size = 0;
  return {
    push(bytes: Buffer): void {
      const refused = notTextBytes(bytes, size === 0, hint);
      if (refused !== undefined) throw refused;
      size += bytes.length;
      refuseBeyondLimit(size, limit);
      try {
        texts.push(decoder.decode(bytes, { stream: true }));
      } catch {
        throw notUtf8(texts, Buffer.concat([heldBack(texts, tail, size - bytes.length), bytes]), hint);
      }
      tail = bytes.length >= 4 ? bytes.subarray(-4) : Buffer.concat([tail, bytes]).subarray(-4);
    },
    end(): string {
      try {
        texts.push(decoder.decode());
      } catch {
        throw notUtf8(texts, heldBack(texts, tail, size), hint);
      }
      const text = texts.join('');
      return text.startsWith('\uFEFF') ? text.slice(1) : text;
    },
  };
}

/**
 * The bytes of the file at `path` (read whole by the caller: config.json, a token file) as text,
 * checked as a text file is; the hint converts it into the same file, where tkt reads it.
 */
export function textOfFile(bytes: Buffer, path: string): string {
  const decoding = textDecoding(MAX_TEXT_INPUT_BYTES, convertFile(path, true));
  decoding.push(bytes);
  return decoding.end();
}

/** The bytes of the first `read` the decoder holds back: those `texts` do not account for. */
function heldBack(texts: readonly string[], tail: Buffer, read: number): Buffer {
  const decoded = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  return tail.subarray(tail.length - (read - decoded));
}
