// `tkt create`'s --from options: when they make the run a bulk create, and what they say.
// Light on purpose: `tkt create` reads them on every run, and the bulk create loads only for --from.
import { UsageError } from '../errors.js';
import { STDIN } from '../cmdutil/text-input.js';
import { parseConcurrency } from './runner.js';

/** `tkt create`'s options that concern --from, as typed (the field options are the rows' columns). */
export interface CreateFromFlags {
  from?: string | undefined;
  report?: string | undefined;
  resume?: string | undefined;
  retryInDoubt?: boolean | undefined;
  concurrency?: string | undefined;
  integration?: boolean | undefined;
  dryRun?: boolean | undefined;
}

export interface CreateFromOptions {
  file: string;
  /** Where to write the report; default: the --resume report, else `<FILE>.report.jsonl`. */
  report: string | undefined;
  resume: string | undefined;
  /** With --resume: send the rows in doubt again. */
  retryInDoubt: boolean;
  integration: boolean;
  /** undefined: the default-concurrency setting. */
  concurrency: number | undefined;
  dryRun: boolean;
}

// Any of these makes the run a --from run.
const FROM_FLAGS = ['from', 'report', 'resume', 'retryInDoubt', 'concurrency'] as const;

/**
 * The --from run `flags` ask for, or undefined for a single create. The rows' columns replace
 * the field options (`fieldFlags`, those given), so giving both is refused rather than guessing
 * which one wins; `dedupFlags` (--dedup-key and its options, those given) are a single create's,
 * refused rather than silently doing nothing.
 */
export function createFromOptions(flags: CreateFromFlags, fieldFlags: readonly string[], dedupFlags: readonly string[]): CreateFromOptions | undefined {
  if (!FROM_FLAGS.some((key) => flags[key] !== undefined)) return undefined;
  const file = flags.from;
  if (file === undefined) throw new UsageError('--report, --resume and --concurrency need --from FILE');
  if (fieldFlags.length > 0) {
    throw new UsageError(`--from cannot be combined with ${fieldFlags.join(', ')}`, { hint: 'put the values in the file, one column per option' });
  }
  if (dedupFlags.length > 0) {
    throw new UsageError(`--from cannot be combined with ${dedupFlags.join(', ')}`, {
      hint: '--dedup-key and its options are for a single create; --from sends every row',
    });
  }
  if (flags.retryInDoubt === true && flags.resume === undefined) throw new UsageError('--retry-in-doubt needs --resume REPORT');
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
    retryInDoubt: flags.retryInDoubt === true,
    dryRun: flags.dryRun === true,
  };
}
