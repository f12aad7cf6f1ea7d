// The files a command uploads (PATH or PATH#NAME, upload-argument.ts) checked before anything is
// sent, and the hint's example of a name for one the service skipped. Shared by attach, --attach
// (create, reply, forward, close), create --from's attach column and `tkt api -F Uploads=@FILE`.
import type { UploadFile } from '../api/types.js';
import { UsageError } from '../errors.js';
import { statPath } from '../util/fs-promises.js';
import { shellWord } from '../util/shell-word.js';
import { STDIN, assertReadableFiles } from './text-input.js';
import { uploadOf, type GivenUpload } from './upload-argument.js';

/**
 * The uploads of `arguments`, checked before anything is sent: every NAME plain, every file
 * readable (text-input.ts assertReadableFiles); else exit 2 naming each bad argument under `flag`.
 */
export async function checkUploads(arguments_: readonly string[], flag: string, baseDir?: string): Promise<GivenUpload[]> {
  const uploads = arguments_.map((argument) => uploadOf(argument, baseDir));
  assertNamed(uploads, flag);
  await assertReadableUploads(uploads, flag);
  await assertEachOnce(uploads, flag);
  return uploads;
}

/**
 * Exit 2 for a file given twice under one name (`attach 42 a.txt ./a.txt`): the ticket would get
 * it twice. The same file by its device and inode, however its path is written.
 */
async function assertEachOnce(uploads: readonly GivenUpload[], flag: string): Promise<void> {
  if (uploads.length < 2) return;
  const seen = new Set<string>();
  const twice: GivenUpload[] = [];
  for (const upload of uploads) {
    const { dev, ino } = await statPath(upload.path);
    const key = `${dev}:${ino}\0${upload.name}`;
    if (seen.has(key)) twice.push(upload);
    seen.add(key);
  }
  if (twice.length === 0) return;
  const named = [...new Set(twice.map((upload) => upload.given))];
  throw new UsageError(`${flag}: ${named.join(', ')} given more than once: the ticket would get ${named.length === 1 ? 'it' : 'each'} again`, {
    hint: 'give each file once; PATH#NAME sends one file again under another name',
  });
}

/** Exit 2 naming every argument whose NAME is no plain file name. */
export function assertNamed(uploads: readonly GivenUpload[], flag: string): void {
  const bad = uploads.filter((upload) => upload.nameProblem !== undefined);
  if (bad.length === 0) return;
  const problems = bad.map((upload) => `${upload.given}: ${upload.nameProblem!}`);
  throw new UsageError(bad.length === 1 ? `${flag} ${problems[0]!}` : `${flag}: ${bad.length} bad file names`, {
    details: bad.length === 1 ? [] : problems,
    hint: NAMING_HINT,
  });
}

/** What PATH#NAME is, for an error about one. */
export const NAMING_HINT = "PATH#NAME sends PATH under NAME, a plain file name such as build.log (a file whose own name holds '#' is sent whole)";

/**
 * An upload's "-" is a file of that name, not stdin as a text option's is (README: Text values):
 * one that cannot be read was meant as stdin, and the hint says how stdin is sent.
 */
const STDIN_UPLOAD_HINT = `"${STDIN}" is a file of that name here, not stdin: for stdin give /dev/stdin, named as /dev/stdin#NAME (e.g. /dev/stdin#stdin.txt)`;

/** Exit 2 naming every upload that cannot be read, by its argument. */
export async function assertReadableUploads(uploads: readonly GivenUpload[], flag: string): Promise<void> {
  await assertReadableFiles(
    uploads.map((upload) => upload.path),
    flag,
    {
      shown: uploads.map((upload) => upload.given),
      unreadableHints: uploads.map((upload) => (upload.given === STDIN || upload.given.startsWith(`${STDIN}#`) ? STDIN_UPLOAD_HINT : undefined)),
    },
  );
}

/** Whether the service, keeping files by extension, can tell this name's type: `stdin` and `63` have none. */
export const hasExtension = (name: string): boolean => /.\.[^.]+$/.test(name);

/** A pipe of the shell's process substitution, `<(command)`: /dev/fd/63, /proc/self/fd/63. */
const PROCESS_SUBSTITUTION = /^\/(dev|proc\/self)\/fd\/([1-9]|\d\d+)$/;

/**
 * How to send `upload` under a name with an extension, as an argument: `/dev/stdin#stdin.txt`,
 * `<(command)#63.txt`. A hint's suggestion, not a choice made for the user: only they know the type.
 */
export function namedExample(upload: UploadFile): string {
  // A NAME holds no '#' (PATH#NAME splits at the last one): a file's own '#' becomes '-'.
  const name = shellWord(`${upload.name.replaceAll('#', '-')}.txt`);
  return PROCESS_SUBSTITUTION.test(upload.path) ? `<(command)#${name}` : `${shellWord(upload.path)}#${name}`;
}
