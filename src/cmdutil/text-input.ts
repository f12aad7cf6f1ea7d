// Long text values (descriptions, messages, resolution details) may be given inline,
// as `-` for stdin, as a file, or typed in $EDITOR at a terminal; and the files a
// command sends must be checked before anything is sent. Shared by create, reply,
// forward, resolve, close, attach, api and create --from.
import { constants } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../context/context.js';
import { InterruptedError, UsageError } from '../errors.js';
import { nonBlank } from '../util/option-text.js';
import { lineFeeds, notTextHint, readTextFile, readTextStream } from '../util/text-read.js';
import { accessPath, statPath } from '../util/fs-promises.js';
import { DIRECTORY_NOT_FILE, fileErrorText } from '../util/file-error.js';
import { DEVICE_HINT, deviceProblem } from '../util/file-kind.js';
import { uploadOf } from './upload-argument.js';

export const STDIN = '-';

/** The paths that name the run's own stdin: opening one reads what `-` reads. */
const STDIN_PATHS: ReadonlySet<string> = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

// Only a path that ends as one of them does is resolved: path.resolve walks the whole path, and a
// run's walks adding up is what starts Node 22+'s Maglev compiler (bin/tkt.js).
const namesStdin = (path: string) => (path.endsWith('stdin') || path.endsWith('0')) && STDIN_PATHS.has(resolve(path));

/** What may read stdin in one command, as given (undefined: not given). */
export interface StdinReaders {
  /** The ID arguments: a lone `-` reads them from stdin. */
  ids?: readonly string[];
  /** Text options, each with its value: `-` reads stdin (--comments, --description). */
  texts?: readonly (readonly [flag: string, value: string | undefined])[];
  /** File options, each with its path: `-` or a path of stdin (/dev/stdin) reads it (--description-file). */
  files?: readonly (readonly [flag: string, path: string | undefined])[];
  /**
   * Options (or, flag '', arguments) of uploads, such as --attach: PATH or PATH#NAME
   * (upload-argument.ts), a PATH of stdin reads it; `-` is a file of that name there.
   */
  paths?: readonly (readonly [flag: string, paths: readonly string[] | undefined])[];
}

/**
 * Refuses a second reader of stdin, before anything is read or sent: `tkt resolve - --details -`,
 * `tkt close 4 --comments - --closure-comments -` or `tkt create --description - --attach
 * /dev/stdin` cannot split one stream (README: Text values).
 */
export function assertSingleStdinReader(readers: StdinReaders): void {
  const named = [
    ...(readers.ids?.includes(STDIN) ? ['IDs'] : []),
    ...(readers.texts ?? []).filter(([, value]) => value === STDIN).map(([flag]) => flag),
    ...(readers.files ?? []).flatMap(([flag, path]) => (path === STDIN ? [flag] : path !== undefined && namesStdin(path) ? [`${flag} ${path}`] : [])),
    ...(readers.paths ?? []).flatMap(([flag, uploads]) =>
      (uploads ?? [])
        .map((upload) => uploadOf(upload).path)
        .filter(namesStdin)
        .map((path) => (flag === '' ? path : `${flag} ${path}`)),
    ),
  ];
  if (named.length < 2) return;
  throw new UsageError(`${named.slice(0, -1).join(', ')} and ${named.at(-1)!} cannot ${named.length === 2 ? 'both' : 'all'} be read from stdin`, {
    hint: 'only one value can come from stdin: give the others inline or from a file',
  });
}

export interface TextOption {
  /** The inline flag, e.g. `--description`. */
  flag: string;
  /** The inline value; `-` reads stdin. */
  text: string | undefined;
}

/** An option with a file twin; close's --comments has none. */
export interface TextOptionWithFile extends TextOption {
  /** The file flag, e.g. `--description-file`. */
  fileFlag: string;
  /** A path; `-` reads stdin. */
  file: string | undefined;
}

/**
 * The text of an option pair such as --description / --description-file, or undefined
 * when neither was given (the caller then asks or reports it missing). Both at once, an
 * unreadable file, or a text that is empty or only whitespace (inline, in the file, on stdin)
 * is exit 2: an option given is a promise of text, and an empty one is a mistake (an unset
 * variable, a command in `<(...)` that printed nothing), never a reply to e-mail as it is.
 */
