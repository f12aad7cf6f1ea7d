// The global options of every command, as parsed from the command line.
import { UsageError } from '../errors.js';
import { nonBlank } from '../util/option-text.js';

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

export function readGlobals(opts: Record<string, unknown>): GlobalOptions {
  // Plain decimal only: Number() would also read "0x10" as 16 and "1e3" as 1000.
  const timeoutText = opts.timeout === undefined ? '30' : String(opts.timeout).trim();
  const timeout = /^(\d+\.?\d*|\.\d+)$/.test(timeoutText) ? Number(timeoutText) : Number.NaN;
  if (!(timeout > 0)) {
    throw new UsageError(`invalid --timeout "${String(opts.timeout)}": expected a number of seconds greater than 0, in plain decimal (30, 1.5)`);
  }
  return {
    // Empty (an unset variable in `--url "$URL"`): named, not replaced by the profile's.
    url: typeof opts.url === 'string' ? nonBlank(opts.url, '--url is empty') : undefined,
    profile: typeof opts.profile === 'string' ? nonBlank(opts.profile, '--profile is empty') : undefined,
    json: opts.json === true,
    quiet: opts.quiet === true,
    input: opts.input !== false,
    color: opts.color !== false,
    timeout,
    debug: opts.debug === true,
    refresh: opts.refresh === true,
    allowHttp: opts.allowHttp === true,
    query: typeof opts.query === 'string' ? opts.query : undefined,
    raw: opts.raw === true,
    fields: typeof opts.fields === 'string' ? opts.fields : undefined,
    csv: opts.csv === true,
    columns: typeof opts.columns === 'string' ? opts.columns : undefined,
  };
}
