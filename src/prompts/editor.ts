// Long text from $VISUAL / $EDITOR, the way `git commit --cleanup=scissors` asks for a message:
// a temp file holding the default text, then git's scissors line and the instructions below
// it, the editor on the real terminal, and the file read back up to the scissors. Nothing above
// them is dropped: `#1234` at the start of a line, or a template's `# Heading`, is text
// (README, Text values).
import { childEnv } from '../util/child-env.js';
import { spawn } from 'node:child_process';
import { SHELL_COULD_NOT_RUN, commandNamed, isUnquotedPath } from '../util/shell-status.js';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { BigIntStats } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EditorChoice } from '../config/settings.js';
import { EditorFailedError, InterruptedError, OperationError, TktError, UsageError } from '../errors.js';
import { lineFeeds, NotTextError, readTextFile } from '../util/text-read.js';
import { convertedText } from '../util/text-convert.js';

export interface EditorRequest {
  /** The heading, shown as a `#` line below the scissors. */
  message: string;
  default?: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The editor to run, overriding $VISUAL and $EDITOR (the editor setting, or tests). */
  editor?: EditorChoice;
}

/** $VISUAL, then $EDITOR, then vi, as git and crontab choose, when no editor setting was read. */
export function editorCommand(env: Readonly<Record<string, string | undefined>>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/** git's scissors line: what is below it is never sent. */
export const SCISSORS = '# ------------------------ >8 ------------------------';

/** What tkt writes below the text: the scissors, what they mean, the heading `message`, how to abort. */
export function instructionLines(message: string): string[] {
  return [SCISSORS, '# Do not modify or remove the line above.', '# Everything below it will be ignored.', `# ${message}`, '# An empty message aborts.']
    .join('\n')
    .split('\n');
}

/**
 * The text of a file tkt wrote with `instructions` below it: what is above the scissors line,
 * without the blank lines around it. With the scissors line deleted, only the lines that are
 * exactly the instructions tkt wrote are dropped, so they are never sent and nobody's text is.
 */
export function editedText(file: string, instructions: readonly string[]): string {
  const lines = lineFeeds(file).split('\n');
  const scissors = lines.findIndex((line) => line.trimEnd() === SCISSORS);
  const written = instructions.map((line) => line.trimEnd());
  const text = scissors >= 0 ? lines.slice(0, scissors) : lines.filter((line) => !written.includes(line.trimEnd()));
  return text
    .join('\n')
    .replace(/^(\s*\n)+/, '')
    .trimEnd();
}

// The editor setting is a command line ("code --wait"), so it goes through a shell with
// the file as a separate argument: a temp path with spaces or $ is never re-parsed.
function startEditor(command: string, file: string, env: Readonly<Record<string, string | undefined>>) {
  const options = { stdio: 'inherit' as const, env: childEnv(env) };
  return process.platform === 'win32'
    ? spawn(`${command} "${file}"`, { ...options, shell: true })
    : spawn('sh', ['-c', `${command} "$@"`, command, file], options);
}

/**
 * Runs the editor command line on `file` until it exits; a failure says `consequence` ("nothing
 * was sent"), or what `consequence()` finds once the editor has failed, and the editor's hint.
 */
export async function editFile(
  { command, hint, unquotedHint = hint }: EditorChoice,
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  consequence: string | (() => Promise<string>),
): Promise<void> {
  const child = startEditor(command, file, env);
  const [code, signal] = (await once(child, 'exit').catch((error: unknown) => {
    throw new OperationError(`could not start the editor ${commandNamed(command)}`, { hint, cause: error });
  })) as [number | null, NodeJS.Signals | null];
  if (signal === 'SIGINT') throw new InterruptedError();
  if (code !== 0) {
    const outcome = typeof consequence === 'string' ? consequence : await consequence();
    // The shell that starts it (startEditor) says 127 for no such command, 126 for one it cannot run.
    const unstarted = process.platform === 'win32' ? undefined : SHELL_COULD_NOT_RUN[code ?? -1];
    if (unstarted !== undefined) {
      // A path with spaces, such as /mnt/c/Program Files/..., is there: quoting it is the fix, not another editor.
      const quoteIt = code === 127 && isUnquotedPath(command);
      throw new OperationError(`could not start the editor ${commandNamed(command)} (${unstarted}); ${outcome}`, { hint: quoteIt ? unquotedHint : hint });
    }
    // It ran and said no (vi's :cq): where it was chosen, or another editor, is no help.
    throw new OperationError(`the editor ${commandNamed(command)} failed (${signal ?? `exit code ${code}`}); ${outcome}`);
  }
}

/** Said when an editor quit without saving a text tkt filled in: how to send it as it is. */
const UNSAVED_HINT = 'save the file to send it, changed or not (in vi :wq; ZZ and :x save only a text changed)';

/**
 * Whether `file`, which tkt wrote as `template` (its times `before`), was never written since: the
 * same file, times and text. (A clock tick is a few milliseconds: the text tells a quick rewrite.)
 */
async function unsaved(file: string, template: string, before: BigIntStats): Promise<boolean> {
  const after = await stat(file, { bigint: true }).catch(() => undefined);
  if (after === undefined) return false;
  const same = ['ino', 'dev', 'size', 'mtimeNs', 'ctimeNs'] as const;
  return same.every((key) => after[key] === before[key]) && (await readFile(file, 'utf8')) === template;
}

/**
 * Opens the editor on a temp file and returns the text; an empty text aborts (exit 1), and so does
 * a default text the editor quit without saving.
 */
export async function editText(request: EditorRequest): Promise<string> {
  const editor = request.editor ?? { command: editorCommand(request.env), hint: 'set $EDITOR (or $VISUAL) to an editor installed here' };
  const dir = await mkdtemp(join(tmpdir(), 'tkt-edit-'));
  const file = join(dir, 'TKT_EDITMSG');
  try {
    const instructions = instructionLines(request.message);
    const template = `${request.default ?? ''}\n\n${instructions.join('\n')}\n`;
    await writeFile(file, template, { mode: 0o600 });
    const asWritten = await stat(file, { bigint: true });
    // `error`, carrying the text typed to be saved as a draft (the command saves it in drafts/),
    // unless nothing was typed: the file as tkt wrote it. Ended by Ctrl-C, it stays an interruption.
    const keeping = (error: TktError, typed: string): TktError => {
      if (typed === '' || typed === editedText(template, instructions)) return error;
      return error instanceof InterruptedError
        ? new InterruptedError(undefined, { typed })
        : new EditorFailedError(error.message, typed, { hint: error.hint, cause: error });
    };
    // Read as --message-file reads (README: Text values): UTF-8, a BOM dropped. Another encoding
    // (Notepad's "Unicode", Windows-1252) is exit 2 rather than NULs or `\ufffd` sent, the text
    // kept converted as the hint's iconv would.
    const read = async () =>
      editedText(
        await readTextFile(file).catch(async (error: unknown) => {
          if (!(error instanceof NotTextError)) throw error;
          const refused = new UsageError(`the text the editor ${commandNamed(editor.command)} saved is ${error.message}; nothing was sent`, {
            hint: 'set the editor to save UTF-8 text',
          });
          const converted = convertedText(await readFile(file), error);
          throw keeping(refused, converted === undefined ? '' : editedText(converted, instructions));
        }),
        instructions,
      );

    await editFile(editor, file, request.env, 'nothing was sent').catch(async (error: unknown) => {
      // An editor that failed (vi's :cq, killed, Ctrl-C) after text was typed: the text is kept as
      // a failed request keeps it, then the failure is told. A file it left unreadable has nothing
      // to keep. (After an editor that succeeded, an unreadable file is an error of its own:
      // never the text tkt put there, sent unedited.)
      if (!(error instanceof OperationError || error instanceof InterruptedError)) throw error;
      const typed = await read().catch((unread: unknown) => (unread instanceof EditorFailedError ? unread.typed : ''));
      throw keeping(error, typed);
    });

    // A text filled in for the user (a template, a draft kept) comes back as it went when the
    // editor quit without saving (vi's :q!): that is a no, not the text to send as it is.
    if (request.default !== undefined && request.default.trim() !== '' && (await unsaved(file, template, asWritten)))
      throw new OperationError('aborted: the editor did not save the text, nothing was sent', { hint: UNSAVED_HINT });
    const text = await read().catch((error: unknown) => {
      if (error instanceof TktError) throw error;
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new OperationError(`cannot read the text the editor ${commandNamed(editor.command)} saved (${reason}); nothing was sent`);
    });
    // As git commit: leaving the text empty is how one changes one's mind, not a usage mistake.
    if (text === '') throw new OperationError('aborted: empty message, nothing was sent');
    return text;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
