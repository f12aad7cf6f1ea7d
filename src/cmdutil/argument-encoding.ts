// Arguments that are not UTF-8 (README: Text values). Node decodes the command line as UTF-8, each
// byte that is not becoming U+FFFD, so `tkt reply 1013 --message "$(cat latin1.txt)"` from a
// legacy script sent its accents as U+FFFD, where the same bytes in a file or on stdin are
// refused (text-decode.ts). Node keeps no bytes: Linux does, in /proc/self/cmdline, read only when
// an argument holds U+FFFD (src/cli-run.ts loads this module then), so that one typed as such
// (its UTF-8 bytes EF BF BD) is told from a byte that was not UTF-8. macOS keeps them where only
// native code reads; Windows hands a program its arguments as UTF-16, converted by the shell.
import { existsSync, readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { MAX_TEXT_INPUT_BYTES, NotTextError, onItsWayIn, textDecoding, type ConvertHint } from '../util/text-decode.js';
import type { ArgvTable, TableOption } from './argv-table.js';
import { SECRET } from './secret-options.js';

/** How to convert a command-line argument, the value of `option` (`--message`) or not, on its way in (README: Text values). */
const convertArgument =
  (option?: string): ConvertHint =>
  (encoding) =>
    onItsWayIn(encoding, (iconv) => `tkt ... ${option === undefined ? '' : `${option} `}"$(... | ${iconv})"`);

/** This process's command line as the system keeps it, NUL after each word; undefined where none can be read (not Linux). */
function systemCommandLine(): Buffer | undefined {
  try {
    return readFileSync('/proc/self/cmdline');
  } catch {
    return undefined;
  }
}

/**
 * The bytes of each of `argv`, as `commandLine` (NUL after each word) ends with them; undefined
 * when its end is not `argv` decoded as Node decodes it: another process's arguments (a test's),
 * or a command line the system cut short.
 */
export function argumentBytes(argv: readonly string[], commandLine: Buffer): Buffer[] | undefined {
  const words: Buffer[] = [];
  for (let start = 0, end = commandLine.indexOf(0); end !== -1; start = end + 1, end = commandLine.indexOf(0, start)) {
    words.push(commandLine.subarray(start, end));
  }
  const tail = words.slice(words.length - argv.length);
  if (tail.length !== argv.length || tail.some((bytes, index) => bytes.toString('utf8') !== argv[index])) return undefined;
  return tail;
}

/** How an option of the command line takes a value: the table's word for it; one the table does not know (a subcommand's) is taken to take one. */
function valueTaken(flag: string, options: readonly TableOption[]): TableOption['value'] {
  const found = options.filter((option) => option.long === flag || option.short === flag);
  if (found.length === 0 || found.some((option) => option.value === 'required')) return 'required';
  return found.some((option) => option.value === 'optional') ? 'optional' : 'none';
}

/**
 * The option whose value `argv[index]` is (`--message`, also of `--message=...`), read as
 * commander reads the line with `table`'s options; undefined for an argument of its own.
 */
export function optionOf(argv: readonly string[], index: number, table?: ArgvTable): string | undefined {
  let options: readonly TableOption[] = table?.options ?? [];
  let command = false;
  for (let at = 0; at < index; at++) {
    const word = argv[at]!;
    if (word === '--') return undefined;
    if (!/^(-[^-]|--.+)$/.test(word) || word.includes('=')) {
      // The first argument of its own is the command: its options count from then on.
      if (!command && !word.startsWith('-')) {
        command = true;
        options = [...options, ...(table?.commands.find((entry) => entry.names.includes(word))?.options ?? [])];
      }
      continue;
    }
    const value = valueTaken(word, options);
    // An optional value (login's --password [value]) is the next word unless that is an option.
    if (value === 'none' || (value === 'optional' && argv[at + 1]!.startsWith('-'))) continue;
    if (at + 1 === index) return word;
    at += 1;
  }
  return /^(--[A-Za-z0-9-]+)=/.exec(argv[index]!)?.[1];
}

/**
 * Exit 2 for the first of `argv` (the command line as typed, before an alias is expanded) that
 * holds a byte that is not UTF-8 where the system keeps its bytes: named by its option or its
 * place (`argument 3`), with where that byte is, as a file's is told, and how to convert it.
 * `commandLine`: the system's copy of it (a test's).
 */
export function assertUtf8Arguments(argv: readonly string[], table?: ArgvTable, commandLine = systemCommandLine()): void {
  const bytes = commandLine === undefined ? undefined : argumentBytes(argv, commandLine);
  if (bytes === undefined) return;
  for (const [index, word] of bytes.entries()) {
    if (!argv[index]!.includes('\uFFFD')) continue;
    const option = optionOf(argv, index, table);
    // A secret's value is never described, not even a byte of it: login refuses --password whatever it holds.
    if (option !== undefined && SECRET.test(option)) continue;
    const decoding = textDecoding(MAX_TEXT_INPUT_BYTES, convertArgument(option));
    try {
      decoding.push(word);
      decoding.end();
    } catch (error) {
      if (!(error instanceof NotTextError)) throw error;
      // Node opens a file by its name encoded as UTF-8: not this one (`attach ID FILE`, `--message-file`).
      const hint = existsSync(word) ? 'it names a file whose name is not UTF-8, which tkt cannot open: give the file a UTF-8 name' : error.hint;
      throw new UsageError(`${option ?? `argument ${index + 1}`} is ${error.message}`, { hint });
    }
  }
}
