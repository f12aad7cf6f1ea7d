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

// An error's detail lines are printed two columns in (`  options: ...`), and their
// continuations four: each within the 80 columns help is laid out for.
const DETAIL_WIDTH = 80 - 4;

/**
 * A detail of an error that names many things ("options: --requester --site ..."), as detail
 * lines that fit 80 columns, the lines after the first indented under it.
 */
export function detailLines(text: string): string[] {
  return wrapWords(text, DETAIL_WIDTH).map((line, index) => (index === 0 ? line : `  ${line}`));
}
