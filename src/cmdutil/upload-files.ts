// The files a command uploads, as given: PATH, or PATH#NAME to send PATH under the name NAME
// (README: Naming an upload), as `gh release upload FILE#LABEL` and curl's `;filename=`. The service
// keeps a file only when its name's extension is on its allowed list (docs/service.md 4.11), and a
// pipe's name is its path's last part (`<(cmd)` is /dev/fd/63, `/dev/stdin` is stdin): NAME is
// how a CI job's piped log gets kept. Shared by attach, --attach (create, reply, forward, close),
// create --from's attach column and `tkt api -F Uploads=@PATH#NAME`.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { UploadFile } from '../api/types.js';
import { fileUpload } from '../api/upload-name.js';
import { UsageError } from '../errors.js';
import { shellWord } from '../util/shell-word.js';
import { assertReadableFiles } from './text-input.js';

/** An upload as the user gave it: `given` is the argument, for messages. */
export interface GivenUpload extends UploadFile {
  given: string;
  /** Why NAME cannot be sent (exit 2); undefined when it can. */
  nameProblem?: string;
}

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `name`, given after '#', is no plain file name; undefined when it is one. */
function nameProblem(name: string): string | undefined {
  if (name === '') return "no name after '#'";
  if (name === '.' || name === '..') return `"${name}" is no file name`;
  // A '\' too: a service on Windows would take what follows it as the name, and name the file otherwise.
  if (/[/\\]/.test(name)) return `the name after '#' cannot hold '/' or '\\'`;
  if (CONTROL_CHARACTERS.test(name)) return "the name after '#' cannot hold control characters";
  return undefined;
}

/**
 * The upload `argument` gives: PATH#NAME splits at its last '#' (a NAME holds none), unless a file
 * of the whole argument exists (`notes#2.txt` is that file, as before PATH#NAME). `baseDir`: where
 * a relative path is found (create --from: beside its file). Reads the disk only for an argument
 * with a '#'.
 */
export function uploadOf(argument: string, baseDir?: string): GivenUpload {
  const whole = baseDir === undefined ? argument : resolve(baseDir, argument);
  const hash = argument.lastIndexOf('#');
  if (hash < 0 || existsSync(whole)) return { given: argument, ...fileUpload(whole) };
  const path = argument.slice(0, hash);
  const name = argument.slice(hash + 1);
  const problem = path === '' ? "no file before '#'" : nameProblem(name);
  return {
    given: argument,
    path: baseDir === undefined ? path : resolve(baseDir, path),
    name,
    ...(problem === undefined ? {} : { nameProblem: problem }),
  };
}

/** The paths `arguments` read, for the check of who reads stdin (`/dev/stdin#build.log` reads it). */
export function uploadPaths(arguments_: readonly string[] | undefined): string[] | undefined {
  return arguments_?.map((argument) => uploadOf(argument).path);
}

/**
 * The uploads of `arguments`, checked before anything is sent: every NAME plain, every file
 * readable (text-input.ts assertReadableFiles); else exit 2 naming each bad argument under `flag`.
 */
export async function checkUploads(arguments_: readonly string[], flag: string, baseDir?: string): Promise<GivenUpload[]> {
  const uploads = arguments_.map((argument) => uploadOf(argument, baseDir));
  assertNamed(uploads, flag);
  await assertReadableUploads(uploads, flag);
  return uploads;
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

/** Exit 2 naming every upload that cannot be read, by its argument. */
export async function assertReadableUploads(uploads: readonly GivenUpload[], flag: string): Promise<void> {
  await assertReadableFiles(
    uploads.map((upload) => upload.path),
    flag,
    uploads.map((upload) => upload.given),
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
  const name = shellWord(`${upload.name}.txt`);
  return PROCESS_SUBSTITUTION.test(upload.path) ? `<(command)#${name}` : `${shellWord(upload.path)}#${name}`;
}
