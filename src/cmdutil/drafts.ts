// Text typed at a terminal for a request that did not go through, kept as a file in the config
// folder's drafts/ and said where, as gh saves the text of an issue it could not create
// (README, Drafts). Triage keeps its unsent replies there too (src/triage/drafts.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertHomeFolder } from '../config/paths.js';
import { DEFAULT_PROFILE, resolveProfileName, tktCommand, type RunPlace } from '../config/session.js';
import type { ConfigStore } from '../config/types.js';
import type { Context } from '../context/context.js';
import { writeText } from '../output/write.js';
import { shellWord } from '../util/shell-word.js';
import { typedTextOf } from '../errors.js';

export const draftsDir = (configDir: string) => join(configDir, 'drafts');

/**
 * Writes `text` to drafts/<stem>.txt, or <stem>-2.txt…, never over a draft saved before; the
 * file's path. A profile other than the default is named first (prod-reply-1023.txt): ticket
 * 1023 of another service is another ticket.
 */
export async function saveDraft(config: Pick<ConfigStore, 'dir' | 'home'>, profile: string, stem: string, text: string): Promise<string> {
  // Read here, where a user with no config folder (ConfigStore.dir) is a draft not saved.
  const folder = draftsDir(config.dir);
  const named = profile === DEFAULT_PROFILE ? stem : `${profile}-${stem}`;
  assertHomeFolder(config.home, join(folder, `${named}.txt`));
  await mkdir(folder, { recursive: true, mode: 0o700 });
  for (let count = 1; ; count++) {
    const file = join(folder, count === 1 ? `${named}.txt` : `${named}-${count}.txt`);
    try {
      await writeFile(file, text.endsWith('\n') ? text : `${text}\n`, { flag: 'wx', mode: 0o600 });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** The draft of a reply to ticket `id` (tkt reply, triage's r): `reply-1023`. */
export const replyDraftStem = (id: number | string): string => `reply-${id}`;

/**
 * The draft of resolution notes for `ids` as given (tkt resolve, triage's s): `resolution-1015`
 * for one ticket, `resolution` for several (or for a key's tickets, or IDs on stdin).
 */
export const resolutionDraftStem = (ids: readonly (number | string)[]): string =>
  ids.length === 1 && /^\d+$/.test(String(ids[0])) ? `resolution-${ids[0]}` : 'resolution';

/** The command that sends a draft from its file, told in a hint after the line saying where it is. */
export interface Resend {
  /** The command's words before the file's option, each already quoted (optionWords): `reply 1023 --cc lead@example.com`. */
  words: string;
  /** The option that reads the text from a file: `--message-file`. */
  fileOption: string;
  /** What the command needs besides, said after it: "the IDs on stdin again". */
  besides?: string;
}

/**
 * The words of the options given, for a Resend: `--cc a@example.com --attach 'my file.pdf'`, each
 * value quoted for the shell, each of a list after its own option, `true` the option alone; an
 * option not given (undefined, false, an empty list) is left out.
 */
export function optionWords(options: readonly (readonly [option: string, value: string | readonly string[] | boolean | undefined])[]): string[] {
  return options.flatMap(([option, value]) => {
    if (value === undefined || value === false) return [];
    if (value === true) return [option];
    return (typeof value === 'string' ? [value] : value).map((one) => `${option} ${shellWord(one)}`);
  });
}

/** The hint after a draft saved to `file`: the command that sends it, with the run's profile, --url and --allow-http (tktCommand). */
export function resendHint(run: RunPlace, resend: Resend, file: string): string {
  const command = tktCommand(run, `${resend.words} ${resend.fileOption} ${shellWord(file)}`);
  return `hint: send it with "${command}"${resend.besides === undefined ? '' : `, ${resend.besides}`}\n`;
}

/** A text typed at the terminal (in $EDITOR or at a prompt) for one request. */
export interface TypedText {
  text: string;
  /** Its draft file's name without .txt: `reply-1023`. */
  stem: string;
  /** What the user is told it was: "your message was", "your resolution notes were". */
  was: string;
  /** The command that sends it from its draft file; none when no one command does. */
  resend: Resend | undefined;
}

/**
 * Runs `send` (the request and whatever may fail between the typing and it); when it throws, the
 * request refused, failed or in doubt, saves the text `typed` names and says where on stderr
 * before the error is told. `typed` answers undefined for text from an option, a file or stdin,
 * which the user still has, and for text the user chose to drop. Text the error carries, typed
 * in an editor that then failed or at a question closed unanswered (Ctrl-C, Esc: typedTextOf),
 * is saved as `asked` names it, as things are when it is thrown. A hint after the saved line
 * gives the command that sends the file (TypedText.resend).
 */
export async function keepTypedText<T>(
  ctx: Context,
  typed: () => TypedText | undefined,
  send: () => Promise<T>,
  asked?: () => Omit<TypedText, 'text'>,
): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const unsent = asked === undefined ? undefined : typedTextOf(error);
    const draft = typed() ?? (unsent === undefined ? undefined : { ...asked!(), text: unsent });
    if (draft !== undefined) {
      const said = await saveDraft(ctx.config, resolveProfileName(ctx), draft.stem, draft.text).then(
        (file) => `${draft.was} saved to ${file}\n${draft.resend === undefined ? '' : resendHint(ctx, draft.resend, file)}`,
        (failure: unknown) => `${draft.was} not saved (${(failure as Error).message}); here it is:\n${draft.text}\n`,
      );
      await writeText(ctx.io.stderr, said);
    }
    throw error;
  }
}

/** Asks for a text in the editor or at a question (`ask`): one typed there and not taken (the editor failed, Ctrl-C, Esc) is saved as `asked` names it. */
export async function keepAskedText<T>(ctx: Context, asked: Omit<TypedText, 'text'>, ask: () => Promise<T>): Promise<T> {
  return await keepTypedText(
    ctx,
    () => undefined,
    ask,
    () => asked,
  );
}
