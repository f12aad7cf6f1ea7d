// Help text laid out for a width (README: help is laid out for 80 columns): prose is re-wrapped
// between words, never inside one; text meant as written (examples, tables) is kept.

/** `text` in lines of at most `width` columns, broken between words; a longer word stands alone. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

const HEADING_WORDS = 3;

function isHeading(line: string): boolean {
  return line.endsWith(':') && line.split(' ').length <= HEADING_WORDS;
}

interface Paragraph {
  /** Before its first line ("- " for a list item) and before the others ("  "). */
  first: string;
  rest: string;
  words: string[];
}

/**
 * `text` laid out for `width` columns. Lines starting at the margin run together into a
 * paragraph (up to a blank line, an indented line or a heading: a few words ending with ":"); a
 * line starting with "- " is a list item, its lines indented by two its continuation. Any other
 * indented line (an example, a table row) is kept as written.
 */
export function reflow(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: Paragraph | undefined;
  const flush = () => {
    if (paragraph === undefined) return;
    const { first, rest, words } = paragraph;
    wrapWords(words.join(' '), width - first.length).forEach((line, index) => out.push(`${index === 0 ? first : rest}${line}`));
    paragraph = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) {
      flush();
      paragraph = { first: '- ', rest: '  ', words: [line.slice(2)] };
    } else if (paragraph?.first === '- ' && /^ {2}\S/.test(line)) {
      paragraph.words.push(line.trim());
    } else if (line.trim() === '' || /^\s/.test(line)) {
      flush();
      out.push(line);
    } else {
      if (paragraph?.first !== '') flush();
      paragraph ??= { first: '', rest: '', words: [] };
      paragraph.words.push(line);
    }
    // A heading ("Examples:", a few words on a line of their own) ends its paragraph: what
    // follows is laid out on its own. A longer line ending with ":" is a sentence going on.
    if (paragraph !== undefined && paragraph.words.length === 1 && isHeading(line)) flush();
  }
  flush();
  return out.join('\n');
}

/**
 * The width help is laid out for, commander's included (it would follow the terminal's): the
 * same text in a pipe and at any terminal at least that wide, so the bin can print help prepared
 * at build time (src/fast-start.ts); a narrower terminal gets it laid out again (helpForWidth).
 */
export const HELP_WIDTH = 80;
// An option's or a command's description narrower than this, or than its longest word, goes
// under its name instead.
const MIN_DESCRIPTION_WIDTH = 24;
// How far a broken example's next lines, and a description under its name, stand in.
const CONTINUATION_INDENT = '    ';
// A name, a gap of two spaces or more, a description: an option, a command, an alias.
const ITEM = /^( +\S(?:\S| \S)*)( {2,})(\S.*)$/;

/**
 * Help prepared for 80 columns, laid out for a terminal of `columns` when it is narrower (the
 * help of both the prepared path and commander's): prose re-wrapped, each description wrapped in
 * its column (or under its name), an example broken only between words outside quotes, so that it
 * can still be copied. Unchanged where `columns` is undefined (not a terminal) or not narrower.
 */
export function helpForWidth(text: string, columns: number | undefined): string {
  if (columns === undefined || columns <= 0 || columns >= HELP_WIDTH) return text;
  const lines = reflow(text, columns).split('\n');
  const out: string[] = [];
  let inExamples = false;
  let commandGoesOn = false;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (!line.startsWith(' ')) {
      inExamples = line === 'Examples:';
      commandGoesOn = false;
      out.push(line);
      continue;
    }
    const indent = /^ */.exec(line)![0];
    // An example: under "Examples:", a "$ " line anywhere, and the lines a command goes on on.
    const isCommand: boolean = inExamples || commandGoesOn || line.startsWith(`${indent}$ `);
    commandGoesOn = isCommand && /( \\|\|)$/.test(line);
    const item = isCommand ? null : ITEM.exec(line);
    if (isCommand) out.push(...exampleLines(line, indent, columns));
    else if (item !== null) {
      const column = item[1]!.length + item[2]!.length;
      const description = [item[3]!];
      while (index + 1 < lines.length && /^ *\S/.test(lines[index + 1]!) && /^ */.exec(lines[index + 1]!)![0].length === column)
        description.push(lines[++index]!.trim());
      out.push(...itemLines(item[1]!, column, description.join(' '), columns));
    } else {
      // Lines in a run at one indent (a list of names) are re-wrapped together when one is too long.
      const run = [line];
      const joins = (next: string) => /^ */.exec(next)![0] === indent && /\S/.test(next) && !ITEM.test(next) && !next.startsWith(`${indent}$ `);
      while (index + 1 < lines.length && joins(lines[index + 1]!)) run.push(lines[++index]!);
      if (run.every((each) => each.length <= columns)) out.push(...run);
      else out.push(...wrapWords(run.map((each) => each.trim()).join(' '), columns - indent.length).map((part) => indent + part));
    }
  }
  return out.join('\n');
}