export async function readTextOption(ctx: Context, option: TextOption | TextOptionWithFile): Promise<string | undefined> {
  const withFile = 'fileFlag' in option ? option : undefined;
  if (option.text !== undefined && withFile?.file !== undefined) {
    throw new UsageError(`give ${option.flag} or ${withFile.fileFlag}, not both`);
  }
  const source = option.text ?? withFile?.file;
  if (source === undefined) return undefined;
  const flag = option.text !== undefined || withFile === undefined ? option.flag : withFile.fileFlag;
  if (source === STDIN) {
    return lineFeeds(await readStdinText(ctx, flag, withFile === undefined ? 'give the text inline' : `use ${withFile.fileFlag}`));
  }
  if (option.text !== undefined || withFile === undefined) return nonBlank(source, `${flag} is empty`);
  // A text file's bytes are checked as they are read: /dev/zero stops at its first NUL.
  await assertReadableFiles([source], flag, { devices: true });
  const text = await readTextFile(source, { signal: ctx.signal }).catch((error: unknown) => {
    if (error instanceof InterruptedError) throw error;
    throw new UsageError(`${flag} ${source}: ${fileErrorText(error)}`, { hint: notTextHint(error) });
  });
  return nonBlank(lineFeeds(text), `${flag} ${source} is empty`);
}

/**
 * All of stdin as text, for `FLAG -`. A terminal is refused: waiting for typed input that
 * ends with Ctrl-D looks like a hang. `alternative` completes "pipe the text in or ...".
 */
export async function readStdin(ctx: Context, flag: string, alternative: string): Promise<string> {
  if (ctx.io.stdinIsTTY) throw new UsageError(`${flag} -: stdin is a terminal, pipe the text in or ${alternative}`);
  return readTextStream(ctx.io.stdin, `${flag} -`, ctx.signal);
}

/** readStdin for an option that must hold text: empty or only whitespace is exit 2 (`--message -: stdin was empty`). */
export async function readStdinText(ctx: Context, flag: string, alternative: string): Promise<string> {
  return nonBlank(await readStdin(ctx, flag, alternative), `${flag} -: stdin was empty`);
}

/**
 * Asks for a long text at a terminal: one line inline, or, when left empty, $EDITOR
 * (as `git commit` does) for several lines. Either, closed before it is done, carries what was
 * typed for the command to keep (typedTextOf).
 */
export async function askText(ctx: Context, label: string): Promise<string> {
  const line = await ctx.prompter.input({ message: `${label} (leave empty to open your editor)`, textToSend: true });
  if (line.trim() !== '') return line;
  return ctx.prompter.editor({ message: label });
}

/**
 * A text the command cannot do without (resolve's --details): the option pair, else asked at
 * a terminal under the label `heading` gives, else exit 2 saying how to give it.
 */
export async function requiredText(ctx: Context, option: TextOptionWithFile, heading: () => Promise<string>): Promise<string> {
  const text = await readTextOption(ctx, option);
  if (text !== undefined) return text;
  if (ctx.io.canPrompt) return askText(ctx, await heading());
  throw missingText(option);
}

/** Exit 2 for a text nobody gave and nobody can be asked for, saying the three ways to give it. */
export function missingText(option: TextOptionWithFile): UsageError {
  return new UsageError(`missing ${option.flag}`, { hint: `give ${option.flag} TEXT, ${option.fileFlag} FILE, or ${option.flag} - to read stdin` });
}

/**
 * Every path must be something tkt can read: a regular file, a FIFO (what `<(command)` gives),
 * /dev/stdin from a pipe or a file; a device only as text (`devices`: util/file-kind.ts); not a
 * directory. Checked before the first request so a typo
 * never leaves a half-done operation, and without opening anything: a pipe can be read only
 * once, and that read is the one that sends it. All bad paths are named at once (exit 2), each as
 * `shown` has it (an upload's argument, `/dev/stdin#build.log`, for its path); `unreadableHints`:
 * the hint for a path that is not there or cannot be read, by its index.
 */
export async function assertReadableFiles(
  paths: readonly string[],
  flag: string,
  {
    devices = false,
    shown = paths,
    unreadableHints = [],
  }: { devices?: boolean; shown?: readonly string[]; unreadableHints?: readonly (string | undefined)[] } = {},
): Promise<void> {
  const problems: string[] = [];
  let hint: string | undefined;
  for (const [index, path] of paths.entries()) {
    const name = shown[index] ?? path;
    try {
      const info = await statPath(path);
      if (info.isDirectory()) {
        problems.push(`${name}: ${DIRECTORY_NOT_FILE}`);
        continue;
      }
      if (info.isSocket()) {
        problems.push(`${name}: a socket, not a file`);
        continue;
      }
      const device = devices ? undefined : deviceProblem(path, info);
      if (device !== undefined) {
        problems.push(`${name}: ${device}`);
        hint = DEVICE_HINT;
        continue;
      }
      await accessPath(path, constants.R_OK);
    } catch (error) {
      problems.push(`${name}: ${fileErrorText(error)}`);
      hint = unreadableHints[index] ?? hint;
    }
  }
  if (problems.length > 0) {
    throw new UsageError(`${flag}: cannot read ${problems.length === 1 ? 'file' : `${problems.length} files`}`, { details: problems, hint });
  }
}
