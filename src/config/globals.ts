// The global options of every command, as parsed from the command line.

export interface GlobalOptions {
  url: string | undefined;
  profile: string | undefined;
  json: boolean;
  quiet: boolean;
  input: boolean;
  color: boolean;
  /** Seconds per request. */
  timeout: number;
  debug: boolean;
  /** Refetch lookups instead of using the cache. */
  refresh: boolean;
  /** Accept plain http to a non-loopback host for this run (login also saves it in the profile). */
  allowHttp: boolean;
  /** --query EXPR (JMESPath), implies JSON. */
  query?: string | undefined;
  /** With --query: strings bare, arrays one element per line. */
  raw?: boolean | undefined;
  /** --fields, --csv and --columns as typed, on the commands that take them. */
  fields?: string | undefined;
  csv?: boolean | undefined;
  columns?: string | undefined;
}