/** The width of `stream` when it is a terminal that says it; undefined otherwise (a pipe, a file). */
export function terminalColumns(stream: { isTTY?: boolean; columns?: number }): number | undefined {
  return stream.isTTY === true && stream.columns !== undefined && stream.columns > 0 ? stream.columns : undefined;
}

function itemLines(name: string, column: number, description: string, columns: number): string[] {
  const longestWord = Math.max(...description.split(' ').map((word) => word.length));
  if (columns - column >= Math.max(MIN_DESCRIPTION_WIDTH, longestWord))
    return wrapWords(description, columns - column).map((part, index) => (index === 0 ? name.padEnd(column) : ' '.repeat(column)) + part);
  const under = /^ */.exec(name)![0] + CONTINUATION_INDENT;
  return [name, ...wrapWords(description, columns - under.length).map((part) => under + part)];
}

/**
 * The words of a shell command line, split at the spaces outside quotes (a redirection kept with
 * its file), and the comment that ends it (from an unquoted #), if any.
 */
function shellWords(line: string): { words: string[]; comment: string | undefined } {
  const words: string[] = [];
  let word = '';
  let quote: string | undefined;
  let comment: string | undefined;
  for (let index = 0; index < line.length && comment === undefined; index++) {
    const char = line[index]!;
    if (char === '\\' && quote !== "'") word += char + (line[++index] ?? '');
    else if (quote !== undefined) {
      if (char === quote) quote = undefined;
      word += char;
    } else if (char === ' ') {
      if (word !== '') words.push(word);
      word = '';
    } else if (char === '#' && word === '') comment = line.slice(index);
    else {
      if (char === "'" || char === '"') quote = char;
      word += char;
    }
  }
  if (word !== '') words.push(word);
  const joined: string[] = [];
  for (const each of words) {
    const previous = joined[joined.length - 1];
    if (previous !== undefined && /^\d*[<>]+&?$/.test(previous)) joined[joined.length - 1] = `${previous} ${each}`;
    else joined.push(each);
  }
  return { words: joined, comment };
}

/**
 * An example's line (`$ command`, a line it goes on on, a comment) for `columns`: the command
 * broken between its words, each broken line ending with a backslash as a shell reads it, a
 * word never broken (a long one runs long); a comment that does not fit goes under it.
 */
function exampleLines(line: string, indent: string, columns: number): string[] {
  if (line.length <= columns) return [line];
  const prompt = line.startsWith(`${indent}$ `) ? '$ ' : '';
  const next = prompt === '' ? indent : indent + CONTINUATION_INDENT;
  let body = line.slice(indent.length + prompt.length);
  const goesOn = body.endsWith(' \\');
  if (goesOn) body = body.slice(0, -2);
  const { words, comment } = shellWords(body);
  const out: string[] = [];
  let current = '';
  words.forEach((word, index) => {
    // Room for " \" after it, unless it is the last word of a line that does not go on.
    const room = index === words.length - 1 && !goesOn ? columns : columns - 2;
    if (current === '') current = indent + prompt + word;
    else if (current.length + 1 + word.length > room) {
      out.push(`${current} \\`);
      current = next + word;
    } else current = `${current} ${word}`;
  });
  if (goesOn) current = `${current} \\`;
  if (comment === undefined) return [...out, current];
  if (current !== '' && current.length + 2 + comment.length <= columns) return [...out, `${current}  ${comment}`];
  const under = current === '' ? indent + prompt : next;
  const commentLines = wrapWords(comment.replace(/^#+ */, ''), columns - under.length - 2).map((part) => `${under}# ${part}`);
  return current === '' ? commentLines : [...out, current, ...commentLines];
}

// An error's detail lines are printed two columns in (`  options: ...`), and their
// continuations four: each within the 80 columns help is laid out for.
const DETAIL_WIDTH = HELP_WIDTH - 4;

/**
 * A detail of an error that names many things ("options: --requester --site ..."), as detail
 * lines that fit 80 columns, the lines after the first indented under it.
 */
export function detailLines(text: string): string[] {
  return wrapWords(text, DETAIL_WIDTH).map((line, index) => (index === 0 ? line : `  ${line}`));
}
