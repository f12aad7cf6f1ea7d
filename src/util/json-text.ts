// JSON files a person may have edited (tkt's settings and token files): a leading BOM, as
// Notepad saves one, is no error, and a syntax error names its line and column, not the
// character offset JSON.parse gives (when it gives one at all).

const BOM = '\ufeff';
const BLANKS = /[ \t\n\r]*/y;
// One JSON token: a string, a number, a literal or a punctuation mark.
const TOKEN = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\]:,]/y;

/**
 * `text` parsed as JSON, a leading BOM left out; undefined for a text of blanks only (an empty
 * file). A SyntaxError whose message says where: `not valid JSON at line 3, column 9: ...`.
 */
export function parseJsonText(text: string): unknown {
  const json = text.startsWith(BOM) ? text.slice(BOM.length) : text;
  if (json.trim() === '') return undefined;
  try {
    return JSON.parse(json);
  } catch (error) {
    const offset = syntaxErrorOffset(json);
    if (offset === undefined) throw error;
    // V8's words without its offset; where it gives none, it copies the text (the whole file, when
    // it is short) and names a token past the one at fault (`tru}`: '}'): what is there is said instead.
    const message = (error as Error).message;
    const words = / in JSON at position \d+/.test(message)
      ? message.replace(/ in JSON at position \d+.*$/s, '')
      : message === 'Unexpected end of JSON input'
        ? message
        : `unexpected ${JSON.stringify(/^[^ \t\n\r]{1,20}/.exec(json.slice(offset))![0])}`;
    const before = json.slice(0, offset).split('\n');
    throw new SyntaxError(`not valid JSON at line ${before.length}, column ${Array.from(before.at(-1)!).length + 1}: ${words}`, { cause: error });
  }
}

/** Where the first syntax error of `text` is; undefined when there is none (JSON.parse and this disagree). */
function syntaxErrorOffset(text: string): number | undefined {
  // What closes each open object or array, innermost last.
  const open: string[] = [];
  type Expected = 'value' | 'value or ]' | 'key' | 'key or }' | ':' | ', or close' | 'end';
  let expect: Expected = 'value';
  // What comes after a value, or after the object or array it closes (popped first).
  const afterValue = (): Expected => (open.length === 0 ? 'end' : ', or close');
  const closeOne = (): Expected => {
    open.pop();
    return afterValue();
  };
  let at = 0;
  for (;;) {
    BLANKS.lastIndex = at;
    BLANKS.exec(text);
    at = BLANKS.lastIndex;
    if (at === text.length) return expect === 'end' ? undefined : at;
    if (expect === 'end') return at;
    TOKEN.lastIndex = at;
    const token = TOKEN.exec(text)?.[0];
    if (token === undefined) return at;
    if (expect === 'key' || expect === 'key or }') {
      if (token.startsWith('"')) expect = ':';
      else if (token === '}' && expect === 'key or }') expect = closeOne();
      else return at;
    } else if (expect === ':') {
      if (token !== ':') return at;
      expect = 'value';
    } else if (expect === ', or close') {
      if (token === ',') expect = open.at(-1) === '}' ? 'key' : 'value';
      else if (token === open.at(-1)) expect = closeOne();
      else return at;
    } else if (token === '{') {
      open.push('}');
      expect = 'key or }';
    } else if (token === '[') {
      open.push(']');
      expect = 'value or ]';
    } else if (token === ']' && expect === 'value or ]') {
      expect = closeOne();
    } else if ('{}[]:,'.includes(token)) {
      return at;
    } else {
      expect = afterValue();
    }
    at += token.length;
  }
}
