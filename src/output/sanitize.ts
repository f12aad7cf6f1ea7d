// Server text (titles, descriptions, names) must never drive the terminal: a title
// holding ESC [ 2 J would clear the screen, one holding OSC 0 would set the window title.
//
// Chosen rendering: control characters stay visible in caret notation, as `cat -v` shows
// them, so a strange title is noticed instead of silently changed:
//   C0 (U+0000-U+001F, except \n and \t)  -> ^@ .. ^_   (ESC -> ^[, BEL -> ^G, CR -> ^M)
//   DEL (U+007F)                          -> ^?
//   C1 (U+0080-U+009F)                    -> <U+009B> style
//   bidi embeddings, overrides, isolates  -> <U+202E> style
// A CR that is part of a CRLF line ending is just a line ending and becomes \n.
// The bidi controls (U+202A-U+202E, U+2066-U+2069) make a terminal show the text after them
// reordered: "invoice \u202efdp.exe" reads "invoice exe.pdf" ("Trojan Source"). The marks
// (U+200E, U+200F, U+061C) only nudge neutral characters and belong to right-to-left text: kept.

import { codePointName } from '../util/code-point.js';

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code === 0x7f) return '^?';
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`;
  return `<${codePointName(code)}>`;
}

/** Multi-line server text made safe for a terminal; keeps \n and \t. */
export function sanitizeText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(TERMINAL_CONTROL, visible);
}

/** Server text for a single-line cell: also turns line breaks and tabs into one space. */
export function sanitizeInline(text: string): string {
  return sanitizeText(text).replace(/[\n\t]+/g, ' ');
}

// JSON.stringify escapes C0 controls only: DEL, C1 (U+009B is a one-character CSI) and the bidi
// controls would reach a terminal raw. In JSON text they can stand only inside strings, where a
// \u escape is the same character: the document is unchanged, only its bytes are safe.
const JSON_RAW_CONTROL = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** JSON text with DEL, C1 and bidi controls written as \u escapes. */
export function escapeJsonControls(json: string): string {
  return json.replace(JSON_RAW_CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

// Zero-width characters (spaces, joiners, word joiner, BOM) hide inside a word: "pass\u200bword"
// is not "password" to a program, though it reads the same.
const HIDDEN_FROM_MODEL = /[\u200b-\u200d\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g;

/**
 * Server text for a reader that is not a terminal (an assistant, through `tkt mcp`): control
 * characters removed, as nothing would display them; bidi controls and zero-width characters
 * shown as `<U+202E>`, as a terminal shows bidi controls, so the reader sees that the text
 * carries them; \n and \t kept. Applied twice, the same text.
 */
export function sanitizeForModel(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, '').replace(HIDDEN_FROM_MODEL, visible);
}
