// A small RFC 4180 reader for `tkt create --from file.csv`: quoted fields with doubled
// quotes, delimiters and line breaks inside quotes, CRLF or LF line ends (the reader has dropped a BOM). The
// delimiter is a comma unless told otherwise (a spreadsheet in some locales writes `;`).
// Written here rather than pulled in as a dependency: the format is small and fixed.
import { UsageError } from '../errors.js';

export interface CsvRecord {
  cells: string[];
  /** 1-based line of the file where the record starts (a quoted field may span lines). */
  line: number;
}

/** The delimiters a CSV file may use: `,` (RFC 4180), `;` and a tab (spreadsheets in some locales). */
export type CsvDelimiter = ',' | ';' | '\t';

/**
 * Splits CSV text into records. Blank lines are skipped (so is the empty "record" after a
 * final line break). An unterminated quote, or text between a closing quote and the next
 * comma, is a UsageError naming the line: such a file would otherwise be read wrongly.
 */
export function parseCsv(text: string, options: { delimiter?: CsvDelimiter; maxRecords?: number } = {}): CsvRecord[] {
  const { delimiter = ',', maxRecords = Infinity } = options;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  // Whether the current record has any content: a blank line is not a record of one empty cell.
  let recordHasContent = false;
  let i = 0;

  const endCell = () => {
    cells.push(cell);
    cell = '';
  };
  const endRecord = () => {
    endCell();
    if (recordHasContent || cells.length > 1) records.push({ cells, line: recordLine });
    cells = [];
    recordHasContent = false;
  };

  while (i < text.length) {
    const char = text[i]!;
    // A quote opens a quoted field only at the start of a cell; elsewhere it is text.
    if (char === '"' && cell === '') {
      const quoteLine = line;
      recordHasContent = true;
      i += 1;
      for (;;) {
        if (i >= text.length) throw new UsageError(`CSV line ${quoteLine}: a quoted field is never closed`);
        const inner = text[i]!;
        if (inner === '"') {
          if (text[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        if (inner === '\n') line += 1;
        cell += inner;
        i += 1;
      }
      const next = text[i];
      if (next !== undefined && next !== delimiter && next !== '\n' && !(next === '\r' && text[i + 1] === '\n')) {
        throw new UsageError(`CSV line ${line}: unexpected ${JSON.stringify(next)} after a closing quote`, {
          hint: 'a quote inside a quoted field is written as two quotes ("")',
        });
      }
      continue;
    }
    if (char === delimiter) {
      recordHasContent = true;
      endCell();
      i += 1;
      continue;
    }
    if (char === '\n' || (char === '\r' && text[i + 1] === '\n')) {
      endRecord();
      if (records.length >= maxRecords) return records;
      i += char === '\r' ? 2 : 1;
      line += 1;
      recordLine = line;
      continue;
    }
    recordHasContent = true;
    cell += char;
    i += 1;
  }
  endRecord();
  return records;
}
