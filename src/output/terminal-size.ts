// The terminal's size, for tables, wrapping, triage and the pager decision (README: "Where
// people really run it"). A size of 0 is unknown, not zero: a pty made by `script`,
// `docker run -t` or a CI runner reports 0 rows and 0 columns. Unknown, the size comes from
// $COLUMNS and $LINES, else 80x24.

export interface TerminalSize {
  columns: number;
  rows: number;
  /** The terminal itself reported its rows (not $LINES, not the default): a pager can fill them. */
  rowsReported: boolean;
}

/** What a stream says of its terminal (a tty.WriteStream; anything else says nothing). */
export interface SizedStream {
  columns?: number | undefined;
  rows?: number | undefined;
}

const DEFAULT_COLUMNS = 80;
const DEFAULT_ROWS = 24;

const known = (value: number | undefined): value is number => value !== undefined && Number.isInteger(value) && value > 0;

function fromEnv(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*\d+\s*$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/**
 * The size of the terminal behind `streams` (the first that reports one: stdout, then stderr),
 * read now: it follows resizes. Each dimension the terminal leaves unknown comes from `env`
 * ($COLUMNS, $LINES), else 80x24.
 */
export function terminalSize(streams: readonly SizedStream[], env: Readonly<Record<string, string | undefined>>): TerminalSize {
  const columns = streams.map((stream) => stream.columns).find(known);
  const rows = streams.map((stream) => stream.rows).find(known);
  return {
    columns: columns ?? fromEnv(env.COLUMNS) ?? DEFAULT_COLUMNS,
    rows: rows ?? fromEnv(env.LINES) ?? DEFAULT_ROWS,
    rowsReported: rows !== undefined,
  };
}
