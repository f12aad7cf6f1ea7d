// `tkt create --from`: the folder the rows' attach files must stay in, as docker confines COPY to
// its build context. The rows often come from someone else (a customer's export, a colleague's
// spreadsheet): a cell naming /home/u/.ssh/id_rsa, ../../.aws/credentials, a link out of the
// folder or tkt's own token file must not upload it. Each file's real path (links followed) is
// checked against the folder's before anything is sent (README: Many tickets).
import { readlink, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../errors.js';
import { fileErrorText } from '../util/file-error.js';
import { uploadOf } from '../cmdutil/upload-argument.js';

export interface AttachFolder {
  /** Made absolute, as given: relative paths are found there, and messages name it. */
  path: string;
  /** Its real path, links followed: what a file must be in. */
  real: string;
  /** The real path of tkt's config folder (tokens, settings): never attached, whatever the folder; none where the user has none. */
  config: string | undefined;
}

// As Linux's limit on the links of one path: a loop of links ends.
const MAX_LINKS = 40;

/**
 * The real path of an absolute `path`. realpath cannot give one for a path that does not exist,
 * nor for a link to /proc's `pipe:[N]` (what /dev/stdin is when stdin is a pipe): then its folder's
 * real path and its name, and for a link, where it points to, followed the same way.
 */
async function realPathOf(path: string, links = 0): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    const folder = await realPathOf(parent, links);
    const inFolder = join(folder, basename(path));
    const target = links < MAX_LINKS ? await readlink(inFolder).catch(() => undefined) : undefined;
    return target === undefined ? inFolder : realPathOf(resolve(folder, target), links + 1);
  }
}

/** Whether `path` is `folder` or under it. */
function within(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * The folder of a run's attach files: `given` (--attach-dir), else the input file's `inputFolder`,
 * else the current folder (stdin, a pipe). A --attach-dir that is no folder is exit 2.
 */
export async function attachFolder(given: string | undefined, inputFolder: string | undefined, configDir: string | undefined): Promise<AttachFolder> {
  const path = resolve(given ?? inputFolder ?? '.');
  if (given !== undefined) {
    const info = await stat(path).catch((error: unknown) => {
      throw new UsageError(`--attach-dir: cannot read ${given}: ${fileErrorText(error)}`);
    });
    if (!info.isDirectory()) throw new UsageError(`--attach-dir ${given} is not a folder`);
  }
  return { path, real: await realPathOf(path), config: configDir === undefined ? undefined : await realPathOf(resolve(configDir)) };
}

/** A row's attach cells, split into those it may send and why each other may not. */
export interface ConfinedAttachments {
  /** The cells whose files are in the folder, as given. */
  admitted: string[];
  /** `attach: CELL is outside FOLDER (...)`, one for each cell refused. */
  problems: string[];
  /** Whether a file was refused for being outside the folder (its error's hint tells the ways out). */
  outside: boolean;
}

/** Checks each of a row's attach cells (PATH or PATH#NAME, `value` as the row gives it) against `folder`. */
export async function confineAttachments(value: string | readonly string[] | undefined, folder: AttachFolder): Promise<ConfinedAttachments> {
  const confined: ConfinedAttachments = { admitted: [], problems: [], outside: false };
  for (const cell of typeof value === 'string' ? [value] : (value ?? [])) {
    const { path } = uploadOf(cell, folder.path);
    const real = await realPathOf(path);
    if (folder.config !== undefined && within(folder.config, real)) {
      confined.problems.push(`attach: ${cell} is in tkt's config folder (tokens and settings are never attached)`);
    } else if (!within(folder.real, real)) {
      // A link in the folder says where it leads: the cell alone looks like a file of the folder.
      const leads = within(folder.path, path) || within(folder.real, path) ? ` leads to ${real},` : ' is';
      confined.problems.push(`attach: ${cell}${leads} outside ${folder.path} (rows attach only files in that folder)`);
      confined.outside = true;
    } else confined.admitted.push(cell);
  }
  return confined;
}

/** The way out for a file refused as outside the folder, for the error's hint. */
export const outsideHint = (folder: AttachFolder) => `copy the file into ${folder.path}, or give --attach-dir with a folder that holds it`;
