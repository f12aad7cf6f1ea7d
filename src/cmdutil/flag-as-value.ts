// An option that takes a value takes the next word whatever it is, as commander, gh and docker
// read it (`--message -q` sends "-q"). When that word is one of the command line's long options,
// it is nearly always a value left out: `--message $MSG --dry-run` with $MSG empty and unquoted
// would send "--dry-run" as the message, and the run would not be a dry run. Such a command line
// is refused (docs/cli.md section 2); `--message=--dry-run` still sends that text.
import { UsageError } from '../errors.js';

/** What the check needs of an option: its flags, and whether it takes a value. */
export interface OptionFlags {
  short?: string | undefined;
  long?: string | undefined;
  takesValue: boolean;
}

/**
 * The first option of `argv` that takes a value and is given, as the next word, one of the long
 * options of `options` (the program's and the command's) or that option's `--name=value` form.
 */
export function optionTakenAsValue(argv: readonly string[], options: readonly OptionFlags[]): { option: string; value: string } | undefined {
  // --help is commander's own, on every command, never in `options`.
  const longs = new Set(['--help', ...options.flatMap((option) => (option.long === undefined ? [] : [option.long]))]);
  const takingValue = new Set(
    options.filter((option) => option.takesValue).flatMap((option) => [option.short, option.long].filter((flag) => flag !== undefined)),
  );
  for (let index = 0; index < argv.length - 1; index++) {
    const word = argv[index]!;
    if (word === '--') return undefined;
    if (!takingValue.has(word)) continue;
    const value = argv[++index]!;
    if (longs.has(value.split('=', 1)[0]!)) return { option: word, value };
  }
  return undefined;
}

/**
 * Each option of `argv` (at its index `at`) given its value as the next word, with the words
 * after that value that no option takes (up to the next option or "--"): `--requester Anna Berg`
 * gives { option: '--requester', value: 'Anna', after: ['Berg'], at: 0 }, the trace of a value
 * with spaces left unquoted (src/cmdutil/usage-errors.ts).
 */
export function wordsAfterValue(argv: readonly string[], options: readonly OptionFlags[]): { option: string; value: string; after: string[]; at: number }[] {
  const takingValue = new Set(
    options.filter((option) => option.takesValue).flatMap((option) => [option.short, option.long].filter((flag) => flag !== undefined)),
  );
  const isOption = (word: string) => word.length > 1 && word.startsWith('-');
  const runs: { option: string; value: string; after: string[]; at: number }[] = [];
  for (let index = 0; index < argv.length - 1 && argv[index] !== '--'; index++) {
    if (!takingValue.has(argv[index]!)) continue;
    const after: string[] = [];
    for (let next = index + 2; next < argv.length && !isOption(argv[next]!); next++) after.push(argv[next]!);
    runs.push({ option: argv[index]!, value: argv[index + 1]!, after, at: index });
    index += 1 + after.length;
  }
  return runs;
}

/** Refuses `argv` where optionTakenAsValue finds an option. */
export function assertNoOptionTakenAsValue(argv: readonly string[], options: readonly OptionFlags[]): void {
  const taken = optionTakenAsValue(argv, options);
  if (taken === undefined) return;
  const { option, value } = taken;
  throw new UsageError(`${option} took ${JSON.stringify(value)} as its value, which is one of this command's options`, {
    hint: `give ${option} its value (was a variable empty?); to send that text, write ${option}=${value}`,
  });
}
