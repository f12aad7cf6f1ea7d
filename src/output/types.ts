// The output module's types, shared by its printers and by the commands that print through it.
import type { MemberAliases } from './members.js';
import type { Cell } from './table.js';

/** The flags that shape output, as typed. `fields`, `csv` and `columns` exist only on the commands that take them. */
export interface OutputFlags {
  json: boolean;
  quiet: boolean;
  query?: string | undefined;
  raw?: boolean | undefined;
  fields?: string | undefined;
  csv?: boolean | undefined;
  columns?: string | undefined;
}

export type Format = 'human' | 'quiet' | 'json' | 'csv';

export interface DocumentForms {
  /** The text people read; nothing is printed without it. */
  human?: () => string | Promise<string>;
  /** The -q text (e.g. an ID and a newline); nothing is printed without it. */
  quiet?: () => string | undefined;
  /** The names of the document's members, known ahead: --fields takes each of them, and their other names (a ticket's: TICKET_MEMBER_ALIASES). */
  aliases?: MemberAliases;
  /**
   * What --fields and --query see when it is not the document (--json still prints the
   * document): a create's dry run gives its form, which stands for the ticket a real run prints.
   */
  shapes?: ShapedPart;
}

/** The part of a document that --fields and --query see (DocumentForms.shapes). */
export interface ShapedPart {
  value: unknown;
  /** What it is, in hints: "the request". */
  noun: string;
  /** Why the expression sees it, for the hint after a name it lacks. */
  why: string;
}

/** A JSON array written as its elements arrive (list --all, create --from --json). */
export interface ArrayPrinter {
  push(items: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
  /** The run stops before the end: closes the array if it was opened (JsonArrayWriter.cutShort); adds nothing else. */
  cutShort(): Promise<void>;
}

export interface Output {
  readonly format: Format;
  /** --columns as typed, split: the records printer uses them. */
  readonly columns: readonly string[] | undefined;
  /** One JSON document (the API's body) or its human / quiet form. */
  document(value: unknown, forms?: DocumentForms): Promise<void>;
  /** JSON in every format (tkt api): --fields and --query still apply. */
  data(value: unknown): Promise<void>;
  /** JSON in every format, --fields and --query not applied (tkt api's error answer: they were written for a success's shape). */
  wholeData(value: unknown): Promise<void>;
  /** Text as it came (tkt api's answer that is not JSON), on stdout whatever the format. */
  text(text: string): Promise<void>;
  /** Like document, but one compact JSON Line (ID... commands): --query applies to each line. */
  line(value: unknown, forms?: DocumentForms): Promise<void>;
  /** `aliases`: other names of the elements' members, which --fields accepts; `noun`: the elements, plural, in warnings. */
  array(aliases?: MemberAliases, noun?: string): ArrayPrinter;
  /** A line for people on stderr (a confirmation, a note), left out with -q. */
  note(text: string): Promise<void>;
  /** `warning: TEXT` on stderr, with -q too: something the user should know went differently. */
  warning(text: string): Promise<void>;
  /**
   * With JSON output, `value` as one JSON Line on stderr: facts a script needs that the stdout
   * document, the API's body kept unchanged, has no room for (which uploads were kept). Nothing
   * in other formats: people read them in the command's own lines.
   */
  aside(value: unknown): Promise<void>;
  /** Records page by page: table, TSV, CSV, -q lines or a JSON array. */
  records<T>(spec: RecordSpec<T>): Promise<RecordPrinter>;
  /** Exit 2 before any request when the format needs records the command will not produce (metadata without --collection). */
  assertNotTabular(hint: string): void;
  /**
   * Exit 2 before anything else when data output (--json, -q, --query) was asked of a command
   * that has none, `why` saying so: it only draws a screen (triage), its stdout is a protocol (mcp).
   */
  assertNoDataOutput(why: string, hint: string): void;
}

export interface RecordColumn<T> {
  /** What --columns calls it, and the CSV header. */
  name: string;
  header: string;
  /** The cell people read at a terminal. */
  human(record: T, now: Date): Cell;
  /** The cell for TSV and CSV; default: the human one. */
  machine?(record: T): Cell;
  shrink?: boolean;
  minWidth?: number;
  /** Which columns give way first at a narrow terminal (Column.priority). */
  priority?: number;
  align?: 'left' | 'right';
  paint?(text: string, record: T, now: Date): string;
}

export interface RecordSpec<T> {
  /** What an item becomes once, for its cells. */
  prepare(item: unknown): T;
  /** The columns that have names of their own; any other --columns name is read from the item. */
  columns: readonly RecordColumn<T>[];
  /** The columns shown without --columns, given the first non-empty page. */
  defaultColumns(items: readonly unknown[]): readonly string[];
  /** The names of the records' members, known ahead: --fields and --columns take each of them, and their other names. */
  aliases?: MemberAliases;
  /** What the records are, plural ("tickets"), in warnings. */
  noun?: string;
  /** The -q line of a record, or undefined to print nothing for it. */
  quiet?(record: T): string | undefined;
  /** Said on stderr (human format) when there were no records at all: "no tickets". */
  none?: string;
  /** A title over the table at a terminal: "sites (3)". */
  heading?: string;
}

export interface RecordPrinter {
  page(items: readonly unknown[]): Promise<void>;
  end(): Promise<void>;
  /**
   * The records stop before their end (interrupted, a page that failed): closes what was opened
   * (a JSON array), and adds nothing a complete list would (no `[]`, no "no tickets", no query
   * over a partial whole). Lines need nothing: each page is written whole.
   */
  cutShort(): Promise<void>;
}
