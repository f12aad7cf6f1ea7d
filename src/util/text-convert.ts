// What a text refused as not UTF-8 (text-decode.ts) was meant to say, converted as its hint's
// iconv would: an editor's text kept as a draft (prompts/editor.ts). Apart from the check, which
// every command's settings pass through, so that only a refused editor's text loads it.
import { BROKEN_UTF8, LIKELY_ENCODING, MULTI_BYTE_UTF8, type NotTextError } from './text-decode.js';

/**
 * `bytes` converted from the encoding `error` names, as its hint's iconv would: what was written,
 * to keep (an editor's text refused, saved as a draft); undefined when it names none (binary data).
 */
export function convertedText(bytes: Uint8Array, error: NotTextError): string | undefined {
  if (error.encoding === undefined) return undefined;
  if (error.encoding === LIKELY_ENCODING) return windows1252Text(bytes);
  if (error.encoding === BROKEN_UTF8) return withoutBrokenBytes(bytes);
  // UTF-16 is told by its BOM (startsUtf16), which says its byte order.
  const label = error.encoding !== 'UTF-16' ? error.encoding : bytes[0] === 0xfe ? 'utf-16be' : 'utf-16le';
  return new TextDecoder(label).decode(bytes);
}

/**
 * What Windows-1252 has at 0x80-0x9F (the WHATWG index: 0x81, 0x8D, 0x8F, 0x90 and 0x9D are
 * themselves). Node 20's TextDecoder('windows-1252') decodes them as Latin-1, C1 controls
 * (nodejs/node#56542): a euro sign typed in the editor was kept in its draft as U+0080.
 */
const WINDOWS_1252_C1 =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Windows-1252 bytes as text: Latin-1 but for 0x80-0x9F. */
const windows1252Text = (bytes: Uint8Array): string =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\u0080-\u009f]/g, (char) => WINDOWS_1252_C1[char.charCodeAt(0) - 0x80]!);

/**
 * UTF-8 with its broken bytes dropped, as iconv -c drops them: a U+FFFD that was in the text stays
 * (the decoder's own U+FFFD could not be told from it).
 */
function withoutBrokenBytes(bytes: Uint8Array): string {
  // ASCII runs and whole characters of 2 to 4 bytes, in bytes read as Latin-1: what UTF-8 text keeps.
  const characters = new RegExp(`[\\x00-\\x7f]+|${MULTI_BYTE_UTF8.source}`, 'g');
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return Buffer.from((latin1.match(characters) ?? []).join(''), 'latin1').toString('utf8');
}
