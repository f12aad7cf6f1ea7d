// `tkt create`'s --from options: when they make the run a bulk create, and what they say.
// Light on purpose: `tkt create` reads them on every run, and the bulk create loads only for --from.
import { UsageError } from '../errors.js';
import { STDIN } from '../cmdutil/text-input.js';
import { parseConcurrency } from './runner.js';
import { parseWholeNumber } from '../util/ids.js';

/** `5,7` or `5-7,9`: the rows --retry-in-doubt sends again. */
function rowList(text: string): number[] {
  return text.split(',').flatMap((part) => {
    const [first, last = first] = part.split('-').map((bound) => parseWholeNumber(bound.trim(), { min: 1 }));
    if (first === undefined || last === undefined || last < first) {
      throw new UsageError(`--retry-in-doubt: ${JSON.stringify(part.trim())} is not a row number or range`, { hint: 'list rows as 5,7 or 5-7' });
    }
    return Array.from({ length: last - first + 1 }, (_, index) => first + index);
  });
}

/** `--created ROW=ID`, each: the row and the ticket the service created from it. */
function createdRows(pairs: readonly string[]): Map<number, number> {
  const created = new Map<number, number>();
  for (const pair of pairs) {
    const [row, id] = pair.split('=').map((part) => parseWholeNumber(part.trim(), { min: 1 }));
    if (row === undefined || id === undefined || pair.split('=').length !== 2) {
      throw new UsageError(`--created: expected ROW=ID (the row and the ticket the service created from it), got ${JSON.stringify(pair)}`, {
        hint: 'e.g. --created 5=1043',
      });
    }
    if (created.has(row) && created.get(row) !== id) throw new UsageError(`--created: row ${row} is given two tickets`);
    created.set(row, id);
  }
  return created;
}

/** `tkt create`'s options that concern --from, as typed (the field options are the rows' columns). */
export interface CreateFromFlags {
  from?: string | undefined;
  report?: string | undefined;
  resume?: string | undefined;
  /** true (given bare): every row in doubt; else the rows, as `5,7` or `5-7`. */
  retryInDoubt?: boolean | string | undefined;
  /** `ROW=ID` each: rows in doubt the user found the service created. */
  created?: string[] | undefined;
  concurrency?: string | undefined;
  attachDir?: string | undefined;
  integration?: boolean | undefined;
  dryRun?: boolean | undefined;
}

export interface CreateFromOptions {
  file: string;
  /** Where to write the report; default: the --resume report, else `<FILE>.report.jsonl`. */
  report: string | undefined;
  resume: string | undefined;
  /** With --resume: send again every row in doubt (true), or these ones. */
  retryInDoubt: boolean | readonly number[];
  /** With --resume: rows in doubt the service did create, with their tickets' IDs, to record in the report. */
  created?: ReadonlyMap<number, number> | undefined;
  integration: boolean;
  /** undefined: the default-concurrency setting. */
  concurrency: number | undefined;
  /** The folder the rows' attach files are found in and must stay in; undefined: FILE's (the current folder for stdin). */
  attachDir?: string | undefined;
  dryRun: boolean;
}

// Any of these makes the run a --from run.
const FROM_FLAGS = ['from', 'report', 'resume', 'retryInDoubt', 'created', 'concurrency', 'attachDir'] as const;

/**
 * The --from run `flags` ask for, or undefined for a single create. The rows' columns replace
 * the field options (`fieldFlags`, those given), so giving both is refused rather than guessing
 * which one wins; `dedupFlags` (--dedup-key and its options, those given) are a single create's,
 * refused rather than silently doing nothing.
 */
export function createFromOptions(flags: CreateFromFlags, fieldFlags: readonly string[], dedupFlags: readonly string[]): CreateFromOptions | undefined {
  if (!FROM_FLAGS.some((key) => flags[key] !== undefined)) return undefined;
  const file = flags.from;
  if (file === undefined) throw new UsageError('--report, --resume, --retry-in-doubt, --created, --concurrency and --attach-dir need --from FILE');
  if (fieldFlags.length > 0) {
    throw new UsageError(`--from cannot be combined with ${fieldFlags.join(', ')}`, { hint: 'put the values in the file, one column per option' });
  }
  if (dedupFlags.length > 0) {
    throw new UsageError(`--from cannot be combined with ${dedupFlags.join(', ')}`, {
      hint: '--dedup-key and its options are for a single create; --from sends every row',
    });
  }
  for (const [flag, given] of [
    ['--retry-in-doubt', flags.retryInDoubt],
    ['--created', flags.created],
  ] as const) {
    if (given !== undefined && flags.resume === undefined)
      throw new UsageError(`${flag} needs --resume REPORT`, { hint: 'it settles rows an earlier run left in doubt' });
  }
  const retryInDoubt = typeof flags.retryInDoubt === 'string' ? rowList(flags.retryInDoubt) : flags.retryInDoubt === true;
  const created = flags.created === undefined ? undefined : createdRows(flags.created);
  const both = Array.isArray(retryInDoubt) ? retryInDoubt.filter((row) => created?.has(row)) : [];
  if (both.length > 0)
    throw new UsageError(`row ${both[0]} is given to both --created and --retry-in-doubt`, {
      hint: 'a row the service has is recorded with --created; one it does not have is sent again',
    });
  // The report is a file written line by line and fsync'ed (a resume appends to it): stdout
  // carries the rows' outcomes, and a file named "-" would be read as stdin by the next --resume.
  for (const [flag, path] of [
    ['--report', flags.report],
    ['--resume', flags.resume],
  ] as const) {
    if (path === STDIN)
      throw new UsageError(`${flag} -: the report must be a file tkt can write and read back, not stdout or stdin`, {
        hint: `name a file, e.g. ${flag} ${file}.report.jsonl`,
      });
  }
  return {
    file,
    report: flags.report,
    resume: flags.resume,
    integration: flags.integration === true,
    concurrency: flags.concurrency === undefined ? undefined : parseConcurrency(flags.concurrency),
    attachDir: flags.attachDir,
    retryInDoubt,
    created,
    dryRun: flags.dryRun === true,
  };
}
